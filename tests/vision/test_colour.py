"""The ink's colour as evidence: a card read as a black suit whose ink is red, at its body's pips
or at its corner indices, is never certain (``vision.evidence.ink_redness``, ``index_redness``;
``vision.certainty.Corroboration.ink_refutes``), on crops cut from the shared real webcam frames
and on synthetic ones; and the webcam generator's cards near the camera."""

from __future__ import annotations

import dataclasses
import json

import cv2
import numpy as np
import pytest

from tests.shared import shared_path
from vision import MODELS_DIR
from vision.certainty import STRICT_CORROBORATION, corroborate
from vision.crops import CROP_SCALE, CROP_SIZE, crop_index
from vision.detection import DetectedCard
from vision.evidence import CropEvidence, face_crop, index_redness, ink_redness, paper_balanced
from vision.reader import load_reader
from vision.training.synth.faces import Deck, rendered_deck
from vision.training.synth.webcam import webcam_camera

RULE = STRICT_CORROBORATION
"""The rule that weighs the ink (the strict one, a webcam's): what these tests hold it to."""
NO_INK = dataclasses.replace(RULE, red_above=float("inf"))
"""That rule without the ink's colour."""
WEBCAM = "data/real-webcam"


@pytest.fixture(scope="module")
def real_index_crops() -> dict[str, np.ndarray]:
    """Every labelled corner index of the shared real webcam frames, cut as the reader cuts its
    crops, by its suit's colour (``red``, ``black``)."""
    root = shared_path(f"{WEBCAM}/labels.json").parent
    crops: dict[str, list[np.ndarray]] = {"red": [], "black": []}
    for name, label in sorted(json.loads((root / "labels.json").read_text()).items()):
        image = cv2.imread(str(root / "images" / name))
        for box in label["boxes"]:
            crop = crop_index(image, tuple(box["bbox"]), CROP_SIZE, CROP_SCALE)
            crops["red" if box["card"][-1] in "HD" else "black"].append(crop)
    return {colour: np.stack(found) for colour, found in crops.items()}


def _asked_as_spades(crops: np.ndarray) -> float:
    """The share of ``crops`` whose ink makes a spade read on them a question under :data:`RULE`."""
    return float(np.mean([RULE.ink_refutes("5S", [r]) is not None for r in index_redness(crops)]))


def test_a_real_red_index_read_as_black_is_asked_and_a_black_one_is_not(
    real_index_crops: dict[str, np.ndarray],
) -> None:
    """On the real webcam frames' indices (grey-blue light, speckle, soft, their red ranks
    printed maroon): a spade read on a heart's or diamond's index is asked about on nine in
    ten of them (the median of all their ink, rank and symbol, caught 78 %), on a club's or
    spade's almost never."""
    assert _asked_as_spades(real_index_crops["red"]) > 0.9
    assert _asked_as_spades(real_index_crops["black"]) < 0.02


def test_an_index_is_as_red_as_its_suit_symbol_and_not_its_neighbours_ink() -> None:
    """A crop of bluish grey paper: a maroon rank beside a plainly red diamond is red (its
    median ink, mostly the rank's strokes, is not); a club with a neighbour's red pip cut by the
    measured square's edge is black."""
    paper = (163, 146, 149)
    diamond = np.full((1, 64, 64, 3), paper, np.uint8)
    cv2.putText(diamond[0], "3", (16, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (38, 36, 48), 4)
    cv2.fillConvexPoly(diamond[0], np.array([[44, 34], [49, 40], [44, 46], [39, 40]]), (45, 36, 96))
    club = np.full((1, 64, 64, 3), paper, np.uint8)
    cv2.putText(club[0], "3", (16, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (8, 7, 8), 4)
    cv2.circle(club[0], (44, 40), 4, (8, 7, 8), -1)
    club[0, 6:20, 6:16] = (45, 36, 96)  # a neighbour's red pip across the square's edge
    assert index_redness(diamond)[0] > RULE.red_above > index_redness(club)[0]
    assert ink_redness(paper_balanced(diamond, (0.0, 0.0)))[0] < RULE.red_above


def _read(photo: str, rule: object = RULE) -> list[DetectedCard]:
    root = shared_path(f"{WEBCAM}/labels.json").parent
    image = cv2.imread(str(root / "images" / photo))
    return load_reader(MODELS_DIR).read(image, corroboration=rule).cards  # type: ignore[arg-type]


def test_a_real_diamond_read_as_a_spade_at_its_index_is_asked_about() -> None:
    """A real webcam frame's 9D that the index classifier reads 9S at 0.99: stated so without
    the ink, asked about with it, the diamond offered."""
    photo = "ccml_train_WIN_20240627_17_06_06.jpg"
    assert any(c.card == "9S" and not c.uncertain for c in _read(photo, NO_INK))
    nine = [c for c in _read(photo) if c.card == "9S"]
    assert nine and all(c.uncertain and "9D" in c.choices for c in nine)


def test_a_real_red_body_under_a_black_index_is_asked_about() -> None:
    """The face of a real webcam frame's 4D, as the reader cuts it out and its body model reads
    it: under an index read 4S it makes the card a question (its pips are red), under 4D it
    keeps it certain."""
    photo = "ccml_train_WIN_20240627_12_06_16.jpg"
    root = shared_path(f"{WEBCAM}/labels.json").parent
    image = cv2.imread(str(root / "images" / photo))
    reader = load_reader(MODELS_DIR)
    read = reader.read(image, corroboration=RULE).cards
    (four,) = [c for c in read if c.card == "4D" and c.outline is not None]
    assert reader.body is not None
    (body,) = reader.body.read(face_crop(image, four.outline)[None])  # type: ignore[arg-type]
    certain, instead = corroborate("4S", False, body, RULE)
    assert not certain and "4D" in instead
    assert corroborate("4S", False, body, NO_INK)[0]
    assert corroborate("4D", False, body, RULE)[0]


def _index_photo(deck: Deck, card: str, index_px: float) -> tuple[np.ndarray, tuple[float, ...]]:
    """A 1280 x 720 light grey desk (as the real frames') with ``card`` of ``deck`` lying on
    it, its index ``index_px`` high, and that index's box."""
    face = deck.faces[card]
    x1, y1, x2, y2 = deck.index_box
    s = index_px / (y2 - y1)
    small = cv2.resize(face, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    photo = np.full((720, 1280, 3), 205, np.uint8)
    top, left = 200, 500
    photo[top : top + small.shape[0], left : left + small.shape[1]] = small
    return photo, (left + x1 * s, top + y1 * s, left + x2 * s, top + y2 * s)


@pytest.mark.slow
@pytest.mark.parametrize("index_px", [40.0, 55.0])
def test_a_synthetic_webcams_red_index_is_told_from_a_black_one(
    monkeypatch: pytest.MonkeyPatch, index_px: float
) -> None:
    """The anglo deck's 3D and 3S on a light desk, seen by the generator's webcam keeping its
    colour as the real laptop webcam does (most of it, JPEG of 60-95), indices as near the
    camera as the real frames': a spade read on the diamond is asked about in most frames, on
    the spade in none."""
    from vision.training.synth import webcam

    monkeypatch.setattr(webcam, "COLOUR_KEPT", (0.75, 1.0))
    monkeypatch.setattr(webcam, "JPEG_QUALITY", (60, 95))
    deck = rendered_deck("anglo")
    asked = {}
    for card in ("3D", "3S"):
        refuted = []
        for seed in range(12):
            photo, box = _index_photo(deck, card, index_px)
            seen = webcam_camera(photo, np.random.default_rng(seed))
            crop = crop_index(seen, box, CROP_SIZE, CROP_SCALE)  # type: ignore[arg-type]
            refuted.append(RULE.ink_refutes("3S", [float(index_redness(crop[None])[0])]))
        asked[card] = np.mean([r is not None for r in refuted])
    assert asked["3D"] >= 0.6
    assert asked["3S"] == 0


def _evidence(redness: list[float]) -> CropEvidence:
    n = len(redness)
    return CropEvidence(np.zeros(n), np.full(n, 0.3), np.array(redness), np.full((n, 53), np.nan))


@pytest.mark.parametrize(
    ("redness", "certain"),
    [
        ([0.5, 0.45], False),  # both corners red: asked, the red sevens offered
        ([0.5, 0.0], True),  # one corner red (a neighbour's ink in its crop): stays
        ([0.0, 0.01], True),  # black ink
    ],
)
def test_the_reader_asks_of_a_black_index_whose_ink_is_red(
    redness: list[float], certain: bool
) -> None:
    """A 7S read at 0.99 at two large, sharp corners of a card whose face was not found: the
    reader's own step weighs its corners' ink."""
    reader = load_reader(MODELS_DIR)
    probs = np.zeros((2, len(reader.classes)))
    probs[:, reader.classes.index("7S")] = 0.99
    boxes = [(100.0, 100.0, 130.0, 150.0), (300.0, 400.0, 330.0, 450.0)]
    card = DetectedCard("7S", 0.99, boxes[0], corners=tuple(boxes), choices=("7S",))
    rows = {box: k for k, box in enumerate(boxes)}
    image = np.full((600, 600, 3), 200, np.uint8)
    (read,) = reader.corroborated(image, [card], 1.0, rows, probs, _evidence(redness), RULE)
    assert read.uncertain is not certain
    if not certain:
        assert {"7D", "7H"} <= set(read.choices)
