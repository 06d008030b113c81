"""What each piece of evidence said of the cards the served reader states wrong, on labelled photos.

Reads every photo of a labelled set (``labels.json`` as in ``../shared/data/real-webcam``)
exactly as ``crib eval-vision`` does (decoded as an upload, the served reader), scores it the
same way (uncertain cards are not read; a card stated twice counts wrong once), and lists every
card stated with certainty that is wrong: what its corners' index readings said, what its body
model said where its face was found, the ink colour of its body and of its index against their
own paper (:func:`vision.evidence.ink_redness`, :func:`vision.evidence.index_redness`), what
the context model (the card face around each index) said, and its indices' size and sharpness.

Measuring only: the photos are never trained or tuned on.

Usage:
    python benchmarks/vision_suits.py ../shared/data/real-webcam [--json cards.json] [--all]
        [--strict] [--no-ink] [--markdown]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import MODELS_DIR, SUITS  # noqa: E402
from vision.certainty import STRICT_CORROBORATION  # noqa: E402
from vision.detection import DetectedCard  # noqa: E402
from vision.evidence import crop_quality, face_crop, index_redness  # noqa: E402
from vision.reader import CardReader, load_reader  # noqa: E402
from vision.training.evaluate import score_image  # noqa: E402
from vision.upload import decode_upload  # noqa: E402


def verdicts(cards: list[DetectedCard], truth: list[str]) -> list[str]:
    """Each card's verdict: ``right``, ``wrong`` (not in the labels), ``twice``, or ``asked``.

    Of several certain copies of one labelled card, the surest is right and the rest ``twice``.

    Examples:
        >>> a = DetectedCard("5H", 0.9, (0, 0, 1, 1)); b = DetectedCard("5H", 0.8, (5, 5, 6, 6))
        >>> verdicts([a, b, DetectedCard("7S", 0.9, (0, 0, 1, 1))], ["5H"])
        ['right', 'twice', 'wrong']
    """
    left = Counter(truth)
    out = ["asked"] * len(cards)
    order = sorted(range(len(cards)), key=lambda k: -cards[k].confidence)
    for k in order:
        card = cards[k]
        if card.uncertain:
            continue
        if left[card.card] > 0:
            left[card.card] -= 1
            out[k] = "right"
        else:
            out[k] = "twice" if card.card in truth else "wrong"
    return out


def evidence_of(
    reader: CardReader, image: np.ndarray, scale: float, card: DetectedCard
) -> dict[str, Any]:
    """What the reader's evidence says of ``card`` (its boxes in photo pixels)."""
    boxes = np.array([[v / scale for v in b] for b in card.corners or (card.box,)], np.float32)
    probs = reader.classify(image, boxes)
    crops = reader.crops(image, boxes)
    _, sharp = crop_quality(crops)
    corners = [f"{reader.classes[int(p.argmax())]} {p.max():.2f}" for p in probs]
    context = []
    if reader.context is not None:
        around = reader.context.probabilities(image, boxes)
        names = reader.context.classes
        context = [f"{names[int(p.argmax())]} {p.max():.2f}" for p in around]
    index_red = index_redness(crops)
    row: dict[str, Any] = {
        "corners": corners,
        "context": context,
        "index_px": round(float(np.median([max(b[2] - b[0], b[3] - b[1]) for b in boxes])), 1),
        "sharpness": round(float(sharp.max()), 3),
        "index_redness": [round(float(v), 2) for v in index_red],
        "face": card.outline is not None,
    }
    if card.outline is not None and reader.body is not None:
        (body,) = reader.body.read(face_crop(image, card.outline, scale)[None])
        top = int(np.argmax(body.suits))
        row |= {
            "body_suit": f"{SUITS[top]} {body.suits[top]:.2f}",
            "body_rank": int(np.argmax(body.ranks)),
            "body_redness": round(body.redness, 2),
        }
    return row


def markdown(rows: list[dict[str, Any]]) -> str:
    """The cards ``rows`` as a Markdown table (one a row)."""
    lines = [
        "| photo | stated | truly | index corners | context | body | index ink | px | sharp |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        body = row.get("body_suit", "no face")
        if "body_redness" in row:
            body += f", ink {row['body_redness']:.2f}"
        ink = ", ".join(f"{v:.2f}" for v in row["index_redness"])
        truly = "/".join(row["truly"]) or "?"
        lines.append(
            f"| {row['photo'][24:32]} | {row['card']} {row['confidence']:.2f}"
            f"{' (twice)' if row['verdict'] == 'twice' else ''} | {truly} | "
            f"{', '.join(row['corners'])} | {', '.join(row['context'])} | {body} | {ink} | "
            f"{row['index_px']:.0f} | {row['sharpness']:.2f} |"
        )
    return "\n".join(lines)


def main() -> None:
    """CLI entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--models", type=Path, default=MODELS_DIR)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--all", action="store_true", help="every certain card, not only wrong ones")
    ap.add_argument("--strict", action="store_true", help="the strict rule (crib read --strict)")
    ap.add_argument("--no-ink", action="store_true", help="read without the ink's colour")
    ap.add_argument("--markdown", action="store_true", help="the wrong cards as a Markdown table")
    a = ap.parse_args()
    cv2.setNumThreads(2)
    labels = json.loads((a.data_dir / "labels.json").read_text())
    reader = load_reader(a.models)
    rule = STRICT_CORROBORATION if a.strict else reader.options.corroboration
    if a.no_ink:
        rule = dataclasses.replace(rule, red_above=float("inf"))
    tp = fp = fn = 0
    rows = []
    for name, lab in sorted(labels.items()):
        image, scale = decode_upload((a.data_dir / "images" / name).read_bytes(), reduce=True)
        reading = reader.read(image, scale=scale, corroboration=rule)
        truth = list(lab["cards"])
        t, f, n = score_image(reading.certain_cards, truth, bool(lab.get("labels_complete", True)))
        tp, fp, fn = tp + t, fp + f, fn + n
        for card, verdict in zip(reading.cards, verdicts(reading.cards, truth), strict=True):
            if verdict in ("wrong", "twice") or (a.all and verdict == "right"):
                truly = [c for c in truth if c[:-1] == card.card[:-1] and c != card.card]
                rows.append(
                    {"photo": name, "card": card.card, "verdict": verdict, "truly": truly}
                    | {"confidence": round(card.confidence, 2)}
                    | evidence_of(reader, image, scale, card)
                )
    print(f"precision {tp / max(1, tp + fp):.2%} recall {tp / max(1, tp + fn):.2%} "
          f"(tp {tp}, fp {fp}, fn {fn})")  # fmt: skip
    wrong = [row for row in rows if row["verdict"] != "right"]
    print(markdown(wrong) if a.markdown else "\n".join(json.dumps(row) for row in wrong))
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
