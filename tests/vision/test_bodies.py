"""Card bodies: cards whose faces overlap share one body; a card apart, or on a light table,
does not."""

from __future__ import annotations

import numpy as np
import pytest

from vision.bodies import body_labels, with_bodies
from vision.reader import DetectedCard


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
