"""How the camera hand reader holds up in the light and focus phones meet at a table.

Applies each condition to every photo of a labelled set (``../shared/data/real-cards``) after
decoding it as an upload is decoded, reads it, and prints per condition and subset: precision
and recall (uncertain cards counted as not read), whole photo exact with nothing uncertain on
the 1-5 card photos, uncertain cards, how many missed cards the detector never found (no
detection on the card at all, as opposed to found but misread or uncertain), and the median read
time per photo (decode + read; the perturbation itself is not timed) in wall-clock and in CPU
milliseconds (all threads of the process; a busy machine inflates the first, not the second).

Conditions: ``clean``; ``overexposed`` (x1.6 + 40, clipped); ``blur`` (Gaussian sigma 2);
``dark`` (x0.35); ``tilted`` (perspective: the top edge shrunk to 70% of the width); ``webcam``
(degraded like a webcam frame, :func:`vision.training.synth.webcam.webcam_frame`: the photo
shrunk so that its corner indices are 12-20 px high, as its labels tell their size, laid on a
1280x720 grey desk or blanket, and seen in dim grey or blue light by the generator's webcam:
low effective resolution, noise, washed-out colour, JPEG q20-60; each photo's degradation is
drawn from its name, the same on every run). ``webcam`` is not among the default conditions.

Subsets: ``all``; ``1-5 cards`` (photos with 1 to 5 labelled cards); ``bridge fans`` (13 or more).

Usage:
    python benchmarks/vision_robustness.py [--real ../shared/data/real-cards]
        [--conditions clean,dark,webcam] [--json out.json] [--index-alone | --corners-only | --body]
        [--models DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import MODELS_DIR  # noqa: E402
from vision.certainty import NO_CORROBORATION, STRICT_CORROBORATION  # noqa: E402
from vision.reader import CardReader, ReaderOptions, load_reader  # noqa: E402
from vision.training.evaluate import SubsetScore  # noqa: E402
from vision.training.synth.webcam import webcam_frame  # noqa: E402
from vision.upload import decode_upload  # noqa: E402


def tilt_matrix(w: int, h: int, top: float = 0.7) -> np.ndarray:
    """Perspective as if the phone leant back: the top edge shrinks to ``top`` of the width."""
    inset = (1 - top) / 2 * w
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[inset, 0], [w - inset, 0], [w, h], [0, h]])
    return cv2.getPerspectiveTransform(src, dst)


def _tilt(img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    m = tilt_matrix(w, h)
    return cv2.warpPerspective(img, m, (w, h), borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def _tilted_box(box: list[float], size: tuple[int, int]) -> list[float]:
    """A labelled box (photo pixels, photo ``size`` w, h) after :func:`_tilt`."""
    x1, y1, x2, y2 = box
    corners = np.float64([[[x1, y1], [x2, y1], [x2, y2], [x1, y2]]])
    q = cv2.perspectiveTransform(corners, tilt_matrix(*size).astype(np.float64))[0]
    return [*q.min(0).tolist(), *q.max(0).tolist()]


def _affine(gain: float, offset: float) -> Callable[[np.ndarray], np.ndarray]:
    return lambda img: cv2.convertScaleAbs(img, alpha=gain, beta=offset)


CONDITIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "clean": lambda img: img,
    "overexposed": _affine(1.6, 40),
    "blur": lambda img: cv2.GaussianBlur(img, (0, 0), 2.0),
    "dark": _affine(0.35, 0),
    "tilted": _tilt,
    "webcam": lambda img: webcam_frame(img, np.random.default_rng(0))[0],
}
"""Condition name -> perturbation of a decoded BGR photo (``webcam`` here keeps the photo's size:
without labels it cannot tell its indices' size; :func:`run` shrinks each real photo too)."""
DEFAULT_CONDITIONS = ("clean", "overexposed", "blur", "dark", "tilted")
INDEX_OF_CARD = 0.2
"""A corner index's height as a share of its card's (0.17-0.27 over the rendered decks)."""


def index_height(label: dict, scale: float) -> float:
    """The median height of a labelled photo's corner indices, pixels of the decoded photo.

    Corner-index boxes give it (their longer side); whole-card boxes give the card's (the
    longer side of the box, a little more for a card lying aslant) times
    :data:`INDEX_OF_CARD`.
    """
    sides = [max(b["bbox"][2] - b["bbox"][0], b["bbox"][3] - b["bbox"][1]) for b in label["boxes"]]
    share = 1.0 if label["box_type"] == "corner_index" else INDEX_OF_CARD
    return float(np.median(sides)) * share / scale


def _moved(label: dict, scale: float, f: float, offset: tuple[int, int]) -> dict:
    """``label`` with its boxes where :func:`webcam_frame` put them (frame pixels)."""
    x, y = offset
    k = f / scale
    boxes = [
        b
        | {
            "bbox": [
                b["bbox"][0] * k + x,
                b["bbox"][1] * k + y,
                b["bbox"][2] * k + x,
                b["bbox"][3] * k + y,
            ]
        }
        for b in label.get("boxes") or []
    ]
    return label | {"boxes": boxes}


def subset_of(n_cards: int) -> str | None:
    """The subset a photo with ``n_cards`` labelled cards belongs to (besides ``all``)."""
    if 1 <= n_cards <= 5:
        return "1-5 cards"
    return "bridge fans" if n_cards >= 13 else None


def _on_card(det: np.ndarray, box: list[float], box_type: str) -> bool:
    """Whether any detector box lies on a labelled card (whole-card box) or index box."""
    if len(det) == 0:
        return False
    x1, y1, x2, y2 = box
    cx, cy = (det[:, 0] + det[:, 2]) / 2, (det[:, 1] + det[:, 3]) / 2
    if box_type == "whole_card":
        return bool(((cx >= x1) & (cx <= x2) & (cy >= y1) & (cy <= y2)).any())
    ix = np.clip(np.minimum(det[:, 2], x2) - np.maximum(det[:, 0], x1), 0, None)
    iy = np.clip(np.minimum(det[:, 3], y2) - np.maximum(det[:, 1], y1), 0, None)
    inter = ix * iy
    union = (det[:, 2] - det[:, 0]) * (det[:, 3] - det[:, 1]) + (x2 - x1) * (y2 - y1) - inter
    return bool((inter / np.maximum(union, 1e-9) >= 0.3).any())


def undetected(
    reader: CardReader,
    image: np.ndarray,
    missed: list[str],
    label: dict,
    scale: float,
    tilted: bool = False,
) -> int:
    """How many of the ``missed`` cards have no detector box on any of their labelled boxes
    (moved as the photo was when ``tilted``)."""
    boxes = label.get("boxes") or []
    if not missed or not boxes:
        return 0
    if tilted:
        size = (round(image.shape[1] * scale), round(image.shape[0] * scale))
        boxes = [b | {"bbox": _tilted_box(b["bbox"], size)} for b in boxes]
    det, _scores = reader.detect(image)
    det = det * scale
    out = 0
    for card in set(missed):
        theirs = [b["bbox"] for b in boxes if b["card"] == card]
        if theirs and not any(_on_card(det, b, label["box_type"]) for b in theirs):
            out += missed.count(card)
    return out


@dataclass
class Result:
    """One condition and subset: the scores, cards never detected, CPU seconds per photo."""

    score: SubsetScore
    undetected: int
    cpu_seconds: list[float]


def run(data_dir: Path, conditions: list[str], reader: CardReader) -> dict[str, dict[str, Result]]:
    """Scores per condition and subset."""
    labels = json.loads((data_dir / "labels.json").read_text())
    photos = {name: (data_dir / "images" / name).read_bytes() for name in sorted(labels)}
    out: dict[str, dict[str, Result]] = {}
    for cond in conditions:
        perturb = CONDITIONS[cond]
        scores: dict[str, SubsetScore] = {k: SubsetScore() for k in ("1-5 cards", "bridge fans")}
        lost: Counter[str] = Counter()
        cpu: dict[str, list[float]] = defaultdict(list)
        for name, data in photos.items():
            lab = labels[name]
            truth = list(lab["cards"])
            sub = subset_of(len(truth))
            if sub is None:
                continue
            t0, c0 = time.perf_counter(), time.process_time()
            img, scale = decode_upload(data, reduce=True)
            decode, decode_cpu = time.perf_counter() - t0, time.process_time() - c0
            if cond == "webcam" and lab.get("boxes"):
                rng = np.random.default_rng(zlib.crc32(name.encode()))
                img, f, offset = webcam_frame(img, rng, index_height(lab, scale))
                lab, scale = _moved(lab, scale, f, offset), 1.0
            else:
                img = perturb(img)
            t0, c0 = time.perf_counter(), time.process_time()
            reading = reader.read(img, scale=scale)
            dt = decode + time.perf_counter() - t0
            cpu[sub].append(decode_cpu + time.process_time() - c0)
            scores[sub].record(reading, truth, dt, bool(lab.get("labels_complete", True)))
            missed = list((Counter(truth) - Counter(reading.certain_cards)).elements())
            lost[sub] += undetected(reader, img, missed, lab, scale, tilted=cond == "tilted")
        total = SubsetScore()
        for s in scores.values():
            total.add(s)
        every = [t for ts in cpu.values() for t in ts]
        out[cond] = {"all": Result(total, sum(lost.values()), every)}
        out[cond].update({k: Result(s, lost[k], cpu[k]) for k, s in scores.items()})
    return out


def _median(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def format_table(results: dict[str, dict[str, Result]]) -> str:
    """A plain-text table: one row per condition and subset."""
    lines = [
        f"{'condition':<12} {'subset':<12} {'photos':>6} {'precision':>9} {'recall':>7} "
        f"{'exact+sure':>14} {'uncertain':>9} {'missed':>6} {'undetected':>10} {'median ms':>9} "
        f"{'cpu ms':>6}"
    ]
    for cond, subsets in results.items():
        for sub, r in subsets.items():
            s, lost = r.score, r.undetected
            exact = f"{s.hands_clean}/{s.hands} {s.hands_clean / s.hands:.1%}" if s.hands else "-"
            med = statistics.median(s.seconds) * 1000 if s.seconds else float("nan")
            cpu = statistics.median(r.cpu_seconds) * 1000 if r.cpu_seconds else float("nan")
            lines.append(
                f"{cond:<12} {sub:<12} {s.images:>6} {s.precision:>9.1%} {s.recall:>7.1%} "
                f"{exact:>14} {s.uncertain:>9} {s.fn:>6} {lost:>10} {med:>9.0f} {cpu:>6.0f}"
            )
    return "\n".join(lines)


def main() -> None:
    """Run the benchmark and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", type=Path, default=ROOT.parent / "shared/data/real-cards")
    ap.add_argument("--conditions", default=",".join(DEFAULT_CONDITIONS))
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    ap.add_argument(
        "--index-alone", action="store_true",
        help="certain cards are not corroborated by their bodies or corners (NO_CORROBORATION)",
    )  # fmt: skip
    ap.add_argument(
        "--corners-only", action="store_true",
        help="certain cards read on small indices need two corners' agreement; no body model",
    )  # fmt: skip
    ap.add_argument(
        "--body", action="store_true",
        help="certain cards corroborated as STRICT_CORROBORATION says (small indices need their "
        "bodies too; the default reader: DEFAULT_CORROBORATION)",
    )  # fmt: skip
    ap.add_argument("--models", type=Path, default=None, help="another models folder")
    a = ap.parse_args()
    if not (a.real / "labels.json").exists():
        sys.exit(f"real photo set not found at {a.real}")
    conditions = [c.strip() for c in a.conditions.split(",") if c.strip()]
    unknown = [c for c in conditions if c not in CONDITIONS]
    if unknown:
        sys.exit(f"unknown condition {unknown[0]!r}; choose from {', '.join(CONDITIONS)}")
    cv2.setNumThreads(2)
    models = a.models or MODELS_DIR
    if a.index_alone:
        reader = CardReader(models, ReaderOptions(corroboration=NO_CORROBORATION))
    elif a.body:
        reader = CardReader(models, ReaderOptions(corroboration=STRICT_CORROBORATION))
    elif a.corners_only:
        reader = CardReader(models, ReaderOptions(corroboration=STRICT_CORROBORATION))
        reader.body = None
    else:
        reader = load_reader(models)
    results = run(a.real, conditions, reader)
    print(format_table(results))
    if a.json:
        doc = {
            c: {
                k: r.score.to_json()
                | {"undetected": r.undetected, "cpu_seconds": _median(r.cpu_seconds)}
                for k, r in subs.items()
            }
            for c, subs in results.items()
        }
        a.json.write_text(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
