"""Show mode on synthetic tables: groups found exactly, every score exact, and reading speed.

For each number of players, ``--tables`` table scenes (vision.synth.table, seeded) are read by
the real reader, grouped (vision.grouping) and scored (trainer.table); a table counts as
"groups exact" when every group has the right role and cards with no question left, and
"scores exact" when each hand's and the crib's score equals the score of the true groups; the
rest either ask the player a question (which card is the starter? which group is the crib? or
sort the cards) or are wrong with no question asked (the figure that must stay near zero).
Faces come from the local face cache (``python -m vision.synth.faces``).

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

from trainer.table import Group, score_table
from vision.bodies import with_bodies
from vision.grouping import group_cards, table_rules
from vision.reader import DetectedCard, Reading, load_reader
from vision.synth.faces import load_decks
from vision.synth.table import RULES_BY_PLAYERS, TableScene, make_table

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
    reading = load_reader().read(scene.image)
    timings.reading.append(time.perf_counter() - t0)
    if cache is not None:
        cards_json = [dataclasses.asdict(c) for c in reading.cards]
        for card in cards_json:  # found again on each run, so that they follow vision.bodies
            del card["body"]
        stored = {
            "cards": cards_json,
            "starter_index": reading.starter_index,
            "image_size": reading.image_size,
        }
        cache.write_text(json.dumps(stored))
    return reading


def judge(scene: TableScene, reading: Reading, timings: Timings) -> tuple[bool, bool, str]:
    """Group and score one table's reading; (groups exact, scores exact, what went wrong)."""
    certain = sum(not c.uncertain for c in reading.cards)
    t0 = time.perf_counter()
    layout = group_cards(reading.cards, table_rules(certain), set_apart=reading.starter_index)
    timings.grouping.append(time.perf_counter() - t0)
    truth = sorted((role.value, sorted(cards)) for role, cards in scene.groups)
    found = sorted(
        (g.role.value if g.role else "?", sorted(reading.cards[i].card for i in g.cards))
        for g in layout.groups
    )
    if found != truth or layout.question is not None:
        codes = sorted(c for _, cards in found for c in cards)
        misread = codes != sorted(c for _, cards in truth for c in cards)
        why = "wrong cards" if misread else "wrong groups"
        why = layout.question.kind if layout.question else why
        return False, False, f"{why}: read {len(reading.cards)} cards"
    expected = score_table([Group.of(r, c) for r, c in scene.groups], rules=scene.rules)
    got = score_table([Group.of(r, c) for r, c in found], rules=layout.rules)
    totals = sorted(
        (g.role.value, s.total) for g, s in zip(expected.groups, expected.scores, strict=True) if s
    )
    again = sorted(
        (g.role.value, s.total) for g, s in zip(got.groups, got.scores, strict=True) if s
    )
    return True, totals == again, ""


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
    for players, rules in RULES_BY_PLAYERS.items():
        groups_ok = scores_ok = wrong = misread = 0
        questions: Counter[str] = Counter()
        for seed in range(a.tables):
            scene = make_table(
                np.random.default_rng([a.series, players, seed]), decks, rules, effects=a.effects
            )
            name = f"{a.series}-{players}-{seed}{'-effects' if a.effects else ''}.json"
            reading = read_table(scene, a.cache and a.cache / name, timings)
            g, s, why = judge(scene, reading, timings)
            groups_ok, scores_ok = groups_ok + g, scores_ok + s
            wrong += why.startswith("wrong groups")
            misread += why.startswith("wrong cards")
            if why and not why.startswith("wrong"):
                questions[why.split(":")[0]] += 1
            if why and a.verbose:
                print(f"  {rules.name} seed {seed}: {why}")
        n = a.tables
        cards = rules.players * rules.hand_size + rules.crib_size + 1
        asked = ", ".join(f"{kind} {count}" for kind, count in sorted(questions.items()))
        print(
            f"{players} players ({rules.name}, {cards} cards): "
            f"groups exact {groups_ok}/{n} ({100 * groups_ok / n:.0f} %), "
            f"scores exact {scores_ok}/{n} ({100 * scores_ok / n:.0f} %), "
            f"unasked: grouped wrong {wrong}/{n}, a card misread {misread}/{n}; "
            f"questions: {asked or 'none'}"
        )
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
