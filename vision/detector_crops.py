"""Classifier crops cut where the detector finds indices, so a fine-tune sees what serving sees.

The generator's crops (:func:`vision.synth.generate.scene_crops`) are cut around the labelled
index boxes with random jitter; the reader cuts around the detector's boxes, after its second
look on large photos. This module runs a reader's detector over a generated dataset's scenes,
matches each detection to the labelled indices, and writes the matched crops in the generator's
form (``crops/{train,val}.npz``: ``x`` uint8 BGR (N, 64, 64, 3), ``y`` class ids), so that
``python -m vision.train classify --data DATA OUT`` pools them with the generator's crops.

A crop the reader's classifier reads wrong, or not with certainty, is a hard example and is
written ``hard_copies`` times in the training split (once in validation). Detections matching
no label are left out: a half-covered index has no label (the generator hides it), so a stray
detection cannot be told from one on a covered card.

Usage:
    python -m vision.detector_crops datasets/chunk-014 datasets/chunk-014-det
    python -m vision.train classify --data datasets/chunk-014 datasets/chunk-014-det ...
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import CARDS, MODELS_DIR
from vision.crops import CROP_SIZE, crop_index
from vision.reader import CardReader
from vision.synth.generate import box_iou

MATCH_IOU = 0.5
"""Least overlap of a detection with a labelled index box for the crop to take its card."""


@dataclass
class MinedCounts:
    """What one split's scenes gave."""

    scenes: int = 0
    labels: int = 0
    detections: int = 0
    matched: int = 0
    wrong: int = 0
    """Matched crops the classifier reads as another class (certain or not)."""
    unsure: int = 0
    """Matched crops read right but not with certainty."""
    crops: int = 0


def match_labels(
    boxes: np.ndarray, label_boxes: np.ndarray, min_iou: float = MATCH_IOU
) -> np.ndarray:
    """For each detection, the index of the labelled box it matches, or -1.

    Each label is matched once, to its most overlapping detection (at least ``min_iou``).

    Examples:
        >>> labels = np.array([[0, 0, 10, 10], [20, 0, 30, 10]], float)
        >>> dets = np.array([[21, 0, 31, 10], [1, 0, 11, 10], [2, 0, 12, 10], [50, 0, 60, 9.0]])
        >>> match_labels(dets, labels).tolist()
        [1, 0, -1, -1]
    """
    matched = np.full(len(boxes), -1, np.int64)
    if len(boxes) == 0 or len(label_boxes) == 0:
        return matched
    iou = np.stack([box_iou(lab, boxes) for lab in label_boxes])  # (labels, detections)
    for lab, det in sorted(np.argwhere(iou >= min_iou).tolist(), key=lambda ld: -iou[ld[0], ld[1]]):
        if matched[det] < 0 and lab not in matched:
            matched[det] = lab
    return matched


def scene_crops(
    reader: CardReader, image: np.ndarray, cards: list[str], label_boxes: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The crops of one scene's detections that match a label, as the reader cuts them.

    Returns:
        (tuple): crops uint8 (M, S, S, 3), class ids (M,), whether the reader's classifier reads
            each wrong (M,), whether it reads each with certainty (M,), and the number of
            detections.
    """
    boxes, _ = reader.detect(image)
    matched = match_labels(boxes, label_boxes)
    keep = np.flatnonzero(matched >= 0)
    ys = np.array([CARDS.index(cards[k]) for k in matched[keep]], np.int64)
    if len(keep) == 0:
        none = np.zeros(0, bool)
        return np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8), ys, none, none, len(boxes)
    kept = boxes[keep]
    crops = np.stack(
        [crop_index(image, tuple(b), reader.crop_size, reader.crop_scale) for b in kept]
    )
    probs = reader.classify(image, kept)
    sure = reader.certainty.sure(probs, reader.evidence(image, kept, probs))
    return crops, ys, probs.argmax(1) != ys, sure, len(boxes)


def mine(
    data: Path, out: Path, models_dir: Path = MODELS_DIR, hard_copies: int = 3
) -> dict[str, MinedCounts]:
    """Write ``out/crops/{train,val}.npz`` from the detector's boxes on ``data``'s scenes.

    Args:
        data (Path): A folder written by :mod:`vision.synth.generate` (``meta/*.jsonl``, images).
        out (Path): Output folder (created); ``out/crops/mined.json`` keeps the counts.
        models_dir (Path): The reader whose detector cuts the crops and whose classifier (at its
            certainty point) says which are hard.
        hard_copies (int): Times a hard crop is written in the training split.

    Returns:
        (dict[str, MinedCounts]): Counts per split.
    """
    if hard_copies < 1:
        raise ValueError("hard_copies must be at least 1")
    reader = CardReader(models_dir)
    (out / "crops").mkdir(parents=True, exist_ok=True)
    counts: dict[str, MinedCounts] = {}
    for split in ("train", "val"):
        n = counts[split] = MinedCounts()
        xs: list[np.ndarray] = []
        ys: list[np.ndarray] = []
        for line in (data / "meta" / f"{split}.jsonl").read_text().splitlines():
            row = json.loads(line)
            image = cv2.imread(str(data / row["file"]))
            if image is None:
                raise FileNotFoundError(data / row["file"])
            cards = [lab["card"] for lab in row["labels"]]
            label_boxes = np.array([lab["box"] for lab in row["labels"]], np.float64).reshape(-1, 4)
            crops, y, wrong, sure, found = scene_crops(reader, image, cards, label_boxes)
            hard = wrong | ~sure
            copies = np.where(hard, hard_copies if split == "train" else 1, 1)
            xs.append(np.repeat(crops, copies, axis=0))
            ys.append(np.repeat(y, copies))
            n.scenes += 1
            n.labels += len(cards)
            n.detections += found
            n.matched += len(y)
            n.wrong += int(wrong.sum())
            n.unsure += int((~wrong & ~sure).sum())
        x = np.concatenate(xs) if xs else np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8)
        y_all = np.concatenate(ys).astype(np.int16) if ys else np.zeros(0, np.int16)
        n.crops = len(y_all)
        np.savez(out / "crops" / f"{split}.npz", x=x, y=y_all)
    (out / "crops" / "mined.json").write_text(
        json.dumps({"data": str(data), "models": str(models_dir), "hard_copies": hard_copies,
                    **{k: asdict(v) for k, v in counts.items()}}, indent=1)
    )  # fmt: skip
    return counts


def main() -> None:
    """CLI entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path, help="a folder written by vision.synth.generate")
    ap.add_argument("out", type=Path, help="where crops/{train,val}.npz go")
    ap.add_argument("--models", type=Path, default=MODELS_DIR)
    ap.add_argument("--hard-copies", type=int, default=3)
    a = ap.parse_args()
    if not (a.data / "meta" / "train.jsonl").is_file():
        ap.error(f"{a.data} holds no generated scenes (meta/train.jsonl)")
    for split, n in mine(a.data, a.out, a.models, a.hard_copies).items():
        print(
            f"{split}: {n.scenes} scenes, {n.labels} labelled indices, {n.detections} detections, "
            f"{n.matched} matched ({n.wrong} read wrong, {n.unsure} unsure) -> {n.crops} crops"
        )


if __name__ == "__main__":
    main()
