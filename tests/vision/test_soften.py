"""The reader softens its sharp index crops before it reads them (``vision.crops.soften_crops``,
``CardReader.crops``): on the shared real webcam frames a club's index then reads as a club far
more often, a spade's as often as before; a crop already blurred is read as it was cut."""

from __future__ import annotations

import json

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


def _black_suits_read(reader: CardReader) -> dict[tuple[str, str], int]:
    """Of the real webcam frames' labelled club and spade indices: how many the classifier reads
    with their own suit, from the crops as cut (``cut``) and as the reader gives them
    (``served``), by suit."""
    root = shared_path(f"{WEBCAM}/labels.json").parent
    right = dict.fromkeys([(way, suit) for way in ("cut", "served") for suit in "CS"], 0)
    for name, label in sorted(json.loads((root / "labels.json").read_text()).items()):
        found = [box for box in label["boxes"] if box["card"][-1] in "CS"]
        if not found:
            continue
        image = cv2.imread(str(root / "images" / name))
        boxes = np.array([box["bbox"] for box in found], np.float32)
        cut = np.stack([crop_index(image, tuple(b), CROP_SIZE, CROP_SCALE) for b in boxes])
        readings = {"cut": reader._classify(cut), "served": reader.classify(image, boxes)}
        for way, probs in readings.items():
            for box, p in zip(found, probs, strict=True):
                card = reader.classes[int(p.argmax())]
                right[way, box["card"][-1]] += card != "none" and card[-1] == box["card"][-1]
    return right


def test_a_real_webcam_club_reads_as_a_club_more_often_softened(reader: CardReader) -> None:
    """187 club and 203 spade indices: as cut, 45 clubs read as clubs (the rest mostly as
    spades); softened, 86; the spades stay at 202."""
    right = _black_suits_read(reader)
    assert right["served", "C"] >= right["cut", "C"] + 20
    assert right["served", "S"] >= right["cut", "S"] - 2


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
