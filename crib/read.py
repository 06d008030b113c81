"""The reader's subcommands of ``crib`` (assembled by :mod:`crib.cli`): read, eval-vision.

The reader (OpenCV, onnxruntime) is imported when a subcommand runs, not when ``crib`` starts.
``crib`` gives the subcommands the reader's models folder (``args.vision_models``, its setting)
and the guard that holds Ctrl-C back while native threads start (``args.held``,
:func:`crib.interrupt.held`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from trainer.cards import as_card, split_tokens
from trainer.errors import CribbageError
from trainer.rules import SIX_CARD

from .engine import add_json_option, add_rules_option, os_error_words

if TYPE_CHECKING:
    from vision.reader import Reading


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``read`` and ``eval-vision`` to the ``crib`` command."""
    read = commands.add_parser("read", help="read cards in photos and score them")
    read.add_argument("photos", nargs="+", help="photo files")
    read.add_argument("--starter", help="the starter card (default: the card set apart)")
    read.add_argument("--crib", action="store_true", help="score as a crib")
    read.add_argument(
        "--crib-card",
        metavar="CARD",
        help="with --show: a card of the crib (the group that holds it is the crib)",
    )
    read.add_argument("--annotate", help="write the photo with boxes drawn to this file")
    read.add_argument(
        "--show",
        action="store_true",
        help="score every hand on the table: the hands, the crib and the starter",
    )
    read.add_argument(
        "--groups",
        metavar="'CARDS / CARDS / ...'",
        help="with --show, for one photo: the groups on the table, each one's cards separated "
        "by '/': the hands, then the crib, then the starter (or give --starter); every card "
        "named must have been read",
    )
    read.add_argument(
        "--players",
        type=int,
        help="players at the table, with --show (default: from the rules or the count)",
    )
    read.add_argument(
        "--strict",
        action="store_true",
        help="a card on small, soft indices (a webcam's) is certain only when its body agrees: "
        "fewer cards certain, fewer of them wrong",
    )
    add_json_option(read)
    add_rules_option(read, by_table=True)
    read.set_defaults(run=read_photos)

    evaluate = commands.add_parser("eval-vision", help="measure the card reader on labelled photos")
    evaluate.add_argument("directory", help="folder with images/ and labels.json")
    add_json_option(evaluate)
    evaluate.set_defaults(run=evaluate_photos)


def read_photos(args: argparse.Namespace, out: TextIO) -> int:
    """Read each photo, print its cards and score; 2 if any photo could not be read.

    The reader is loaded, and each photo read, with Ctrl-C held (``args.held``): OpenCV's and
    onnxruntime's threads start then, and a Ctrl-C is heard as a read ends.
    """
    with args.held():
        from vision.certainty import STRICT_CORROBORATION
        from vision.reader import read_image_bytes
        from vision.report import read_table, summarize

    if args.players is not None:
        from vision.grouping import table_rules

        if not args.show:
            raise CribbageError("--players goes with --show (scoring every hand on the table)")
        table_rules(0, players=args.players, rules=args.rules)  # before any photo is read
    if args.crib_card is not None:
        if not args.show:
            raise CribbageError("--crib-card goes with --show (scoring every hand on the table)")
        as_card(args.crib_card)  # before any photo is read
    named = None if args.groups is None else parse_groups(args.groups)
    if named is not None:
        if not args.show:
            raise CribbageError("--groups goes with --show (scoring every hand on the table)")
        if args.crib_card is not None:
            raise CribbageError("--groups names the crib (the last group): leave out --crib-card")
        if len(args.photos) > 1:
            raise CribbageError("--groups names the groups of one photo: give one photo")
    if args.annotate:
        check_annotate_target(Path(args.annotate), several=len(args.photos) > 1)
    if any(not photo.strip() for photo in args.photos):  # Path("") is the folder we are in
        raise CribbageError("an empty name is not a photo: give each photo's file name")
    status = 0
    for photo in args.photos:
        try:
            data = Path(photo).read_bytes()  # a photo still arriving: Ctrl-C heard
            with args.held():
                rule = STRICT_CORROBORATION if args.strict else None
                reading = read_image_bytes(data, args.vision_models, corroboration=rule)
            rules = args.rules or SIX_CARD
            summary = summarize(reading, args.starter, crib=args.crib, rules=rules)
            if named is not None:
                summary.update(_read_named(reading, named, args))
            elif args.show:
                summary.update(
                    read_table(
                        reading,
                        players=args.players,
                        rules=args.rules,
                        starter=args.starter,
                        crib=args.crib,
                        crib_card=args.crib_card,
                    )
                )
        except (OSError, CribbageError) as e:
            status = 2
            said = os_error_words(e, "photo") if isinstance(e, OSError) else str(e)
            if args.json:
                print(json.dumps({"image": photo, "error": said}), file=out)
            elif isinstance(e, OSError):  # the words name the file
                print(f"crib read: {said}", file=sys.stderr)
            else:
                print(f"crib read: {photo}: {said}", file=sys.stderr)
            continue
        if args.annotate:
            _write_annotated(data, summary, photo, Path(args.annotate))
        if args.json:
            print(json.dumps({"image": photo, **summary}), file=out)
        elif args.show:
            print(_format_table(photo, summary), file=out)
        else:
            print(_format(photo, summary), file=out)
    return status


def parse_groups(text: str) -> list[list[str]]:
    """The cards of each group of ``--groups`` (``"5H 5D 5C JS / 2H 4H 6H 8H / 5S"``).

    Raises:
        InvalidCardError: For a token that is not a card (before any photo is read).

    >>> parse_groups("5h 5d 5c js / 5s")
    [['5H', '5D', '5C', 'JS'], ['5S']]
    """
    return [[str(as_card(t)) for t in split_tokens(part)] for part in text.split("/")]


def _read_named(
    reading: Reading, named: list[list[str]], args: argparse.Namespace
) -> dict[str, Any]:
    """The table as ``--groups`` names it, summarized as :func:`vision.report.read_table` does.

    A card named is taken as read (the player has checked it), even one read unsure.
    """
    from vision.grouping import name_groups, table_rules
    from vision.report import summarize_table

    count = sum(map(len, named)) + (args.starter is not None)
    rules = table_rules(count, players=args.players, rules=args.rules)
    layout = name_groups(reading.cards, named, rules, starter=args.starter, crib=args.crib)
    named_cards = {i for g in layout.groups for i in g.cards}
    checked = [
        dataclasses.replace(c, uncertain=False) if i in named_cards else c
        for i, c in enumerate(reading.cards)
    ]
    return summarize_table(dataclasses.replace(reading, cards=checked), layout)


def check_annotate_target(target: Path, *, several: bool) -> None:
    """Refuse an ``--annotate`` target that cannot take a picture, before any photo is read.

    Args:
        target (Path): A folder, or an image file name (``.jpg``, ``.png``, ...).
        several (bool): Whether several photos are read (then it must be a folder).

    Raises:
        CribbageError: Saying what to give instead.
    """
    import cv2

    if target.is_dir():
        return
    if several:
        raise CribbageError("with several photos, --annotate must be an existing folder")
    if not cv2.haveImageWriter(str(target)):
        raise CribbageError(
            f"--annotate {str(target)!r}: give a picture file name ending in .jpg or .png, "
            "or a folder"
        )
    if not target.parent.is_dir():
        raise CribbageError(
            f"--annotate {str(target)!r}: there is no folder {str(target.parent)!r}"
        )


def _write_annotated(data: bytes, summary: dict[str, Any], photo: str, target: Path) -> None:
    import cv2

    from vision.annotate import annotate
    from vision.upload import decode_image

    path = target / f"{Path(photo).stem}-read.jpg" if target.is_dir() else target
    drawn = annotate(decode_image(data), summary["cards"], summary.get("groups", ()))
    if not cv2.imwrite(str(path), drawn):
        raise OSError(f"could not write {str(path)!r}")


def _format_table(photo: str, summary: dict[str, Any]) -> str:
    """Each group with its cards and its breakdown, then the question or why no score."""
    count = len(summary["cards"])
    lines = [f"{photo}: {count} card{'' if count == 1 else 's'} read ({summary['rules']})"]
    for group in summary["groups"]:
        read = [summary["cards"][i] for i in group["card_indices"]]
        cards = " ".join(f"{c['card']}{'?' if c['uncertain'] else ''}" for c in read)
        if not read:  # a starter the player typed
            cards = f"{group['cards'][0]} (typed)"
        score = group["score"]
        total = "" if score is None else f"  {score['total']}"
        if group["crib_score"] is not None:  # while the crib is asked and a crib flush differs
            total += f" ({group['crib_score']['total']} if it is the crib)"
        lines.append(f"{group['name'].removeprefix('the ')}: {cards}{total}")
        if score is not None:
            lines += [
                f"  {i['kind']:<18} {' '.join(i['cards']):<16} {i['points']:>2}"
                for i in score["items"]
            ]
            lines.append(f"  {score['say']}")
    if summary["left_out"]:
        left = " ".join(f"{summary['cards'][i]['card']}?" for i in summary["left_out"])
        lines.append(f"left out: {left}")
    question = summary["question"]
    if question is None:
        if summary["note"]:
            lines.append(f"note: {summary['note']}")
    else:
        lines += _question_lines(question, summary)
    return "\n".join(lines)


def _question_lines(question: dict[str, Any], summary: dict[str, Any]) -> list[str]:
    """The reader's question, its choices, and the option of ``crib read`` that answers it."""
    lines = [f"question: {question['text']}"]
    choices = question["choices"]
    if question["kind"] == "starter":
        cards = [summary["cards"][i]["card"] for i in choices]
        lines += [f"  {n}. {card}" for n, card in enumerate(cards, start=1)]
        example = f" (e.g. --starter {cards[0]})" if cards else ""
        lines.append(f"answer with --starter CARD{example}")
    elif question["kind"] == "crib":
        groups = summary["groups"]
        lines += [f"  {k + 1}. {' '.join(groups[k]['cards'])}" for k in choices]
        example = (
            f" (e.g. --crib-card {groups[choices[0]]['cards'][0]} for group {choices[0] + 1})"
            if choices
            else ""
        )
        lines.append(f"answer with --crib-card CARD: a card of the crib{example}")
    else:
        found = " / ".join(" ".join(g["cards"]) for g in summary["groups"])
        lines.append(
            'answer with --groups "CARDS / CARDS / ...": the hands, then the crib, then the '
            f'starter; here as found: --groups "{found}"'
        )
    return lines


def _format(photo: str, summary: dict[str, Any]) -> str:
    cards = "  ".join(
        f"{c['card']}{'?' if c['uncertain'] else ''}{' (starter)' if c['starter'] else ''}"
        f" {c['confidence']:.2f}"
        for c in summary["cards"]
    )
    if summary["starter"] is not None and not any(c["starter"] for c in summary["cards"]):
        cards += f"  {summary['starter']} (starter, typed)"
    lines = [f"{photo}: {cards}"]
    score = summary["score"]
    if score is not None:
        lines += [
            f"  {i['kind']:<18} {' '.join(i['cards']):<16} {i['points']:>2}" for i in score["items"]
        ]
        lines.append(
            f"total {score['total']} ({'crib' if score['crib'] else 'hand'}, {score['rules']})"
        )
        lines.append(score["say"])
    else:
        lines.append(f"  no score: {summary['note']}")
    return "\n".join(lines)


def evaluate_photos(args: argparse.Namespace, out: TextIO) -> int:
    """Print precision, recall, whole-hand rate and speed per subset of a labelled folder."""
    from vision.training.evaluate import evaluate, format_scores

    scores = evaluate(Path(args.directory), args.vision_models)
    if args.json:
        print(json.dumps({k: s.to_json() for k, s in scores.items()}), file=out)
    else:
        print(format_scores(scores), file=out)
    return 0
