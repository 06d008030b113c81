"""Show mode on synthetic tables: groups found exactly, every score exact, and reading speed.

For each number of players, ``--tables`` table scenes (vision.synth.table, seeded) are read by
the real reader, grouped (vision.grouping) and scored (trainer.table); a table counts as
"groups exact" when every group has the right role and cards with no question left, and
"scores exact" when each hand's and the crib's score equals the score of the true groups; the
rest either ask the player a question (which card is the starter? which group is the crib? or
sort the cards) or are wrong with no question asked (the figure that must stay near zero).
Faces come from the local face cache (``python -m vision.synth.faces``).

Usage:
    python benchmarks/show_mode.py [--tables 30] [--effects]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.table import Group, score_table
from vision.grouping import group_cards, table_rules
from vision.reader import load_reader
from vision.synth.faces import load_decks
from vision.synth.table import RULES_BY_PLAYERS, TableScene, make_table


def judge(scene: TableScene, reader_seconds: list[float]) -> tuple[bool, bool, str]:
    """Read, group and score one table; (groups exact, scores exact, what went wrong)."""
    reader = load_reader()
    t0 = time.perf_counter()
    reading = reader.read(scene.image)
    reader_seconds.append(time.perf_counter() - t0)
    certain = sum(not c.uncertain for c in reading.cards)
    layout = group_cards(reading.cards, table_rules(certain), set_apart=reading.starter_index)
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
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    decks = load_decks()
    print(f"{len(decks)} decks; {a.tables} tables per player count; effects {a.effects}")
    seconds: list[float] = []
    for players, rules in RULES_BY_PLAYERS.items():
        groups_ok = scores_ok = wrong = misread = 0
        for seed in range(a.tables):
            scene = make_table(
                np.random.default_rng([9, players, seed]), decks, rules, effects=a.effects
            )
            g, s, why = judge(scene, seconds)
            groups_ok, scores_ok = groups_ok + g, scores_ok + s
            wrong += why.startswith("wrong groups")
            misread += why.startswith("wrong cards")
            if why and a.verbose:
                print(f"  {rules.name} seed {seed}: {why}")
        n = a.tables
        cards = rules.players * rules.hand_size + rules.crib_size + 1
        print(
            f"{players} players ({rules.name}, {cards} cards): "
            f"groups exact {groups_ok}/{n} ({100 * groups_ok / n:.0f} %), "
            f"scores exact {scores_ok}/{n} ({100 * scores_ok / n:.0f} %), "
            f"unasked: grouped wrong {wrong}/{n}, a card misread {misread}/{n}"
        )
    print(
        f"reader: median {1000 * statistics.median(seconds):.0f} ms, "
        f"max {1000 * max(seconds):.0f} ms per 1600x1200 table photo"
    )


if __name__ == "__main__":
    main()
