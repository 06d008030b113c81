"""The shared data beside the repository (``../shared``): seeds, real photos.

Tests that need it fail, with the path they looked for, when it is missing; they never skip.
"""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
"""``../shared`` seen from the repository root."""


def shared_path(relative: str) -> Path:
    """The path of ``relative`` under ``../shared``.

    Raises:
        pytest.fail.Exception: when it does not exist (the test fails, naming the path).
    """
    path = SHARED / relative
    if not path.exists():
        pytest.fail(
            f"{path} is missing: the tests need the shared data (seeds, real photos) "
            "in ../shared beside the repository",
            pytrace=False,
        )
    return path
