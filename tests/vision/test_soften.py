"""The reader softens its sharp index crops, and the context model its crops, before they are
read (``vision.crops.soften_crops``, ``CardReader.crops``, ``ContextModel.probabilities``): on
the shared real webcam frames a club then reads as a club more often, a spade about as often as
before; an index crop already blurred is read as it was cut."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from tests.shared import shared_path
from vision import MODELS_DIR
from vision.crops import CROP_SCALE, CROP_SIZE, crop_index
from vision.evidence import crop_quality
from vision.reader import CardReader, load_reader

WEBCAM = "data/real-webcam"


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return load_reader(MODELS_DIR)


Reading = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""Class probabilities (N, 53) of the crops around some boxes (N, 4) on a frame."""


def _black_suits_read(classes: list[str], ways: dict[str, Reading]) -> Counter[tuple[str, str]]:
    """Of the real webcam frames' labelled club and spade indices: how many each way of reading
    them reads with their own suit, by the way and the suit."""
    root = shared_path(f"{WEBCAM}/labels.json").parent
    right: Counter[tuple[str, str]] = Counter()
    for name, label in sorted(json.loads((root / "labels.json").read_text()).items()):
        found = [box for box in label["boxes"] if box["card"][-1] in "CS"]
        if not found:
            continue
        image = cv2.imread(str(root / "images" / name))
        boxes = np.array([box["bbox"] for box in found], np.float32)
        for way, read in ways.items():
            for box, p in zip(found, read(image, boxes), strict=True):
                card = classes[int(p.argmax())]
                right[way, box["card"][-1]] += card != "none" and card[-1] == box["card"][-1]
    return right


def test_a_real_webcam_club_reads_as_a_club_more_often_softened(reader: CardReader) -> None:
    """187 club and 203 spade indices: as cut, the classifier reads 45 clubs as clubs (the rest
    mostly as spades); softened, as the reader gives it its crops, 86; the spades stay at 202."""

    def cut(image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        crops = [crop_index(image, tuple(b), CROP_SIZE, CROP_SCALE) for b in boxes]
        return reader._classify(np.stack(crops))

    right = _black_suits_read(reader.classes, {"cut": cut, "served": reader.classify})
    assert right["served", "C"] >= right["cut", "C"] + 20
    assert right["served", "S"] >= right["cut", "S"] - 2


def test_the_context_model_reads_a_real_webcam_club_better_softened(reader: CardReader) -> None:
    """The context model (the face around each index) on the same indices: 29 clubs read as
    clubs as cut, 40 softened as the reader asks it; spades 192 and 189."""
    context = reader.context
    assert context is not None
    right = _black_suits_read(
        context.classes,
        {
            "cut": lambda image, boxes: context.probabilities(image, boxes, 0.0),
            "served": lambda image, boxes: context.probabilities(image, boxes),
        },
    )
    assert right["served", "C"] >= right["cut", "C"] + 8
    assert right["served", "S"] >= right["cut", "S"] - 5


def test_only_a_crop_that_is_not_blurred_already_is_softened(reader: CardReader) -> None:
    """A sharp synthetic index comes out of ``CardReader.crops`` smoother than it was cut; the
    same index blurred past the reader's bar for a blurred crop comes out as cut."""
    sharp = np.full((200, 200, 3), 235, np.uint8)
    cv2.putText(sharp, "7", (60, 120), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (20, 20, 20), 5)
    blurred = cv2.GaussianBlur(sharp, (0, 0), 4.0)
    box = np.array([[50, 60, 110, 130]], np.float32)
    bar = reader.certainty.blurred_below
    for image, softened in ((sharp, True), (blurred, False)):
        cut = crop_index(image, tuple(box[0]), CROP_SIZE, CROP_SCALE)[None]
        assert bool(crop_quality(cut)[1][0] >= bar) == softened
        served = reader.crops(image, box)
        if softened:
            assert crop_quality(served)[1][0] < crop_quality(cut)[1][0]
        else:
            assert np.array_equal(served, cut)
