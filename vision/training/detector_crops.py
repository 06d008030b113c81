"""Classifier crops cut where the detector finds indices, so a fine-tune sees what serving sees.

The generator's crops (:func:`vision.training.synth.generate.scene_crops`) are cut around the
labelled index boxes with random jitter; the reader cuts around the detector's boxes, after its
second look on large photos. This module runs a reader's detector over a generated dataset's scenes,
matches each detection to the labelled indices, and writes the matched crops in the generator's
form (``crops/{train,val}.npz``: ``x`` uint8 BGR (N, 64, 64, 3), ``y`` class ids), so that
``python -m vision.training.train classify --data DATA OUT`` pools them with the generator's crops.

A crop the reader's classifier reads wrong, or not with certainty, is a hard example and is
written ``hard_copies`` times in the training split (once in validation). Detections matching
no label are left out: a half-covered index has no label (the generator hides it), so a stray
detection cannot be told from one on a covered card.

Usage:
    python -m vision.training.detector_crops datasets/chunk-014 datasets/chunk-014-det [--workers 8]
    python -m vision.training.train classify --data datasets/chunk-014 datasets/chunk-014-det ...
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from vision import CARDS, MODELS_DIR
from vision.crops import CROP_SIZE
from vision.reader import CardReader
from vision.training.synth.generate import box_iou, scene_image

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


class SceneCrops(NamedTuple):
    """The crops of one scene's detections that match a label, as the reader cuts them."""

    crops: np.ndarray
    """uint8 (M, S, S, 3)."""
    classes: np.ndarray
    """(M,) the matched labels' class ids."""
    wrong: np.ndarray
    """bool (M,): the reader's classifier reads the crop as another class."""
    sure: np.ndarray
    """bool (M,): it reads the crop with certainty (at its certainty point)."""
    detections: int
    """All the scene's detections, matched or not."""
    labels: int
    """The scene's labelled indices."""


def scene_crops(
    reader: CardReader, image: np.ndarray, cards: list[str], label_boxes: np.ndarray
) -> SceneCrops:
    """The reader's detections on ``image`` matched to the labelled boxes, cut and read."""
    boxes, _ = reader.detect(image)
    matched = match_labels(boxes, label_boxes)
    keep = np.flatnonzero(matched >= 0)
    ys = np.array([CARDS.index(cards[k]) for k in matched[keep]], np.int64)
    if len(keep) == 0:
        none = np.zeros(0, bool)
        empty = np.zeros((0, reader.crop_size, reader.crop_size, 3), np.uint8)
        return SceneCrops(empty, ys, none, none, len(boxes), len(cards))
    kept = boxes[keep]
    crops = reader.crops(image, kept)
    probs = reader.classify(image, kept)
    sure = reader.certainty.sure(probs, reader.evidence(image, kept, probs))
    return SceneCrops(crops, ys, probs.argmax(1) != ys, sure, len(boxes), len(cards))


_READER: list[CardReader] = []
"""The reader of this process (one per worker of :func:`mine`)."""


def _use_reader(models_dir: str, threads: int) -> None:
    _READER[:] = [CardReader(Path(models_dir), threads=threads)]


def _worker(models_dir: str) -> None:
    """A worker process's start: one thread for OpenCV and the reader, as the generator's."""
    cv2.setNumThreads(1)
    _use_reader(models_dir, 1)


def _scene(args: tuple[str, str]) -> SceneCrops:
    """:func:`scene_crops` of one line of ``meta/*.jsonl`` (``args``: the folder and the line)."""
    data, line = args
    row = json.loads(line)
    image = scene_image(Path(data), row)
    cards = [lab["card"] for lab in row["labels"]]
    label_boxes = np.array([lab["box"] for lab in row["labels"]], np.float64).reshape(-1, 4)
    return scene_crops(_READER[0], image, cards, label_boxes)


def mine(
    data: Path, out: Path, models_dir: Path = MODELS_DIR, hard_copies: int = 3, workers: int = 1
) -> dict[str, MinedCounts]:
    """Write ``out/crops/{train,val}.npz`` from the detector's boxes on ``data``'s scenes.

    Args:
        data (Path): A folder written by :mod:`vision.training.synth.generate`
            (``meta/*.jsonl``, images).
        out (Path): Output folder (created); ``out/crops/mined.json`` keeps the counts.
        models_dir (Path): The reader whose detector cuts the crops and whose classifier (at its
            certainty point) says which are hard.
        hard_copies (int): Times a hard crop is written in the training split.
        workers (int): Processes reading scenes, each with a one-thread reader (1: this process,
            with a two-thread one); the output does not depend on it.

    Returns:
        (dict[str, MinedCounts]): Counts per split.
    """
    if hard_copies < 1 or workers < 1:
        raise ValueError("hard_copies and workers must be at least 1")
    (out / "crops").mkdir(parents=True, exist_ok=True)
    counts: dict[str, MinedCounts] = {}
    # spawned, not forked: a forked pool hung in the tests once this process held a reader
    spawn = get_context("spawn")
    pool = spawn.Pool(workers, _worker, (str(models_dir),)) if workers > 1 else None
    if pool is None:
        _use_reader(str(models_dir), 2)
    try:
        for split in ("train", "val"):
            lines = (data / "meta" / f"{split}.jsonl").read_text().splitlines()
            jobs = [(str(data), line) for line in lines]
            scenes = pool.imap(_scene, jobs, chunksize=4) if pool else map(_scene, jobs)
            counts[split] = _write(
                scenes, out / "crops" / f"{split}.npz", hard_copies if split == "train" else 1
            )
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    (out / "crops" / "mined.json").write_text(
        json.dumps({"data": str(data), "models": str(models_dir), "hard_copies": hard_copies,
                    **{k: asdict(v) for k, v in counts.items()}}, indent=1)
    )  # fmt: skip
    return counts


def _write(scenes: Iterable[SceneCrops], path: Path, hard_copies: int) -> MinedCounts:
    """Save the crops of ``scenes`` (:func:`scene_crops`'s results) to ``path``; count them."""
    n = MinedCounts()
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    for sc in scenes:
        copies = np.where(sc.wrong | ~sc.sure, hard_copies, 1)
        xs.append(np.repeat(sc.crops, copies, axis=0))
        ys.append(np.repeat(sc.classes, copies))
        n.scenes += 1
        n.labels += sc.labels
        n.detections += sc.detections
        n.matched += len(sc.classes)
        n.wrong += int(sc.wrong.sum())
        n.unsure += int((~sc.wrong & ~sc.sure).sum())
    x = np.concatenate(xs) if xs else np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8)
    y = np.concatenate(ys).astype(np.int16) if ys else np.zeros(0, np.int16)
    n.crops = len(y)
    np.savez(path, x=x, y=y)
    return n


def main() -> None:
    """CLI entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path, help="a folder written by vision.training.synth.generate")
    ap.add_argument("out", type=Path, help="where crops/{train,val}.npz go")
    ap.add_argument("--models", type=Path, default=MODELS_DIR)
    ap.add_argument("--hard-copies", type=int, default=3)
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    a = ap.parse_args()
    if not (a.data / "meta" / "train.jsonl").is_file():
        ap.error(f"{a.data} holds no generated scenes (meta/train.jsonl)")
    for split, n in mine(a.data, a.out, a.models, a.hard_copies, a.workers).items():
        print(
            f"{split}: {n.scenes} scenes, {n.labels} labelled indices, {n.detections} detections, "
            f"{n.matched} matched ({n.wrong} read wrong, {n.unsure} unsure) -> {n.crops} crops"
        )


if __name__ == "__main__":
    main()
