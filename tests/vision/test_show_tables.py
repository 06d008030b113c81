"""Show mode end to end on generated tables: the real reader reads a table at the show for 2, 3
and 4 players, grouping finds every hand, the crib and the starter, and each score is exact.

The tables come from :mod:`vision.synth.table` with one real deck's artwork (rendered into the
face cache by ``rsvg-convert`` when missing, as ``python -m vision.synth.faces`` does).
"""

from __future__ import annotations

import numpy as np
import pytest

from trainer.cards import Card
from trainer.rules import RuleSet
from trainer.table import Group, Role, TableShow, score_table
from vision import CACHE_DIR
from vision.grouping import group_cards, table_rules
from vision.reader import load_reader
from vision.synth.faces import Deck, load_deck, render_deck
from vision.synth.table import RULES_BY_PLAYERS, make_table

pytestmark = pytest.mark.slow  # the real reader on whole tables, a few seconds each

DECK = "anglo"
SEEDS = {2: (1, 3, 5), 3: (2, 8, 10), 4: (1, 2, 6)}
"""Tables read exactly today (benchmarks/show_mode.py measures the rate over many tables:
the others mostly ask which card is the starter, or to sort the cards, rather than guess)."""


@pytest.fixture(scope="module")
def deck() -> Deck:
    """The anglo deck's faces, rendered into the face cache if they are not there yet."""
    folder = CACHE_DIR / "faces" / DECK
    if not (folder / "index.json").exists():
        rendered = render_deck(DECK, CACHE_DIR / "faces")
        if rendered is None:
            pytest.fail(f"could not render the {DECK} deck: is rsvg-convert installed?")
    return load_deck(folder)


@pytest.mark.parametrize("rules", RULES_BY_PLAYERS.values(), ids=lambda r: r.name)
def test_tables_are_grouped_and_scored_exactly(deck: Deck, rules: RuleSet) -> None:
    """Every group exact (role and cards, no question left) and every score the engine's."""
    reader = load_reader()
    for seed in SEEDS[rules.players]:
        scene = make_table(np.random.default_rng([5, rules.players, seed]), [deck], rules)
        reading = reader.read(scene.image)
        certain = sum(not c.uncertain for c in reading.cards)
        layout = group_cards(reading.cards, table_rules(certain), set_apart=reading.starter_index)
        found = sorted(
            (g.role.value if g.role else "?", sorted(reading.cards[i].card for i in g.cards))
            for g in layout.groups
        )
        truth = sorted((role.value, sorted(cards)) for role, cards in scene.groups)
        assert layout.question is None and found == truth, f"seed {seed}"
        assert layout.rules is rules
        expected = score_table([Group.of(r, c) for r, c in scene.groups], rules=rules)
        scored = score_table([Group.of(r, c) for r, c in found], rules=layout.rules)
        assert totals(scored) == totals(expected), f"seed {seed}"


def totals(table: TableShow) -> dict[tuple[Role, frozenset[Card]], int]:
    """Each hand's and the crib's total, by role and cards."""
    return {
        (group.role, frozenset(group.cards)): score.total
        for group, score in zip(table.groups, table.scores, strict=True)
        if score is not None
    }
