"""Show mode on synthetic tables: groups found exactly, every score exact, and reading speed.

For each number of players, ``--tables`` table scenes (vision.training.synth.table, seeded, in every
layout players use: vision.training.synth.table.LAYOUTS) are read by the real reader, grouped
(vision.grouping) and scored (trainer.table). A table is "exact" when every group has the right
role and cards with no question asked; "exact once the crib is named" when it is, after the
player answers "which group is the crib?" with a card of it (``crib read --show --crib-card``;
the crib lies beside the dealer, so it is mostly asked); "scores exact" when each hand's and the
crib's score is then that of the true groups. The rest ask the player another question (which
card is the starter? sort the cards, or check a card read unsure or twice: the answer scores no
group holding one) or are wrong with no question asked (the figure that must stay at zero; a
crib taken wrongly before it was named counts). The figures are given per player count and per
layout. Faces come from the local face cache
(``python -m vision.training.synth.faces``).

``--cache DIR`` keeps each table's reading in DIR (one JSON file a table), so that a change to
grouping is re-scored in seconds without reading the photos again (the card bodies,
vision.bodies, are found again each time); delete DIR when the reader changes. ``--series``
picks other tables than the benchmark's (choose thresholds on those).

Usage:
    python benchmarks/show_mode.py [--tables 30] [--effects] [--cache DIR] [--series 9]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.table import Group, Role, TableShow, score_table
from vision import MODELS_DIR
from vision.answer import group_reading
from vision.bodies import with_bodies
from vision.grouping import Layout, mark_crib
from vision.reader import DetectedCard, Reading, load_reader
from vision.training.synth.faces import load_decks
from vision.training.synth.table import LAYOUTS, RULES_BY_PLAYERS, TableScene, make_table

SERIES = 9
"""The first number of the benchmark tables' seeds (the tests use 5)."""


@dataclasses.dataclass
class Timings:
    """Seconds per table spent reading (photos read, not cached) and grouping."""

    reading: list[float] = dataclasses.field(default_factory=list)
    grouping: list[float] = dataclasses.field(default_factory=list)


def read_table(scene: TableScene, cache: Path | None, timings: Timings) -> Reading:
    """The reader's reading of ``scene``, from ``cache`` when it holds it (else stored there)."""
    if cache is not None and cache.exists():
        stored = json.loads(cache.read_text())
        cards = [
            DetectedCard(
                c["card"],
                c["confidence"],
                tuple(c["box"]),
                c["uncertain"],
                tuple(tuple(corner) for corner in c["corners"]),
            )
            for c in stored["cards"]
        ]
        return Reading(
            with_bodies(scene.image, cards), stored["starter_index"], tuple(stored["image_size"])
        )
    t0 = time.perf_counter()
    reading = load_reader(MODELS_DIR).read(scene.image)
    timings.reading.append(time.perf_counter() - t0)
    if cache is not None:
        cards_json = [dataclasses.asdict(c) for c in reading.cards]
        for card in cards_json:  # found again on each run, so that they follow vision.bodies
            del card["body"], card["outline"]
        stored = {
            "cards": cards_json,
            "starter_index": reading.starter_index,
            "image_size": reading.image_size,
        }
        cache.write_text(json.dumps(stored))
    return reading


@dataclasses.dataclass
class Tally:
    """How the tables of one player count or one layout came out."""

    tables: int = 0
    exact: int = 0
    """Every group found exactly with no question asked."""
    named: int = 0
    """Every group exact once the player named the crib, where the crib was asked."""
    scored: int = 0
    """Every hand's and the crib's score exact once the crib was named."""
    wrong: int = 0
    """Grouped wrong with no question asked (before or after naming the crib)."""
    misread: int = 0
    """A card misread and no question asked."""
    questions: Counter[str] = dataclasses.field(default_factory=Counter)
    """Questions still open once the crib was named, by kind."""

    def add(self, outcome: Outcome) -> None:
        """Count one table."""
        self.tables += 1
        self.exact += outcome.exact
        self.named += outcome.named
        self.scored += outcome.scored
        self.wrong += outcome.problem == "wrong groups"
        self.misread += outcome.problem == "wrong cards"
        if outcome.problem and not outcome.problem.startswith("wrong"):
            self.questions[outcome.problem] += 1

    def line(self) -> str:
        """The tally in a line."""
        n = self.tables
        asked = ", ".join(f"{kind} {count}" for kind, count in sorted(self.questions.items()))
        return (
            f"exact {self.exact}/{n} ({100 * self.exact / n:.0f} %), "
            f"once the crib is named {self.named}/{n} ({100 * self.named / n:.0f} %), "
            f"scores exact {self.scored}/{n}; unasked: grouped wrong {self.wrong}, "
            f"a card misread {self.misread}; questions left: {asked or 'none'}"
        )


@dataclasses.dataclass(frozen=True)
class Outcome:
    """One table: found exactly (no question), exact once the crib is named, scores exact,
    and what went wrong (a question's kind, "wrong groups" or "wrong cards"; "" when exact)."""

    exact: bool
    named: bool
    scored: bool
    problem: str


def _found(layout: Layout, reading: Reading) -> list[tuple[str, list[str]]]:
    return sorted(
        (g.role.value if g.role else "?", sorted(reading.cards[i].card for i in g.cards))
        for g in layout.groups
    )


def _problem(layout: Layout, reading: Reading, truth: list[tuple[str, list[str]]]) -> str:
    """The question's kind, "wrong groups" or "wrong cards" (unasked), or "" when exact.

    The answer scores no group holding a card misread unsure until the player checks that card,
    and no table holding a card twice (``vision.answer``): the question "card", not a wrong
    answer. A card misread with confidence into a card the table lacks is a wrong answer.
    """
    found = _found(layout, reading)
    if layout.question is not None:
        return layout.question.kind
    if found == truth:
        return ""
    grouped = [reading.cards[i] for g in layout.groups for i in g.cards]
    if len({c.card for c in grouped}) < len(grouped):
        return "card"
    on_table = Counter(c for _, cards in truth for c in cards)
    sure = Counter(c.card for c in grouped if not c.uncertain)
    if sure - on_table:
        return "wrong cards"
    if Counter(c.card for c in grouped) - on_table:
        return "card"
    return "wrong groups"


def judge(scene: TableScene, reading: Reading, timings: Timings) -> Outcome:
    """Group one table's reading, name its crib when asked (``--crib-card``), and score it."""
    t0 = time.perf_counter()
    layout = group_reading(reading)
    timings.grouping.append(time.perf_counter() - t0)
    truth = sorted((role.value, sorted(cards)) for role, cards in scene.groups)
    first = _problem(layout, reading, truth)
    crib = next(cards for role, cards in scene.groups if role is Role.CRIB)
    named = [c.card for c in reading.cards if c.card in crib and not c.uncertain]
    if first == "crib" and named:
        layout = mark_crib(layout, reading.cards, named[0])
    problem = _problem(layout, reading, truth)
    if first.startswith("wrong"):
        problem = first
    if problem:
        return Outcome(False, False, False, problem)
    expected = score_table([Group.of(r, c) for r, c in scene.groups], rules=scene.rules)
    found = _found(layout, reading)
    got = score_table([Group.of(Role(r), c) for r, c in found], rules=layout.rules)
    return Outcome(not first, True, _totals(expected) == _totals(got), "")


def _totals(table: TableShow) -> list[tuple[str, int]]:
    return sorted(
        (g.role.value, s.total) for g, s in zip(table.groups, table.scores, strict=True) if s
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=30)
    ap.add_argument("--effects", action="store_true", help="apply the generator's camera effects")
    ap.add_argument("--cache", type=Path, help="folder keeping each table's reading")
    ap.add_argument("--series", type=int, default=SERIES, help="first number of the seeds")
    ap.add_argument("--verbose", action="store_true", help="print each table not exact")
    a = ap.parse_args()
    decks = load_decks()
    print(
        f"{len(decks)} decks; {a.tables} tables per player count (series {a.series}); "
        f"effects {a.effects}"
    )
    if a.cache is not None:
        a.cache.mkdir(parents=True, exist_ok=True)
    timings = Timings()
    by_layout: dict[str, Tally] = {layout: Tally() for layout in LAYOUTS}
    for players, rules in RULES_BY_PLAYERS.items():
        tally = Tally()
        for seed in range(a.tables):
            scene = make_table(
                np.random.default_rng([a.series, players, seed]), decks, rules, effects=a.effects
            )
            name = f"{a.series}-{players}-{seed}{'-effects' if a.effects else ''}.json"
            reading = read_table(scene, a.cache and a.cache / name, timings)
            outcome = judge(scene, reading, timings)
            tally.add(outcome)
            by_layout[scene.layout].add(outcome)
            if outcome.problem and a.verbose:
                print(f"  {rules.name} seed {seed} ({scene.layout}): {outcome.problem}")
        print(f"{players} players ({rules.name}, {rules.table_size} cards): {tally.line()}")
    for layout, tally in by_layout.items():
        if tally.tables:
            print(f"{layout}: {tally.line()}")
    if timings.reading:
        print(
            f"reader: median {1000 * statistics.median(timings.reading):.0f} ms, "
            f"max {1000 * max(timings.reading):.0f} ms per 1600x1200 table photo"
        )
    print(
        f"grouping: median {1000 * statistics.median(timings.grouping):.2f} ms, "
        f"max {1000 * max(timings.grouping):.2f} ms per table"
    )


if __name__ == "__main__":
    main()
