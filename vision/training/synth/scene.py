"""Scene composition with exact corner-index labels.

A scene is a table background with cards laid out as cribbage players make them (fanned hands,
hand + starter, crib + starter, loose piles, single cards, bridge-style fans), distractors (card
backs, a cribbage board, pegs, chips) and fingers, all seen through one perspective camera.
Every card's corner-index quads go through the same homography as the card; visibility is measured
on an owner map painted in z-order (each pixel remembers which card is on top), so a corner that is
covered, or outside the frame, by more than ``1 - MIN_VISIBLE`` is not labelled.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import CARDS
from vision.training.synth.backgrounds import background
from vision.training.synth.effects import apply_camera
from vision.training.synth.faces import Deck
from vision.training.synth.negatives import brand_print

MIN_VISIBLE = 0.6
"""Fraction of a corner-index quad that must be visible (on top, in frame) to be labelled."""
MIN_INDEX_PX = 5.0
"""Smallest labelled index box side (pixels) in the final image."""

SKIN = (
    (80, 110, 170),
    (100, 140, 210),
    (60, 90, 150),
    (40, 60, 100),
    (120, 160, 225),
    (30, 45, 75),
)


@dataclass
class IndexLabel:
    """One printed corner index.

    Attributes:
        card (str): Card code, e.g. ``"10D"``.
        quad (np.ndarray): (4, 2) float corners in image pixels.
        box (tuple[float, float, float, float]): Box x1, y1, x2, y2 clipped to the image.
        visible (float): Visible fraction in [0, 1].
        card_id (int): Which physical card in the scene it belongs to.
    """

    card: str
    quad: np.ndarray
    box: tuple[float, float, float, float]
    visible: float
    card_id: int


@dataclass
class Scene:
    """A rendered synthetic photo and its labels.

    Attributes:
        image (np.ndarray): uint8 BGR image.
        labels (list[IndexLabel]): Corner indices that are visible enough to be labelled.
        hidden (list[IndexLabel]): Corner indices that are not labelled (covered or out of frame).
        owner (np.ndarray): int16 map of the topmost card id per pixel (-1 background/occluder).
        cards (list[str]): Every face-up card placed, in card-id order.
        layout (str): Layout name.
        starter (int | None): Card id of the starter set apart (``hand+starter`` layout only).
    """

    image: np.ndarray
    labels: list[IndexLabel]
    hidden: list[IndexLabel]
    owner: np.ndarray
    cards: list[str]
    layout: str
    starter: int | None = None

    @property
    def visible_cards(self) -> list[str]:
        """Distinct card codes with at least one labelled corner."""
        return sorted({lab.card for lab in self.labels})


@dataclass
class _Placed:
    """A card on the table: face-up code (or None for a back) and table-plane transform."""

    card: str | None
    deck: Deck
    m: np.ndarray  # 3x3: face pixels -> table plane


def _rot(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)


def _trans(x: float, y: float) -> np.ndarray:
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], np.float64)


def _scale(s: float) -> np.ndarray:
    return np.diag([s, s, 1.0])


def _card_m(deck: Deck, ch: float, cx: float, cy: float, ang: float) -> np.ndarray:
    """Face pixels -> table: scale to height ``ch``, rotate by ``ang``, centre at (cx, cy)."""
    h, w = deck.face_size
    return _trans(cx, cy) @ _rot(ang) @ _scale(ch / h) @ _trans(-w / 2, -h / 2)


# ------------------------------------------------------------------------------------- layouts
# Each returns a list of (center_x, center_y, angle) in units of card height, around the origin.


def _fan(rng: np.random.Generator, n: int) -> list[tuple[float, float, float]]:
    step = np.deg2rad(rng.uniform(2.5, 16))
    r = rng.uniform(0.2, 0.55)
    a0 = -step * (n - 1) / 2
    out = []
    for i in range(n):
        a = a0 + i * step + rng.normal(0, 0.02)
        out.append((r * np.sin(a), -r * np.cos(a) + r, a))
    return out


def _spread(rng: np.random.Generator, n: int) -> list[tuple[float, float, float]]:
    dx = rng.uniform(0.12, 0.9) * 0.7
    dy = rng.normal(0, 0.05)
    return [(i * dx, i * dy, rng.normal(0, 0.05)) for i in range(n)]


def _pile(rng: np.random.Generator, n: int) -> list[tuple[float, float, float]]:
    rad = rng.uniform(0.3, 1.2)
    return [(*rng.normal(0, rad / 2, 2), rng.uniform(-np.pi, np.pi)) for _ in range(n)]


def _singles(rng: np.random.Generator, n: int) -> list[tuple[float, float, float]]:
    out: list[tuple[float, float, float]] = []
    cols = int(np.ceil(np.sqrt(n)))
    for i in range(n):
        out.append(
            (
                (i % cols) * rng.uniform(0.8, 1.3) + rng.normal(0, 0.1),
                (i // cols) * rng.uniform(1.1, 1.5) + rng.normal(0, 0.1),
                rng.normal(0, 0.4) if rng.random() < 0.5 else rng.uniform(-np.pi, np.pi),
            )
        )
    return out


def _group(rng: np.random.Generator, n: int) -> list[tuple[float, float, float]]:
    k = rng.random()
    return _fan(rng, n) if k < 0.45 else _spread(rng, n) if k < 0.8 else _pile(rng, n)


def _layout(rng: np.random.Generator) -> tuple[str, list[list[tuple[float, float, float]]]]:
    """Pick a layout; returns its name and groups of card poses (card-height units)."""
    u = rng.random()
    if u < 0.25:
        return "hand", [_group(rng, int(rng.integers(4, 7)))]
    if u < 0.50:  # hand or crib of four plus a starter set apart
        return "hand+starter", [_group(rng, 4), [(0.0, 0.0, rng.uniform(-np.pi, np.pi))]]
    if u < 0.62:
        return "pile", [_pile(rng, int(rng.integers(2, 9)))]
    if u < 0.80:
        return "singles", [_singles(rng, int(rng.integers(1, 6)))]
    if u < 0.90:  # bridge-style fans of many cards
        return "bridge", [
            _fan(rng, int(rng.integers(7, 14))) for _ in range(int(rng.integers(1, 5)))
        ]
    return "mixed", [_group(rng, int(rng.integers(2, 7))) for _ in range(int(rng.integers(2, 4)))]


# ------------------------------------------------------------------------------------ painting


def _rounded_mask(h: int, w: int, r: float) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    r = max(1, int(r))
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


def _paint(
    canvas: np.ndarray,
    owner: np.ndarray,
    src: np.ndarray,
    mask: np.ndarray,
    h: np.ndarray,
    oid: int,
    shadow: float = 0.0,
) -> None:
    """Warp ``src`` (with ``mask``) by homography ``h`` onto ``canvas`` inside its bounding box."""
    H, W = canvas.shape[:2]
    sh, sw = src.shape[:2]
    pts = cv2.perspectiveTransform(np.array([[[0, 0], [sw, 0], [sw, sh], [0, sh]]], np.float64), h)[
        0
    ]
    pad = 4 + int(shadow * 3)
    x0, y0 = (np.floor(pts.min(0)) - pad).astype(int)
    x1, y1 = (np.ceil(pts.max(0)) + pad).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if x1 <= x0 or y1 <= y0:
        return
    hh = _trans(-x0, -y0) @ h
    size = (x1 - x0, y1 - y0)
    m = cv2.warpPerspective(mask, hh, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    roi = canvas[y0:y1, x0:x1]
    if shadow > 0:
        k = int(shadow) * 2 + 1
        sm = cv2.GaussianBlur(m, (k, k), 0)
        sm = np.roll(sm, (int(shadow * 0.5), int(shadow * 0.5)), (0, 1))
        roi *= 1 - 0.45 * sm[..., None]
    img = cv2.warpPerspective(
        src, hh, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    roi[:] = roi * (1 - m[..., None]) + img.astype(np.float32) * m[..., None]
    o = owner[y0:y1, x0:x1]
    o[m > 0.5] = oid


def _finger(rng: np.random.Generator, length: float, width: float) -> tuple[np.ndarray, np.ndarray]:
    """A finger-like sprite (shaded rounded bar with a nail) and its mask."""
    L, Wd = max(8, int(length)), max(4, int(width))
    img = np.zeros((Wd, L, 3), np.float32)
    base = np.array(SKIN[rng.integers(len(SKIN))], np.float32) * rng.uniform(0.8, 1.2)
    t = np.abs(np.linspace(-1, 1, Wd))[:, None, None]
    img[:] = base * (1.1 - 0.45 * t**2)
    mask = np.zeros((Wd, L), np.uint8)
    cv2.rectangle(mask, (0, 0), (L - Wd // 2, Wd - 1), 255, -1)
    cv2.circle(mask, (L - Wd // 2 - 1, Wd // 2), Wd // 2, 255, -1, cv2.LINE_AA)
    cv2.ellipse(
        img,
        (L - Wd // 2 - 2, Wd // 2),
        (max(1, Wd // 3), max(1, Wd // 4)),
        0,
        0,
        360,
        tuple(float(v) for v in np.minimum(base * 1.25, 255)),
        -1,
    )
    return np.clip(img, 0, 255).astype(np.uint8), mask


def _board(rng: np.random.Generator, ch: float) -> tuple[np.ndarray, np.ndarray]:
    """A cribbage board sprite: wooden plank with rows of peg holes."""
    L, Wd = int(ch * rng.uniform(2.5, 4.5)), int(ch * rng.uniform(0.5, 0.9))
    img = np.zeros((Wd, L, 3), np.uint8)
    img[:] = np.array([rng.uniform(30, 80), rng.uniform(70, 120), rng.uniform(120, 190)])
    for i in range(3):
        for j in range(0, 30):
            x, y = int(L * (0.08 + 0.84 * j / 29)), int(Wd * (0.25 + 0.25 * i))
            cv2.circle(img, (x, y), max(1, Wd // 30), (20, 20, 25), -1)
    return img, np.full((Wd, L), 255, np.uint8)


def _chip(rng: np.random.Generator, d: float) -> tuple[np.ndarray, np.ndarray]:
    """A poker chip or peg head sprite."""
    s = max(6, int(d))
    img = np.zeros((s, s, 3), np.uint8)
    col = tuple(int(v) for v in rng.integers(0, 255, 3))
    cv2.circle(img, (s // 2, s // 2), s // 2, col, -1, cv2.LINE_AA)
    if rng.random() < 0.6:
        for a in range(0, 360, 45):
            cv2.ellipse(
                img,
                (s // 2, s // 2),
                (s // 2 - 1, s // 2 - 1),
                0,
                a,
                a + 15,
                (240, 240, 240),
                max(1, s // 8),
            )
    mask = np.zeros((s, s), np.uint8)
    cv2.circle(mask, (s // 2, s // 2), s // 2, 255, -1, cv2.LINE_AA)
    return img, mask


def _back(rng: np.random.Generator, deck: Deck) -> np.ndarray:
    h, w = deck.face_size
    if deck.back is not None and rng.random() < 0.7:
        return cv2.resize(deck.back, (w, h))
    img = np.full((h, w, 3), 255, np.uint8)
    col = tuple(int(v) for v in rng.integers(0, 200, 3))
    cv2.rectangle(img, (8, 8), (w - 9, h - 9), col, -1)
    for k in range(-h, w, 10):
        cv2.line(img, (k, 8), (k + h, h), (255, 255, 255), 1)
    return img


def keystone(quad: np.ndarray, shrink: float, edge: int) -> np.ndarray:
    """``quad`` (4 x 2, clockwise from top-left) with edge ``edge`` shrunk about its middle.

    Examples:
        >>> keystone(np.float32([[0, 0], [10, 0], [10, 10], [0, 10]]), 0.6, 0)[:2].tolist()
        [[2.0, 0.0], [8.0, 0.0]]
    """
    out = quad.astype(np.float32).copy()
    a, b = edge, (edge + 1) % 4
    mid = (out[a] + out[b]) / 2
    out[a] = mid + (out[a] - mid) * shrink
    out[b] = mid + (out[b] - mid) * shrink
    return out


def index_quads(deck: Deck) -> list[np.ndarray]:
    """Corner-index quads in face pixels: top-left, bottom-right (180°), others if printed."""
    h, w = deck.face_size
    x1, y1, x2, y2 = deck.index_box
    tl = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float64)
    quads = [tl, np.array([w, h]) - tl]
    if deck.four_corners:
        quads += [np.c_[w - tl[:, 0], tl[:, 1]], np.c_[tl[:, 0], h - tl[:, 1]]]
    return quads


def _visible_fraction(quad: np.ndarray, owner: np.ndarray, oid: int) -> float:
    area = abs(cv2.contourArea(quad.astype(np.float32)))
    if area < 1:
        return 0.0
    H, W = owner.shape
    x0, y0 = np.floor(quad.min(0)).astype(int)
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 1
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if cx1 <= cx0 or cy1 <= cy0:
        return 0.0
    m = np.zeros((cy1 - cy0, cx1 - cx0), np.uint8)
    cv2.fillPoly(m, [np.round(quad - [cx0, cy0]).astype(np.int32)], 1)
    inside = float(m.sum())
    vis = float(((owner[cy0:cy1, cx0:cx1] == oid) & (m > 0)).sum())
    # normalise by the rasterised full area (the part outside the frame counts as hidden)
    return min(1.0, vis / max(area, inside, 1.0))


def make_scene(
    rng: np.random.Generator,
    decks: list[Deck],
    size: tuple[int, int] | None = None,
    effects: bool = True,
) -> Scene:
    """Compose one synthetic photo.

    Args:
        rng (np.random.Generator): Source of all randomness (the scene is a function of its state).
        decks (list[Deck]): Loaded decks to draw faces from.
        size (tuple[int, int] | None): (width, height); random if None.
        effects (bool): Apply camera effects.

    Returns:
        (Scene): The image and its labels.
    """
    if size is None:
        long = int(rng.choice([640, 800, 960, 1024, 1280]))
        ar = float(rng.choice([4 / 3, 3 / 2, 16 / 9, 1.0]))
        W, H = (long, int(long / ar)) if rng.random() < 0.6 else (int(long / ar), long)
    else:
        W, H = size
    canvas = background(rng, H, W).astype(np.float32)
    owner = np.full((H, W), -1, np.int16)
    layout, groups = _layout(rng)
    many = sum(len(g) for g in groups)
    short = min(W, H)
    lo, hi = (0.08, 0.3) if layout == "bridge" else (0.1, 0.6)
    ch = short * float(np.exp(rng.uniform(np.log(lo), np.log(hi))))
    deck = decks[rng.integers(len(decks))]
    chosen = list(rng.permutation(CARDS)[: many + 2])

    # table plane == image plane before the camera homography; place groups around the centre
    placed: list[_Placed] = []
    centers: list[tuple[float, float]] = []
    starter = None
    for gi, g in enumerate(groups):
        ang = rng.uniform(-np.pi, np.pi) if rng.random() < 0.7 else rng.normal(0, 0.3)
        if layout == "hand+starter" and gi == 1:
            d = ch * rng.uniform(1.6, 3.0)
            a = rng.uniform(0, 2 * np.pi)
            gx, gy = centers[0][0] + d * np.cos(a), centers[0][1] + d * np.sin(a)
        elif gi == 0:
            gx, gy = W / 2 + rng.normal(0, W * 0.12), H / 2 + rng.normal(0, H * 0.12)
        else:
            gx, gy = rng.uniform(0.15 * W, 0.85 * W), rng.uniform(0.15 * H, 0.85 * H)
        centers.append((gx, gy))
        pts = np.array([(x, y) for x, y, _ in g]) * ch
        pts -= pts.mean(0)
        order = list(range(len(g)))
        if rng.random() < 0.3:
            order.reverse()
        for i in order:
            a = g[i][2]
            p = _rot(ang)[:2, :2] @ pts[i]
            m = _card_m(deck, ch, gx + p[0], gy + p[1], a + ang)
            if layout == "hand+starter" and gi == 1:
                starter = len([q for q in placed if q.card is not None])
            placed.append(_Placed(chosen.pop(), deck, m))
    # distractor card backs shuffled into the z-order
    for _ in range(int(rng.poisson(0.4))):
        m = _card_m(deck, ch, rng.uniform(0, W), rng.uniform(0, H), rng.uniform(-np.pi, np.pi))
        placed.insert(int(rng.integers(0, len(placed) + 1)), _Placed(None, deck, m))

    # camera: perspective tilt of the whole table
    t = rng.uniform(0, 0.18) if rng.random() < 0.7 else 0.0
    src = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
    dst = (src + rng.uniform(-t, t, (4, 2)) * [W, H]).astype(np.float32)
    if rng.random() < 0.25:  # a phone leant back: one edge of the table shrinks to 55-90%
        dst = keystone(dst, float(rng.uniform(0.55, 0.9)), int(rng.integers(4)))
    cam = cv2.getPerspectiveTransform(src, dst).astype(np.float64)

    # under-card distractors
    if rng.random() < 0.2:
        img, mk = _board(rng, ch)
        hb = (
            cam
            @ _trans(rng.uniform(0, W), rng.uniform(0, H))
            @ _rot(rng.uniform(0, np.pi))
            @ _trans(-mk.shape[1] / 2, -mk.shape[0] / 2)
        )
        _paint(canvas, owner, img, mk, hb, -1, shadow=3)
    for _ in range(int(rng.poisson(0.5))):
        img, mk = _chip(rng, ch * rng.uniform(0.15, 0.4))
        _paint(canvas, owner, img, mk, cam @ _trans(rng.uniform(0, W), rng.uniform(0, H)), -1, 2)

    fh, fw = deck.face_size
    mask = _rounded_mask(fh, fw, 0.06 * fw)
    edge = np.array(rng.uniform(90, 200, 3))
    cards: list[str] = []
    quads: list[tuple[str, int, np.ndarray]] = []
    sh = max(1.0, ch * rng.uniform(0.0, 0.04))
    face_quads = index_quads(deck)
    for p in placed:
        h = cam @ p.m
        if p.card is None:
            _paint(canvas, owner, _back(rng, deck), mask, h, -1, sh)
            continue
        face = deck.faces[p.card].copy()
        if rng.random() < (0.5 if p.card[0] == "A" else 0.08):
            brand_print(rng, face, deck.index_box)
        cv2.rectangle(face, (0, 0), (fw - 1, fh - 1), tuple(float(v) for v in edge), 1)
        cid = len(cards)
        cards.append(p.card)
        _paint(canvas, owner, face, mask, h, cid, sh)
        for q in face_quads:
            quads.append((p.card, cid, cv2.perspectiveTransform(q[None], h)[0]))

    # fingers holding a hand, sometimes over corners
    if layout in ("hand", "hand+starter", "bridge", "mixed") and rng.random() < 0.6:
        for _ in range(int(rng.integers(1, 4))):
            img, mk = _finger(rng, ch * rng.uniform(0.4, 0.9), ch * rng.uniform(0.1, 0.18))
            gx, gy = centers[0]
            hf = (
                cam
                @ _trans(gx + rng.normal(0, ch * 0.4), gy + rng.normal(0, ch * 0.4))
                @ _rot(rng.uniform(0, 2 * np.pi))
                @ _trans(-mk.shape[1] * 0.9, -mk.shape[0] / 2)
            )
            _paint(canvas, owner, img, mk, hf, -1, 2)
    for _ in range(int(rng.poisson(0.3))):  # pegs on top
        img, mk = _chip(rng, ch * rng.uniform(0.05, 0.12))
        _paint(canvas, owner, img, mk, cam @ _trans(rng.uniform(0, W), rng.uniform(0, H)), -1, 1)

    image = np.clip(canvas, 0, 255).astype(np.uint8)
    if effects:
        image = apply_camera(image, rng)
    labels, hidden = labelled_indices(quads, owner)
    return Scene(image, labels, hidden, owner, cards, layout, starter)


def labelled_indices(
    quads: list[tuple[str, int, np.ndarray]], owner: np.ndarray
) -> tuple[list[IndexLabel], list[IndexLabel]]:
    """The labels of the corner indices ``quads``: those a detector should find, and the rest.

    Found: at least :data:`MIN_VISIBLE` of the index seen, and :data:`MIN_INDEX_PX` across.
    ``quads`` holds (card, card id, quad in photo pixels); ``owner`` says which card each pixel
    of the photo shows.
    """
    H, W = owner.shape
    labels: list[IndexLabel] = []
    hidden: list[IndexLabel] = []
    for card, cid, q in quads:
        vis = _visible_fraction(q, owner, cid)
        x1, y1 = np.clip(q.min(0), 0, [W, H])
        x2, y2 = np.clip(q.max(0), 0, [W, H])
        lab = IndexLabel(card, q, (float(x1), float(y1), float(x2), float(y2)), vis, cid)
        big = min(x2 - x1, y2 - y1) >= MIN_INDEX_PX
        (labels if vis >= MIN_VISIBLE and big else hidden).append(lab)
    return labels, hidden
