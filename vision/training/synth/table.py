"""Show layouts: a whole cribbage table at the show, photographed from a seat, with its groups.

The table is laid out as players lay it (:data:`LAYOUTS`, a style and an arrangement):

- styles: ``spread`` (separate cards side by side, from touching to half a card apart),
  ``overlapped`` (a row of overlapping cards, every corner index showing) or ``fan``;
- arrangements: ``seats`` (each hand in front of its player's seat around the table, turned
  to face him) or ``rows`` (the groups side by side in rows, a card's width or more apart, as
  a photo framed on the cards shows them).

The deck lies with the starter face up on it, and the crib (laid in the hands' style, a fan's
crib as a row) lies beside the dealer's hand or beside the deck. The photo is taken from a
seat: the far edge of the table is narrower (a perspective keystone). Cards are painted and
labelled as in :mod:`.scene` (same faces, same owner-map visibility); the scene also records
which cards make each group, so the grouping of what the reader reads can be checked exactly.

Usage (a few table scenes as JPEGs for a look):
    python -m vision.training.synth.table --players 3 --layout spread/rows --out /tmp/tables
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from trainer.rules import FIVE_CARD, FOUR_HAND, SIX_CARD, THREE_HAND, RuleSet
from trainer.table import Role
from vision import CACHE_DIR, CARDS
from vision.training.synth.backgrounds import background
from vision.training.synth.effects import apply_camera
from vision.training.synth.faces import Deck
from vision.training.synth.scene import (
    MIN_VISIBLE,
    IndexLabel,
    _back,
    _card_m,
    _paint,
    _rounded_mask,
    _visible_fraction,
    index_quads,
    keystone,
)

TABLE_SIZE = (1600, 1200)
"""(width, height) of a table photo."""

RULES_BY_PLAYERS = {2: SIX_CARD, 3: THREE_HAND, 4: FOUR_HAND}
"""The rule set laid out for each number of players (five-card: ``rules=FIVE_CARD``)."""

STYLES = ("spread", "overlapped", "fan")
"""How a hand is laid: separate cards in a row, overlapping cards in a row, a fan."""
ARRANGEMENTS = ("seats", "rows")
"""Where the groups lie: at the players' seats around the table, or side by side in rows."""
LAYOUTS = tuple(f"{style}/{where}" for where in ARRANGEMENTS for style in STYLES)
"""Every table layout, ``style/arrangement``."""

Pose = tuple[float, float, float]
"""A card's centre x, y and angle, in card heights and radians, around its group's centre."""
Spot = tuple[Role, list[Pose], float, float, float]
"""A group: its role, its cards' poses, its centre x, y (pixels) and its turn (radians)."""


@dataclass
class TableScene:
    """A rendered table at the show and its truth.

    Attributes:
        image (np.ndarray): uint8 BGR image.
        groups (list[tuple[Role, list[str]]]): Each hand, the crib and the starter with its cards.
        labels (list[IndexLabel]): Corner indices visible enough to be read.
        rules (RuleSet): The rule set the table was dealt under.
        layout (str): How the cards are laid (one of :data:`LAYOUTS`).
    """

    image: np.ndarray
    groups: list[tuple[Role, list[str]]]
    labels: list[IndexLabel]
    rules: RuleSet
    layout: str = LAYOUTS[0]


def _spread(rng: np.random.Generator, n: int, width: float) -> list[Pose]:
    """Separate cards side by side, from touching to half a card's ``width`` apart."""
    gap = rng.uniform(0.0, 0.5) * width
    x, poses = 0.0, []
    for _ in range(n):
        poses.append((x, rng.normal(0, 0.02), rng.normal(0, 0.02)))
        x += width + max(0.0, gap + rng.normal(0, 0.03 * width))
    return poses


def _overlapped(rng: np.random.Generator, n: int) -> list[Pose]:
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


def _laid(rng: np.random.Generator, style: str, n: int, width: float, *, crib: bool) -> list[Pose]:
    """``n`` cards laid in ``style`` (a fan's crib is an overlapped row), centred on 0."""
    if style == "spread":
        poses = _spread(rng, n, width)
    elif style == "fan" and not crib:
        poses = _fanned(rng, n)
    else:
        poses = _overlapped(rng, n)
    mx, my = np.mean([(x, y) for x, y, _ in poses], axis=0)
    return [(x - mx, y - my, a) for x, y, a in poses]


def _extent(poses: list[Pose]) -> float:
    """Radius (card heights) of a circle around the group's cards."""
    pts = np.array([(x, y) for x, y, _ in poses])
    return float(np.linalg.norm(pts - pts.mean(0), axis=1).max()) + 0.6


def _span(poses: list[Pose], width: float) -> tuple[float, float]:
    """Width and height (card heights) of the box around a group laid facing the camera."""
    xs = [x for x, _, _ in poses]
    ys = [y for _, y, _ in poses]
    return max(xs) - min(xs) + width + 0.2, max(ys) - min(ys) + 1.1


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


def _beside(
    rng: np.random.Generator,
    anchor: tuple[float, float, float],
    reach: float,
    taken: list[tuple[float, float, float]],
    size: tuple[int, int],
    ch: float,
) -> tuple[float, tuple[float, float]]:
    """A spot for a group of radius ``reach`` just beside ``anchor`` (x, y, its radius).

    Beside it (0.1 to 0.4 card heights between the two circles), in the frame, and as clear
    of the ``taken`` circles (x, y, radius) as it can be. Returns how clear (negative where
    it overlaps one of them) and the spot.
    """
    w, h = size
    best, spot = -np.inf, (anchor[0], anchor[1])
    for _ in range(100):
        angle = rng.uniform(0, 2 * np.pi)
        far = anchor[2] + reach + rng.uniform(0.1, 0.4) * ch
        x, y = anchor[0] + far * np.cos(angle), anchor[1] + far * np.sin(angle)
        if not (reach < x < w - reach and reach < y < h - reach):
            continue
        clearance = min(np.hypot(x - tx, y - ty) - r - reach for tx, ty, r in taken)
        if clearance > best:
            best, spot = clearance, (x, y)
        if clearance > 1.0 * ch:
            break
    return best, spot


def _around_the_table(
    rng: np.random.Generator,
    style: str,
    rules: RuleSet,
    size: tuple[int, int],
    ch: float,
    width: float,
) -> tuple[list[Spot], tuple[float, float], float]:
    """The hands at their seats and the crib beside the dealer or the deck.

    Returns the groups, the deck's centre and how clear of the hands and the deck the crib
    lies (negative where it overlaps one of them).
    """
    w, h = size
    spots: list[Spot] = [
        (Role.HAND, _laid(rng, style, rules.hand_size, width, crib=False), x, y, facing)
        for x, y, facing in _seats(rng, rules.players, size, ch)
    ]
    deck = (w / 2 + rng.normal(0, 0.2 * ch), h / 2 + rng.normal(0, 0.2 * ch))
    crib = _laid(rng, style, rules.crib_size, width, crib=True)
    card_reach = 0.5 * float(np.hypot(1.0, width)) * ch  # half the deck's diagonal
    hands = [(x, y, _extent(p) * ch) for _, p, x, y, _ in spots]
    on_deck = (*deck, card_reach)
    dealer = int(rng.integers(rules.players))
    reach = _extent(crib) * ch
    others = [*hands[:dealer], *hands[dealer + 1 :], on_deck]
    clear, (x, y) = -np.inf, deck
    facing = rng.uniform(-np.pi, np.pi)
    if rng.random() < 0.5:  # beside the dealer's hand, turned as it is
        facing = spots[dealer][4]
        clear, (x, y) = _beside(rng, hands[dealer], reach, others, size, ch)
    if clear < 0:  # no room by the dealer: beside the deck, where there is most
        clear, (x, y) = max(_beside(rng, on_deck, reach, hands, size, ch), (clear, (x, y)))
    spots.append((Role.CRIB, crib, x, y, facing))
    return spots, deck, clear


def _in_rows(
    rng: np.random.Generator,
    style: str,
    rules: RuleSet,
    size: tuple[int, int],
    ch: float,
    width: float,
) -> tuple[list[Spot], tuple[float, float], float]:
    """The groups side by side in rows, facing the camera, a card's width or more apart.

    The crib follows the dealer's hand; the deck (the starter on it) lies anywhere in the line.
    Returns the groups, the deck's centre and the card height, smaller than ``ch`` when the
    rows would not fit in the photo at ``ch``.
    """
    w, h = size
    laid = [
        (Role.HAND, _laid(rng, style, rules.hand_size, width, crib=False))
        for _ in range(rules.players)
    ]
    dealer = int(rng.integers(rules.players))
    laid.insert(dealer + 1, (Role.CRIB, _laid(rng, style, rules.crib_size, width, crib=True)))
    laid.insert(int(rng.integers(len(laid) + 1)), (Role.STARTER, [(0.0, 0.0, 0.0)]))
    room = w / ch - 1.0  # card heights across the photo, less a margin
    rows: list[list[tuple[Role, list[Pose], float, float]]] = [[]]  # role, poses, x, x's end
    for role, poses in laid:
        span = _span(poses, width)[0]
        end = rows[-1][-1][3] if rows[-1] else 0.0
        gap = rng.uniform(1.0, 1.8) * width if rows[-1] else 0.0
        if rows[-1] and end + gap + span > room:
            rows.append([])
            end, gap = 0.0, 0.0
        rows[-1].append((role, poses, end + gap + span / 2, end + gap + span))
    heights = [max(_span(poses, width)[1] for _, poses, _, _ in row) for row in rows]
    between = rng.uniform(0.3, 0.8)
    tall = sum(heights) + between * (len(rows) - 1)
    ch *= min(1.0, (h / ch - 0.6) / tall, room / max(row[-1][3] for row in rows))
    spots: list[Spot] = []
    deck = (w / 2, h / 2)
    top = h / 2 - tall * ch / 2
    for row, height in zip(rows, heights, strict=True):
        left = w / 2 - row[-1][3] * ch / 2
        for role, poses, x, _ in row:
            centre = (left + x * ch, top + height * ch / 2)
            if role is Role.STARTER:
                deck = centre
            else:
                spots.append((role, poses, *centre, rng.normal(0, 0.04)))
        top += (height + between) * ch
    return spots, deck, ch


def _photo_from_a_seat(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """The camera: the table's far (top) edge narrowed to 60 to 95 % of the near one's width."""
    w, h = size
    flat = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    seen = keystone(flat, float(rng.uniform(0.6, 0.95)), 0)
    return cv2.getPerspectiveTransform(flat, seen).astype(np.float64)


def make_table(
    rng: np.random.Generator,
    decks: list[Deck],
    rules: RuleSet = SIX_CARD,
    size: tuple[int, int] = TABLE_SIZE,
    effects: bool = False,
    layout: str | None = None,
) -> TableScene:
    """Compose one photo of a table at the show under ``rules``.

    Args:
        rng (np.random.Generator): Source of all randomness.
        decks (list[Deck]): Loaded decks to draw faces from (one deck per table).
        rules (RuleSet): Players, hand and crib sizes.
        size (tuple[int, int]): (width, height).
        effects (bool): Apply the generator's camera effects.
        layout (str | None): One of :data:`LAYOUTS`; ``None`` draws one.

    Returns:
        (TableScene): The image, its groups, its labels and its layout.

    Raises:
        ValueError: For a layout not in :data:`LAYOUTS`, or no deck to draw from.
    """
    if layout is not None and layout not in LAYOUTS:
        raise ValueError(f"unknown table layout {layout!r} (use {', '.join(LAYOUTS)})")
    if not decks:
        raise ValueError(f"no deck to draw the cards from: render them first with {RENDER_DECKS}")
    w, h = size
    ch = min(w, h) * rng.uniform(0.11, 0.13)
    deck = decks[int(rng.integers(len(decks)))]
    fh, fw = deck.face_size
    width = fw / fh  # a card's width in card heights
    chosen = list(rng.permutation(CARDS))
    drawn = LAYOUTS[int(rng.integers(len(LAYOUTS)))]
    layout = layout or drawn
    style, where = layout.split("/")
    if where == "rows":
        spots, (cx, cy), ch = _in_rows(rng, style, rules, size, ch, width)
    else:
        for _ in range(5):  # smaller cards until the crib lies clear of the hands
            spots, (cx, cy), clear = _around_the_table(rng, style, rules, size, ch, width)
            if clear >= 0:
                break
            ch *= 0.9
    camera = _photo_from_a_seat(rng, size)

    canvas = background(rng, h, w).astype(np.float32)
    owner = np.full((h, w), -1, np.int16)
    mask = _rounded_mask(fh, fw, 0.06 * fw)
    shadow = max(1.0, ch * rng.uniform(0.0, 0.03))
    for k in range(int(rng.integers(3, 6))):  # the deck, squared up roughly
        jitter = rng.normal(0, 0.015 * ch, 2)
        m = _card_m(deck, ch, cx + jitter[0] - k, cy + jitter[1] - k, rng.normal(0, 0.03))
        _paint(canvas, owner, _back(rng, deck), mask, camera @ m, -1, shadow)
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
            m = camera @ _card_m(deck, ch, gx + p[0], gy + p[1], a + facing)
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
    return TableScene(image, groups, labels, rules, layout)


RENDER_DECKS = "python -m vision.training.synth.faces"
"""What renders every deck's faces into the cache."""
FIRST_DECK = "anglo"
"""The deck :func:`main` renders when the cache has none (as the README's sample photo's)."""


def decks_for_a_look(root: Path) -> list[Deck]:
    """The decks in the cache ``root``; with none there, one made for it, saying so (not a crash).

    The deck is rendered from its artwork, or drawn with OpenCV where the SVG renderer is
    missing.
    """
    from vision.training.synth.faces import load_deck, load_decks, procedural_deck, rendered_deck

    decks = load_decks(root)
    if decks:
        return decks
    print(f"No deck in the cache: rendering the {FIRST_DECK} deck ({RENDER_DECKS} renders all)")
    try:
        return [rendered_deck(FIRST_DECK, root)]
    except RuntimeError:  # no rsvg-convert or artwork: a deck drawn with OpenCV alone
        return [load_deck(procedural_deck(0, root))]


def main() -> None:
    """Write a few table scenes as JPEGs for a look."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--five-card", action="store_true", help="two players, five-card rules")
    ap.add_argument("--layout", choices=LAYOUTS, help="how the cards are laid (default: any)")
    ap.add_argument("--count", type=int, default=4)
    ap.add_argument("--out", type=Path, default=Path("tables"))
    ap.add_argument("--faces", type=Path, default=CACHE_DIR / "faces", help="the decks' cache")
    a = ap.parse_args()
    rules = FIVE_CARD if a.five_card else RULES_BY_PLAYERS[a.players]
    a.out.mkdir(parents=True, exist_ok=True)
    decks = decks_for_a_look(a.faces)
    for seed in range(a.count):
        scene = make_table(np.random.default_rng([7, seed]), decks, rules, layout=a.layout)
        name = f"{rules.name}-{scene.layout.replace('/', '-')}-{seed}.jpg"
        cv2.imwrite(str(a.out / name), scene.image)
    print(f"{a.count} tables in {a.out}")


if __name__ == "__main__":
    main()
