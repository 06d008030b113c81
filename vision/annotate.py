"""Draw what was read on the photo: each card's box and label, each group's outline and score.

In show mode each group is outlined and labelled with its role and score; no label is drawn
over another while there is room nearby.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from trainer.table import Role

Color = tuple[int, int, int]
Rect = tuple[int, int, int, int]

_CERTAIN = (60, 180, 60)  # BGR green
_UNCERTAIN = (0, 140, 255)  # BGR orange
_STARTER = (0, 215, 255)  # BGR gold
_GROUP = {Role.HAND: (200, 120, 30), Role.CRIB: (160, 40, 160), Role.STARTER: _STARTER}
_UNNAMED = (128, 128, 128)  # BGR grey: a group whose role is still asked
_FONT = cv2.FONT_HERSHEY_SIMPLEX
_TRIES = 12
"""Rows above and below its place a label may move to, to keep clear of the others."""


@dataclasses.dataclass(frozen=True)
class Label:
    """A label's text and where it is drawn.

    Attributes:
        text (str): What it says.
        rect (Rect): Its filled background, x1, y1, x2, y2 in pixels.
        color (Color): The background's colour, BGR.
    """

    text: str
    rect: Rect
    color: Color

    def overlaps(self, other: Label) -> bool:
        """Whether the two backgrounds share any pixel."""
        a, b = self.rect, other.rect
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _sizes(shape: Sequence[int]) -> tuple[float, int, int]:
    """Font scale, line thickness and an outline's margin for a photo of ``shape``."""
    scale = max(shape[:2]) / 1000
    return 0.6 * scale, max(1, round(2 * scale)), max(4, round(8 * scale))


def _outline(box: Sequence[float], margin: int) -> Rect:
    x1, y1, x2, y2 = (round(v) for v in box)
    return x1 - margin, y1 - margin, x2 + margin, y2 + margin


def _place(
    text: str, color: Color, anchor: Rect, placed: list[Label], shape: Sequence[int]
) -> Label:
    """``text`` just above ``anchor`` (else below, else a row farther out), clear of ``placed``."""
    font_scale, thickness, _ = _sizes(shape)
    (w, h), base = cv2.getTextSize(text, _FONT, font_scale, thickness)
    w, h = w + 4, h + base + 2
    height, width = shape[:2]
    x = min(max(anchor[0], 0), max(width - w, 0))
    rows = [anchor[1] - h, anchor[3]]
    for k in range(1, _TRIES):
        rows += [anchor[1] - h - k * h, anchor[3] + k * h]
    candidates = [
        Label(text, (x, y, x + w, y + h), color)
        for y in (min(max(row, 0), max(height - h, 0)) for row in rows)
    ]
    return next((c for c in candidates if not any(c.overlaps(p) for p in placed)), candidates[0])


def label_layout(
    shape: Sequence[int],
    cards: Sequence[dict[str, Any]],
    groups: Sequence[dict[str, Any]] = (),
) -> list[Label]:
    """Where each label goes: each group's (role and score) above its outline, then each card's.

    A card's label gives its confidence outside show mode, and in show mode only when unsure.

    Args:
        shape (Sequence[int]): The photo's shape (height, width, ...).
        cards (Sequence[dict]): Cards as :func:`vision.report.summarize` lists them.
        groups (Sequence[dict]): Groups as :func:`vision.report.summarize_table` lists them.

    Returns:
        (list[Label]): The labels, none over another while there is room nearby.
    """
    _, _, margin = _sizes(shape)
    roles = [Role(g["role"]) if g["role"] else None for g in groups]
    placed: list[Label] = []
    for role, group in zip(roles, groups, strict=True):
        if group["box"] is None:  # a starter the player typed
            continue
        text = group["name"].removeprefix("the ")
        if group["score"] is not None:
            text += f": {group['score']['total']}"
        color = _GROUP[role] if role else _UNNAMED
        placed.append(_place(text, color, _outline(group["box"], margin), placed, shape))
    for card in cards:
        text = f"{card['card']}{'?' if card['uncertain'] else ''}"
        if card["uncertain"] or not groups:  # in show mode the groups' labels need the room
            text += f" {card['confidence']:.2f}"
        if card["starter"]:
            text += " starter"
        color = _UNCERTAIN if card["uncertain"] else _STARTER if card["starter"] else _CERTAIN
        x1, y1, x2, y2 = (round(v) for v in card["box"])
        placed.append(_place(text, color, (x1, y1, x2, y2), placed, shape))
    return placed


def annotate(
    image: np.ndarray,
    cards: Sequence[dict[str, Any]],
    groups: Sequence[dict[str, Any]] = (),
) -> np.ndarray:
    """A copy of ``image`` with the cards' boxes and labels and the groups' outlines drawn.

    Each card is labelled with its code (``5H``), and its confidence where it is uncertain or
    outside show mode (``5H? 0.62``); each group with its name and score (``hand 1: 29``).

    Args:
        image (np.ndarray): The photo, BGR.
        cards (Sequence[dict]): Cards as :func:`vision.report.summarize` lists them.
        groups (Sequence[dict]): Groups as :func:`vision.report.summarize_table` lists them
            (none outside show mode).

    Returns:
        (np.ndarray): The annotated copy.
    """
    out = image.copy()
    font_scale, thickness, margin = _sizes(out.shape)
    for group in groups:
        if group["box"] is not None:
            x1, y1, x2, y2 = _outline(group["box"], margin)
            color = _GROUP[Role(group["role"])] if group["role"] else _UNNAMED
            cv2.rectangle(out, (x1, y1), (x2, y2), color, thickness)
    for card in cards:
        x1, y1, x2, y2 = (round(v) for v in card["box"])
        color = _UNCERTAIN if card["uncertain"] else _STARTER if card["starter"] else _CERTAIN
        cv2.rectangle(out, (x1, y1), (x2, y2), color, thickness)
    for label in label_layout(out.shape, cards, groups):
        x1, y1, x2, y2 = label.rect
        (_, text_height), _ = cv2.getTextSize(label.text, _FONT, font_scale, thickness)
        cv2.rectangle(out, (x1, y1), (x2, y2), label.color, cv2.FILLED)
        cv2.putText(
            out,
            label.text,
            (x1 + 2, y1 + text_height + 1),
            _FONT,
            font_scale,
            (0, 0, 0),
            thickness,
            cv2.LINE_AA,
        )
    return out
