"""Choose the reader's drop threshold for spurious detections on synthetic validation scenes.

Reads every scene of a generated set (``meta/val.jsonl`` from :mod:`vision.training.synth.generate`,
which draws printed tables, newspaper and game-box patches, brand print on card faces and court art)
with a reader for each ``none_above`` (drop a detection whose probability of ``none`` is at least
this: :attr:`vision.reader.ReaderOptions.none_above`) and prints: precision and recall of the cards
read with confidence, scenes of 1-6 visible cards read exactly with nothing uncertain, uncertain
cards, and "strays": cards reported (sure or not) that are not on the table at all. The real photos
are never used here.

With ``--conditions``, it instead applies the perturbations of ``vision_robustness.py`` (clean,
overexposed, blur, dark, tilted) to every scene and prints, per condition and for each candidate
certainty operating point (:data:`OPERATING_POINTS`, :class:`vision.certainty.Certainty`, a reader
each), the precision and recall of the cards read with confidence, the uncertain cards and the
strays.

Usage:
    python -m vision.training.synth.generate --out datasets/val1 --n 300 --seed 1 --val-frac 1
    python benchmarks/vision_thresholds.py datasets/val1 [--models models]
    python benchmarks/vision_thresholds.py datasets/val1 --conditions [clean,blur] [--limit N]
    python benchmarks/vision_thresholds.py datasets/held41 --conditions --ladder --json out.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision_robustness import CONDITIONS  # noqa: E402  (this folder is on sys.path)

from vision import MODELS_DIR  # noqa: E402
from vision.certainty import CERTAINTY_LADDER, SERVING_CERTAINTY, Certainty  # noqa: E402
from vision.reader import CardReader, ReaderOptions  # noqa: E402
from vision.training.evaluate import SubsetScore  # noqa: E402
from vision.training.synth.generate import scene_image  # noqa: E402

NONE_ABOVE = (0.5, 0.3, 0.2, 0.1, 0.05)


def sweep(
    data_dir: Path, models: Path, limit: int | None = None
) -> dict[float, tuple[SubsetScore, int]]:
    """Scores and stray counts per ``none_above`` over the scenes of ``data_dir``."""
    rows = [json.loads(line) for line in (data_dir / "meta" / "val.jsonl").open()][:limit]
    readers = {n: CardReader(models, ReaderOptions(none_above=n)) for n in NONE_ABOVE}
    out = {n: (SubsetScore(), 0) for n in NONE_ABOVE}
    for row in rows:
        img = scene_image(data_dir, row)
        placed = set(row["placed"])
        for n, reader in readers.items():
            reading = reader.read(img)
            score, strays = out[n]
            score.record(reading, list(row["cards"]), reading.seconds)
            out[n] = (score, strays + sum(c.card not in placed for c in reading.cards))
    return out


OPERATING_POINTS: dict[str, Certainty] = {
    "p>=.5 (before)": Certainty(),
    "p>=.6": Certainty(0.6),
    "p>=.7": Certainty(0.7),
    "p>=.7 clipped>.5 .8": Certainty(0.7, clipped_above=0.5, clipped_sure_above=0.8),
    "p>=.7 blurred<.08 .8": Certainty(0.7, blurred_below=0.08, blurred_sure_above=0.8),
    "p>=.75": Certainty(0.75),
    "p>=.8": Certainty(0.8),
    "serving": SERVING_CERTAINTY,
}
"""Candidate certainty operating points, by name."""


def per_condition(
    data_dir: Path,
    models: Path,
    conditions: list[str],
    limit: int | None = None,
    points: dict[str, Certainty] | None = None,
) -> dict[str, dict[str, tuple[SubsetScore, int]]]:
    """Scores and strays per condition and operating point over the scenes of ``data_dir``.

    ``points`` are :data:`OPERATING_POINTS` by default.
    """
    readers = {
        name: CardReader(models, ReaderOptions(certainty=point))
        for name, point in (points or OPERATING_POINTS).items()
    }
    rows = [json.loads(line) for line in (data_dir / "meta" / "val.jsonl").open()][:limit]
    out: dict[str, dict[str, tuple[SubsetScore, int]]] = {}
    for cond in conditions:
        out[cond] = {name: (SubsetScore(), 0) for name in readers}
        for row in rows:
            img = CONDITIONS[cond](scene_image(data_dir, row))
            placed = set(row["placed"])
            for name, reader in readers.items():
                reading = reader.read(img)
                score, strays = out[cond][name]
                score.record(reading, list(row["cards"]), reading.seconds)
                out[cond][name] = (score, strays + sum(c.card not in placed for c in reading.cards))
    return out


def _print_conditions(
    data_dir: Path,
    models: Path,
    conditions: list[str],
    limit: int | None,
    points: dict[str, Certainty] | None,
    json_path: Path | None,
) -> None:
    results = per_condition(data_dir, models, conditions, limit, points)
    if json_path:
        figures = {
            cond: {
                name: {"precision": s.precision, "recall": s.recall, "uncertain": s.uncertain}
                | {"strays": strays}
                for name, (s, strays) in by_point.items()
            }
            for cond, by_point in results.items()
        }
        json_path.write_text(json.dumps(figures, indent=1))
    print(
        f"{'condition':<12} {'operating point':<24} {'precision':>9} {'recall':>7} "
        f"{'uncertain':>9} {'strays':>6}"
    )
    for cond, by_point in results.items():
        for name, (s, strays) in by_point.items():
            print(
                f"{cond:<12} {name:<24} {s.precision:>9.2%} {s.recall:>7.2%} {s.uncertain:>9} "
                f"{strays:>6}"
            )


def main() -> None:
    """Run the sweep, or the per-condition table, and print it."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--models", type=Path, default=MODELS_DIR)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument(
        "--conditions",
        nargs="?",
        const=",".join(CONDITIONS),
        default=None,
        help="per-condition table of the certainty operating points (all conditions if bare)",
    )
    ap.add_argument(
        "--ladder", action="store_true",
        help="with --conditions: the points of vision.certainty.CERTAINTY_LADDER (ladder 0 ...)",
    )  # fmt: skip
    ap.add_argument("--json", type=Path, default=None, help="with --conditions: also write here")
    a = ap.parse_args()
    cv2.setNumThreads(2)
    if a.conditions is not None:
        conditions = [c.strip() for c in a.conditions.split(",") if c.strip()]
        unknown = [c for c in conditions if c not in CONDITIONS]
        if unknown:
            sys.exit(f"unknown condition {unknown[0]!r}; choose from {', '.join(CONDITIONS)}")
        ladder = {f"ladder {i}": point for i, point in enumerate(CERTAINTY_LADDER)}
        points = ladder if a.ladder else None
        _print_conditions(a.data_dir, a.models, conditions, a.limit, points, a.json)
        return
    results = sweep(a.data_dir, a.models, a.limit)
    print(
        f"{'none_above':>10} {'precision':>9} {'recall':>7} "
        f"{'exact+sure (1-6)':>17} {'uncertain':>9} {'strays':>6}"
    )
    for n, (s, strays) in results.items():
        exact = f"{s.hands_clean}/{s.hands} {s.hands_clean / max(1, s.hands):.1%}"
        print(
            f"{n:>10} {s.precision:>9.2%} {s.recall:>7.2%} {exact:>17} {s.uncertain:>9} {strays:>6}"
        )


if __name__ == "__main__":
    main()
