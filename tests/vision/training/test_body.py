"""The body model's training faces."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest


@pytest.mark.slow
def test_a_face_set_names_the_decks_it_was_drawn_from(tmp_path: Path, proc_faces: Path) -> None:
    """Faces are drawn from whatever the face cache holds, and the set says which (the first
    body model was trained on 3 of the 30 decks without saying so); never a held-out deck."""
    from vision.training.body import HELD_OUT_DECKS, make_faces
    from vision.training.synth.webcam import styled_decks

    deck = next(path for path in sorted(proc_faces.iterdir()) if (path / "index.json").exists())
    face_root = tmp_path / "faces"
    shutil.copytree(deck, face_root / deck.name)
    shutil.copytree(deck, face_root / HELD_OUT_DECKS[0])
    out = tmp_path / "set"
    decks = make_faces(out, n=2, seed=1, workers=1, val_frac=0.5, face_root=face_root)
    styled = [styled.name for styled in styled_decks() if styled.name not in HELD_OUT_DECKS]
    assert decks == [deck.name, *styled]
    assert json.loads((out / "recipe.json").read_text())["decks"] == decks
    faces = np.load(out / "train.npz")["x"]
    assert faces.shape[0] == 1 and faces.dtype == np.uint8


@pytest.mark.parametrize("option", [["--n", "0"], ["--n", "1"], ["--workers", "0"]])
def test_a_face_set_too_small_to_split_is_refused_in_one_line(
    tmp_path: Path, option: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from vision.training.body import main

    with pytest.raises(SystemExit) as exit_:
        main(["faces", "--out", str(tmp_path / "set"), *option])
    assert exit_.value.code == 2
    assert "--n must be at least 2" in capsys.readouterr().err.splitlines()[-1]
    assert not (tmp_path / "set").exists()


def test_training_on_a_folder_without_faces_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vision.training.body import main

    with pytest.raises(SystemExit) as exit_:
        main(["train", "--data", str(tmp_path), "--models", str(tmp_path / "models")])
    assert exit_.value.code == 2
    assert "holds no faces (train.npz)" in capsys.readouterr().err.splitlines()[-1]
