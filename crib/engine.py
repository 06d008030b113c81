"""The engine's subcommands of ``crib`` (assembled by :mod:`crib.cli`): score, discard, peg, stats.

Every subcommand takes ``--json``. ``crib score --json -`` and ``crib discard --json -`` read one
deal per line from standard input and answer one JSON object per line; a bad line gets an
``{"error": ...}`` object and the rest is still scored. Bad input otherwise gets one line on
standard error and exit status 2, never a traceback (:func:`crib.cli.main`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TextIO

from trainer.cards import Rank, split_tokens
from trainer.discard import CRIB_MODELS, DiscardOption, analyze_discards
from trainer.errors import CribbageError
from trainer.grading import HEELS_NOTE
from trainer.pegging import score_play
from trainer.rules import RULESETS, RuleSet, get_rules
from trainer.show import Breakdown, score_typed
from trainer.stats import score_distribution

EXIT_BAD_LINE = 2
"""Exit status when some line of standard input was bad (as for bad input on the command line)."""


def _format_breakdown(b: Breakdown) -> str:
    what = "crib" if b.crib else "hand"
    lines = [
        f"{' '.join(c.unicode() for c in b.hand)} | {b.starter.unicode()}  ({what}, {b.rules.name})"
    ]
    for item in b.items:
        cards = " ".join(c.unicode() for c in item.cards)
        lines.append(f"  {item.kind.value:<18} {cards:<16} {item.points:>2}")
    lines.append(f"total {b.total}")
    lines.append(b.say())
    return "\n".join(lines)


def _cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    def one(text: str) -> str:
        result = score_typed(text, args.starter, crib=args.crib, rules=args.rules)
        if args.json:
            return json.dumps(result.to_json())
        if isinstance(result, Breakdown):
            shown, turned = _format_breakdown(result), result.starter.rank
        else:
            shown, turned = str(result), result.starter_rank
        return f"{shown}\n{HEELS_NOTE}" if turned is Rank.JACK else shown

    return _run_lines(args, out, one)


def _cmd_discard(args: argparse.Namespace, out: TextIO) -> int:
    def one(text: str) -> str:
        options = analyze_discards(
            split_tokens(text), dealer=not args.pone, rules=args.rules, crib_model=args.crib_model
        )
        if args.json:
            return json.dumps({"options": [o.to_json() for o in options]})
        return _format_discards(options, pone=args.pone)

    return _run_lines(args, out, one)


def _format_discards(options: Sequence[DiscardOption], *, pone: bool) -> str:
    """A table of the options: hand, the crib by each model there is, net by the chosen one."""
    both = options[0].crib_ev_weighted is not None
    cribs = f"{'uniform':>9}{'weighted':>9}" if both else f"{'crib':>9}"
    role = "pone" if pone else "dealer"
    lines = [
        f"{'discard':<10}{'keep':<16}{'hand':>8}{cribs}{'net':>8}   "
        f"({role}; net by the {options[0].crib_model} crib)"
    ]
    for o in options:
        thrown = " ".join(c.unicode() for c in o.discard)
        kept = " ".join(c.unicode() for c in o.keep)
        crib = f"{o.crib_ev_uniform:9.3f}"
        if o.crib_ev_weighted is not None:
            crib += f"{o.crib_ev_weighted:9.3f}"
        lines.append(f"{thrown:<10}{kept:<16}{o.hand_ev:8.3f}{crib}{o.net_ev:8.3f}")
    return "\n".join(lines)


def _run_lines(args: argparse.Namespace, out: TextIO, one: Callable[[str], str]) -> int:
    """Answer the cards on the command line, or one deal per line of standard input for ``-``.

    With ``-`` a bad line is reported with its line number (an ``{"error", "line", "input"}``
    object with ``--json``, else a line on standard error) and the rest still answered; the
    exit status is then 2.
    """
    if args.cards != ["-"]:
        print(one(" ".join(args.cards)), file=out)
        return 0
    status = 0
    for number, line in _input_lines(sys.stdin):
        try:
            print(one(line), file=out)
        except CribbageError as e:
            status = EXIT_BAD_LINE
            if args.json:
                print(json.dumps({"error": str(e), "line": number, "input": line}), file=out)
            else:
                print(f"crib {args.command}: line {number}: {e}", file=sys.stderr)
    return status


def _input_lines(stream: TextIO) -> Iterator[tuple[int, str]]:
    """Each line that is not blank or a ``#`` comment, stripped, with its line number."""
    for number, line in enumerate(stream, start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            yield number, line.strip()


def _cmd_peg(args: argparse.Namespace, out: TextIO) -> int:
    pegs = score_play(
        " ".join(args.cards),
        pone=args.pone_hand,
        dealer=args.dealer_hand,
        end=args.end,
        rules=args.rules,
    )
    totals = [sum(p.points for p in pegs if p.player == who) for who in (0, 1)]
    if args.json:
        print(json.dumps({"pegs": [p.to_json() for p in pegs], "totals": totals}), file=out)
        return 0
    names = ("pone", "dealer") if args.pone_hand else ("P1", "P2")  # the hands say who is who
    print(f"{'player':<7}{'card':<6}{'count':>5}{'pegs':>6}  for", file=out)
    for p in pegs:
        card = p.card.unicode() if p.card else "go"
        what = ", ".join(f"{i.kind.value} {i.points}" for i in p.items)
        row = f"{names[p.player]:<7}{card:<6}{p.count:>5}{p.points:>6}  {what}"
        print(row.rstrip(), file=out)
    print(f"pegged: {names[0]} {totals[0]}, {names[1]} {totals[1]}", file=out)
    return 0


def _cmd_stats(args: argparse.Namespace, out: TextIO) -> int:
    dist = score_distribution(crib=args.crib, rules=args.rules)
    if args.json:
        print(json.dumps(dist.to_json()), file=out)
        return 0
    what = "crib" if args.crib else "hand"
    print(
        f"{what} scores, {args.rules.name}: {dist.total:,} combinations, mean {dist.mean:.6f}",
        file=out,
    )
    for points, count in dist.possible:
        print(f"{points:>3} {count:>12,}", file=out)
    if dist.never:
        print(f"never: {', '.join(map(str, dist.never))}", file=out)
    return 0


def _rules(name: str) -> RuleSet:
    try:
        return get_rules(name)
    except CribbageError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def os_error_words(error: OSError, what: str = "file") -> str:
    """A file that cannot be read or written, in words (never ``[Errno 2] ...``).

    Args:
        error: the error the file gave.
        what: what the file should have been, for a folder given instead (``"photo"``).

    >>> os_error_words(FileNotFoundError(2, "No such file or directory", "deals.txt"))
    'no such file: deals.txt'
    >>> os_error_words(IsADirectoryError(21, "Is a directory", "photos"), "photo")
    'photos is a folder, not a photo'
    """
    name = error.filename
    if name is None or error.strerror is None:
        return str(error)
    if isinstance(error, FileNotFoundError):
        return f"no such file: {name}"
    if isinstance(error, IsADirectoryError):
        return f"{name} is a folder, not a {what}"
    if isinstance(error, PermissionError):
        return f"permission denied: {name}"
    return f"{name}: {error.strerror[:1].lower()}{error.strerror[1:]}"


def add_json_option(parser: argparse.ArgumentParser) -> None:
    """``--json``: machine-readable output (every subcommand but ``serve`` has it)."""
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def add_rules_option(parser: argparse.ArgumentParser, *, by_table: bool = False) -> None:
    """``--rules NAME``: the rule set, as a :class:`~trainer.rules.RuleSet` (six-card default).

    Args:
        parser: the subcommand's parser.
        by_table: leave it ``None`` when not given (``crib read --show`` then takes the rule
            set from the players or the cards on the table, else six-card).
    """
    default = (
        "six-card; with --show, the one --players or the cards read make"
        if by_table
        else "%(default)s"
    )
    parser.add_argument(
        "--rules",
        type=_rules,
        default=None if by_table else "six-card",
        help=f"rule set: {', '.join(RULESETS)} (default: {default})",
    )


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``score``, ``discard``, ``peg`` and ``stats`` to the ``crib`` command."""
    score = commands.add_parser("score", help="score a hand or crib")
    score.add_argument(
        "cards", nargs="+", help="cards, last one the starter (or '| S'); '-' reads stdin"
    )
    score.add_argument("--starter", help="the starter card")
    score.add_argument("--crib", action="store_true", help="score as a crib")
    score.set_defaults(run=_cmd_score)

    discard = commands.add_parser("discard", help="expected value of each discard")
    discard.add_argument("cards", nargs="+", help="the dealt cards; '-' reads stdin")
    role = discard.add_mutually_exclusive_group()
    role.add_argument("--dealer", action="store_true", help="the crib is yours (default)")
    role.add_argument("--pone", action="store_true", help="the crib is your opponent's")
    discard.add_argument(
        "--crib-model",
        choices=CRIB_MODELS,
        default="uniform",
        help="rank by the crib with the opponent's throw uniform (any two cards alike) or "
        "weighted by how players throw (two-player games) (default: %(default)s)",
    )
    discard.set_defaults(run=_cmd_discard)

    peg = commands.add_parser("peg", help="score cards in the order played")
    peg.add_argument(
        "cards",
        nargs="+",
        help="cards in play order, players alternating; 'go' where a player cannot play "
        "(the cards after it are the other's while they fit); '2:KS' says player 2 played it",
    )
    peg.add_argument(
        "--end", action="store_true", help="the last card ends the play (one for last)"
    )
    peg.add_argument("--pone-hand", help="the pone's cards: check every card and go, find the goes")
    peg.add_argument("--dealer-hand", help="the dealer's cards (with --pone-hand)")
    peg.set_defaults(run=_cmd_peg)

    stats = commands.add_parser("stats", help="exact score distribution")
    stats.add_argument("--crib", action="store_true", help="crib scores instead of hand scores")
    stats.set_defaults(run=_cmd_stats)

    for parser in (score, discard, peg, stats):
        add_json_option(parser)
    for parser in (score, discard, peg, stats):
        add_rules_option(parser)
