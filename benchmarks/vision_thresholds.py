"""Choose the reader's drop thresholds for spurious detections on synthetic validation scenes.

Reads every scene of a generated set (``meta/val.jsonl`` from :mod:`vision.training.synth.generate`,
which draws printed tables, newspaper and game-box patches, brand print on card faces and court art)
once with the detector and classifier, then re-runs the reader's filtering and merging for each pair
of ``none_above`` (drop a detection whose probability of ``none`` is at least this) and
``paper_below`` (drop one whose ground is less card-paper-like than this; 0 = off) and prints:
precision and recall of the cards read with confidence, scenes of 1-6 visible cards read exactly
with nothing uncertain, uncertain cards, and "strays": cards reported (sure or not) that are not
on the table at all. The real photos are never used here.

With ``--conditions``, it instead applies the perturbations of ``vision_robustness.py`` (clean,
overexposed, blur, dark, tilted) to every scene and prints, per condition and for each candidate
certainty operating point (:data:`OPERATING_POINTS`, :class:`vision.certainty.Certainty`), the
precision and recall of the cards read with confidence, the uncertain cards and the strays. Each
scene is detected, classified and weighed once per condition; the operating points re-run only
the reader's decisions. It also prints what the evidence (crop quality and second readings)
costs against detection and classification, median milliseconds a scene in the same run.

Usage:
    python -m vision.training.synth.generate --out datasets/val1 --n 300 --seed 1 --val-frac 1
    python benchmarks/vision_thresholds.py datasets/val1 [--models models]
    python benchmarks/vision_thresholds.py datasets/val1 --conditions [clean,blur] [--limit N]
    python benchmarks/vision_thresholds.py datasets/held41 --conditions --ladder --json out.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision_robustness import CONDITIONS  # noqa: E402  (this folder is on sys.path)

from vision import MODELS_DIR  # noqa: E402
from vision.certainty import CERTAINTY_LADDER, SERVING_CERTAINTY, Certainty  # noqa: E402
from vision.reader import CardReader  # noqa: E402
from vision.training.evaluate import SubsetScore  # noqa: E402
from vision.training.synth.generate import scene_image  # noqa: E402

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
        img = scene_image(data_dir, row)
        boxes, scores = detect(img)
        probs = classify(img, boxes)
        reader.detect = lambda _img, _cards=None, b=boxes, s=scores: (b, s)  # type: ignore[method-assign]
        reader.classify = lambda _img, _boxes, p=probs: p  # type: ignore[method-assign]
        placed = set(row["placed"])
        for (n, p), (score, strays) in list(out.items()):
            reader.none_above, reader.paper_below = n, p
            reading = reader.read(img)
            score.record(reading, list(row["cards"]), reading.seconds)
            out[n, p] = (score, strays + sum(c.card not in placed for c in reading.cards))
        reader.detect, reader.classify = detect, classify  # type: ignore[method-assign]
    return out


OPERATING_POINTS: dict[str, Certainty] = {
    "p>=.5 (before)": Certainty(),
    "p>=.5 reread<.9": Certainty(0.5, reread_below=0.9),
    "p>=.6": Certainty(0.6),
    "p>=.7": Certainty(0.7),
    "p>=.7 reread<.9": Certainty(0.7, reread_below=0.9),
    "p>=.7 clipped>.5 .8": Certainty(0.7, clipped_above=0.5, clipped_sure_above=0.8),
    "p>=.7 blurred<.08 .8": Certainty(0.7, blurred_below=0.08, blurred_sure_above=0.8),
    "p>=.75": Certainty(0.75),
    "p>=.8": Certainty(0.8),
    "serving": SERVING_CERTAINTY,
}
"""Candidate certainty operating points, by name."""


def per_condition(
    data_dir: Path,
    reader: CardReader,
    conditions: list[str],
    limit: int | None = None,
    points: dict[str, Certainty] | None = None,
) -> tuple[dict[str, dict[str, tuple[SubsetScore, int]]], list[float], list[float]]:
    """Scores and strays per condition and operating point over the scenes of ``data_dir``.

    ``points`` are :data:`OPERATING_POINTS` by default, their ``"serving"`` the reader's own.
    Also returns the seconds a scene took to detect and classify, and to weigh the evidence.
    """
    chosen = points or OPERATING_POINTS | {"serving": reader.certainty}
    rows = [json.loads(line) for line in (data_dir / "meta" / "val.jsonl").open()][:limit]
    widest = max(p.reread_below for p in chosen.values())
    out: dict[str, dict[str, tuple[SubsetScore, int]]] = {}
    detect, classify, evidence = reader.detect, reader.classify, reader.evidence
    read_s: list[float] = []
    weigh_s: list[float] = []
    for cond in conditions:
        out[cond] = {name: (SubsetScore(), 0) for name in chosen}
        for row in rows:
            img = CONDITIONS[cond](scene_image(data_dir, row))
            t0 = time.perf_counter()
            boxes, scores = detect(img)
            probs = classify(img, boxes)
            keep = reader.on_cards(img, boxes, probs)
            boxes, scores, probs = boxes[keep], scores[keep], probs[keep]
            t1 = time.perf_counter()
            reader.certainty = Certainty(reread_below=widest)
            ev = evidence(img, boxes, probs)
            read_s.append(t1 - t0)
            weigh_s.append(time.perf_counter() - t1)
            reader.detect = lambda _img, _cards=None, b=boxes, s=scores: (b, s)  # type: ignore[method-assign]
            reader.classify = lambda _img, _boxes, p=probs: p  # type: ignore[method-assign]
            reader.evidence = lambda _img, _boxes, _probs, e=ev: e  # type: ignore[method-assign]
            placed = set(row["placed"])
            for name, point in chosen.items():
                reader.certainty = point
                reading = reader.read(img)
                score, strays = out[cond][name]
                score.record(reading, list(row["cards"]), reading.seconds)
                out[cond][name] = (score, strays + sum(c.card not in placed for c in reading.cards))
            reader.detect, reader.classify, reader.evidence = detect, classify, evidence  # type: ignore[method-assign]
    return out, read_s, weigh_s


def _print_conditions(
    data_dir: Path,
    reader: CardReader,
    conditions: list[str],
    limit: int | None,
    points: dict[str, Certainty] | None,
    json_path: Path | None,
) -> None:
    results, read_s, weigh_s = per_condition(data_dir, reader, conditions, limit, points)
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
    read_ms, weigh_ms = 1000 * statistics.median(read_s), 1000 * statistics.median(weigh_s)
    print(
        f"median a scene: detect + classify {read_ms:.0f} ms, evidence (second readings under "
        f".{round(100 * max(p.reread_below for p in OPERATING_POINTS.values()))}) "
        f"{weigh_ms:.0f} ms ({weigh_ms / read_ms:.0%})"
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
        _print_conditions(a.data_dir, CardReader(a.models), conditions, a.limit, points, a.json)
        return
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
