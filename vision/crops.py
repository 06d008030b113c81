"""The crop convention shared by the classifier's training data and the reader."""

from __future__ import annotations

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
