"""The codebase's habits, run by the test command: ruff lint and format, mypy --strict, and
eslint on the browser scripts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "command",
    [
        [sys.executable, "-m", "ruff", "check", "."],
        [sys.executable, "-m", "ruff", "format", "--check", "."],
        [sys.executable, "-m", "mypy"],
    ],
    ids=["ruff-check", "ruff-format", "mypy-strict"],
)
def test_tool_passes(command: list[str]) -> None:
    """Each checker exits 0 on the whole project (configured in pyproject.toml)."""
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


def test_eslint_passes() -> None:
    """eslint (eslint.config.js) passes on the browser scripts: ES modules building DOM nodes."""
    if not ESLINT.exists():
        pytest.fail(f"{ESLINT} is missing: run scripts/install-test-deps (npm ci)")
    command = [str(ESLINT), "--max-warnings=0", "."]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
