"""The detector's second look at the small indices a big photo's first pass found.

A detector pass costs the same at any input size (every input is letterboxed to the detector's
side), so a second look costs its passes. It looks only around the small indices found: a
window reaching :data:`AROUND` index sides around each, overlapping windows merged, each zoomed
so that its indices come out :data:`READABLE` px, the windows packed side by side on as few
detector-sized canvases as hold them (one pass each, at most :data:`CANVASES`; zoomed less,
down to :data:`LEAST_ZOOM`, until they fit). Where the canvases have room left, windows around
unsurer detections are added and every window reaches farther (:data:`FARTHEST`). The boxes
found on a canvas are mapped back to the photo; a box cut by its window's edge inside the photo
is dropped (its index lies across the edge, where the first pass or the next window sees it
whole).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

READABLE = 24.0
"""Pixels a small index is zoomed to on a canvas, where they fit (the detector finds indices of
16 px or more at its size reliably, :data:`vision.reader.SMALL_INDEX`)."""
AROUND = 4.0
"""How far a window reaches around a small index, in that index's sides: to its card's other
corner and the cards beside it (chosen on synthetic tables, model card's HISTORY.md)."""
CANVASES = 2
"""The most canvases (detector passes) a second look may take."""
LEAST_ZOOM = 1.35
"""The least zoom of a window, in times the first pass's (the photo letterboxed whole): windows
that fit on :data:`CANVASES` canvases only at less get the 2x2 tiles instead (chosen on
synthetic tables)."""
FARTHEST = 12.0
"""The farthest a window reaches around a small index (in its sides) where the canvases have
room: cards beside those found, of which the first pass saw nothing."""
GAP = 4
"""Grey pixels between windows on a canvas."""
EDGE = 2.0
"""A box found within this many canvas pixels of its window's edge inside the photo is cut by
that edge."""
GREY = 114
"""The canvas's ground (the letterbox's grey)."""

Detect = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
"""One detector pass: boxes (N, 4) in the given image's pixels and scores (N,)."""


@dataclass(frozen=True)
class Window:
    """A region of the photo pasted onto a canvas.

    Attributes:
        x (int): Left edge in the photo.
        y (int): Top edge in the photo.
        w (int): Width in the photo.
        h (int): Height in the photo.
        zoom (float): Canvas pixels per photo pixel.
        canvas (int): Which canvas it is pasted on.
        left (int): Its left edge on the canvas.
        top (int): Its top edge on the canvas.
    """

    x: int
    y: int
    w: int
    h: int
    zoom: float
    canvas: int = 0
    left: int = 0
    top: int = 0

    @property
    def size(self) -> tuple[int, int]:
        """Its (width, height) on the canvas."""
        return max(1, round(self.w * self.zoom)), max(1, round(self.h * self.zoom))


def regions(
    boxes: np.ndarray, photo: tuple[int, int], around: float = AROUND
) -> list[tuple[int, int, int, int, float]]:
    """The regions to look at around ``boxes`` (small indices, photo pixels).

    One window ``around`` sides around each index, clipped to the ``photo`` (width,
    height); windows that overlap are merged into the rectangle around them until none does.

    Returns:
        (list[tuple[int, int, int, int, float]]): Each region's x, y, width, height and its
        indices' median side.
    """
    sides = _sides(boxes)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    reach = around * sides[:, None]
    rects = np.c_[np.maximum(centres - reach, 0), np.minimum(centres + reach, photo)]
    member = np.arange(len(rects))  # the region each index's window is in
    while True:
        a, b = rects[:, None], rects[None]
        meet = ((a[..., :2] < b[..., 2:]) & (b[..., :2] < a[..., 2:])).all(-1)
        group = _components(meet)
        if group.max() + 1 == len(rects):
            break
        member = group[member]
        rects = np.array(
            [
                np.r_[rects[group == g, :2].min(0), rects[group == g, 2:].max(0)]
                for g in range(group.max() + 1)
            ]
        )
    out = []
    for g, (x1, y1, x2, y2) in enumerate(rects):
        x, y = int(x1), int(y1)
        index = float(np.median(sides[member == g]))
        out.append((x, y, int(np.ceil(x2)) - x, int(np.ceil(y2)) - y, index))
    return out


def _components(meet: np.ndarray) -> np.ndarray:
    """The connected component (0, 1, ...) of each node of the symmetric adjacency ``meet``."""
    group = np.full(len(meet), -1)
    for start in range(len(meet)):
        if group[start] >= 0:
            continue
        new = group.max() + 1
        front = np.zeros(len(meet), bool)
        front[start] = True
        while front.any():
            group[front] = new
            front = meet[front].any(0) & (group < 0)
    return group


def _pieces(region: tuple[int, int, int, int, float], zoom: float, most: int) -> list[Window]:
    """The ``region`` (x, y, width, height, index side) as windows of ``most`` canvas px or less.

    As few as cover it at ``zoom``, overlapping by two index sides (an index cut by one
    window's edge lies whole in the next).
    """
    x, y, w, h, index = region
    reach = int(most / zoom)
    overlap = min(int(2 * index), reach // 2)
    cols, rows = (max(1, -(-(n - overlap) // (reach - overlap))) for n in (w, h))
    pw = min(w, -(-(w - overlap) // cols) + overlap)
    ph = min(h, -(-(h - overlap) // rows) + overlap)
    xs = np.linspace(x, x + w - pw, cols).round().astype(int)
    ys = np.linspace(y, y + h - ph, rows).round().astype(int)
    return [Window(int(px), int(py), pw, ph, zoom) for py in ys for px in xs]


def pack(windows: list[Window], side: int, most: int) -> list[Window] | None:
    """``windows`` placed on ``side`` px canvases, or None when they need more than ``most``.

    In shelves: the tallest first, left to right, :data:`GAP` apart.
    """
    shelves: list[list[int]] = []  # canvas, top, height, width used
    placed = []
    for win in sorted(windows, key=lambda win: -win.size[1]):
        w, h = win.size
        spot = next((s for s in shelves if s[3] + w <= side and h <= s[2]), None)
        if spot is None:
            canvas = shelves[-1][0] if shelves else 0
            top = shelves[-1][1] + shelves[-1][2] + GAP if shelves else 0
            if top + h > side:
                canvas, top = canvas + 1, 0
            if canvas >= most:
                return None
            spot = [canvas, top, h, 0]
            shelves.append(spot)
        placed.append(Window(win.x, win.y, win.w, win.h, win.zoom, spot[0], spot[3], spot[1]))
        spot[3] += w + GAP
    return placed


def plan(
    boxes: np.ndarray, photo: tuple[int, int], side: int, unsure: np.ndarray | None = None
) -> list[Window] | None:
    """The windows of a second look around ``boxes`` (small indices, photo pixels), or None.

    On as few canvases of ``side`` px as they fit, up to :data:`CANVASES`, zoomed as
    :data:`READABLE` asks or less, but not under :data:`LEAST_ZOOM` times the first pass's zoom;
    then, as long as they still fit so, around the likeliest of ``unsure`` too (detections too
    unsure to look around surely, best first) and reaching farther around the indices (up to
    :data:`FARTHEST`). None when there are no ``boxes`` or they fit on no more canvases.
    """
    if not len(boxes):
        return None
    least = side / max(photo) * LEAST_ZOOM
    unsure = np.zeros((0, 4), np.float32) if unsure is None else unsure
    for canvases in range(1, CANVASES + 1):
        shrink = 1.0
        while (placed := _fit(boxes, photo, side, AROUND, shrink, canvases)) is None:
            if shrink * READABLE / _sides(boxes).min() <= least:
                break
            shrink *= 0.85
        if placed is None:
            continue
        taken = 0  # of the unsure, best first, doubling
        while taken < len(unsure):
            more = min(len(unsure), max(4, 2 * taken))
            seeds = np.concatenate([boxes, unsure[:more]])
            if (wider := _fit(seeds, photo, side, AROUND, shrink, canvases)) is None:
                break
            placed, taken = wider, more
        boxes = np.concatenate([boxes, unsure[:taken]])
        around = AROUND * 1.5
        while around <= FARTHEST and (wider := _fit(boxes, photo, side, around, shrink, canvases)):
            placed, around = wider, around * 1.5
        return placed
    return None


def _sides(boxes: np.ndarray) -> np.ndarray:
    return (boxes[:, 2:] - boxes[:, :2]).max(1)  # type: ignore[no-any-return]


def _fit(
    boxes: np.ndarray,
    photo: tuple[int, int],
    side: int,
    around: float,
    shrink: float,
    canvases: int,
) -> list[Window] | None:
    """The windows ``around`` index sides around ``boxes`` packed on ``canvases``, or None.

    On canvases of ``side`` px, zoomed ``shrink`` times as :data:`READABLE` asks but at least
    :data:`LEAST_ZOOM` times the first pass's zoom, regions cut to fit a canvas, or else
    into halves of one.
    """
    least = side / max(photo) * LEAST_ZOOM
    zoomed = [(r, max(least, shrink * READABLE / r[4])) for r in regions(boxes, photo, around)]
    for cut in (side, side // 2):
        windows = [piece for region, zoom in zoomed for piece in _pieces(region, zoom, cut)]
        placed = pack(windows, side, canvases)
        if placed is not None:
            return placed
    return None


def look(
    image: np.ndarray, windows: list[Window], side: int, detect: Detect
) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (N, 4, photo pixels) and scores ``detect`` finds on the canvases of ``windows``.

    The canvases are ``side`` px; boxes cut by a window's edge inside the photo are left out.
    """
    h, w = image.shape[:2]
    found, scores = [], []
    for k in range(max(win.canvas for win in windows) + 1):
        on_it = [win for win in windows if win.canvas == k]
        canvas = np.full((side, side, 3), GREY, np.uint8)
        for win in on_it:
            cw, ch = win.size
            interp = cv2.INTER_AREA if win.zoom < 1 else cv2.INTER_LINEAR
            part = image[win.y : win.y + win.h, win.x : win.x + win.w]
            canvas[win.top : win.top + ch, win.left : win.left + cw] = cv2.resize(
                part, (cw, ch), interpolation=interp
            )
        boxes, score = detect(canvas)
        for win in on_it:
            cw, ch = win.size
            lo = np.array([win.left, win.top] * 2, np.float32)
            hi = lo + np.array([cw, ch, cw, ch], np.float32)
            centre = (boxes[:, :2] + boxes[:, 2:]) / 2
            inside = ((centre >= lo[:2]) & (centre < hi[:2])).all(1)
            inner = np.array([win.x > 0, win.y > 0, win.x + win.w < w, win.y + win.h < h])
            near = np.c_[boxes[:, :2] - lo[:2] < EDGE, hi[2:] - boxes[:, 2:] < EDGE]
            keep = inside & ~(near & inner).any(1)
            at = (np.clip(boxes[keep], lo, hi) - lo) / win.zoom + [win.x, win.y, win.x, win.y]
            found.append(at.astype(np.float32))
            scores.append(score[keep])
    return np.concatenate(found), np.concatenate(scores)
