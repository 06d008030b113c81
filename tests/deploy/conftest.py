"""What the deployment tests share: the shipped files in ``deploy/``, and the programs they run.

The tests run the real programs a deployment uses (nginx, openssl, systemd-analyze, installed
by ``scripts/install-test-deps``). When one is missing its tests fail under CI (``CI=true``)
and skip elsewhere, saying why, as the PostgreSQL tests in ``tests/web`` do.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deploy.local_nginx import find_program

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def program(name: str) -> str:
    """The path of the program ``name``: a failure under CI, a skip (saying why) elsewhere
    when it is not installed."""
    path = find_program(name)
    if path is None:
        message = f"{name} is not installed (scripts/install-test-deps installs it)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return path
