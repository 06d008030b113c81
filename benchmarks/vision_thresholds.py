"""Choose the reader's drop thresholds for spurious detections on synthetic validation scenes.

Reads every scene of a generated set (``meta/val.jsonl`` from :mod:`vision.synth.generate`, which
draws printed tables, newspaper and game-box patches, brand print on card faces and court art)
once with the detector and classifier, then re-runs the reader's filtering and merging for each
pair of ``none_above`` (drop a detection whose probability of ``none`` is at least this) and
``paper_below`` (drop one whose ground is less card-paper-like than this; 0 = off) and prints:
precision and recall of the cards read with confidence, scenes of 1-6 visible cards read exactly
with nothing uncertain, uncertain cards, and "strays": cards reported (sure or not) that are not
on the table at all. The real photos are never used here.

Usage:
    python -m vision.synth.generate --out datasets/val1 --n 300 --seed 1 --val-frac 1
    python benchmarks/vision_thresholds.py datasets/val1 [--models models]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import MODELS_DIR  # noqa: E402
from vision.evaluate import SubsetScore  # noqa: E402
from vision.reader import CardReader  # noqa: E402

NONE_ABOVE = (0.5, 0.3, 0.2, 0.1, 0.05)
PAPER_BELOW = (0.0, 0.2, 0.3, 0.4, 0.5)


def sweep(
    data_dir: Path, reader: CardReader, limit: int | None = None
) -> dict[tuple[float, float], tuple[SubsetScore, int]]:
    """Scores and stray counts per (none_above, paper_below) over the scenes of ``data_dir``."""
    rows = [json.loads(line) for line in (data_dir / "meta" / "val.jsonl").open()][:limit]
    out = {(n, p): (SubsetScore(), 0) for n in NONE_ABOVE for p in PAPER_BELOW}
    detect, classify = reader.detect, reader.classify
    for row in rows:
        img = cv2.imread(str(data_dir / row["file"]))
        if img is None:
            raise FileNotFoundError(f"cannot read scene image {data_dir / row['file']}")
        boxes, scores = detect(img)
        probs = classify(img, boxes)
        reader.detect = lambda _img, b=boxes, s=scores: (b, s)  # type: ignore[method-assign]
        reader.classify = lambda _img, _boxes, p=probs: p  # type: ignore[method-assign]
        placed = set(row["placed"])
        for (n, p), (score, strays) in list(out.items()):
            reader.none_above, reader.paper_below = n, p
            reading = reader.read(img)
            score.record(reading, list(row["cards"]), reading.seconds)
            out[n, p] = (score, strays + sum(c.card not in placed for c in reading.cards))
        reader.detect, reader.classify = detect, classify  # type: ignore[method-assign]
    return out


def main() -> None:
    """Run the sweep and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--models", type=Path, default=MODELS_DIR)
    ap.add_argument("--limit", type=int, default=None)
    a = ap.parse_args()
    cv2.setNumThreads(2)
    results = sweep(a.data_dir, CardReader(a.models), a.limit)
    print(
        f"{'none_above':>10} {'paper_below':>11} {'precision':>9} {'recall':>7} "
        f"{'exact+sure (1-6)':>17} {'uncertain':>9} {'strays':>6}"
    )
    for (n, p), (s, strays) in results.items():
        exact = f"{s.hands_clean}/{s.hands} {s.hands_clean / max(1, s.hands):.1%}"
        print(
            f"{n:>10} {p:>11} {s.precision:>9.2%} {s.recall:>7.2%} {exact:>17} "
            f"{s.uncertain:>9} {strays:>6}"
        )


if __name__ == "__main__":
    main()
