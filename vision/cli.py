"""The reader's subcommands of ``crib`` (assembled by :mod:`crib.cli`): read, eval-vision.

The reader (OpenCV, onnxruntime) is imported when a subcommand runs, not when ``crib`` starts.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from trainer.cli import add_json_option, add_rules_option
from trainer.errors import CribbageError
from trainer.rules import SIX_CARD


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
        "--players",
        type=int,
        help="players at the table, with --show (default: from the rules or the count)",
    )
    add_json_option(read)
    add_rules_option(read)
    read.set_defaults(run=read_photos, rules=None)  # None: six-card, or from the table's count

    evaluate = commands.add_parser("eval-vision", help="measure the card reader on labelled photos")
    evaluate.add_argument("directory", help="folder with images/ and labels.json")
    add_json_option(evaluate)
    evaluate.set_defaults(run=evaluate_photos)


def read_photos(args: argparse.Namespace, out: TextIO) -> int:
    """Read each photo, print its cards and score; 2 if any photo could not be read."""
    from .reader import read_image_bytes
    from .report import read_table, summarize

    if args.players is not None:
        from .grouping import table_rules

        if not args.show:
            raise CribbageError("--players goes with --show (scoring every hand on the table)")
        table_rules(0, players=args.players, rules=args.rules)  # before any photo is read
    if args.crib_card is not None:
        from trainer.cards import as_card

        if not args.show:
            raise CribbageError("--crib-card goes with --show (scoring every hand on the table)")
        as_card(args.crib_card)  # before any photo is read
    if args.annotate:
        check_annotate_target(Path(args.annotate), several=len(args.photos) > 1)
    status = 0
    for photo in args.photos:
        try:
            data = Path(photo).read_bytes()
            reading = read_image_bytes(data)
            rules = args.rules or SIX_CARD
            summary = summarize(reading, args.starter, crib=args.crib, rules=rules)
            if args.show:
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
            if args.json:
                print(json.dumps({"image": photo, "error": str(e)}), file=out)
            else:
                print(f"crib read: {photo}: {e}", file=sys.stderr)
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

    from .annotate import annotate
    from .upload import decode_image

    path = target / f"{Path(photo).stem}-read.jpg" if target.is_dir() else target
    if not cv2.imwrite(str(path), annotate(decode_image(data), summary["cards"])):
        raise OSError(f"could not write {str(path)!r}")


def _format_table(photo: str, summary: dict[str, Any]) -> str:
    """Each group with its cards and its breakdown, then the question or why no score."""
    from trainer.table import Role, group_names

    groups = summary["groups"]
    count = len(summary["cards"])
    lines = [f"{photo}: {count} card{'' if count == 1 else 's'} read ({summary['rules']})"]
    roles = [Role(g["role"]) if g["role"] else None for g in groups]
    for name, group in zip(group_names(roles), groups, strict=True):
        read = [summary["cards"][i] for i in group["card_indices"]]
        cards = " ".join(f"{c['card']}{'?' if c['uncertain'] else ''}" for c in read)
        if not read:  # a starter the player typed
            cards = f"{group['cards'][0]} (typed)"
        score = group["score"]
        total = "" if score is None else f"  {score['total']}"
        lines.append(f"{name.removeprefix('the ')}: {cards}{total}")
        if score is not None:
            lines += [
                f"  {i['kind']:<18} {' '.join(i['cards']):<16} {i['points']:>2}"
                for i in score["items"]
            ]
            lines.append(f"  {score['say']}")
    if summary["left_out"]:
        left = " ".join(f"{summary['cards'][i]['card']}?" for i in summary["left_out"])
        lines.append(f"left out: {left}")
    if summary["note"]:
        lines.append(f"note: {summary['note']}")
    question = summary["question"]
    if question is not None and question["kind"] == "starter":
        lines.append("  (give the starter with --starter CARD)")
    if question is not None and question["kind"] == "crib":
        lines.append("  (name a card of the crib with --crib-card CARD)")
    return "\n".join(lines)


def _format(photo: str, summary: dict[str, Any]) -> str:
    cards = "  ".join(
        f"{c['card']}{'?' if c['uncertain'] else ''}{' (starter)' if c['starter'] else ''}"
        f" {c['confidence']:.2f}"
        for c in summary["cards"]
    )
    lines = [f"{photo}: {cards}"]
    score = summary["score"]
    if score is not None:
        lines += [
            f"  {i['kind']:<18} {' '.join(i['cards']):<16} {i['points']:>2}" for i in score["items"]
        ]
        lines.append(f"total {score['total']}")
        lines.append(score["say"])
    else:
        lines.append(f"  no score: {summary['note']}")
    return "\n".join(lines)


def evaluate_photos(args: argparse.Namespace, out: TextIO) -> int:
    """Print precision, recall, whole-hand rate and speed per subset of a labelled folder."""
    from .evaluate import evaluate, format_scores

    scores = evaluate(Path(args.directory))
    if args.json:
        print(json.dumps({k: s.to_json() for k, s in scores.items()}), file=out)
    else:
        print(format_scores(scores), file=out)
    return 0
