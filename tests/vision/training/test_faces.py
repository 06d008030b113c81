"""The face cache: a deck appears in it whole, once, whoever renders it and however many at once."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from vision import CARDS, REPO_ROOT
from vision.training.synth.faces import _build, load_deck, load_decks, procedural_deck

RENDER = (
    "import sys; from pathlib import Path; from vision.training.synth.faces import render_deck; "
    "print(render_deck('anglo', Path(sys.argv[1])))"
)
"""A process that renders the anglo deck into the cache ``argv[1]`` and prints its folder."""


@pytest.mark.slow
def test_processes_rendering_one_deck_at_once_all_get_it_whole(tmp_path: Path) -> None:
    """Three processes render the anglo deck into an empty cache at once (the test workers on a
    fresh machine): each ends with the deck's folder, which holds all 52 faces, and no work is
    left behind."""
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", RENDER, str(tmp_path)],
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    outcomes = []
    for worker in workers:
        out, err = worker.communicate(timeout=120)
        outcomes.append((worker.returncode, out.strip(), err[-500:]))
    folder = str(tmp_path / "anglo")
    assert [(code, out) for code, out, _ in outcomes] == [(0, folder)] * 3, outcomes
    deck = load_deck(tmp_path / "anglo")
    assert sorted(deck.faces) == sorted(CARDS)
    assert list((tmp_path / ".building").iterdir()) == []


def copier(deck: Path) -> Callable[[Path], bool]:
    """A ``make`` for :func:`_build` that copies the whole ``deck`` into its folder."""

    def make(folder: Path) -> bool:
        shutil.copytree(deck, folder, dirs_exist_ok=True)
        return True

    return make


def test_a_copy_finished_elsewhere_first_is_kept(tmp_path: Path) -> None:
    """While one copy is made, another process finishes the same deck: the first whole copy stays
    in place (a process that loaded it keeps consistent files), and the later one is dropped."""
    first, second = (procedural_deck(seed, tmp_path / "drawn") for seed in (1, 2))
    out = tmp_path / "cache" / "deck"

    def make_while_another_finishes(folder: Path) -> bool:
        assert _build(out, copier(first)) == out
        return copier(second)(folder)

    assert _build(out, make_while_another_finishes) == out
    kept, reference = load_deck(out), load_deck(first)
    assert all(np.array_equal(kept.faces[c], reference.faces[c]) for c in CARDS)
    assert list((out.parent / ".building").iterdir()) == []


def test_a_failed_render_leaves_nothing(tmp_path: Path) -> None:
    """A deck that cannot be made is None, and neither it nor its work folder is left."""

    def fail(folder: Path) -> bool:
        (folder / "AS.jpg").write_bytes(b"half")
        return False

    assert _build(tmp_path / "deck", fail) is None
    assert not (tmp_path / "deck").exists()
    assert list((tmp_path / ".building").iterdir()) == []


def test_half_a_deck_left_by_an_interrupted_render_is_replaced(tmp_path: Path) -> None:
    """A deck folder without its ``index.json`` (a render killed midway) is made again, whole."""
    (tmp_path / "proc03").mkdir()
    (tmp_path / "proc03" / "AS.jpg").write_bytes(b"half")
    deck = load_deck(procedural_deck(3, tmp_path))
    assert sorted(deck.faces) == sorted(CARDS)


def test_decks_being_made_are_not_listed(tmp_path: Path) -> None:
    """:func:`load_decks` lists whole decks only, not the copies still being made."""
    whole = procedural_deck(0, tmp_path)
    shutil.copytree(whole, tmp_path / ".building" / "proc01-x")
    assert [deck.name for deck in load_decks(tmp_path)] == ["proc00"]
