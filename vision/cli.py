"""``crib read`` and ``crib eval-vision``: read photos from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from .annotate import annotate
from .evaluate import evaluate, format_scores
from .reader import decode_image, read_image_bytes
from .report import summarize


def read_photos(args: argparse.Namespace, out: TextIO) -> int:
    """Read each photo, print its cards and score; 2 if any photo could not be read."""
    if args.annotate and len(args.photos) > 1 and not Path(args.annotate).is_dir():
        raise ValueError("with several photos, --annotate must be an existing folder")
    status = 0
    for photo in args.photos:
        try:
            data = Path(photo).read_bytes()
            summary = summarize(read_image_bytes(data), args.starter, args.crib, args.rules)
        except (OSError, ValueError) as e:
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
        else:
            print(_format(photo, summary), file=out)
    return status


def _write_annotated(data: bytes, summary: dict[str, Any], photo: str, target: Path) -> None:
    import cv2

    path = target / f"{Path(photo).stem}-read.jpg" if target.is_dir() else target
    if not cv2.imwrite(str(path), annotate(decode_image(data), summary["cards"])):
        raise OSError(f"could not write {str(path)!r}")


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
    scores = evaluate(Path(args.directory))
    if args.json:
        print(json.dumps({k: s.to_json() for k, s in scores.items()}), file=out)
    else:
        print(format_scores(scores), file=out)
    return 0
