"""The crop convention shared by the classifier's training data and the reader."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

CROP_SIZE = 64
"""Classifier input side in pixels."""
CROP_SCALE = 1.35
"""Square crop side as a multiple of the longer side of the corner-index box (models record
the scale they were trained with in ``card_classifier.json``; a tighter 1.2 read no better)."""


def crop_index(
    image: np.ndarray,
    box: tuple[float, float, float, float],
    size: int = CROP_SIZE,
    scale: float = CROP_SCALE,
    shift: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """Cut a square patch around a corner-index box and resize it to ``size`` x ``size``.

    Args:
        image (np.ndarray): BGR image (H, W, 3).
        box (tuple[float, float, float, float]): x1, y1, x2, y2 in image pixels.
        size (int): Output side.
        scale (float): Side of the square as a multiple of the box's longer side.
        shift (tuple[float, float]): Centre shift as fractions of the side (training jitter).

    Returns:
        (np.ndarray): uint8 BGR patch (size, size, 3); outside the image is edge-replicated.
    """
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1, 2.0) * scale
    cx = (x1 + x2) / 2 + shift[0] * side
    cy = (y1 + y2) / 2 + shift[1] * side
    s = max(2, round(side))
    x0, y0 = round(cx - s / 2), round(cy - s / 2)
    h, w = image.shape[:2]
    pl, pt = max(0, -x0), max(0, -y0)
    pr, pb = max(0, x0 + s - w), max(0, y0 + s - h)
    roi = image[max(0, y0) : min(h, y0 + s), max(0, x0) : min(w, x0 + s)]
    if roi.size == 0:
        return np.zeros((size, size, 3), np.uint8)
    if pl or pt or pr or pb:
        roi = cv2.copyMakeBorder(roi, pt, pb, pl, pr, cv2.BORDER_REPLICATE)
    interp = cv2.INTER_AREA if s > size else cv2.INTER_LINEAR
    return cv2.resize(roi, (size, size), interpolation=interp)


STRETCH_PERCENTILES = (1.0, 99.0)
"""Dark and bright points of :func:`normalize_crops`, on the crop's grey levels."""
STRETCH_MIN_RANGE = 32.0
"""The most :func:`normalize_crops` amplifies: a crop whose grey levels span less is stretched by
255 / this (a flat patch stays flat instead of turning into noise)."""


SOFTEN_SIGMA = 0.8
"""The Gaussian (in crop pixels) the reader softens its sharp index crops, and the context
model its crops, with before they are read. A webcam's large, sharpened, speckled indices read
better softened: chosen on held-out synthetic webcam frames (seed 82, 300 frames: certain wrong
cards 37, 32, 31, 29 at 0, 0.5, 0.8, 1.0, right ones 1,421, 1,418, 1,405, 1,391; the most
precision for under one point of recall; softening only the index crops not blurred already: 30
wrong, 1,412 right; the context crops too: 24, 1,398), then measured once on the real sets
(model card, HISTORY "A softened index crop")."""


def soften_crops(crops: np.ndarray, sigma: float = SOFTEN_SIGMA) -> np.ndarray:
    """Each uint8 BGR crop (N, S, S, 3) blurred by a Gaussian of ``sigma`` pixels (0: as given).

    Examples:
        >>> edge = np.zeros((1, 8, 8, 3), np.uint8); edge[0, :, 4:] = 255
        >>> soft, cut = soften_crops(edge)[0, 0, 2:6, 0], soften_crops(edge, 0.0)[0, 0, 2:6, 0]
        >>> bool(0 < soft[0] < soft[1] < soft[2] < soft[3] < 255), cut.tolist()
        (True, [0, 0, 255, 255])
    """
    if sigma <= 0 or len(crops) == 0:
        return crops
    return np.stack([cv2.GaussianBlur(crop, (0, 0), sigma) for crop in crops])


def normalize_crops(crops: np.ndarray) -> np.ndarray:
    """Stretch each crop's contrast so that its ink is dark and its paper white.

    Per crop, one gain and offset for all three channels (hues are kept): the 99th percentile of
    the grey level (mean of B, G, R) maps to 255 and the 1st to 0, unless the grey levels span
    under ``STRETCH_MIN_RANGE``, where the gain is capped at 255 / ``STRETCH_MIN_RANGE`` and the
    bright point still maps to 255. A dark photo's index comes back to full contrast, and a
    clipped one's pale red ink gets darker while its red channel stays at 255. Training and
    serving both call this, on uint8 BGR crops. (Chosen over a per-channel stretch, which also
    removes colour casts, because the shipped classifier read synthetic validation crops better
    through it: 65.3% vs 64.8% of indices on clean crops, 65.6% vs 65.5% on dark ones.)

    Args:
        crops (np.ndarray): uint8 (N, S, S, 3).

    Returns:
        (np.ndarray): uint8 array of the same shape.

    Examples:
        >>> dim = np.zeros((1, 2, 50, 3), np.uint8); dim[0, 0] = 20; dim[0, 1] = (80, 80, 60)
        >>> out = normalize_crops(dim)[0]
        >>> out[0, 0].tolist(), out[1, 0].tolist()
        ([0, 0, 0], [255, 255, 191])
    """
    x = crops.astype(np.float32)
    grey = x.mean(-1)
    lo = np.percentile(grey, STRETCH_PERCENTILES[0], axis=(-2, -1))[..., None, None, None]
    hi = np.percentile(grey, STRETCH_PERCENTILES[1], axis=(-2, -1))[..., None, None, None]
    gain = 255.0 / np.maximum(hi - lo, STRETCH_MIN_RANGE)
    out: np.ndarray = np.clip(255.5 - (hi - x) * gain, 0, 255).astype(np.uint8)
    return out


def crop_probabilities(session: Any, input_name: str, crops: np.ndarray) -> np.ndarray:
    """Softmax of a crop classifier (an onnxruntime session) over uint8 BGR crops (N, S, S, 3)."""
    x = crops.transpose(0, 3, 1, 2).astype(np.float32) / 255
    logits = session.run(None, {input_name: x})[0]
    e = np.exp(logits - logits.max(1, keepdims=True))
    probs: np.ndarray = e / e.sum(1, keepdims=True)
    return probs
