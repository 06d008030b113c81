"""Draw what was read on the photo: a box and a label for each card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

_CERTAIN = (60, 180, 60)  # BGR green
_UNCERTAIN = (0, 140, 255)  # BGR orange
_STARTER = (0, 215, 255)  # BGR gold


def annotate(image: np.ndarray, cards: Sequence[dict[str, Any]]) -> np.ndarray:
    """A copy of ``image`` with each card's box and label (``5♥ 0.97``) drawn.

    Args:
        image (np.ndarray): The photo, BGR.
        cards (Sequence[dict]): Cards as :func:`vision.report.summarize` lists them.

    Returns:
        (np.ndarray): The annotated copy.
    """
    out = image.copy()
    scale = max(out.shape[:2]) / 1000
    thickness = max(1, round(2 * scale))
    for card in cards:
        x1, y1, x2, y2 = (round(v) for v in card["box"])
        color = _UNCERTAIN if card["uncertain"] else _STARTER if card["starter"] else _CERTAIN
        cv2.rectangle(out, (x1, y1), (x2, y2), color, thickness)
        label = f"{card['card']}{'?' if card['uncertain'] else ''} {card['confidence']:.2f}"
        if card["starter"]:
            label += " starter"
        font_scale = 0.6 * scale
        (w, h), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness)
        top = max(y1 - h - base - 2, 0)
        cv2.rectangle(out, (x1, top), (x1 + w + 4, top + h + base + 2), color, cv2.FILLED)
        cv2.putText(
            out,
            label,
            (x1 + 2, top + h + 1),
            cv2.FONT_HERSHEY_SIMPLEX,
            font_scale,
            (0, 0, 0),
            thickness,
            cv2.LINE_AA,
        )
    return out
