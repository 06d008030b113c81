"""Camera effects: colour temperature, exposure, shadows, glare, blur, noise, JPEG, low res."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np


def color_temperature(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Warm/cool white balance shift plus small per-channel gains."""
    t = rng.uniform(-0.25, 0.25)
    gains = (np.array([1 - t, 1.0, 1 + t]) * rng.uniform(0.92, 1.08, 3)).astype(np.float32)
    return img * gains


def exposure(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Brightness, contrast and gamma."""
    v = np.arange(256, dtype=np.float32)
    v = (v - 128) * rng.uniform(0.6, 1.3) + 128 + rng.uniform(-50, 40)
    lut = (255 * (np.clip(v, 0, 255) / 255) ** rng.uniform(0.7, 1.4)).astype(np.float32)
    return lut[np.clip(img, 0, 255).astype(np.uint8)]


def clipped_highlights(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Overexposure: a strong gain and offset that clips the paper and pales red ink."""
    return np.minimum(img * rng.uniform(1.3, 1.9) + rng.uniform(15, 60), 255)


def low_light(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A dim room: most of the light gone, with the noise a phone adds when it lifts the shadows."""
    x = img * rng.uniform(0.2, 0.5)
    return x + rng.uniform(1, 6) * rng.standard_normal(img.shape, dtype=np.float32)


def lighting(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uneven illumination: a linear ramp or vignette."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.5:
        a = rng.uniform(0, 2 * np.pi)
        t = (xx * np.cos(a) + yy * np.sin(a)) / max(h, w)
        t = (t - t.min()) / (np.ptp(t) + 1e-6)
        m = 1 - rng.uniform(0.1, 0.5) * t
    else:
        r = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        m = 1 - rng.uniform(0.1, 0.6) * r
    return img * m[..., None]


def shadow(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A soft cast shadow (phone, hand) as a blurred dark polygon."""
    h, w = img.shape[:2]
    m: np.ndarray = np.zeros((h, w), np.float32)
    c = rng.uniform([0, 0], [w, h])
    pts = (c + rng.normal(0, max(h, w) * 0.3, (int(rng.integers(3, 7)), 2))).astype(np.int32)
    cv2.fillPoly(m, [pts], 1.0)
    k = int(max(h, w) * rng.uniform(0.02, 0.1)) | 1
    m = cv2.GaussianBlur(m, (k, k), 0)
    return img * (1 - rng.uniform(0.2, 0.6) * m[..., None])


def glare(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A specular highlight: a bright blurred ellipse."""
    h, w = img.shape[:2]
    m: np.ndarray = np.zeros((h, w), np.float32)
    c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
    ax = (int(rng.uniform(0.03, 0.25) * w), int(rng.uniform(0.02, 0.15) * h))
    cv2.ellipse(m, c, ax, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    k = int(max(h, w) * rng.uniform(0.02, 0.08)) | 1
    m = cv2.GaussianBlur(m, (k, k), 0)
    return img + rng.uniform(60, 200) * m[..., None]


def blur(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Defocus (Gaussian) or motion blur along a random direction."""
    if rng.random() < 0.5:
        s = rng.uniform(0.5, 2.2) if rng.random() < 0.7 else rng.uniform(2.2, 3.2)
        return cv2.GaussianBlur(img, (0, 0), s)
    n = int(rng.integers(3, 11))
    k: np.ndarray = np.zeros((n, n), np.float32)
    k[n // 2, :] = 1
    rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), float(rng.uniform(0, 180)), 1)
    k = cv2.warpAffine(k, rot, (n, n))
    return cv2.filter2D(img, -1, k / max(k.sum(), 1e-6))


def sensor_noise(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Gaussian sensor noise, sometimes colour-correlated."""
    s = np.float32(rng.uniform(2, 14))
    if rng.random() < 0.5:
        return img + s * rng.standard_normal(img.shape[:2], dtype=np.float32)[..., None]
    return img + s * rng.standard_normal(img.shape, dtype=np.float32)


def low_resolution(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Downscale then upscale back (cheap cameras, digital zoom)."""
    h, w = img.shape[:2]
    f = rng.uniform(0.35, 0.8)
    small = cv2.resize(img, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def jpeg(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """JPEG round trip at a random quality."""
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 95))])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return img if decoded is None else decoded


CHAIN: tuple[tuple[float, Callable[[np.ndarray, np.random.Generator], np.ndarray]], ...] = (
    (0.8, exposure),
    (0.12, clipped_highlights),
    (0.12, low_light),
    (0.5, lighting),
    (0.3, shadow),
    (0.2, glare),
    (0.45, blur),
    (0.25, low_resolution),
    (0.6, sensor_noise),
)
"""Float-image effects after the colour temperature, in order, each with its probability."""


def apply_camera(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Apply a random chain of camera effects to a uint8 BGR image; returns uint8 BGR."""
    x = color_temperature(img.astype(np.float32), rng)
    for p, effect in CHAIN:
        if rng.random() < p:
            x = effect(x, rng)
    out = np.clip(x, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        out = jpeg(out, rng)
    return out
