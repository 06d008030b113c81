"""Small server-drawn SVG charts for the progress page (no scripts, no CDN)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from markupsafe import Markup, escape

_W, _H, _PAD = 320, 140, 28


def line_chart(labels: Sequence[str], values: Sequence[float], unit: str, top: float = 0) -> Markup:
    """A line with dots, one per label; the y axis runs from 0 to ``top`` (or the maximum).

    >>> "<polyline" in line_chart(["a", "b"], [1.0, 2.0], "s")
    True
    """
    if not values:
        return Markup('<p class="empty">Nothing yet: answer a few drills.</p>')
    top = top or math.ceil(max(values)) or 1
    step = (_W - 2 * _PAD) / max(len(values) - 1, 1)
    left = _PAD if len(values) > 1 else _W / 2  # a single day sits in the middle

    def xy(i: int, v: float) -> tuple[float, float]:
        return left + i * step, _H - _PAD - (v / top) * (_H - 2 * _PAD)

    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (xy(i, v) for i, v in enumerate(values)))
    dots = "".join(
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3"><title>{escape(label)}: {v:.1f} {unit}'
        f"</title></circle>"
        for i, (label, v) in enumerate(zip(labels, values, strict=True))
        for x, y in [xy(i, v)]
    )
    first, last = escape(labels[0][5:]), escape(labels[-1][5:])
    days = (
        f'<text x="{_PAD}" y="{_H - 8}">{first}</text>'
        f'<text x="{_W - _PAD}" y="{_H - 8}" text-anchor="end">{last}</text>'
        if len(values) > 1
        else f'<text x="{left:.1f}" y="{_H - 8}" text-anchor="middle">{first}</text>'
    )
    return Markup(
        f'<svg class="chart" viewBox="0 0 {_W} {_H}" role="img" '
        f'aria-label="{escape(unit)} by day">'
        f'<line class="axis" x1="{_PAD}" y1="{_H - _PAD}" x2="{_W - _PAD}" y2="{_H - _PAD}"/>'
        f'<text x="2" y="{_PAD}">{top:g}</text><text x="2" y="{_H - _PAD}">0</text>'
        f'{days}<polyline points="{points}"/>{dots}</svg>'
    )


def bar_chart(labels: Sequence[str], values: Sequence[float], notes: Sequence[str]) -> Markup:
    """Horizontal bars from 0 to 1 (rates), labelled, with a note at the end of each.

    >>> bar_chart(["nobs"], [0.5], ["1 of 2"]).count("<rect")
    2
    """
    if not values:
        return Markup('<p class="empty">Nothing yet: answer a few drills.</p>')
    row, label_w, bar_w = 24, 170, 130  # labels up to 'runs with duplicates'
    height = row * len(values) + 4
    bars = "".join(
        f'<text x="0" y="{i * row + 16}">{escape(label)}</text>'
        f'<rect class="track" x="{label_w}" y="{i * row + 4}" width="{bar_w}" height="16"/>'
        f'<rect x="{label_w}" y="{i * row + 4}" width="{value * bar_w:.1f}" height="16"/>'
        f'<text x="{label_w + bar_w + 6}" y="{i * row + 16}">{escape(note)}</text>'
        for i, (label, value, note) in enumerate(zip(labels, values, notes, strict=True))
    )
    return Markup(
        f'<svg class="chart bars" viewBox="0 0 {label_w + bar_w + 100} {height}" role="img" '
        f'aria-label="misses by category">{bars}</svg>'
    )
