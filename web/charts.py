"""Small server-drawn SVG charts for progress and history (no scripts, no CDN)."""

from __future__ import annotations

import datetime
import math
from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape

_W, _H, _PAD = 320, 140, 28


def line_chart(
    labels: Sequence[str], values: Sequence[float], unit: str, top: float = 0, bottom: float = 0
) -> Markup:
    """A line with dots, one per label; the y axis runs from ``bottom`` to ``top`` (or the maximum).

    >>> "<polyline" in line_chart(["a", "b"], [1.0, 2.0], "s")
    True
    """
    if not values:
        return Markup('<p class="empty">Nothing yet: answer a few drills.</p>')
    top = top or math.ceil(max(values)) or 1
    left = _PAD if len(values) > 1 else _W / 2  # a single day sits in the middle
    xy = _plot(values, top, (_PAD, _PAD, _W - _PAD, _H - _PAD), bottom)
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
    dots = _dots(labels, values, xy, unit, 3)
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
        f'<text x="2" y="{_PAD}">{top:g}</text><text x="2" y="{_H - _PAD}">{bottom:g}</text>'
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


def _plot(
    values: Sequence[float],
    top: float,
    box: tuple[float, float, float, float],
    least: float = 0,
) -> list[tuple[float, float]]:
    """Where each value goes in ``box`` (left, top, right, bottom), ``least`` at its bottom.

    The values spread evenly across, a single one in the middle; ``top`` is at the top.
    """
    left, upper, right, bottom = box
    step = (right - left) / max(len(values) - 1, 1)
    start = left if len(values) > 1 else (left + right) / 2
    height = (bottom - upper) / (top - least)
    return [(start + i * step, bottom - (v - least) * height) for i, v in enumerate(values)]


def _dots(
    labels: Sequence[str],
    values: Sequence[float],
    xy: Sequence[tuple[float, float]],
    unit: str,
    radius: float,
) -> str:
    """A dot on each point, its label and value in its tooltip."""
    return "".join(
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:g}"><title>{escape(label)}: {v:.1f} '
        f"{unit}</title></circle>"
        for label, v, (x, y) in zip(labels, values, xy, strict=True)
    )


_SPARK_W, _SPARK_H = 120, 30


def sparkline(labels: Sequence[str], values: Sequence[float], unit: str, top: float = 0) -> Markup:
    """A small line without axes, for a table of trends; each dot names its label and value.

    >>> sparkline(["11-16", "11-23"], [50.0, 75.0], "%", 100).count("<circle")
    2
    """
    if not values:
        return Markup("")
    top = top or max(values) or 1
    xy = _plot(values, top, (4, 4, _SPARK_W - 4, _SPARK_H - 4))
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
    return Markup(
        f'<svg class="chart spark" viewBox="0 0 {_SPARK_W} {_SPARK_H}" role="img" '
        f'aria-label="{escape(unit)} by week"><polyline points="{points}"/>'
        f"{_dots(labels, values, xy, unit, 2.5)}</svg>"
    )


_CELL, _GAP, _LEFT, _TOP = 16, 3, 30, 16
_LEVELS = (1, 5, 15, 30)
"""Answers in a day from which its cell is one shade darker."""
_WEEKDAYS = ((0, "Mon"), (2, "Wed"), (4, "Fri"))


def calendar(
    today: str,
    counts: Mapping[str, int],
    marks: Mapping[str, tuple[str, str]],
    weeks: int = 16,
) -> Markup:
    """Days practised, like a contribution graph: a column per week up to ``today``.

    Each day's cell is shaded by its answers (``counts``); a day in ``marks`` shows its mark in
    the cell and its words in the tooltip (``{"2026-11-20": ("5", "daily 5/6 in 1:42")}``).

    >>> calendar("2026-11-25", {"2026-11-24": 3}, {}).count('class="day l1"')
    1
    """
    end = datetime.date.fromisoformat(today)
    start = end - datetime.timedelta(days=end.weekday() + 7 * (weeks - 1))
    step = _CELL + _GAP
    cells = [f'<text x="0" y="{_TOP + row * step + 12}">{name}</text>' for row, name in _WEEKDAYS]
    for offset in range((end - start).days + 1):
        day = start + datetime.timedelta(days=offset)
        date = day.isoformat()
        x, y = _LEFT + (offset // 7) * step, _TOP + day.weekday() * step
        if day.day == 1 or offset == 0:
            cells.append(f'<text x="{x}" y="11">{day.strftime("%b")}</text>')
        answers = counts.get(date, 0)
        level = sum(answers >= n for n in _LEVELS)
        mark, words = marks.get(date, ("", ""))
        said = f"{date}: {answers} answer{'s' * (answers != 1)}" + (f", {words}" if words else "")
        cells.append(
            f'<g class="day l{level}{" daily" if mark else ""}"><rect x="{x}" y="{y}" '
            f'width="{_CELL}" height="{_CELL}" rx="3"/>'
            + (f'<text x="{x + _CELL / 2}" y="{y + 12}">{escape(mark)}</text>' if mark else "")
            + f"<title>{escape(said)}</title></g>"
        )
    width, height = _LEFT + weeks * step, _TOP + 7 * step
    return Markup(
        f'<svg class="chart calendar" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="days practised">{"".join(cells)}</svg>'
    )
