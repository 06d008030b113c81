"""The detector's second look (:mod:`vision.second_look`) and when the reader takes it."""

from __future__ import annotations

import numpy as np
import pytest

from vision import MODELS_DIR
from vision.reader import (
    DETECTOR_CONF,
    FEW_BUT_LARGE,
    LOOK_AROUND_FROM,
    SMALL_INDEX,
    CardReader,
    ReaderOptions,
)
from vision.second_look import Window, look, pack, plan, regions
from vision.training.evaluate import score_image
from vision.training.synth.faces import Deck
from vision.training.synth.table import RULES_BY_PLAYERS, make_table

PHONE = (2048, 1536)
"""A phone photo's (width, height)."""
AT_640 = PHONE[0] / 640
"""Photo pixels per pixel of the first pass (the photo letterboxed to 640)."""


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader(MODELS_DIR, threads=1)


def passes(
    reader: CardReader,
    monkeypatch: pytest.MonkeyPatch,
    centres: list[tuple[float, float]],
    side: float,
    photo: tuple[int, int] = PHONE,
    cards: bool | None = None,
    score: float = 0.9,
) -> int:
    """Detector passes :meth:`CardReader.detect` makes on a blank photo of ``photo`` pixels whose
    first pass finds indices of ``side`` px at ``centres`` (scored ``score``), the classifier
    reading them all as cards or none (``cards``; None: not asked); later passes find nothing."""
    found = np.array([[x - side / 2, y - side / 2, x + side / 2, y + side / 2] for x, y in centres])
    found = found.astype(np.float32).reshape(-1, 4)
    calls = []

    def detect(image: np.ndarray, least: float = DETECTOR_CONF) -> tuple[np.ndarray, np.ndarray]:
        calls.append(image.shape)
        if len(calls) > 1 or score < least:
            return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
        return found, np.full(len(found), score, np.float32)

    monkeypatch.setattr(reader, "_detect", detect)
    read = None if cards is None else (lambda boxes: np.full(len(boxes), cards))
    reader.detect(np.zeros((photo[1], photo[0], 3), np.uint8), read)
    return len(calls)


def spread(n: int, photo: tuple[int, int] = PHONE) -> list[tuple[float, float]]:
    """``n`` points spread over the whole photo (a grid from corner to corner)."""
    cols = int(np.ceil(np.sqrt(n)))
    xs, ys = np.linspace(100, photo[0] - 100, cols), np.linspace(100, photo[1] - 100, cols)
    return [(float(xs[k % cols]), float(ys[k // cols])) for k in range(n)]


def test_small_cards_spread_wide_get_one_more_pass(
    reader: CardReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone photo of a whole table, its small cards spread from corner to corner: the second
    look is one pass over windows around them, not four tiles of the photo."""
    assert passes(reader, monkeypatch, spread(12), 8 * AT_640) == 2


def test_a_small_photo_or_large_indices_get_one_pass(
    reader: CardReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No second look on a photo of up to 1.6 times the detector's size (a live camera's
    frame), nor on a big photo whose indices come out :data:`SMALL_INDEX` px or more."""
    assert passes(reader, monkeypatch, spread(12, (960, 720)), 8, (960, 720)) == 1
    assert passes(reader, monkeypatch, spread(12, (1024, 768)), 8, (1024, 768)) == 1
    assert passes(reader, monkeypatch, spread(12), (SMALL_INDEX + 2) * AT_640) == 1
    assert passes(reader, monkeypatch, spread(12), (SMALL_INDEX - 2) * AT_640) == 2


def test_few_first_detections_are_looked_around_unless_read_as_large_cards(
    reader: CardReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under :data:`LOOK_AROUND_FROM` first detections: read as cards of :data:`FEW_BUT_LARGE`
    px or more (a photo of one or two cards held close), no second look; as smaller cards, or
    small and not asked, one pass around them; none read as cards and none small, or nothing
    found, the photo in 2x2 tiles."""
    few = spread(LOOK_AROUND_FROM - 1)
    large, smaller = (FEW_BUT_LARGE + 2) * AT_640, (FEW_BUT_LARGE - 2) * AT_640
    assert passes(reader, monkeypatch, few, large, cards=True) == 1
    assert passes(reader, monkeypatch, few, smaller, cards=True) == 2
    assert passes(reader, monkeypatch, few, 8 * AT_640) == 2
    assert passes(reader, monkeypatch, few, large, cards=False) == 1 + 4
    assert passes(reader, monkeypatch, [], 8 * AT_640, cards=True) == 1 + 4


def test_unsure_first_detections_alone_get_the_tiles(
    reader: CardReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Small first detections scored under :data:`vision.reader.HINT` are looked around only
    beside surer ones: alone, they are no place to look, and the photo gets the tiles."""
    assert passes(reader, monkeypatch, spread(12), 8 * AT_640, score=0.07) == 1 + 4


def test_tiles_always_and_never(monkeypatch: pytest.MonkeyPatch) -> None:
    """``tiles="always"``: 2x2 tiles on every photo (2x1 or one on a smaller one); ``"never"``:
    one pass, whatever the indices."""
    for tiles, big, small in (("always", 1 + 4, 1 + 2), ("never", 1, 1)):
        reader = CardReader(MODELS_DIR, ReaderOptions(tiles=tiles), threads=1)
        assert passes(reader, monkeypatch, spread(12), 8 * AT_640) == big
        assert passes(reader, monkeypatch, spread(12, (960, 720)), 8, (960, 720)) == small


def test_windows_around_close_indices_are_merged() -> None:
    """Indices whose windows overlap are one region; one far off is another, each with its
    indices' median side."""
    boxes = np.array([[100, 100, 110, 110], [150, 100, 162, 112], [1000, 1000, 1010, 1010]])
    assert regions(boxes.astype(np.float32), PHONE, around=4) == [
        (65, 58, 139, 96, 11.0),
        (965, 965, 80, 80, 10.0),
    ]


def test_windows_are_packed_on_as_few_canvases_as_hold_them() -> None:
    """Three windows of 300 px go on one 640 px canvas in two shelves; five need two canvases,
    and more than the canvases allowed are refused."""
    windows = [Window(0, 0, 300, 300, 1.0) for _ in range(5)]
    one = pack(windows[:3], 640, 1)
    assert one is not None and {(w.canvas, w.left, w.top) for w in one} == {
        (0, 0, 0),
        (0, 304, 0),
        (0, 0, 304),
    }
    two = pack(windows, 640, 2)
    assert two is not None and max(w.canvas for w in two) == 1
    assert pack(windows, 640, 1) is None


def test_a_plan_zooms_small_indices_and_reaches_farther_where_there_is_room() -> None:
    """One small index: one window on one canvas, zoomed past the first pass's, reaching
    farther than the least; unsure detections beside it are looked around too."""
    index = np.array([[1000, 700, 1020, 720]], np.float32)
    alone = plan(index, PHONE, 640)
    assert alone is not None and len(alone) == 1
    assert alone[0].zoom > 1.35 * 640 / PHONE[0] and alone[0].w > 2 * 4 * 20
    unsure = np.array([[200, 200, 220, 220]], np.float32)
    both = plan(index, PHONE, 640, unsure)
    assert both is not None and any(w.x <= 210 < w.x + w.w for w in both)
    assert plan(np.zeros((0, 4), np.float32), PHONE, 640) is None


def test_small_indices_everywhere_fit_no_canvases_at_a_useful_zoom() -> None:
    """Tiny indices all over a photo need more canvases than
    :data:`vision.second_look.CANVASES` even zoomed no more than the least: no plan (the reader
    takes the tiles)."""
    tiny = np.array([[x, y, x + 30, y + 30] for x, y in spread(400)], np.float32)
    assert plan(tiny, PHONE, 640) is None


def test_a_box_cut_by_a_windows_edge_is_dropped_not_doubled() -> None:
    """An index across the edge between two overlapping windows is kept whole, once, from the
    window it lies whole in; a box at the photo's own border is kept; boxes come back in photo
    pixels."""
    photo = np.zeros((400, 800, 3), np.uint8)
    indices = np.array([[285, 100, 315, 140], [10, 0, 40, 30]], np.float32)  # the second at y=0
    left, right = Window(0, 0, 300, 400, 0.5, 0, 0, 0), Window(260, 0, 300, 400, 0.5, 0, 154, 0)

    def seen(canvas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every index as the canvas shows it: in each window, clipped by its edges."""
        boxes = []
        for win in (left, right):
            at = (indices - [win.x, win.y, win.x, win.y]) * win.zoom + [win.left, win.top] * 2
            at = np.clip(at, [win.left, win.top] * 2, [win.left + win.size[0], win.size[1]] * 2)
            boxes += [box for box in at if (box[2:] - box[:2] > 1).all()]
        return np.array(boxes, np.float32), np.full(len(boxes), 0.9, np.float32)

    boxes, scores = look(photo, [left, right], 640, seen)
    assert sorted(map(tuple, boxes.round().tolist())) == sorted(map(tuple, indices.tolist()))
    assert len(scores) == len(indices)


@pytest.mark.slow
def test_a_phone_photo_of_a_whole_table_is_read_in_two_passes(decks: list[Deck]) -> None:
    """A synthetic phone-size photo of a whole table (two players, cards laid at their
    seats, its indices under :data:`SMALL_INDEX` px at the detector's size) is read in two
    detector passes, every card certain and right (the 2x2 tiles took five passes)."""
    table = make_table(
        np.random.default_rng([55, 3]), decks, RULES_BY_PLAYERS[2], PHONE, layout="spread/seats"
    )
    cards = list({label.card_id: label.card for label in table.labels}.values())
    reader = CardReader(MODELS_DIR, threads=1)
    calls = []
    detect = reader._detect

    def counted(image: np.ndarray, least: float = DETECTOR_CONF) -> tuple[np.ndarray, np.ndarray]:
        calls.append(image.shape)
        return detect(image, least)

    reader._detect = counted  # type: ignore[method-assign]
    reading = reader.read(table.image)
    assert len(calls) == 2
    assert score_image(reading.certain_cards, cards) == (len(cards), 0, 0)
