"""The codebase's habits, run by the test command: ruff lint and format, mypy --strict, and
eslint on the browser scripts."""

from __future__ import annotations

import re
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
        # strict over the whole project: 60-100 s without its cache (a new checkout)
        pytest.param([sys.executable, "-m", "mypy"], marks=pytest.mark.slow),
    ],
    ids=["ruff-check", "ruff-format", "mypy-strict"],
)
def test_tool_passes(command: list[str]) -> None:
    """Each checker exits 0 on the whole project (configured in pyproject.toml)."""
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


OTHER_DOCSTRING_STYLES = re.compile(
    r"^\s*:(?:param|type|raises|returns?|rtype)\b"  # reST fields
    r"|^\s*(?:Parameters|Returns|Raises|Yields|Attributes|Examples)\n\s*-{3,}$",  # numpy
    re.MULTILINE,
)


def test_one_docstring_style() -> None:
    """Docstrings use Google sections (``Args:``, ``Returns:``, ``Raises:``), not reST fields or
    numpy underlined headers (ruff's pydocstyle rules check the rest of the Google style)."""
    found = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}: {match[0].strip()}"
        for package in ("crib", "records", "trainer", "vision", "web")
        for path in sorted((ROOT / package).rglob("*.py"))
        for text in [path.read_text(encoding="utf-8")]
        for match in OTHER_DOCSTRING_STYLES.finditer(text)
    ]
    assert found == []


ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


@pytest.mark.slow
def test_eslint_passes() -> None:
    """eslint (eslint.config.js) passes on the browser scripts: ES modules building DOM nodes."""
    if not ESLINT.exists():
        pytest.fail(f"{ESLINT} is missing: run scripts/install-test-deps (npm ci)")
    command = [str(ESLINT), "--max-warnings=0", "."]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
