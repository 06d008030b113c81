"""Webcam frames: what an ordinary camera makes of cards on a desk in dim indoor light.

A webcam frame (1280x720) of 3 to 13 cards scattered on a grey desk or a blanket, each card's
index 12 to 20 px tall (:data:`INDEX_PX`; 30 to 60 px in half the frames, cards near a
laptop's camera: :data:`NEAR_INDEX_PX`), seen through :func:`webcam_camera`: optics blur, a
sensor of lower effective resolution, dim light with a grey or blue cast that the white balance
only partly removes, sensor noise lifted by the camera's digital gain, washed-out colour, lifted
blacks, the camera's denoising, strong JPEG with halved chroma, and in some frames the salt and
pepper of a data set's augmentation. Red ink on small indices there turns brownish grey, and a
club and a spade at 7 px are a blob on a stem each; on near cards red stays red against the
paper (a real frame's 3 of diamonds: pips of RGB 80, 36, 45 on paper of 149, 146, 163).

The decks are those of the face cache plus procedural decks whose suit symbols are drawn in
other shapes (:data:`vision.training.synth.faces.SUIT_STYLES`, from seed
:data:`~vision.training.synth.faces.FIRST_STYLED` on), kept in a cache folder of their own
(:data:`STYLED_FACES`) so that the chunk recipes' decks do not change.

Usage:
    python -m vision.training.synth.generate --webcam --out datasets/webcam71 --n 200 --seed 71 \
        --val-frac 1
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision import CACHE_DIR, CARDS
from vision.training.synth.backgrounds import _fractal, _smooth_noise
from vision.training.synth.faces import FIRST_STYLED, Deck, load_deck, load_decks, procedural_deck
from vision.training.synth.scene import (
    Scene,
    _back,
    _card_m,
    _finger,
    _paint,
    _rounded_mask,
    index_quads,
    keystone,
    labelled_indices,
)

FRAME = (1280, 720)
"""A webcam frame (width, height); a fifth of the frames are 640x480 instead."""
INDEX_PX = (12.0, 20.0)
"""Height of a card's corner index in the frame, pixels (drawn per frame)."""
NEAR_INDEX_PX = (30.0, 60.0)
"""... in the frames of cards near the camera (:data:`NEAR_SHARE` of them): the real laptop
webcam frames of ``shared/data/real-webcam`` have index boxes of 24 to 66 px (median 49)."""
NEAR_SHARE = 1 / 2
"""The share of frames whose cards lie near the camera (a laptop's camera looks down at the
cards in front of it: half the frames, since issue reader4's frames are all such)."""
COLOUR_KEPT = (0.4, 1.0)
"""The least and most share of its colour a frame keeps (the camera's washed-out colour; at 0.25
to 0.75 a near red index scored 0.04 against the real frames' 0.25, at 0.75 to 1.0 0.39)."""
JPEG_QUALITY = (30, 85)
"""The lowest and highest JPEG quality of a frame (halved chroma)."""
SALT_AND_PEPPER = (0.3, 0.002, 0.006)
"""The share of frames speckled with black and white pixels, and the least and most share of
their pixels so speckled (an augmentation of data sets that real webcam frames come through)."""
CARDS_ON_DESK = (3, 13)
"""Fewest and most cards in a frame."""
STYLED_FACES = CACHE_DIR / "faces-styled"
"""Where the procedural decks with other suit shapes are drawn."""
STYLED_DECKS = 6
"""How many of them (seeds :data:`~vision.training.synth.faces.FIRST_STYLED` on)."""


def styled_decks(root: Path = STYLED_FACES) -> list[Deck]:
    """The procedural decks whose suits are drawn in other shapes, drawn into ``root`` first."""
    return [load_deck(procedural_deck(FIRST_STYLED + i, root)) for i in range(STYLED_DECKS)]


def webcam_decks(face_root: Path = CACHE_DIR / "faces") -> list[Deck]:
    """Every deck of the face cache ``face_root`` and the styled decks."""
    return [*load_decks(face_root), *styled_decks()]


# --------------------------------------------------------------------------------- the desk


def desk(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A grey desk: a plain grey or laminate, faintly mottled, sometimes with a tint."""
    grey = rng.uniform(70, 190)
    tint = rng.normal(0, 8, 3)
    base = np.float32(grey) + tint.astype(np.float32)
    mottle = (_fractal(rng, h, w, rng.uniform(30, 300), 3) - 0.5) * rng.uniform(5, 30)
    grain = (_smooth_noise(rng, h, w, rng.uniform(1.5, 4)) - 0.5) * rng.uniform(2, 12)
    return base + (mottle + grain)[..., None]


def blanket(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A blanket: a dull colour, soft folds, a weave and sometimes a faint check or stripe."""
    pal = ((110, 110, 110), (150, 120, 90), (90, 70, 60), (170, 170, 165), (80, 90, 120))
    base = np.array(pal[rng.integers(len(pal))], np.float32) * rng.uniform(0.6, 1.3)
    folds = 1 + (_fractal(rng, h, w, rng.uniform(150, 500), 2) - 0.5) * rng.uniform(0.2, 0.6)
    weave = 1 + (_smooth_noise(rng, h, w, rng.uniform(1.5, 3)) - 0.5) * rng.uniform(0.1, 0.35)
    img = base * (folds * weave)[..., None]
    if rng.random() < 0.35:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        p = rng.uniform(25, 120)
        check = (np.mod(xx, p) < p / 2).astype(np.float32)
        if rng.random() < 0.5:
            check = 0.5 * (check + (np.mod(yy, p) < p / 2))
        img *= (1 - rng.uniform(0.05, 0.25) * check)[..., None]
    return img


# ------------------------------------------------------------------------------- the camera


def webcam_camera(
    img: np.ndarray, rng: np.random.Generator, resolution: float | None = None
) -> np.ndarray:
    """What a webcam makes of a uint8 BGR scene in dim grey indoor light; returns uint8 BGR.

    Args:
        img (np.ndarray): uint8 BGR scene as the eye would see it in good light.
        rng (np.random.Generator): Source of the camera's settings and noise.
        resolution (float | None): The sensor's effective resolution as a share of the frame's
            (drawn from 0.55 to 0.9 when None).

    Returns:
        (np.ndarray): The frame, the same size.

    Examples:
        >>> scene = np.full((72, 128, 3), 200, np.uint8); scene[20:50, 30:60] = (40, 40, 200)
        >>> frame = webcam_camera(scene, np.random.default_rng(0))
        >>> frame.shape, frame.dtype.name
        ((72, 128, 3), 'uint8')
    """
    h, w = img.shape[:2]
    x = cv2.GaussianBlur(img.astype(np.float32), (0, 0), rng.uniform(0.3, 0.8))
    f = rng.uniform(0.55, 0.9) if resolution is None else resolution
    size = (max(8, round(w * f)), max(8, round(h * f)))
    x = cv2.resize(x, size, interpolation=cv2.INTER_AREA)
    # dim light with a grey or blue cast, and uneven
    cast = np.array([rng.uniform(1.0, 1.3), rng.uniform(0.95, 1.08), rng.uniform(0.72, 1.0)])
    if rng.random() < 0.35:  # grey: little cast
        cast = 1 + (cast - 1) * 0.3
    yy, xx = np.mgrid[0 : size[1], 0 : size[0]].astype(np.float32)
    r = ((xx - size[0] / 2) ** 2 + (yy - size[1] / 2) ** 2) / (
        (size[0] / 2) ** 2 + (size[1] / 2) ** 2
    )
    falloff = 1 - rng.uniform(0.1, 0.45) * r
    x = x * np.float32(rng.uniform(0.15, 0.45)) * (cast.astype(np.float32) * falloff[..., None])
    # sensor noise: shot noise (grows with the light) and read noise, colour speckle
    shot = np.sqrt(np.maximum(x, 0)) * rng.uniform(0.2, 0.6)
    x = x + shot * rng.standard_normal(x.shape, dtype=np.float32)
    x = x + rng.uniform(0.5, 2.5) * rng.standard_normal(x.shape, dtype=np.float32)
    # the camera's processing: digital gain to a mid exposure, a partial white balance, and a
    # shoulder that keeps the white paper from clipping flat
    x = x * np.float32(rng.uniform(70, 130) / max(float(np.percentile(x, 60)), 1.0))
    balance = 1 + (1 / cast - 1) * rng.uniform(0.2, 0.8)
    x = x * balance.astype(np.float32)
    knee = np.float32(rng.uniform(150, 200))
    x = np.where(x < knee, x, knee + (255 - knee) * np.tanh((x - knee) / (255 - knee)))
    grey = x.mean(-1, keepdims=True)
    x = grey + (x - grey) * np.float32(rng.uniform(*COLOUR_KEPT))  # washed-out colour
    lift = np.float32(rng.uniform(5, 35))
    x = lift + x * (1 - lift / 255)  # lifted blacks
    x = 255 * (np.clip(x, 0, 255) / 255) ** np.float32(rng.uniform(0.8, 1.15))
    if rng.random() < 0.4:  # temporal / spatial denoising smears fine detail
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.4, 0.8))
    x = cv2.resize(x, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.4:  # the sharpening that puts halos round edges
        soft = cv2.GaussianBlur(x, (0, 0), 1.5)
        x = x + np.float32(rng.uniform(0.3, 0.9)) * (x - soft)
    out = np.clip(x, 0, 255).astype(np.uint8)
    share, least, most = SALT_AND_PEPPER
    if rng.random() < share:
        speckled = rng.random((h, w)) < rng.uniform(least, most)
        out[speckled] = np.where(rng.random(int(speckled.sum())) < 0.5, 0, 255)[:, None]
    quality = int(rng.integers(JPEG_QUALITY[0], JPEG_QUALITY[1] + 1))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return out if decoded is None else decoded


def webcam_frame(
    photo: np.ndarray, rng: np.random.Generator, index_px: float | None = None
) -> tuple[np.ndarray, float, tuple[int, int]]:
    """A photo as a webcam would have taken it: its indices 12-20 px high, in a frame, dim.

    The photo is shrunk (never enlarged) so that its corner indices, ``index_px`` high in it,
    come out :data:`INDEX_PX` high, laid in a webcam frame (:data:`FRAME`, larger when the
    shrunk photo needs it) filled with the colour of the photo's own edges, faintly mottled (a
    desk lighter than the photo's cards would join them into one light region), and seen by
    :func:`webcam_camera`. Without ``index_px`` the photo keeps its size and only the camera
    acts.

    Args:
        photo (np.ndarray): uint8 BGR photo.
        rng (np.random.Generator): Source of the index size, the place and the camera.
        index_px (float | None): The height of the photo's corner indices, pixels.

    Returns:
        (tuple[np.ndarray, float, tuple[int, int]]): The frame, the photo's scale in it, and
        where its top-left corner lies (x, y).

    Examples:
        >>> photo = np.full((400, 300, 3), 200, np.uint8)
        >>> frame, f, (x, y) = webcam_frame(photo, np.random.default_rng(0), index_px=60.0)
        >>> frame.shape, 0.2 <= f <= 0.34, 0 <= x <= 1280 - 300 * f
        ((720, 1280, 3), True, True)
    """
    if index_px is None:
        return webcam_camera(photo, rng), 1.0, (0, 0)
    h, w = photo.shape[:2]
    f = min(1.0, float(rng.uniform(*INDEX_PX)) / max(index_px, 1.0))
    small = cv2.resize(
        photo, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA
    )
    sh, sw = small.shape[:2]
    fw, fh = max(FRAME[0], sw), max(FRAME[1], sh)
    edges = np.concatenate([small[0], small[-1], small[:, 0], small[:, -1]]).astype(np.float32)
    mottle = (_fractal(rng, fh, fw, rng.uniform(30, 300), 3) - 0.5) * rng.uniform(5, 20)
    frame = np.clip(np.median(edges, 0) + mottle[..., None], 0, 255).astype(np.uint8)
    x, y = int(rng.integers(0, fw - sw + 1)), int(rng.integers(0, fh - sh + 1))
    frame[y : y + sh, x : x + sw] = small
    return webcam_camera(frame, rng), sw / w, (x, y)


# -------------------------------------------------------------------------------- the frame


def _scatter(
    rng: np.random.Generator, n: int, w: int, h: int, ch: float
) -> list[tuple[float, ...]]:
    """Card centres and angles scattered over the frame; a few may overlap a neighbour."""
    out: list[tuple[float, ...]] = []
    margin = 0.45 * ch
    for _ in range(n):
        for _try in range(30):
            cx, cy = rng.uniform(margin, w - margin), rng.uniform(margin, h - margin)
            near = min((np.hypot(cx - a, cy - b) for a, b, _ in out), default=np.inf)
            if near > ch * rng.uniform(0.55, 1.1):
                break
        upright = rng.random() < 0.5
        angle = rng.normal(0, 0.35) + (np.pi if rng.random() < 0.3 else 0.0)
        out.append((cx, cy, angle if upright else rng.uniform(-np.pi, np.pi)))
    return out


def _fan(rng: np.random.Generator, n: int, w: int, h: int, ch: float) -> list[tuple[float, ...]]:
    """A small hand fanned or spread in a row somewhere in the frame."""
    cx, cy = rng.uniform(0.3 * w, 0.7 * w), rng.uniform(0.3 * h, 0.7 * h)
    turn = rng.uniform(-np.pi, np.pi) if rng.random() < 0.4 else rng.normal(0, 0.3)
    out: list[tuple[float, ...]] = []
    if rng.random() < 0.5:  # fanned
        step, r = np.deg2rad(rng.uniform(6, 16)), ch * rng.uniform(0.3, 0.6)
        for i in range(n):
            a = (i - (n - 1) / 2) * step
            px, py = r * np.sin(a), -r * np.cos(a) + r
            c, s = np.cos(turn), np.sin(turn)
            out.append((cx + c * px - s * py, cy + s * px + c * py, a + turn))
    else:  # spread in a row, each card's index showing
        dx = ch * rng.uniform(0.25, 0.75)
        c, s = np.cos(turn), np.sin(turn)
        for i in range(n):
            px = (i - (n - 1) / 2) * dx
            out.append((cx + c * px, cy + s * px, turn + rng.normal(0, 0.04)))
    return out


def make_webcam_scene(rng: np.random.Generator, decks: list[Deck]) -> Scene:
    """Compose one webcam frame of cards on a desk or a blanket.

    Args:
        rng (np.random.Generator): Source of all randomness (the frame is a function of its state).
        decks (list[Deck]): Decks to draw faces from (:func:`webcam_decks`).

    Returns:
        (Scene): The frame and its labels (layout ``"webcam"`` or ``"webcam hand"``).
    """
    w, h = FRAME if rng.random() < 0.8 else (640, 480)
    scale = w / FRAME[0]
    canvas = (desk if rng.random() < 0.55 else blanket)(rng, h, w).astype(np.float32)
    owner = np.full((h, w), -1, np.int16)
    deck = decks[int(rng.integers(len(decks)))]
    fh, fw = deck.face_size
    _, y1, _, y2 = deck.index_box
    index_px = NEAR_INDEX_PX if rng.random() < NEAR_SHARE else INDEX_PX
    ch = rng.uniform(*index_px) * scale * fh / (y2 - y1)  # card height giving that index
    n = int(rng.integers(CARDS_ON_DESK[0], CARDS_ON_DESK[1] + 1))
    chosen = [str(c) for c in rng.permutation(CARDS)[:n]]
    hand = rng.random() < 0.2
    layout = "webcam hand" if hand else "webcam"
    poses = _fan(rng, min(n, 6), w, h, ch) if hand else []
    poses += _scatter(rng, n - len(poses), w, h, ch)
    # the desk seen from the webcam: a mild tilt, the far edge a little shorter
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = (src + rng.uniform(-0.04, 0.04, (4, 2)) * [w, h]).astype(np.float32)
    if rng.random() < 0.5:
        dst = keystone(dst, float(rng.uniform(0.8, 0.97)), 0)
    cam = cv2.getPerspectiveTransform(src, dst).astype(np.float64)
    mask = _rounded_mask(fh, fw, 0.06 * fw)
    edge = tuple(float(v) for v in rng.uniform(90, 200, 3))
    sh = max(1.0, ch * rng.uniform(0.0, 0.03))
    face_quads = index_quads(deck)
    quads: list[tuple[str, int, np.ndarray]] = []
    cards: list[str] = []
    for k, (cx, cy, angle) in enumerate(poses):
        m = cam @ _card_m(deck, ch, cx, cy, angle)
        if k > 0 and rng.random() < 0.04:  # a card face down
            _paint(canvas, owner, _back(rng, deck), mask, m, -1, sh)
            continue
        face = deck.faces[chosen[k]].copy()
        cv2.rectangle(face, (0, 0), (fw - 1, fh - 1), edge, 1)
        cid = len(cards)
        cards.append(chosen[k])
        _paint(canvas, owner, face, mask, m, cid, sh)
        for q in face_quads:
            quads.append((chosen[k], cid, cv2.perspectiveTransform(q[None], m)[0]))
    if rng.random() < 0.25:  # a hand reaching in
        img, mk = _finger(rng, ch * rng.uniform(0.6, 1.2), ch * rng.uniform(0.12, 0.2))
        hf = np.array([[1, 0, rng.uniform(0, w)], [0, 1, rng.uniform(0, h)], [0, 0, 1]], np.float64)
        _paint(canvas, owner, img, mk, hf, -1, 2)
    image = webcam_camera(np.clip(canvas, 0, 255).astype(np.uint8), rng)
    labels, hidden = labelled_indices(quads, owner)
    return Scene(image, labels, hidden, owner, cards, layout, None)


__all__ = [
    "INDEX_PX",
    "NEAR_INDEX_PX",
    "blanket",
    "desk",
    "make_webcam_scene",
    "webcam_camera",
    "webcam_decks",
    "webcam_frame",
]
