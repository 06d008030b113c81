"""Show layouts: a whole cribbage table at the show, seen from above, with its true groups.

Each player's hand lies in front of his seat around the table (a row of overlapping cards or a
fan, turned to face him), the deck sits in the middle with the starter face up on it, and the
crib is spread out beside the deck. Cards are painted and labelled as in :mod:`.scene` (same
faces, same owner-map visibility); the scene also records which cards make each group, so the
grouping of what the reader reads can be checked exactly.

Usage (a contact sheet of table scenes for a look):
    python -m vision.synth.table --players 3 --out /tmp/tables
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from trainer.rules import FIVE_CARD, FOUR_HAND, SIX_CARD, THREE_HAND, RuleSet
from trainer.table import Role
from vision import CARDS
from vision.synth.backgrounds import background
from vision.synth.effects import apply_camera
from vision.synth.faces import Deck
from vision.synth.scene import (
    MIN_VISIBLE,
    IndexLabel,
    _back,
    _card_m,
    _paint,
    _rounded_mask,
    _visible_fraction,
    index_quads,
)

TABLE_SIZE = (1600, 1200)
"""(width, height) of a table photo."""

RULES_BY_PLAYERS = {2: SIX_CARD, 3: THREE_HAND, 4: FOUR_HAND}
"""The rule set laid out for each number of players (five-card: ``rules=FIVE_CARD``)."""

Pose = tuple[float, float, float]
"""A card's centre x, y and angle, in card heights and radians, around its group's centre."""


@dataclass
class TableScene:
    """A rendered table at the show and its truth.

    Attributes:
        image (np.ndarray): uint8 BGR image.
        groups (list[tuple[Role, list[str]]]): Each hand, the crib and the starter with its cards.
        labels (list[IndexLabel]): Corner indices visible enough to be read.
        rules (RuleSet): The rule set the table was dealt under.
    """

    image: np.ndarray
    groups: list[tuple[Role, list[str]]]
    labels: list[IndexLabel]
    rules: RuleSet


def _row(rng: np.random.Generator, n: int) -> list[Pose]:
    """Cards laid side by side, overlapping, every corner index showing."""
    step = rng.uniform(0.32, 0.6)
    tilt = rng.normal(0, 0.04)
    return [(k * step, k * step * tilt, rng.normal(0, 0.03)) for k in range(n)]


def _fanned(rng: np.random.Generator, n: int) -> list[Pose]:
    """Cards fanned from a pivot near their bottom, each index clear of the next."""
    step = np.deg2rad(rng.uniform(18, 26))
    radius = rng.uniform(0.6, 1.0)
    first = -step * (n - 1) / 2
    angles = [first + k * step for k in range(n)]
    return [(radius * np.sin(a), radius * (1 - np.cos(a)), a) for a in angles]


def _hand(rng: np.random.Generator, n: int) -> list[Pose]:
    return _row(rng, n) if rng.random() < 0.6 else _fanned(rng, n)


def _extent(poses: list[Pose]) -> float:
    """Radius (card heights) of a circle around the group's cards."""
    pts = np.array([(x, y) for x, y, _ in poses])
    return float(np.linalg.norm(pts - pts.mean(0), axis=1).max()) + 0.6


def _seats(
    rng: np.random.Generator, players: int, size: tuple[int, int], ch: float
) -> list[tuple[float, float, float]]:
    """Each player's hand centre and facing angle, evenly around the table's edge."""
    w, h = size
    start = np.pi / 2 + rng.normal(0, 0.08)
    seats = []
    for k in range(players):
        theta = start + 2 * np.pi * k / players
        rx, ry = w / 2 - 1.2 * ch, h / 2 - 1.0 * ch
        x = w / 2 + rx * np.cos(theta) + rng.normal(0, 0.1 * ch)
        y = h / 2 + ry * np.sin(theta) + rng.normal(0, 0.1 * ch)
        seats.append((x, y, theta - np.pi / 2 + rng.normal(0, 0.1)))
    return seats


def _crib_spot(
    rng: np.random.Generator,
    deck: tuple[float, float],
    reach: float,
    hands: list[tuple[float, float, float]],
    size: tuple[int, int],
    ch: float,
) -> tuple[float, float]:
    """Where the crib goes: beside the deck, in the frame, as clear of the hands as it can be."""
    w, h = size
    best, spot = -np.inf, deck
    for _ in range(100):
        angle = rng.uniform(0, 2 * np.pi)
        far = rng.uniform(0.1, 0.4) * ch + reach
        x, y = deck[0] + far * np.cos(angle), deck[1] + far * np.sin(angle)
        if not (reach < x < w - reach and reach < y < h - reach):
            continue
        clearance = min(np.hypot(x - hx, y - hy) - r - reach for hx, hy, r in hands)
        if clearance > best:
            best, spot = clearance, (x, y)
        if clearance > 1.0 * ch:
            break
    return spot


def make_table(
    rng: np.random.Generator,
    decks: list[Deck],
    rules: RuleSet = SIX_CARD,
    size: tuple[int, int] = TABLE_SIZE,
    effects: bool = False,
) -> TableScene:
    """Compose one photo of a table at the show under ``rules``.

    Args:
        rng (np.random.Generator): Source of all randomness.
        decks (list[Deck]): Loaded decks to draw faces from (one deck per table).
        rules (RuleSet): Players, hand and crib sizes.
        size (tuple[int, int]): (width, height).
        effects (bool): Apply the generator's camera effects.

    Returns:
        (TableScene): The image, its groups and its labels.
    """
    w, h = size
    ch = min(w, h) * rng.uniform(0.11, 0.13)
    deck = decks[int(rng.integers(len(decks)))]
    chosen = list(rng.permutation(CARDS))
    seats = _seats(rng, rules.players, size, ch)
    spots: list[tuple[Role, list[Pose], float, float, float]] = []
    for x, y, facing in seats:
        spots.append((Role.HAND, _hand(rng, rules.hand_size), x, y, facing))
    cx, cy = w / 2 + rng.normal(0, 0.2 * ch), h / 2 + rng.normal(0, 0.2 * ch)
    crib = _row(rng, rules.crib_size)
    taken = [(x, y, _extent(p) * ch) for _, p, x, y, _ in spots]
    x, y = _crib_spot(rng, (cx, cy), _extent(crib) * ch, taken, size, ch)
    spots.append((Role.CRIB, crib, x, y, rng.uniform(-np.pi, np.pi)))

    canvas = background(rng, h, w).astype(np.float32)
    owner = np.full((h, w), -1, np.int16)
    fh, fw = deck.face_size
    mask = _rounded_mask(fh, fw, 0.06 * fw)
    shadow = max(1.0, ch * rng.uniform(0.0, 0.03))
    for k in range(int(rng.integers(3, 6))):  # the deck, squared up roughly
        jitter = rng.normal(0, 0.015 * ch, 2)
        m = _card_m(deck, ch, cx + jitter[0] - k, cy + jitter[1] - k, rng.normal(0, 0.03))
        _paint(canvas, owner, _back(rng, deck), mask, m, -1, shadow)
    starter_pose = [(0.0, 0.0, rng.normal(0, 0.15))]
    spots.append((Role.STARTER, starter_pose, cx - 4, cy - 6, rng.uniform(-0.3, 0.3)))

    groups: list[tuple[Role, list[str]]] = []
    quads: list[tuple[str, int, np.ndarray]] = []
    face_quads = index_quads(deck)
    cid = 0
    for role, poses, gx, gy, facing in spots:
        pts = np.array([(x, y) for x, y, _ in poses]) * ch
        pts -= pts.mean(0)
        turn = np.array([[np.cos(facing), -np.sin(facing)], [np.sin(facing), np.cos(facing)]])
        codes = [chosen.pop() for _ in poses]
        groups.append((role, codes))
        for (_, _, a), p, code in zip(poses, pts @ turn.T, codes, strict=True):
            m = _card_m(deck, ch, gx + p[0], gy + p[1], a + facing)
            _paint(canvas, owner, deck.faces[code], mask, m, cid, shadow)
            quads += [(code, cid, cv2.perspectiveTransform(q[None], m)[0]) for q in face_quads]
            cid += 1
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    if effects:
        image = apply_camera(image, rng)
    labels = []
    for code, card_id, q in quads:
        visible = _visible_fraction(q, owner, card_id)
        x1, y1 = np.clip(q.min(0), 0, [w, h])
        x2, y2 = np.clip(q.max(0), 0, [w, h])
        if visible >= MIN_VISIBLE:
            box = (float(x1), float(y1), float(x2), float(y2))
            labels.append(IndexLabel(code, q, box, visible, card_id))
    return TableScene(image, groups, labels, rules)


def main() -> None:
    """Write a few table scenes as JPEGs for a look."""
    from vision.synth.faces import load_decks

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--five-card", action="store_true", help="two players, five-card rules")
    ap.add_argument("--count", type=int, default=4)
    ap.add_argument("--out", type=Path, default=Path("tables"))
    a = ap.parse_args()
    rules = FIVE_CARD if a.five_card else RULES_BY_PLAYERS[a.players]
    a.out.mkdir(parents=True, exist_ok=True)
    decks = load_decks()
    for seed in range(a.count):
        scene = make_table(np.random.default_rng([7, seed]), decks, rules)
        cv2.imwrite(str(a.out / f"{rules.name}-{seed}.jpg"), scene.image)
    print(f"{a.count} tables in {a.out}")


if __name__ == "__main__":
    main()
