"""Card bodies: cards whose faces overlap share one body; a card apart, or on a light table,
does not."""

from __future__ import annotations

import numpy as np

from vision.bodies import body_labels


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
