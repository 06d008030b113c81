"""The table generator on a new machine: with no deck rendered yet it renders the one it needs
and writes its tables, instead of ``ValueError: high <= 0`` (issue players2, 3.8)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.training.synth.table import RENDER_DECKS, make_table

ROOT = Path(__file__).resolve().parents[3]


def test_no_deck_is_said_not_crashed_on() -> None:
    with pytest.raises(ValueError, match=f"no deck to draw the cards from: .*{RENDER_DECKS}"):
        make_table(np.random.default_rng(0), [])


@pytest.mark.slow  # renders a deck
def test_the_table_generator_renders_the_deck_it_needs(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out, faces = tmp_path / "tables", tmp_path / "cache" / "faces"
    command = [sys.executable, "-m", "vision.training.synth.table", "--count", "1"]
    result = subprocess.run(
        [*command, "--out", str(out), "--faces", str(faces)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "No deck in the cache: rendering the anglo deck" in result.stdout
    assert len(list(out.glob("*.jpg"))) == 1
