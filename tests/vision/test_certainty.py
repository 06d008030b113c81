"""When a reading is stated as certain: its probability, blurred and clipped crops."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import MODELS_DIR
from vision.certainty import Certainty
from vision.evidence import CropEvidence, crop_quality
from vision.reader import load_reader


def _evidence(n: int, clipped: float = 0.0, sharpness: float = 0.2) -> CropEvidence:
    return CropEvidence(
        np.full(n, clipped), np.full(n, sharpness), np.zeros(n), np.full((n, 3), np.nan)
    )


def _index_crop() -> np.ndarray:
    """A 64 px crop of a dark '5' and a pip on white paper, as photographed in good light."""
    crop = np.full((64, 64, 3), 235, np.uint8)
    cv2.putText(crop, "5", (14, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (20, 20, 20), 3)
    cv2.circle(crop, (32, 52), 6, (20, 20, 20), -1)
    return crop


PROBS = np.array([[0.7, 0.2, 0.1]])


def test_probability_alone_decides_by_default() -> None:
    assert Certainty().sure(PROBS, _evidence(1)).tolist() == [True]
    assert Certainty(0.8).sure(PROBS, _evidence(1)).tolist() == [False]


@pytest.mark.parametrize(
    ("evidence", "sure"),
    [
        (_evidence(1, sharpness=0.2), True),
        (_evidence(1, sharpness=0.05), False),
        (_evidence(1, clipped=0.1), True),
        (_evidence(1, clipped=0.6), False),
    ],
)
def test_blurred_or_clipped_crops_need_a_surer_reading(evidence: CropEvidence, sure: bool) -> None:
    point = Certainty(0.5, blurred_below=0.12, clipped_above=0.3, clipped_sure_above=0.8)
    assert point.sure(PROBS, evidence).tolist() == [sure]


def test_crop_quality_tells_blur_and_overexposure() -> None:
    crop = _index_crop()
    blurred = cv2.GaussianBlur(crop, (0, 0), 2.0)
    overexposed = cv2.convertScaleAbs(crop, alpha=1.6, beta=40)
    clipped, sharpness = crop_quality(np.stack([crop, blurred, overexposed]))
    assert clipped[0] == 0 and clipped[2] > 0.7
    assert sharpness[1] < 0.5 * sharpness[0]
    assert crop_quality(np.zeros((0, 64, 64, 3), np.uint8))[0].shape == (0,)


def test_a_card_is_certain_when_any_of_its_corners_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two corners of one card read alike: the card is certain when either reading is, even
    when the surer detection (the card's box) is the unsure reading."""
    reader = load_reader(MODELS_DIR)
    monkeypatch.setattr(reader, "context", None)  # the index's own certainty (test_context.py)
    image = np.full((300, 300, 3), 235, np.uint8)
    boxes = np.array([[40.0, 40.0, 60.0, 70.0], [200.0, 200.0, 220.0, 230.0]], np.float32)
    probs = np.zeros((2, len(reader.classes)), np.float32)
    probs[:, reader.classes.index("5H")] = (0.6, 0.75)
    scores = np.array([0.9, 0.5], np.float32)
    monkeypatch.setattr(reader, "detect", lambda _img, _cards: (boxes, scores))
    monkeypatch.setattr(reader, "_classify", lambda _crops: probs)
    monkeypatch.setattr(reader, "evidence", lambda _i, _b, _p, _c: _evidence(2))
    monkeypatch.setattr(reader, "certainty", Certainty(0.7))
    (card,) = reader.read(image).cards
    assert (card.card, round(card.confidence, 2), len(card.corners)) == ("5H", 0.6, 2)
    assert not card.uncertain
