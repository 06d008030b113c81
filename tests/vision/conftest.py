"""Shared fixtures for the camera-reader tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.shared import shared_path
from vision.training.synth.faces import Deck, load_decks, procedural_deck, rendered_deck


@pytest.fixture(scope="session")
def proc_faces(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A face cache with three procedural decks (no rsvg needed)."""
    root = tmp_path_factory.mktemp("faces")
    for i in range(3):
        procedural_deck(i, root)
    return root


@pytest.fixture(scope="session")
def decks(proc_faces: Path) -> list[Deck]:
    """The anglo deck's artwork (rendered into the face cache when missing) and three
    procedural decks: the same decks on every machine, whatever else its cache holds."""
    return [rendered_deck("anglo"), *load_decks(proc_faces)]


@pytest.fixture(scope="session")
def real_dir() -> Path:
    """The shared real-photo evaluation set; a test using it fails when it is missing."""
    return shared_path("data/real-cards/labels.json").parent
