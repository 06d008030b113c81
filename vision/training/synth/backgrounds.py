"""Procedural table backgrounds: wood, felt, cloth, tablecloths, carpet, noise, gradients."""

from __future__ import annotations

import cv2
import numpy as np


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cell: float) -> np.ndarray:
    """Value noise in [0, 1] with features about ``cell`` pixels across."""
    gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    g = rng.random((gh, gw), dtype=np.float32)
    return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _fractal(rng: np.random.Generator, h: int, w: int, base: float, octaves: int = 4) -> np.ndarray:
    out = np.zeros((h, w), np.float32)
    amp, tot = 1.0, 0.0
    for i in range(octaves):
        out += amp * _smooth_noise(rng, h, w, max(2.0, base / 2**i))
        tot += amp
        amp *= 0.5
    return out / tot


def _color(rng: np.random.Generator, lo: int = 0, hi: int = 256) -> np.ndarray:
    return rng.integers(lo, hi, 3).astype(np.float32)


def wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Wood grain: warped sinusoidal rings along a random direction, optional planks."""
    base = np.array([rng.uniform(20, 90), rng.uniform(50, 130), rng.uniform(90, 200)], np.float32)
    dark = base * rng.uniform(0.45, 0.75)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, np.pi)
    u = xx * np.cos(a) + yy * np.sin(a)
    v = -xx * np.sin(a) + yy * np.cos(a)
    warp = _fractal(rng, h, w, rng.uniform(80, 300)) * rng.uniform(20, 80)
    freq = rng.uniform(0.04, 0.2)
    t = 0.5 + 0.5 * np.sin(v * freq + warp + 0.3 * np.sin(u * 0.01))
    t = t ** rng.uniform(0.5, 3)
    fine = _smooth_noise(rng, h, w, 3.0) * 0.15
    t = np.clip(t + fine, 0, 1)[..., None]
    img = dark * t + base * (1 - t)
    if rng.random() < 0.5:  # planks
        pw = rng.uniform(60, 250)
        seams = (np.mod(u, pw) < rng.uniform(1, 3))[..., None]
        img = np.where(seams, img * 0.5, img)
    return img


def felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Felt or baize: a saturated colour with fine fuzz."""
    pal = [(40, 110, 20), (110, 60, 10), (30, 30, 130), (60, 60, 60), (20, 80, 70)]
    c = np.array(pal[rng.integers(len(pal))], np.float32) * rng.uniform(0.6, 1.5)
    n = _fractal(rng, h, w, rng.uniform(4, 40), 3)
    return c * (0.75 + 0.5 * n[..., None])


def cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Tablecloth: stripes, gingham, plaid, polka dots or a flowery blob print."""
    c1, c2 = _color(rng, 120), _color(rng)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, np.pi)
    u = xx * np.cos(a) + yy * np.sin(a)
    v = -xx * np.sin(a) + yy * np.cos(a)
    p = rng.uniform(10, 80)
    kind = rng.integers(4)
    if kind == 0:
        m = (np.mod(u, p) < p * rng.uniform(0.2, 0.6)).astype(np.float32)
    elif kind == 1:
        m = 0.5 * (np.mod(u, p) < p / 2) + 0.5 * (np.mod(v, p) < p / 2)
    elif kind == 2:
        m = ((np.mod(u, p) - p / 2) ** 2 + (np.mod(v, p) - p / 2) ** 2 < (p * 0.25) ** 2).astype(
            np.float32
        )
    else:
        m = (_fractal(rng, h, w, p, 2) > 0.55).astype(np.float32)
    img = c1 * (1 - m[..., None]) + c2 * m[..., None]
    weave = _smooth_noise(rng, h, w, 2.0)[..., None]
    return img * (0.9 + 0.2 * weave)


def carpet(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Carpet, tiles or stone: busy high-frequency texture, optional grout lines."""
    c = _color(rng, 40, 220)
    n = _fractal(rng, h, w, rng.uniform(2, 12), 3)
    img = c * (0.5 + n[..., None])
    if rng.random() < 0.4:
        p = rng.uniform(60, 200)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        g = (np.mod(xx, p) < 3) | (np.mod(yy, p) < 3)
        img[g] = _color(rng, 100)
    return img


def noise_gradient(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Smooth colour gradient plus fractal noise (plain tables, paper, bedsheets)."""
    c1, c2 = _color(rng), _color(rng)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    t = (xx * np.cos(a) + yy * np.sin(a)) / max(h, w)
    t = (t - t.min()) / (np.ptp(t) + 1e-6)
    img = c1 * (1 - t[..., None]) + c2 * t[..., None]
    return img + (_fractal(rng, h, w, rng.uniform(8, 200)) - 0.5)[..., None] * rng.uniform(0, 90)


_GLYPHS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz"


def _text(rng: np.random.Generator, n: int) -> str:
    return "".join(_GLYPHS[int(i)] for i in rng.integers(0, len(_GLYPHS), n))


def printed(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Newspaper, magazine or game-box print: lines of letters and digits (hard negatives)."""
    paper = rng.uniform(170, 250) * rng.uniform(0.9, 1.0, 3)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = np.clip(paper, 0, 255).astype(np.uint8)
    font = int(rng.choice([0, 1, 2, 3, 4, 6]))
    ink = tuple(int(v) for v in rng.integers(0, 90, 3))
    y = int(rng.integers(5, 30))
    while y < h:
        size = rng.uniform(0.3, 1.2) if rng.random() < 0.8 else rng.uniform(1.5, 4)
        th = max(1, int(size * 2))
        words = " ".join(_text(rng, int(rng.integers(1, 9))) for _ in range(int(w / 40) + 1))
        col = ink if rng.random() < 0.8 else tuple(int(v) for v in rng.integers(0, 255, 3))
        cv2.putText(img, words, (int(rng.integers(-20, 20)), y), font, size, col, th, cv2.LINE_AA)
        y += int(size * 30 * rng.uniform(1.1, 1.8)) + 4
    return img


def clutter(rng: np.random.Generator, img: np.ndarray, n: int) -> None:
    """Draw random household clutter (lines, boxes, circles, text) in place."""
    h, w = img.shape[:2]
    for _ in range(n):
        col = tuple(int(v) for v in _color(rng))
        k = rng.integers(4)
        p1 = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        if k == 0:
            p2 = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            cv2.line(img, p1, p2, col, int(rng.integers(1, 8)), cv2.LINE_AA)
        elif k == 1:
            s = rng.integers(10, max(11, w // 4), 2)
            cv2.rectangle(img, p1, (p1[0] + int(s[0]), p1[1] + int(s[1])), col, -1)
        elif k == 2:
            cv2.circle(img, p1, int(rng.integers(5, max(6, w // 8))), col, -1, cv2.LINE_AA)
        else:
            txt = _text(rng, int(rng.integers(1, 6)))
            cv2.putText(
                img,
                txt,
                p1,
                int(rng.integers(0, 7)),
                rng.uniform(0.5, 3),
                col,
                int(rng.integers(1, 4)),
                cv2.LINE_AA,
            )


KINDS = (wood, felt, cloth, carpet, noise_gradient)


def background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A random table background, uint8 BGR of shape (h, w, 3)."""
    if rng.random() < 0.12:
        img = printed(rng, h, w)
    else:
        img = np.clip(KINDS[rng.integers(len(KINDS))](rng, h, w), 0, 255).astype(np.uint8)
    if rng.random() < 0.2:  # a newspaper, leaflet or game box lying on the table
        ph, pw = int(h * rng.uniform(0.2, 0.6)), int(w * rng.uniform(0.2, 0.6))
        y, x = int(rng.integers(0, h - ph + 1)), int(rng.integers(0, w - pw + 1))
        img[y : y + ph, x : x + pw] = printed(rng, ph, pw)
    if rng.random() < 0.35:
        clutter(rng, img, int(rng.integers(1, 8)))
    return img
