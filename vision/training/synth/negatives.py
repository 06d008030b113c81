"""Print on card faces that is not a corner index (hard negatives for the classifier's ``none``).

Real decks carry brand print ("BICYCLE" on the ace of spades, the maker's line under it), and
readers mistake such letters for an index. :func:`brand_print` draws words like these in the middle
of a face, clear of its corner indices.
"""

from __future__ import annotations

import cv2
import numpy as np

BRAND_WORDS: tuple[str, ...] = (
    "BICYCLE",
    "BEE",
    "RIDER BACK",
    "PLAYING CARDS",
    "U.S. PLAYING CARD CO.",
    "No. 808",
    "POKER",
    "ACE",
    "CASINO",
    "MADE IN USA",
    "CLUB SPECIAL",
    "STANDARD INDEX",
)
"""Brand-like words; random capitals and digits are drawn too."""

_CAPS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def brand_print(
    rng: np.random.Generator, face: np.ndarray, index_box: tuple[float, float, float, float]
) -> None:
    """Draw one or two lines of brand-like print across the middle of ``face`` (in place).

    The print stays inside the band between the corner indices (``index_box`` is the top-left
    index; the bottom-right one is its 180-degree turn), so no index is covered.

    Args:
        rng (np.random.Generator): Randomness.
        face (np.ndarray): uint8 BGR face image.
        index_box (tuple[float, float, float, float]): The top-left corner index, face pixels.
    """
    h, w = face.shape[:2]
    left = int(index_box[2]) + 3
    right = w - left
    if right - left < 20:
        return
    ink = (
        tuple(int(v) for v in rng.integers(0, 70, 3))
        if rng.random() < 0.6
        else (int(rng.integers(0, 60)), int(rng.integers(0, 60)), int(rng.integers(150, 230)))
    )
    font = int(rng.choice([0, 2, 3, 4, 6])) | (cv2.FONT_ITALIC if rng.random() < 0.2 else 0)
    y = int(h * rng.uniform(0.3, 0.7))
    for _ in range(int(rng.integers(1, 3))):
        if rng.random() < 0.7:
            text = str(rng.choice(BRAND_WORDS))
        else:
            text = "".join(_CAPS[int(i)] for i in rng.integers(0, len(_CAPS), rng.integers(2, 8)))
        thick = int(rng.integers(1, 4))
        (tw, th), _ = cv2.getTextSize(text, font, 1.0, thick)
        scale = min((right - left) / max(tw, 1), h * 0.12 / max(th, 1)) * rng.uniform(0.5, 1.0)
        (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
        x = left + int(rng.uniform(0, max(1, right - left - tw)))
        cv2.putText(face, text, (x, y), font, scale, ink, thick, cv2.LINE_AA)
        y += int(th * rng.uniform(1.4, 2.2)) + 2
