"""What the reader drops as not a card, and the crop contrast stretch it shares with training."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import MODELS_DIR
from vision.crops import normalize_crops
from vision.reader import CardReader, ReaderOptions


def _index_on(ground: tuple[int, int, int]) -> np.ndarray:
    """A 200x200 photo: an index-like "7" and a pip drawn on a 60x80 patch of ``ground``."""
    img = np.full((200, 200, 3), 60, np.uint8)
    img[60:140, 70:130] = ground
    cv2.putText(img, "7", (82, 110), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (20, 20, 20), 4)
    cv2.circle(img, (100, 127), 7, (20, 20, 20), -1)
    return img


BOX = np.array([[74.0, 70.0, 126.0, 136.0]])


def test_detections_likely_none_are_dropped() -> None:
    loose, strict = (CardReader(MODELS_DIR, ReaderOptions(none_above=n)) for n in (0.5, 0.3))
    none = loose.classes.index("none")
    seven = loose.classes.index("7S")
    probs = np.zeros((3, len(loose.classes)), np.float32)
    probs[0, [seven, none]] = (0.9, 0.1)  # a sure seven
    probs[1, [seven, none]] = (0.6, 0.4)  # likelier a seven, but quite possibly nothing
    probs[2, [seven, none]] = (0.3, 0.7)  # nothing
    assert loose.on_cards(probs).tolist() == [True, True, False]
    assert strict.on_cards(probs).tolist() == [True, False, False]


def test_reader_stretches_crops_when_the_model_says_so(tmp_path: Path) -> None:
    """With ``"normalize": true`` in the model's JSON, a photo and the same photo at half
    exposure are classified alike (the stretch undoes the exposure); without it they differ."""
    models = tmp_path / "models"
    shutil.copytree(MODELS_DIR, models)
    meta = json.loads((models / "card_classifier.json").read_text())
    img = _index_on((235, 240, 238))
    dim = (img.astype(np.float32) * 0.5).round().astype(np.uint8)
    gaps = {}
    for normalize in (False, True):
        (models / "card_classifier.json").write_text(json.dumps(meta | {"normalize": normalize}))
        reader = CardReader(models, ReaderOptions(turn_below=0.0))
        assert reader.normalize is normalize
        gaps[normalize] = float(np.abs(reader.classify(img, BOX) - reader.classify(dim, BOX)).max())
    assert gaps[True] < 0.05 < gaps[False]


@pytest.mark.parametrize("gain", [0.35, 0.6])
def test_normalize_crops_undoes_exposure(gain: float) -> None:
    crop = _index_on((235, 240, 238))[40:104, 68:132][None]
    dim = (crop.astype(np.float32) * gain).round().astype(np.uint8)
    a, b = normalize_crops(crop).astype(int), normalize_crops(dim).astype(int)
    assert np.abs(a - b).mean() < 4 and np.abs(dim.astype(int) - crop).mean() > 40
