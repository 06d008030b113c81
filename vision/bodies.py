"""Card bodies: which cards read on a photo lie on one stretch of card face (overlap or touch).

The corner indices alone say where a card's corner is, not where the card lies: the indices of
a fan are spread out, and a starter on the deck beside the crib can be as near the crib's cards
as they are to each other. The faces settle much of it: the cards of one fan or one row overlap,
so their white faces make one light region on the photo, while a starter set apart, or another
player's hand, lies on a region of its own.

A pixel is card paper when every channel is at least :data:`PAPER` of the photo's white (its
99th percentile per channel, so exposure and colour casts cancel); the paper is closed over
the thin outlines printed round a card's edge, and its connected regions are the bodies. A
region larger than :data:`MOST_PAPER` index heights squared per card on it is a light table or
a sheet of paper, not card faces: cards on it have no body.

A card alone on its body lies where that body does: its outline is the body's smallest
enclosing rectangle, when that has a card's shape and size (:data:`CARD_SHAPE`,
:data:`CARD_WIDTH`). It tells where a card read at one corner lies, which the corner alone does
not (a card read at its lower corner lies above and left of it).

Two corners read as different cards can be one card's two corners, each misread a little (a
5H's upper index read 5D, its lower one 5H): when they are the only cards on a body of a card's
shape and size and lie at its opposite corners, :func:`with_bodies` offers them to the reader,
which reads the card from both.

A body of one card's shape and size holds one card, however many were read on it. Asked for
(``shared_faces``), the cards read on such a body get its outline, so that the card's face can
say which of them it is, when they are two of one rank (one card whose corners disagree on its
suit: a webcam's 9C read 9S at one corner) or only one of them is certain (one card and its print
misread: a 9D with a pip read 2S beside it).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from vision.detection import DetectedCard, Outline

Box = tuple[float, float, float, float]
Bodies = tuple[list[int | None], np.ndarray, np.ndarray, float]
"""Each card's body label, the label image, OpenCV's statistics of each body, and the label
image's pixels per photo pixel (:func:`_bodies`)."""

WORK_SIDE = 800
"""The photo is looked at with its longer side at most this many pixels."""
PAPER = 0.8
"""A pixel is paper when each channel is at least this fraction of the photo's white (chosen on
synthetic tables, series 13: at 0.7 grey newsprint and light cloth joined cards of different
groups twice as often; at 0.85 camera effects split a hand into pieces half again as often)."""
OUTLINE = 3
"""Gaps this wide (working pixels) are closed: a card's printed outline, not a gap on the table."""
MOST_PAPER = 40.0
"""A card's face covers about 6 to 15 index heights squared per card on synthetic tables (less
where cards overlap); a region over this many per card read on it is not made of cards."""
CARD_SHAPE = (1.1, 2.4)
"""A body's rectangle is a card's outline when its long side over its short one is within this
range (a card's 1.4, as a photo from a seat stretches or squeezes it; 1.7 to 1.9 is common on
the synthetic tables)."""
CARD_WIDTH = (1.5, 5.0)
"""... and its short side within this many of the card's index sizes (about 3: 2.2 to 4.1 for
98 % of the cards alone on a body on synthetic tables, series 17 and 18; a sheet of paper
that a card lies on is far wider)."""
PAIR_CENTRE = 0.75
"""Two indices are a card's opposite corners when their middle lies within this many index sizes
of the centre of the card-shaped body they are alone on ..."""
PAIR_APART = 0.5
"""... and they are at least this share of the body's diagonal apart (opposite indices of a card
are about 0.7 of its diagonal apart; two cards' upper indices on one body lie to one side)."""


def body_labels(image: np.ndarray, cards: Sequence[Sequence[Box]]) -> list[int | None]:
    """The body each card lies on: cards with the same label lie on one stretch of card face.

    Args:
        image (np.ndarray): uint8 BGR photo.
        cards (Sequence[Sequence[Box]]): Each card's corner-index boxes (x1, y1, x2, y2) in
            ``image`` pixels.

    Returns:
        (list[int | None]): A label per card, or None when its indices lie on no paper, or on a
        light region too large to be cards.

    Examples:
        >>> photo = np.zeros((100, 200, 3), np.uint8)
        >>> photo[10:90, 10:60] = photo[10:90, 50:100] = photo[10:90, 140:190] = 255
        >>> corners = [[(12, 12, 18, 24)], [(90, 70, 98, 88)], [(142, 12, 148, 24)]]
        >>> a, b, c = body_labels(photo, corners)
        >>> a == b, a == c
        (True, False)
    """
    return _bodies(image, cards)[0]


def _bodies(image: np.ndarray, cards: Sequence[Sequence[Box]]) -> Bodies:
    """:func:`body_labels`, the paper regions, their statistics, and their scale.

    The regions are a label image (``scale`` of its pixels an ``image`` pixel), the statistics
    OpenCV's for each region.
    """
    if not cards:
        return [], np.zeros((0, 0), np.int32), np.zeros((0, 5), np.int32), 1.0
    h, w = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    small = image
    if scale < 1.0:
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    sample = small[::4, ::4].reshape(-1, 3)
    white = np.maximum(np.percentile(sample, 99, axis=0), 16.0)
    lowest = np.minimum(np.ceil(PAPER * white), 255).astype(np.uint8)
    paper = cv2.inRange(small, lowest, np.full(3, 255, np.uint8)) // 255
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (OUTLINE, OUTLINE))
    paper = cv2.morphologyEx(paper, cv2.MORPH_CLOSE, kernel)
    _, regions, stats, _ = cv2.connectedComponentsWithStats(paper, connectivity=8)
    labels: list[int | None] = []
    heights: list[float] = []
    for boxes in cards:
        votes: Counter[int] = Counter()
        for x1, y1, x2, y2 in boxes:
            under = regions[
                int(y1 * scale) : int(np.ceil(y2 * scale)) + 1,
                int(x1 * scale) : int(np.ceil(x2 * scale)) + 1,
            ]
            votes.update(int(v) for v in under[under > 0].ravel())
        labels.append(votes.most_common(1)[0][0] if votes else None)
        heights.append(float(np.median([y2 - y1 for _, y1, _, y2 in boxes])) if boxes else 0.0)
    on_region = Counter(label for label in labels if label is not None)
    for k, label in enumerate(labels):
        if label is None:
            continue
        area = stats[label, cv2.CC_STAT_AREA] / scale**2
        index = np.median([heights[j] for j, other in enumerate(labels) if other == label])
        if area > MOST_PAPER * on_region[label] * max(index, 1.0) ** 2:
            labels[k] = None
    return labels, regions, stats, scale


def with_bodies(
    image: np.ndarray,
    cards: Sequence[DetectedCard],
    scale: float = 1.0,
    one_card: Callable[[DetectedCard, DetectedCard], DetectedCard | None] | None = None,
    shared_faces: bool = False,
) -> list[DetectedCard]:
    """``cards`` with their :attr:`~vision.reader.DetectedCard.body` found on ``image``.

    Args:
        image (np.ndarray): uint8 BGR photo the cards were read on.
        cards (Sequence[DetectedCard]): Cards read, their boxes in photo pixels.
        scale (float): Photo pixels per ``image`` pixel.
        one_card (Callable | None): Offered each two cards read at one corner each that are
            one card's opposite corners (the only cards on a card-shaped body, at its opposite
            corners); the card it returns, read from both, replaces the two (None keeps them).
        shared_faces (bool): Also give the outline of a body of one card's shape and size to
            the cards read on it when they are two of one rank or only one of them is certain.

    Returns:
        (list[DetectedCard]): The same cards, each with its body label, and its
        :attr:`~vision.reader.DetectedCard.outline` when it lies alone on its body (or shares
        one card's face, ``shared_faces``).
    """
    cards = list(cards)
    boxes = _corner_boxes(cards, scale)
    bodies = _bodies(image, boxes)
    labels, regions, stats, work_scale = bodies
    if one_card is not None:
        gone = set()
        for a, b in _opposite_corners(bodies, boxes, cards, scale):
            card = one_card(cards[a], cards[b])
            if card is not None:
                cards[a] = card
                gone.add(b)
        cards = [card for k, card in enumerate(cards) if k not in gone]
        labels = [label for k, label in enumerate(labels) if k not in gone]
    on_body = Counter(label for label in labels if label is not None)
    shared = _shared_faces(cards, labels, on_body) if shared_faces else set()
    return [
        dataclasses.replace(
            card,
            body=label,
            outline=None
            if label is None or (on_body[label] > 1 and label not in shared)
            else _outline(regions, stats[label], label, scale / work_scale, _index_size(card)),
        )
        for card, label in zip(cards, labels, strict=True)
    ]


def _shared_faces(
    cards: Sequence[DetectedCard], labels: list[int | None], on_body: Counter[int]
) -> set[int]:
    """The bodies whose several cards (``on_body``: how many lie on each) are one card's.

    Two of one rank (its corners disagreeing), or several of which only one is certain (its
    print misread as the others).
    """
    ranks_on: dict[int, set[str]] = {}
    certain_on: Counter[int] = Counter()
    for card, label in zip(cards, labels, strict=True):
        if label is not None:
            ranks_on.setdefault(label, set()).add(card.card[:-1])
            certain_on[label] += not card.uncertain
    return {
        label
        for label, n in on_body.items()
        if n > 1 and ((n == 2 and len(ranks_on[label]) == 1) or certain_on[label] == 1)
    }


def _corner_boxes(cards: Sequence[DetectedCard], scale: float) -> list[list[Box]]:
    """Each card's corner boxes in ``image`` pixels."""
    return [[_unscaled(box, scale) for box in card.corners or (card.box,)] for card in cards]


def _opposite_corners(
    bodies: Bodies, boxes: list[list[Box]], cards: Sequence[DetectedCard], scale: float
) -> list[tuple[int, int]]:
    """Pairs of cards read at one corner each that are one card's two opposite corners.

    The two are the only cards on their body (``bodies``, :func:`_bodies` of ``boxes``), the
    body has a card's shape and size (its rectangle as for
    :attr:`~vision.reader.DetectedCard.outline`), and the indices lie at its opposite corners
    (:data:`PAIR_CENTRE`, :data:`PAIR_APART`). Each card is in one pair at most.
    """
    labels, regions, stats, work_scale = bodies
    on_body: dict[int, list[int]] = {}
    for k, label in enumerate(labels):
        if label is not None:
            on_body.setdefault(label, []).append(k)
    pairs = []
    for label, (a, b) in ((lb, ks) for lb, ks in on_body.items() if len(ks) == 2):
        if len(boxes[a]) != 1 or len(boxes[b]) != 1:
            continue
        index = (_index_size(cards[a]) + _index_size(cards[b])) / 2
        rectangle = _outline(regions, stats[label], label, scale / work_scale, index)
        if rectangle is None:
            continue
        (cx, cy), (w, h), _ = rectangle
        (ax, ay), (bx, by) = cards[a].center, cards[b].center
        off_centre = np.hypot((ax + bx) / 2 - cx, (ay + by) / 2 - cy)
        apart = np.hypot(ax - bx, ay - by)
        if off_centre <= PAIR_CENTRE * index and apart >= PAIR_APART * np.hypot(w, h):
            pairs.append((a, b))
    return pairs


def _index_size(card: DetectedCard) -> float:
    """The longer side of the card's corner indices (the median of them), in photo pixels."""
    return float(np.median([max(b[2] - b[0], b[3] - b[1]) for b in card.corners or (card.box,)]))


def _outline(
    regions: np.ndarray, stats: np.ndarray, label: int, scale: float, index: float
) -> Outline | None:
    """The smallest rectangle around body ``label``, if it has the shape and size of a card.

    ``stats`` are OpenCV's statistics of the body (its bounding box first), ``index`` the size
    of the card's indices. The rectangle is in photo pixels, ``scale`` of them a pixel of
    ``regions``.
    """
    left, top, width, height = (int(v) for v in stats[:4])
    body = (regions[top : top + height, left : left + width] == label).astype(np.uint8)
    (x, y), (w, h), angle = cv2.minAreaRect(cv2.findNonZero(body))
    if not CARD_SHAPE[0] <= max(w, h) / max(min(w, h), 1.0) <= CARD_SHAPE[1]:
        return None
    if not CARD_WIDTH[0] <= min(w, h) * scale / max(index, 1.0) <= CARD_WIDTH[1]:
        return None
    return ((x + left) * scale, (y + top) * scale), (w * scale, h * scale), angle


def _unscaled(box: Box, scale: float) -> Box:
    return (box[0] / scale, box[1] / scale, box[2] / scale, box[3] / scale)


__all__ = ["body_labels", "with_bodies"]
