"""Card face images from offline deck artwork (aisleriot / KDE SVG decks) and procedural faces.

Faces are rendered once with ``rsvg-convert`` into ``CACHE_DIR/faces/<deck>/<CARD>.jpg`` (BGR,
fixed height) and reused. Each deck gets an automatically measured corner-index box (the ink in the
top-left corner of its number cards), stored in ``index.json``; the index at the opposite corner is
the same box rotated 180 degrees.

Usage:
    python -m vision.training.synth.faces            # render all decks into the cache
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import CACHE_DIR, CARDS

FACE_H = 336
"""Rendered face height in pixels (width follows the deck's aspect ratio)."""

AISLERIOT = Path("/usr/share/aisleriot/cards")
KDE = Path("/usr/share/carddecks")

# French-suited decks with normal corner indices (A, 2-10, J, Q, K). Left out: German, Swiss and
# Italian suits, tarot, decks with French (R/D/V) or missing indices, konqi-modern (licence).
# Also left out after inspecting a contact sheet of the renders (the automatic index box was wrong
# or the corner carries no rank+suit index): neoclassical*, tango_nuevo, svg-future, svg-oxygen*,
# svg-ancient-egyptians; svg-penguins and svg-xskat-french do not render with these ids.
AISLERIOT_DECKS: tuple[str, ...] = (
    "anglo",
    "anglo_bitmap",
    "anglo_modern",
    "anglo_modern_4_color",
    "anglo_poker",
    "atlasnye",
    "gnomangelo",
    "gnomangelo_bitmap",
    "ornamental",
    "plastic",
    "simplistic",
    "tango",
    "dondorf",
)
KDE_DECKS: tuple[str, ...] = (
    "svg-standard",
    "svg-nicu-white",
    "svg-nicu-ornamental",
    "svg-jolly-royal",
    "svg-dondorf",
)

_RANK_ID = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}
_SUIT_ID = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}


@dataclass(frozen=True)
class Deck:
    """A rendered deck: face images plus the corner-index box in face pixel coordinates.

    Attributes:
        name (str): Deck name (cache folder name).
        faces (dict[str, np.ndarray]): Card code -> BGR face image, all the same size.
        index_box (tuple[float, float, float, float]): x1, y1, x2, y2 of the top-left corner index.
        four_corners (bool): Whether indices are printed at all four corners.
        back (np.ndarray | None): Card back image if the deck has one.
    """

    name: str
    faces: dict[str, np.ndarray]
    index_box: tuple[float, float, float, float]
    four_corners: bool = False
    back: np.ndarray | None = None

    @property
    def face_size(self) -> tuple[int, int]:
        """(height, width) of every face image."""
        h, w = next(iter(self.faces.values())).shape[:2]
        return h, w


def _svg_id(deck: str, card: str) -> str:
    rank, suit = card[:-1], card[-1]
    r = _RANK_ID.get(rank, rank)
    return f"{_SUIT_ID[suit]}_{r}" if deck in AISLERIOT_DECKS else f"{r}_{_SUIT_ID[suit]}"


def _deck_file(deck: str) -> Path:
    if deck in AISLERIOT_DECKS:
        return AISLERIOT / f"{deck}.svgz"
    return next((KDE / deck).glob("*.svgz"))


def _render(svg: Path, obj: str, out: Path, height: int = FACE_H) -> bool:
    """Render one SVG object to a PNG flattened on white; returns success."""
    tmp = out.with_suffix(".rgba.png")
    r = subprocess.run(
        ["rsvg-convert", "-i", obj, "-h", str(height), str(svg), "-o", str(tmp)],
        capture_output=True,
    )
    if r.returncode != 0 or not tmp.exists():
        return False
    img = cv2.imread(str(tmp), cv2.IMREAD_UNCHANGED)
    tmp.unlink()
    if img is None or img.ndim != 3:
        return False
    if img.shape[2] == 4:
        ys, xs = np.nonzero(img[:, :, 3] > 10)
        if len(xs) == 0:
            return False
        img = img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        a = img[:, :, 3:4].astype(np.float32) / 255
        img = (img[:, :, :3] * a + 255 * (1 - a)).astype(np.uint8)
    cv2.imwrite(str(out), img)
    return True


def _ink(face: np.ndarray) -> np.ndarray:
    """Boolean mask of printed ink (anything clearly different from the card stock)."""
    q = (face // 16).reshape(-1, 3).astype(np.int32)
    code = q[:, 0] * 256 + q[:, 1] * 16 + q[:, 2]
    mode = np.bincount(code).argmax()
    paper = face.reshape(-1, 3)[code == mode].mean(0)
    d = np.abs(face.astype(np.int16) - paper.astype(np.int16)).max(2)
    return d > 60


def measure_index_box(
    faces: dict[str, np.ndarray],
) -> tuple[tuple[float, float, float, float], bool]:
    """Estimate the corner-index box from the ink in the top-left corner of the number cards.

    Args:
        faces (dict[str, np.ndarray]): Card code -> face image.

    Returns:
        (tuple[tuple[float, float, float, float], bool]): The box (x1, y1, x2, y2) and whether
            the top-right corner carries an index as well.
    """
    h, w = next(iter(faces.values())).shape[:2]
    m = max(2, int(0.035 * w))  # skip the border line
    wx, wy = int(0.24 * w), int(0.36 * h)
    boxes, right = [], []
    for card, face in faces.items():
        if card[:-1] not in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A"):
            continue
        ink = _ink(face)
        win = ink[m:wy, m:wx].copy()
        n, _lab, stats, _ = cv2.connectedComponentsWithStats(win.astype(np.uint8), connectivity=8)
        keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 4]
        if not keep:
            continue
        # keep components that do not touch the window's right/bottom edges (center pips / frames)
        comps = [
            i
            for i in keep
            if stats[i, 0] + stats[i, 2] < win.shape[1] - 1
            and stats[i, 1] + stats[i, 3] < win.shape[0] - 1
        ]
        if not comps:
            continue
        x1 = min(stats[i, 0] for i in comps) + m
        y1 = min(stats[i, 1] for i in comps) + m
        x2 = max(stats[i, 0] + stats[i, 2] for i in comps) + m
        y2 = max(stats[i, 1] + stats[i, 3] for i in comps) + m
        boxes.append((x1, y1, x2, y2))
        tl = ink[y1:y2, x1:x2].mean()
        tr = ink[y1:y2, w - x2 : w - x1].mean()
        right.append(tr > 0.5 * tl)
    if not boxes:
        raise ValueError("no corner index found")
    b = np.median(np.array(boxes, dtype=np.float32), 0)
    pad = 0.06 * (b[2] - b[0])
    box = (float(b[0] - pad), float(b[1] - pad), float(b[2] + pad), float(b[3] + pad))
    return box, bool(np.mean(right) > 0.5)


def render_deck(deck: str, root: Path = CACHE_DIR / "faces") -> Path | None:
    """Render one deck's 52 faces and back into the cache; returns its folder or None on failure."""
    return _build(root / deck, lambda folder: _render_faces(deck, folder))


def _render_faces(deck: str, out: Path) -> bool:
    """Render ``deck`` into the empty folder ``out``; returns success."""
    svg = _deck_file(deck)
    if not all(_render(svg, _svg_id(deck, c), out / f"{c}.jpg") for c in CARDS):
        return False
    for back_id in ("back", "card_back"):
        if _render(svg, back_id, out / "back.jpg"):
            break
    faces = {c: _read_face(out / f"{c}.jpg") for c in CARDS}
    shape = tuple(int(v) for v in np.median([f.shape for f in faces.values()], 0))
    faces = {c: cv2.resize(f, (shape[1], shape[0])) for c, f in faces.items()}
    for c, f in faces.items():
        cv2.imwrite(str(out / f"{c}.jpg"), f)
    try:
        box, four = measure_index_box(faces)
    except ValueError:
        return False
    (out / "index.json").write_text(json.dumps({"index_box": box, "four_corners": four}))
    return True


def _build(out: Path, make: Callable[[Path], bool]) -> Path | None:
    """The deck folder ``out``, made by ``make`` when it is not in the cache yet (None if it fails).

    ``make`` fills a private folder under ``.building/``, which is then renamed to ``out`` in one
    step: a process never loads half a deck, and processes making the same deck at once (the
    test workers on a fresh machine) all end with the one whole copy that was renamed first.
    """
    if (out / "index.json").exists():
        return out
    building = out.parent / ".building"
    building.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{out.name}-", dir=building))
    try:
        if not make(work):
            return None
        with contextlib.suppress(OSError):  # taken: another process's whole copy, or half a deck
            work.rename(out)
        if not (out / "index.json").exists():  # half a deck that an interrupted render left
            shutil.rmtree(out)
            work.rename(out)
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _read_face(path: Path) -> np.ndarray:
    """A rendered face as BGR; a missing or unreadable file is an error, not ``None``."""
    img = cv2.imread(str(path))
    if img is None:
        raise FileNotFoundError(f"cannot read face image {path}")
    return img


def load_deck(folder: Path) -> Deck:
    """Load a rendered deck folder (from :func:`render_deck` or :func:`procedural_deck`)."""
    meta = json.loads((folder / "index.json").read_text())
    faces = {c: _read_face(folder / f"{c}.jpg") for c in CARDS}
    back = _read_face(folder / "back.jpg") if (folder / "back.jpg").exists() else None
    return Deck(folder.name, faces, tuple(meta["index_box"]), bool(meta["four_corners"]), back)


def rendered_deck(deck: str, root: Path = CACHE_DIR / "faces") -> Deck:
    """The deck artwork ``deck`` from the cache, rendered into it first when missing."""
    folder = render_deck(deck, root)
    if folder is None:
        raise RuntimeError(f"could not render the {deck} deck: is rsvg-convert installed?")
    return load_deck(folder)


def rendered_deck_names(root: Path = CACHE_DIR / "faces") -> list[str]:
    """The names of the rendered decks under ``root``, in :func:`load_decks`'s order.

    Their faces are not loaded; a folder without its ``index.json`` is half a deck, not counted.
    """
    return [path.parent.name for path in sorted(root.glob("*/index.json"))]


def load_decks(root: Path = CACHE_DIR / "faces") -> list[Deck]:
    """Load every rendered deck under ``root``."""
    return [load_deck(root / name) for name in rendered_deck_names(root)]


# ----------------------------------------------------------------------------------------------
# Procedural faces: OpenCV text for the rank, drawn suit symbols; exact index boxes by construction.

_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
)


SUIT_STYLES = 4
"""Shapes of the suit symbols :func:`draw_suit` draws: 0 the first procedural decks', 1 broad
lobes and a flared stem, 2 narrow ones with a short stem and a club of three lobes set apart,
3 round ones (a club of merged lobes, a spade with a rounded top: the pair a camera confuses)."""
FIRST_STYLED = 12
"""Procedural decks from this seed on draw their suits in styles 1 to 3, their pips as printed
decks lay them, and a suit symbol beside the court's frame; the first twelve are drawn as before."""

# per style: spade (lobe x, lobe y, lobe r, top y of the blade's base, half width, stem top, stem
# half width), club (top lobe y, side lobe x, side lobe y, lobe r, centre r, stem half width),
# heart (lobe x, lobe r), diamond half width
_SPADES = (
    (0.42, 0.18, 0.42, 0.05, 0.82, 0.3, 0.35),
    (0.46, 0.2, 0.48, 0.1, 0.92, 0.35, 0.5),
    (0.34, 0.25, 0.34, 0.15, 0.66, 0.45, 0.25),
    (0.4, 0.15, 0.5, 0.1, 0.9, 0.3, 0.3),
)
_CLUBS = (
    (-0.5, 0.48, 0.12, 0.38, 0.2, 0.35),
    (-0.45, 0.5, 0.15, 0.42, 0.25, 0.45),
    (-0.55, 0.52, 0.08, 0.32, 0.15, 0.22),
    (-0.42, 0.42, 0.15, 0.44, 0.3, 0.3),
)
_HEARTS = ((0.42, 0.46), (0.44, 0.48), (0.38, 0.4), (0.45, 0.52))
_DIAMONDS = (0.72, 0.62, 0.55, 0.8)


def draw_suit(
    img: np.ndarray,
    suit: str,
    cx: float,
    cy: float,
    size: float,
    color: tuple[float, ...],
    style: int = 0,
) -> None:
    """Draw a filled suit symbol of height ``size`` centred at (cx, cy), shaped as ``style``.

    ``style`` is one of :data:`SUIT_STYLES`.
    """
    s = size / 2
    sh = 4  # subpixel shift bits
    f = 1 << sh

    def P(pts: list[tuple[float, float]]) -> np.ndarray:
        return (np.array([[cx + x * s, cy + y * s] for x, y in pts]) * f).astype(np.int32)

    def circ(x: float, y: float, r: float) -> None:
        cv2.circle(
            img,
            (int((cx + x * s) * f), int((cy + y * s) * f)),
            int(r * s * f),
            color,
            -1,
            cv2.LINE_AA,
            sh,
        )

    if suit == "D":
        d = _DIAMONDS[style]
        cv2.fillPoly(img, [P([(0, -1), (d, 0), (0, 1), (-d, 0)])], color, cv2.LINE_AA, sh)
    elif suit == "H":
        hx, hr = _HEARTS[style]
        circ(-hx, -0.38, hr)
        circ(hx, -0.38, hr)
        cv2.fillPoly(img, [P([(-0.86, -0.22), (0.86, -0.22), (0, 0.95)])], color, cv2.LINE_AA, sh)
    elif suit == "S":
        lx, ly, lr, base, half, stem, stem_w = _SPADES[style]
        circ(-lx, ly, lr)
        circ(lx, ly, lr)
        blade = [(-half, base), (half, base), (0, -1.0)]
        if style == 3:  # a rounded top
            blade = [(-half, base), (half, base), (0.55, -0.55), (0, -1.0), (-0.55, -0.55)]
        cv2.fillPoly(img, [P(blade)], color, cv2.LINE_AA, sh)
        cv2.fillPoly(img, [P([(0, stem), (stem_w, 1.0), (-stem_w, 1.0)])], color, cv2.LINE_AA, sh)
    else:  # clubs
        top, sx, sy, lr, centre, stem_w = _CLUBS[style]
        circ(0, top, lr)
        circ(-sx, sy, lr)
        circ(sx, sy, lr)
        circ(0, 0.05, centre)
        cv2.fillPoly(img, [P([(0, 0.0), (stem_w, 1.0), (-stem_w, 1.0)])], color, cv2.LINE_AA, sh)


_COLUMNS, _MIDDLE = (0.3, 0.7), 0.5
STANDARD_PIPS: dict[str, tuple[tuple[float, float], ...]] = {
    "A": ((0.5, 0.5),),
    "2": ((0.5, 0.2), (0.5, 0.8)),
    "3": ((0.5, 0.2), (0.5, 0.5), (0.5, 0.8)),
    "4": tuple((x, y) for y in (0.2, 0.8) for x in _COLUMNS),
    "5": (*((x, y) for y in (0.2, 0.8) for x in _COLUMNS), (0.5, 0.5)),
    "6": tuple((x, y) for y in (0.2, 0.5, 0.8) for x in _COLUMNS),
    "7": (*((x, y) for y in (0.2, 0.5, 0.8) for x in _COLUMNS), (0.5, 0.35)),
    "8": (*((x, y) for y in (0.2, 0.5, 0.8) for x in _COLUMNS), (0.5, 0.35), (0.5, 0.65)),
    "9": (*((x, y) for y in (0.2, 0.4, 0.6, 0.8) for x in _COLUMNS), (0.5, 0.5)),
    "10": (*((x, y) for y in (0.2, 0.4, 0.6, 0.8) for x in _COLUMNS), (0.5, 0.3), (0.5, 0.7)),
}
"""Where a printed deck lays the pips of each number card (fractions of the face's width and
height); those in the lower half are printed upside down."""


def _pip(
    img: np.ndarray,
    suit: str,
    cx: float,
    cy: float,
    size: float,
    color: tuple[float, ...],
    style: int,
) -> None:
    """:func:`draw_suit`, upside down in the lower half of the face as printed decks are."""
    if cy <= img.shape[0] / 2 + 1:
        draw_suit(img, suit, cx, cy, size, color, style)
        return
    turned = np.ascontiguousarray(img[::-1, ::-1])
    draw_suit(turned, suit, img.shape[1] - cx, img.shape[0] - cy, size, color, style)
    img[:] = turned[::-1, ::-1]


def _ornate_ace(img: np.ndarray, ink: tuple[int, ...], paper: tuple[int, ...], style: int) -> None:
    """An ace of spades as many decks print theirs: a large spade in outline round a small one.

    Beads round it and a maker's line beneath.
    """
    h, w = img.shape[:2]
    cx, cy = w / 2, h * 0.47
    draw_suit(img, "S", cx, cy, h * 0.44, ink, style)
    draw_suit(img, "S", cx, cy + h * 0.01, h * 0.37, paper, style)
    draw_suit(img, "S", cx, cy + h * 0.015, h * 0.28, ink, style)
    for k in range(16):
        a = 2 * np.pi * k / 16
        x, y = cx + 0.36 * w * np.cos(a), cy + 0.3 * h * np.sin(a)
        cv2.circle(img, (int(x), int(y)), max(1, int(h * 0.008)), ink, -1, cv2.LINE_AA)
    size = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, max(4, int(h * 0.025)), 1)
    for text, y in (("PLAYING CARD", 0.8), ("No. 808", 0.84)):
        (tw, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, size, 1)
        org = (int(cx - tw / 2), int(h * y))
        cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, size, ink, 1, cv2.LINE_AA)


def procedural_deck(seed: int, root: Path = CACHE_DIR / "faces") -> Path:
    """Draw a synthetic French-suited deck (style drawn from ``seed``) into the cache."""
    folder = _build(root / f"proc{seed:02d}", lambda out: _draw_procedural(seed, out))
    assert folder is not None  # drawing cannot fail
    return folder


def _draw_procedural(seed: int, out: Path) -> bool:
    """Draw :func:`procedural_deck`'s deck ``seed`` into the empty folder ``out``."""
    rng = np.random.default_rng(seed)
    h = FACE_H
    w = int(h * rng.uniform(0.64, 0.72))
    font = _FONTS[seed % len(_FONTS)]
    thick = int(rng.integers(2, 5))
    paper = tuple(int(v) for v in rng.integers(225, 256, 3))
    red = (int(rng.integers(0, 60)), int(rng.integers(0, 50)), int(rng.integers(170, 235)))
    black = tuple(int(v) for v in rng.integers(0, 50, 3))
    four_color = rng.random() < 0.2
    colors = {
        "S": black,
        "H": red,
        "D": (200, 90, 20) if four_color else red,
        "C": (40, 130, 30) if four_color else black,
    }
    idx_h = h * rng.uniform(0.075, 0.11)  # rank text height
    mx, my = w * rng.uniform(0.04, 0.08), h * rng.uniform(0.03, 0.06)
    suit_side = rng.random() < 0.15  # suit beside the rank instead of below
    four = rng.random() < 0.15
    style = 0 if seed < FIRST_STYLED else 1 + (seed - FIRST_STYLED) % (SUIT_STYLES - 1)
    boxes = []
    for card in CARDS:
        rank, suit = card[:-1], card[-1]
        col = colors[suit]
        img = np.full((h, w, 3), paper, np.uint8)
        cv2.rectangle(img, (1, 1), (w - 2, h - 2), (150, 150, 150), 1, cv2.LINE_AA)
        scale = cv2.getFontScaleFromHeight(font, int(idx_h), thick)
        (tw, th), _ = cv2.getTextSize(rank, font, scale, thick)
        if rank == "10" and rng.random() < 0.5:
            scale *= 0.8
            (tw, th), _ = cv2.getTextSize(rank, font, scale, thick)
        corner = np.zeros_like(img)
        corner[:] = paper
        x0, y0 = mx, my
        cv2.putText(corner, rank, (int(x0), int(y0 + th)), font, scale, col, thick, cv2.LINE_AA)
        ss = idx_h * 0.85
        if suit_side:
            sx, sy = x0 + tw + ss * 0.6, y0 + th / 2
        else:
            sx, sy = x0 + tw / 2, y0 + th + ss * 0.75
        draw_suit(corner, suit, sx, sy, ss, col, style)
        x2 = max(x0 + tw, sx + ss * 0.55)
        y2 = max(y0 + th, sy + ss * 0.55)
        boxes.append((x0, y0, x2, y2))
        cw, ch = int(x2 + 3), int(y2 + 3)
        img[:ch, :cw] = corner[:ch, :cw]
        img[h - ch :, w - cw :] = corner[:ch, :cw][::-1, ::-1]
        if four:
            img[:ch, w - cw :] = corner[:ch, :cw]
            img[h - ch :, :cw] = corner[:ch, :cw][::-1, ::-1]
        # centre: pips or a big symbol for courts / aces
        if rank in ("J", "Q", "K"):
            cv2.rectangle(img, (int(w * 0.2), int(h * 0.18)), (int(w * 0.8), int(h * 0.82)), col, 2)
            for _ in range(6):
                p = rng.uniform([w * 0.22, h * 0.2], [w * 0.78, h * 0.8]).astype(int)
                cv2.circle(
                    img,
                    tuple(int(v) for v in p),
                    int(rng.integers(5, 25)),
                    tuple(int(v) for v in rng.integers(0, 255, 3)),
                    -1,
                )
            cv2.putText(
                img,
                rank,
                (int(w * 0.38), int(h * 0.56)),
                font,
                scale * 2,
                col,
                thick * 2,
                cv2.LINE_AA,
            )
            if style:  # a suit symbol inside the frame's corner, as printed courts have
                _pip(img, suit, w * 0.29, h * 0.26, h * 0.09, col, style)
                _pip(img, suit, w * 0.71, h * 0.74, h * 0.09, col, style)
        elif style and card == "AS":
            _ornate_ace(img, col, paper, style)
        elif style:
            for x, y in STANDARD_PIPS[rank]:
                _pip(img, suit, w * x, h * y, h * (0.3 if rank == "A" else 0.13), col, style)
        else:
            n = 1 if rank == "A" else int(rank)
            cols = 1 if n <= 3 else 2 if n <= 8 else 3 if n == 9 else 2
            rows = int(np.ceil(n / cols))
            for i in range(n):
                cx = w * (0.5 if cols == 1 else 0.3 + 0.4 * (i % cols) / max(1, cols - 1))
                cy = h * (0.5 if rows == 1 else 0.22 + 0.56 * (i // cols) / max(1, rows - 1))
                draw_suit(img, suit, cx, cy, h * (0.25 if n == 1 else 0.11), col)
        cv2.imwrite(str(out / f"{card}.jpg"), img)
    b = np.array(boxes).max(0)
    b0 = np.array(boxes).min(0)
    box = (float(b0[0] - 2), float(b0[1] - 2), float(b[2] + 2), float(b[3] + 2))
    (out / "index.json").write_text(json.dumps({"index_box": box, "four_corners": four}))
    return True


def build_all(
    root: Path = CACHE_DIR / "faces", n_procedural: int = 12, workers: int = 4
) -> list[str]:
    """Render every allowed deck plus ``n_procedural`` procedural decks; returns deck names."""
    with ThreadPoolExecutor(workers) as ex:
        done = list(ex.map(lambda d: render_deck(d, root), AISLERIOT_DECKS + KDE_DECKS))
    for i in range(n_procedural):
        done.append(procedural_deck(i, root))
    return [p.name for p in done if p is not None]


def main() -> None:
    """CLI entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=CACHE_DIR / "faces")
    ap.add_argument("--procedural", type=int, default=12)
    a = ap.parse_args()
    names = build_all(a.root, a.procedural)
    print(f"{len(names)} decks in {a.root}: {' '.join(names)}")


if __name__ == "__main__":
    main()
