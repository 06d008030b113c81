"""Card bodies: cards whose faces overlap share one body; a card apart, or on a light table,
does not."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from vision import MODELS_DIR
from vision.bodies import body_labels, with_bodies
from vision.certainty import likeliest
from vision.evidence import CropEvidence
from vision.reader import DetectedCard, load_reader


def photo_of(faces: list[tuple[int, int, int, int]], table: int = 40) -> np.ndarray:
    """A 400 x 600 photo of white card faces (x1, y1, x2, y2) with grey outlines on a table."""
    image = np.full((400, 600, 3), table, np.uint8)
    for x1, y1, x2, y2 in faces:
        image[y1:y2, x1:x2] = 250
        image[y1:y2, x1] = image[y1:y2, x2 - 1] = image[y1, x1:x2] = image[y2 - 1, x1:x2] = 90
    return image


def index(x: int, y: int) -> list[tuple[float, float, float, float]]:
    """A corner index 12 x 20 px whose top left is at (x, y)."""
    return [(x, y, x + 12, y + 20)]


def test_overlapping_faces_share_a_body_and_a_card_apart_has_its_own() -> None:
    """Two overlapping cards (outlines and all) are one body; a card apart is another."""
    image = photo_of([(50, 50, 150, 190), (110, 60, 210, 200), (400, 100, 500, 240)])
    first, second, apart = body_labels(image, [index(55, 55), index(115, 65), index(405, 105)])
    assert first is not None and apart is not None
    assert first == second and apart != first


def test_cards_on_a_light_table_have_no_body() -> None:
    """On a table as light as the cards, the light region is far larger than the cards: no
    body, so the indices' positions alone decide."""
    image = photo_of([(50, 50, 150, 190), (400, 100, 500, 240)], table=245)
    assert body_labels(image, [index(55, 55), index(405, 105)]) == [None, None]


def test_an_index_on_no_paper_has_no_body() -> None:
    """An index read on the dark table (print, not a card) lies on no body."""
    image = photo_of([(50, 50, 150, 190)])
    assert body_labels(image, [index(300, 300)]) == [None]


def test_a_card_alone_on_its_body_lies_where_the_body_does() -> None:
    """A card alone on its stretch of face, read at its lower corner only, gets the face's
    rectangle as its outline (centred on the face, not on the corner); cards sharing a body
    get none, nor does a card on a light table."""
    image = photo_of([(50, 50, 150, 190), (110, 60, 210, 200), (400, 100, 500, 240)])
    lower_corner = (486.0, 216.0, 498.0, 236.0)
    boxes = [index(55, 55)[0], index(115, 65)[0], lower_corner]
    first, second, apart = with_bodies(image, [DetectedCard("5H", 0.97, b) for b in boxes])
    assert first.outline is None and second.outline is None
    assert apart.outline is not None
    (x, y), size, _ = apart.outline
    assert (x, y) == pytest.approx((450, 170), abs=2)
    assert sorted(size) == pytest.approx([98, 138], abs=2)  # inside its printed outline
    on_light_table = photo_of([(400, 100, 500, 240)], table=245)
    assert with_bodies(on_light_table, [DetectedCard("5H", 0.97, lower_corner)])[0].outline is None
    on_a_sheet = photo_of([(250, 20, 500, 390)])  # a sheet of a card's shape, 12 indices wide
    assert with_bodies(on_a_sheet, [DetectedCard("5H", 0.97, lower_corner)])[0].outline is None


LONE_CARD = (400, 100, 500, 240)
UPPER, LOWER = (405.0, 105.0, 417.0, 125.0), (483.0, 215.0, 495.0, 235.0)


def test_two_indices_at_a_lone_cards_opposite_corners_are_paired() -> None:
    """The two indices alone on a card-shaped face, at its opposite corners, are one card's;
    two overlapping cards' upper indices are not, nor two indices on one side of a card."""
    image = photo_of([(50, 50, 150, 190), (110, 60, 210, 200), LONE_CARD, (250, 220, 350, 360)])
    boxes = [UPPER, index(55, 55)[0], index(115, 65)[0], LOWER, index(255, 225)[0]]
    boxes.append((333.0, 225.0, 345.0, 245.0))  # the fourth card's other upper corner
    cards = [
        DetectedCard(code, 0.6, b)
        for code, b in zip(["5D", "7S", "8S", "5H", "2C", "2S"], boxes, strict=True)
    ]
    offered = []

    def keep_both(first: DetectedCard, second: DetectedCard) -> None:
        offered.append((first.box, second.box))

    assert len(with_bodies(image, cards, one_card=keep_both)) == len(cards)
    assert offered == [(UPPER, LOWER)]


def read_from_corners(upper: dict[str, float], lower: dict[str, float]) -> list[DetectedCard]:
    """What the reader makes of a lone card whose corners the classifier read as given."""
    reader = load_reader(MODELS_DIR)
    probs = np.zeros((2, len(reader.classes)))
    for row, reading in enumerate((upper, lower)):
        for code, p in reading.items():
            probs[row, reader.classes.index(code)] = p
    cards = [
        DetectedCard(
            reader.classes[int(p.argmax())],
            float(p.max()),
            b,
            p.max() < 0.7,
            (b,),
            choices=likeliest(p, reader.classes),
        )
        for p, b in zip(probs, (UPPER, LOWER), strict=True)
    ]
    sharp = CropEvidence(np.zeros(2), np.full(2, 0.2), np.zeros(2), np.full((2, 53), np.nan))
    read_as_one = partial(
        reader._read_as_one, rows={UPPER: 0, LOWER: 1}, probs=probs, evidence=sharp
    )
    return with_bodies(photo_of([LONE_CARD]), cards, one_card=read_as_one)


def test_a_card_misread_at_one_corner_is_read_from_both() -> None:
    """A 5H whose upper index reads 5D at 0.75 and lower one 5H at 0.9 is one card, 5H,
    certain (0.225 against 0.075 by the product: 0.75), lying where the face does; when the
    product is no surer than 0.7 the one card is asked about; two corners with no likely
    identity in common stay two cards."""
    (card,) = read_from_corners({"5D": 0.75, "5H": 0.25}, {"5H": 0.9, "5D": 0.1})
    assert (card.card, card.uncertain, len(card.corners)) == ("5H", False, 2)
    assert card.confidence == pytest.approx(0.75)
    assert card.outline is not None  # alone on its face now: it lies where the face does
    (card,) = read_from_corners({"5D": 0.6, "5H": 0.4}, {"5H": 0.7, "5D": 0.3})
    assert (card.card, card.uncertain, set(card.choices)) == ("5H", True, {"5H", "5D"})
    two = read_from_corners({"JC": 0.97, "10C": 0.03}, {"10C": 0.6, "10S": 0.4})
    assert [c.card for c in two] == ["JC", "10C"]


def test_cards_read_on_one_cards_face_are_given_its_outline_when_asked() -> None:
    """A 9C and a 9S alone on one card-shaped face are one card whose corners disagree, and a
    certain 9D with an uncertain 2S read on its pips one card and its print: asked for
    (``shared_faces``), each gets the face's outline (so its body can say which card it is).
    Two overlapping cards of one rank (a face too big for one card), two certain cards of two
    ranks, or cards not asked for get none."""
    image = photo_of([(50, 50, 150, 190), (110, 60, 210, 200), LONE_CARD])
    twins = [DetectedCard("9C", 0.97, UPPER), DetectedCard("9S", 0.97, LOWER)]
    found = with_bodies(image, twins, shared_faces=True)
    assert [c.outline is not None for c in found] == [True, True]
    (x, y), _, _ = found[0].outline  # type: ignore[misc]
    assert (x, y) == pytest.approx((450, 170), abs=2)
    assert [c.outline for c in with_bodies(image, twins)] == [None, None]
    print_misread = [DetectedCard("9D", 0.97, UPPER), DetectedCard("2S", 0.6, LOWER, True)]
    found = with_bodies(image, print_misread, shared_faces=True)
    assert [c.outline is not None for c in found] == [True, True]
    two_ranks = [DetectedCard("9C", 0.97, UPPER), DetectedCard("8S", 0.97, LOWER)]
    assert [c.outline for c in with_bodies(image, two_ranks, shared_faces=True)] == [None, None]
    overlapping = [
        DetectedCard("9C", 0.97, index(55, 55)[0]),
        DetectedCard("9S", 0.97, index(115, 65)[0]),
    ]
    assert [c.outline for c in with_bodies(image, overlapping, shared_faces=True)] == [None, None]
