"""A drill's verdict in words, line by line: what ``crib drill`` prints in a terminal.

The same feedback as the web trainer's (``web/static/feedback.js``): the verdict, the count as
players say it, the trainer's word on the likely mistake, what was missed, every item, the rule
of each kind (the play's own rules for pegging), and for a discard the table of throws. Each
line carries a style (``"right"``, ``"wrong"``, ``"note"``, ``"head"`` or ``""``) that a
terminal may colour.

>>> from trainer.dealing import Deal
>>> from trainer.cards import Card, parse_cards
>>> from trainer.grading import grade
>>> hand = Deal("hand", tuple(parse_cards("5H 5D 5C JS")), starter=Card.parse("5S"))
>>> verdict_lines(hand, grade(hand, {"points": 28}))[0]
('wrong', '✘ It is 29, not 28: you missed 1')
"""

from __future__ import annotations

from collections.abc import Sequence

from trainer.cards import Card, as_card
from trainer.dealing import Deal
from trainer.grading import Grade, Step
from trainer.items import PLAY_RULE_TEXT, RULE_TEXT, ScoreItem
from trainer.show import spoken_count

Line = tuple[str, str]
"""A line of feedback: its style and its text."""

ROLES = ("pone", "dealer")


def cards_text(cards: Sequence[Card | str]) -> str:
    """Cards as players write them: ``5♥ J♠``."""
    return " ".join(as_card(c).unicode() for c in cards)


def shown(points: float) -> str:
    """Expected points as the web's table shows them: two decimals, a typographic minus.

    >>> shown(-0.004), shown(3.456)
    ('0.00', '3.46')
    """
    text = f"{abs(points):.2f}"
    return f"−{text}" if points < 0 and float(text) else text


def verdict_lines(deal: Deal, grade: Grade, thrown: Sequence[Card | str] = ()) -> list[Line]:
    """Everything the web's feedback shows for an answer to ``deal``, as lines.

    ``thrown``: a discard's two cards, marked in the table of throws.
    """
    if deal.kind == "discard":
        return _discard_lines(deal, grade, {as_card(c) for c in thrown})
    lines: list[Line] = [(_style(grade.correct), _count_verdict(grade))]
    if deal.kind in ("hand", "crib"):
        lines.append(("", f"“{spoken_count(grade.items)}”"))
    lines += [("note", words) for words in (grade.note, grade.heels) if words]
    lines += _missed_lines(grade)
    lines += item_lines(grade.items, grade.missed) or [("", "  Nothing to count.")]
    play = deal.kind in ("pegging", "play")
    return lines + rule_lines(grade.items, play=play)


def _style(correct: bool) -> str:
    return "right" if correct else "wrong"


def _count_verdict(grade: Grade) -> str:
    if grade.count is not None:
        return count_verdict(*grade.count, int(grade.claimed), int(grade.total))
    if grade.correct:
        return f"✔ Right: {grade.total:g}" + (", but not kind by kind" if grade.kinds_off else "")
    what = f"you over-counted by {grade.over:g}" if grade.over else f"you missed {grade.under:g}"
    return f"✘ It is {grade.total:g}, not {grade.claimed:g}: {what}"


def count_verdict(count: int, right_count: int, points: int, right_points: int) -> str:
    """A count and the pegs said together, each wrong number named with the right one.

    >>> count_verdict(14, 15, 0, 2)
    '✘ The count is 15, not 14; it pegs 2, not 0'
    """
    if count == right_count and points == right_points:
        return f"✔ Right: the count is {right_count}, and it pegs {right_points}"
    wrong = [f"the count is {right_count}, not {count}"] if count != right_count else []
    said = "as you said" if points == right_points else f"not {points}"
    text = "; ".join([*wrong, f"it pegs {right_points}, {said}"])
    return f"✘ {text[0].upper()}{text[1:]}"


def _missed_lines(grade: Grade) -> list[Line]:
    """What was missed, as the web says it: certain, or "probably" from a total alone.

    Counted by kind: the items the kinds show, and how many of a kind where they cannot tell
    which.
    """
    some = [grade.missed_kind_text(kind, points) for kind, points in grade.missed_kinds]
    if not grade.missed and not some:
        return []
    if grade.by_kind:
        head = "You missed:"
    elif grade.claimed == 0:
        return [("head", "You missed all of it:")]
    elif sum(i.points for i in grade.missed) != grade.under:
        head = f"Nothing here is worth exactly {grade.under:g}: you probably miscounted"
    elif len(grade.missed) < len(grade.items):
        head = "You probably missed:"
    else:
        head = "You missed:"
    lines = [("wrong", f"  {_item_text(i)}") for i in grade.missed]
    return [("head", head), *lines, *[("wrong", f"  {text}") for text in some]]


def _item_text(item: ScoreItem) -> str:
    return f"{item.kind.value:<18} {cards_text(item.cards):<16} {item.points:>2}"


def item_lines(items: Sequence[ScoreItem], missed: Sequence[ScoreItem] = ()) -> list[Line]:
    """Every item, one a line (``crib score``'s columns), those missed marked."""
    return [("wrong" if i in missed else "", f"  {_item_text(i)}") for i in items]


def rule_lines(items: Sequence[ScoreItem], *, play: bool) -> list[Line]:
    """The rule of each kind scored, once a kind: the play's rules for pegging."""
    rules = PLAY_RULE_TEXT if play else RULE_TEXT
    kinds = list(dict.fromkeys(i.kind for i in items if i.kind in rules))
    return [("note", f"{kind.value}: {rules[kind]}") for kind in kinds]


def step_lines(grade: Grade) -> list[Line]:
    """The verdict on a play's latest card (or go), what it pegged and the play's rules."""
    step = grade.steps[-1]
    what = "The go" if step.card is None else step.card.unicode()
    verdict = count_verdict(step.claimed_count, step.count, step.claimed_points, step.points)
    lines: list[Line] = [(_style(step.correct), f"{what}: {verdict}")]
    if step.card is None:
        lines.append(("note", "The count starts again from nothing."))
    lines += item_lines(step.items) or [("", "  Nothing to peg.")]
    lines += rule_lines(step.items, play=True)
    if grade.complete:
        lines += play_lines(grade.steps)
    return lines


def play_lines(steps: Sequence[Step]) -> list[Line]:
    """The whole play once pegged: who played what, the count, the pegs, what the player said."""
    right = sum(s.correct for s in steps)
    lines: list[Line] = [("head", f"The play is over: {right} of {len(steps)} right.")]
    lines.append(("", f"  {'who':<7}{'card':<6}{'count':>5}{'pegs':>6}  you said"))
    for s in steps:
        card = "go" if s.card is None else s.card.unicode()
        said = "✔" if s.correct else f"✘ {s.claimed_count} / {s.claimed_points}"
        row = f"  {ROLES[s.player]:<7}{card:<6}{s.count:>5}{s.points:>6}  {said}"
        lines.append((_style(s.correct), row))
    totals = [sum(s.points for s in steps if s.player == who) for who in (0, 1)]
    return [*lines, ("", f"  pegged: pone {totals[0]}, dealer {totals[1]}")]


def _discard_lines(deal: Deal, grade: Grade, thrown: set[Card]) -> list[Line]:
    """The verdict on a throw, the reason, and the table of the best throws and the player's."""
    lost = round(grade.total, 2) - round(grade.claimed, 2)  # throws shown alike tie
    verdict = (
        f"✔ Best throw ({shown(grade.claimed)} expected points)"
        if grade.correct
        else f"✘ Costs {shown(lost)} expected points against the best throw"
    )
    lines: list[Line] = [(_style(grade.correct), verdict)]
    if grade.reason:
        lines.append(("note", grade.reason))
    sign = "+" if deal.dealer else "−"
    lines.append(("", f"  {'throw':<10}{'hand':>7}{'crib':>9}{'net':>8}"))
    chosen = next((o for o in grade.options if set(map(as_card, o.discard)) == thrown), None)
    rows = list(grade.options[:6])
    if chosen is not None and chosen not in rows:
        rows.append(chosen)
    for option in rows:
        mark = "  ← yours" if option is chosen else ""
        row = (
            f"  {cards_text(option.discard):<10}{shown(option.hand_ev):>7}"
            f"{sign + shown(option.crib_ev):>9}{shown(option.net_ev):>8}{mark}"
        )
        lines.append(("right" if option is grade.options[0] else "", row))
    whose = "your crib: added" if deal.dealer else "the dealer's crib: subtracted"
    lines.append(
        ("note", f"hand: the kept cards with every starter; crib: the throw to {whose}; net: both")
    )
    return lines
