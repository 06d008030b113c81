"""Measure the reader on labelled photos (``labels.json`` as in ``shared/data/real-cards``).

Card identity is compared per image as a multiset: a true positive is a predicted card that is in
the labels (each label matched once). Where ``labels_complete`` is false, a predicted card missing
from the labels is not counted as a false positive. Only cards read with confidence count as
predictions; uncertain ones are tallied separately. Each photo is decoded and read exactly as an
upload is (:func:`vision.reader.read_cards`), and the time counts both.

Usage:
    python -m vision.training.evaluate /path/to/real-cards [--limit N] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import cv2

from vision import MODELS_DIR
from vision.training.synth.generate import scene_image

if TYPE_CHECKING:
    from vision.reader import Reading


@dataclass
class SubsetScore:
    """Card-level scores for one ``source`` subset.

    Attributes:
        images (int): Photos read.
        tp (int): Predicted cards that are labelled.
        fp (int): Predicted cards that are not labelled (in complete label sets).
        fn (int): Labelled cards not predicted.
        uncertain (int): Cards reported as uncertain (not counted as predictions).
        hands (int): Photos with 1-6 labelled cards.
        hands_exact (int): Of those, photos whose predicted set equals the labels exactly.
        hands_clean (int): Of those exact photos, the ones with no uncertain card either.
        seconds (list[float]): Read time per photo (decode + read).
    """

    images: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0
    uncertain: int = 0
    hands: int = 0
    hands_exact: int = 0
    hands_clean: int = 0
    seconds: list[float] = field(default_factory=list)

    @property
    def precision(self) -> float:
        """Precision: tp / (tp + fp)."""
        return self.tp / max(1, self.tp + self.fp)

    @property
    def recall(self) -> float:
        """Recall: tp / (tp + fn)."""
        return self.tp / max(1, self.tp + self.fn)

    @property
    def hand_rate(self) -> float:
        """Whole-hand-exact rate on photos of 1-6 cards."""
        return self.hands_exact / max(1, self.hands)

    def to_json(self) -> dict[str, float | int | None]:
        """The figures :func:`format_scores` prints, for machines."""
        return {
            "images": self.images,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "hands": self.hands,
            "hands_exact": self.hands_exact,
            "hands_clean": self.hands_clean,
            "uncertain": self.uncertain,
            "median_seconds": round(statistics.median(self.seconds), 4) if self.seconds else None,
        }

    def record(
        self, reading: Reading, truth: list[str], seconds: float, complete: bool = True
    ) -> tuple[int, int, int]:
        """Count one photo's reading against its labels; returns its (tp, fp, fn)."""
        pred = reading.certain_cards
        tp, fp, fn = score_image(pred, truth, complete)
        self.images += 1
        self.tp, self.fp, self.fn = self.tp + tp, self.fp + fp, self.fn + fn
        self.uncertain += sum(c.uncertain for c in reading.cards)
        self.seconds.append(seconds)
        if 1 <= len(truth) <= 6:
            self.hands += 1
            exact = Counter(pred) == Counter(truth)
            self.hands_exact += int(exact)
            self.hands_clean += int(exact and not any(c.uncertain for c in reading.cards))
        return tp, fp, fn

    def add(self, other: SubsetScore) -> None:
        """Accumulate ``other`` into this score."""
        for k in ("images", "tp", "fp", "fn", "uncertain", "hands", "hands_exact", "hands_clean"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.seconds += other.seconds


def score_image(pred: list[str], truth: list[str], complete: bool = True) -> tuple[int, int, int]:
    """(tp, fp, fn) of predicted card codes against labelled ones, as multisets.

    Examples:
        >>> score_image(["5H", "QS", "2C"], ["5H", "QS", "KD"])
        (2, 1, 1)
        >>> score_image(["5H", "2C"], ["5H"], complete=False)
        (1, 0, 0)
    """
    p, t = Counter(pred), Counter(truth)
    tp = sum((p & t).values())
    fp = 0 if not complete else sum((p - t).values())
    return tp, fp, sum((t - p).values())


def evaluate(
    data_dir: Path | str,
    models_dir: Path = MODELS_DIR,
    limit: int | None = None,
    verbose: bool = False,
) -> dict[str, SubsetScore]:
    """Read every labelled photo in ``data_dir`` and score it per ``source``.

    Args:
        data_dir (Path | str): Folder with ``labels.json`` and ``images/``.
        models_dir (Path): Model folder for the reader.
        limit (int | None): Read at most this many photos per subset.
        verbose (bool): Print each photo's errors.

    Returns:
        (dict[str, SubsetScore]): Scores by source, plus ``"all"``.
    """
    from vision.reader import load_reader, read_cards

    data_dir = Path(data_dir)
    labels = json.loads((data_dir / "labels.json").read_text())
    load_reader(Path(models_dir))  # load the models before the clock starts
    scores: dict[str, SubsetScore] = defaultdict(SubsetScore)
    seen: Counter[str] = Counter()
    for name, lab in sorted(labels.items()):
        src = lab.get("source", "all")
        if limit is not None and seen[src] >= limit:
            continue
        seen[src] += 1
        path = data_dir / "images" / name
        t0 = time.perf_counter()
        reading = read_cards(path, models_dir)
        dt = time.perf_counter() - t0
        pred = reading.certain_cards
        truth = list(lab["cards"])
        complete = bool(lab.get("labels_complete", True))
        _tp, fp, fn = scores[src].record(reading, truth, dt, complete)
        if verbose and (fp or fn):
            miss = sorted((Counter(truth) - Counter(pred)).elements())
            extra = sorted((Counter(pred) - Counter(truth)).elements())
            unc = [f"{c.card}?{c.confidence:.2f}" for c in reading.cards if c.uncertain]
            print(f"{name}: missed {miss} extra {extra} uncertain {unc}")
    total = SubsetScore()
    for s in scores.values():
        total.add(s)
    out = dict(sorted(scores.items()))
    out["all"] = total
    return out


def evaluate_synthetic(
    data_dir: Path | str,
    models_dir: Path = MODELS_DIR,
    split: str = "val",
    limit: int | None = None,
) -> SubsetScore:
    """Score the reader on generated scenes (``meta/<split>.jsonl`` from the generator).

    The truth per scene is the set of cards with at least one labelled (visible) corner index.
    """
    from vision.reader import load_reader

    data_dir = Path(data_dir)
    reader = load_reader(Path(models_dir))
    s = SubsetScore()
    with open(data_dir / "meta" / f"{split}.jsonl") as f:
        rows = [json.loads(line) for line in f][:limit]
    for row in rows:
        img = scene_image(data_dir, row)
        t0 = time.perf_counter()
        reading = reader.read(img)
        s.record(reading, list(row["cards"]), time.perf_counter() - t0)
    return s


def format_scores(scores: dict[str, SubsetScore]) -> str:
    """A plain-text table of :func:`evaluate` results."""
    lines = [
        f"{'subset':<12} {'images':>6} {'precision':>9} {'recall':>7} {'hand-exact':>12} "
        f"{'uncertain':>9} {'median s':>8}"
    ]
    for k, s in scores.items():
        hand = f"{s.hands_exact}/{s.hands} {s.hand_rate:.0%}" if s.hands else "-"
        med = statistics.median(s.seconds) if s.seconds else float("nan")
        lines.append(
            f"{k:<12} {s.images:>6} {s.precision:>9.1%} {s.recall:>7.1%} {hand:>12} "
            f"{s.uncertain:>9} {med:>8.3f}"
        )
    return "\n".join(lines)


def main() -> None:
    """CLI entry point."""
    ap = argparse.ArgumentParser(description="Evaluate the card reader on labelled photos.")
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--models", type=Path, default=MODELS_DIR)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument(
        "--synthetic",
        action="store_true",
        help="DIR is a generated dataset: score meta/val.jsonl scenes instead of labels.json",
    )
    a = ap.parse_args()
    cv2.setNumThreads(2)
    if a.synthetic:
        print(format_scores({"synthetic": evaluate_synthetic(a.data_dir, a.models, limit=a.limit)}))
    else:
        print(format_scores(evaluate(a.data_dir, a.models, a.limit, a.verbose)))


if __name__ == "__main__":
    main()
