"""The generator's labels match what is visible in the rendered scene."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import CARDS
from vision.training.synth.faces import Deck
from vision.training.synth.generate import NONE_CLASS, scene_crops
from vision.training.synth.negatives import brand_print
from vision.training.synth.scene import MIN_VISIBLE, make_scene


def _covered_fraction(quad: np.ndarray, owner: np.ndarray, card_id: int) -> float:
    """Independent recount: share of the quad's in-frame pixels topped by card ``card_id``."""
    m = np.zeros(owner.shape, np.uint8)
    cv2.fillPoly(m, [np.round(quad).astype(np.int32)], 1)
    inside = m > 0
    return float((owner[inside] == card_id).mean()) if inside.any() else 0.0


@pytest.mark.parametrize("seed", range(12))
def test_labels_are_visible_corners(decks: list[Deck], seed: int) -> None:
    sc = make_scene(np.random.default_rng([99, seed]), decks)
    h, w = sc.image.shape[:2]
    assert sc.image.dtype == np.uint8 and sc.image.shape[2] == 3
    for lab in sc.labels:
        assert lab.card in CARDS
        x1, y1, x2, y2 = lab.box
        assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
        # most of the printed index lies inside the frame ...
        q = lab.quad
        in_frame = (
            (q[:, 0] >= -2) & (q[:, 0] <= w + 2) & (q[:, 1] >= -2) & (q[:, 1] <= h + 2)
        ).mean()
        assert in_frame >= 0.5, lab
        # ... and is not covered by another card, a finger or a distractor
        assert _covered_fraction(q, sc.owner, lab.card_id) >= MIN_VISIBLE - 0.1, lab
        assert lab.card == sc.cards[lab.card_id]
    for lab in sc.hidden:
        assert (
            lab.visible < MIN_VISIBLE or min(lab.box[2] - lab.box[0], lab.box[3] - lab.box[1]) < 5
        )


@pytest.mark.slow
def test_covered_corner_is_not_labelled(decks: list[Deck]) -> None:
    """Across many scenes some corners are hidden, and none of them is labelled."""
    hidden = labelled = 0
    for seed in range(20):
        sc = make_scene(np.random.default_rng([7, seed]), decks, effects=False)
        hidden += len(sc.hidden)
        labelled += len(sc.labels)
        ids = {(lab.card_id, tuple(np.round(lab.quad[0], 1))) for lab in sc.labels}
        for lab in sc.hidden:
            assert (lab.card_id, tuple(np.round(lab.quad[0], 1))) not in ids
    assert hidden > 0 and labelled > 0


def test_scene_is_deterministic(decks: list[Deck]) -> None:
    a = make_scene(np.random.default_rng([1, 2]), decks)
    b = make_scene(np.random.default_rng([1, 2]), decks)
    assert np.array_equal(a.image, b.image)
    assert [lab.card for lab in a.labels] == [lab.card for lab in b.labels]


@pytest.mark.parametrize("seed", range(8))
def test_brand_print_stays_clear_of_the_corner_indices(decks: list[Deck], seed: int) -> None:
    """Brand print is drawn on the face but never over either corner index."""
    deck = decks[seed % len(decks)]
    face = deck.faces["AS"].copy()
    brand_print(np.random.default_rng(seed), face, deck.index_box)
    changed = np.any(face != deck.faces["AS"], axis=2)
    h, w = changed.shape
    x1, y1, x2, y2 = (int(v) for v in deck.index_box)
    assert changed.any()
    assert not changed[y1 : y2 + 1, x1 : x2 + 1].any()
    assert not changed[h - y2 - 1 : h - y1, w - x2 - 1 : w - x1].any()


def test_negative_crops_include_card_faces() -> None:
    """Given the owner map, negatives are also cut from the card faces (art, brand print)."""
    image = np.full((400, 400, 3), 128, np.uint8)
    image[150:250, 150:250] = (255, 0, 255)  # the only card face, magenta
    owner = np.full((400, 400), -1, np.int16)
    owner[150:250, 150:250] = 0

    def on_face(owner_map: np.ndarray | None) -> int:
        xs, ys = scene_crops(np.random.default_rng(0), image, [], [], 1, 40, owner=owner_map)
        assert set(ys) == {NONE_CLASS}
        return sum(int(tuple(x[32, 32]) == (255, 0, 255)) for x in xs)

    assert on_face(owner) >= 2 * max(1, on_face(None))


@pytest.mark.slow
@pytest.mark.parametrize("webcam", [False, True], ids=["table scenes", "webcam frames"])
def test_a_generated_set_names_the_decks_it_was_drawn_from(
    tmp_path: Path, proc_faces: Path, webcam: bool
) -> None:
    """The generator draws from whatever the face cache holds; the set says which (a series
    drawn from 3 of the 30 decks once passed for one drawn from all)."""
    from vision.training.synth.generate import generate
    from vision.training.synth.webcam import styled_decks

    generate(tmp_path, n=1, val_frac=1.0, workers=1, face_root=proc_faces, webcam=webcam)
    styled = [deck.name for deck in styled_decks()] if webcam else []
    cached = sorted(path.name for path in proc_faces.iterdir() if (path / "index.json").exists())
    assert json.loads((tmp_path / "decks.json").read_text()) == cached + styled


@pytest.mark.slow
@pytest.mark.parametrize(("near", "least", "most"), [(0.0, 10, 24), (1.0, 26, 70)])
def test_webcam_frames_hold_cards_far_from_the_camera_or_near_it(
    decks: list[Deck], monkeypatch: pytest.MonkeyPatch, near: float, least: float, most: float
) -> None:
    """A webcam frame's indices are 12-20 px high, or 30-60 px where its cards lie near the
    camera (as on a real laptop webcam's frames); the labels follow."""
    from vision.training.synth import webcam

    monkeypatch.setattr(webcam, "NEAR_SHARE", near)
    heights = []
    for seed in range(4):
        scene = webcam.make_webcam_scene(np.random.default_rng(seed), decks)
        heights += [lab.box[3] - lab.box[1] for lab in scene.labels if lab.visible > 0.99]
    assert heights and least <= float(np.median(heights)) <= most
