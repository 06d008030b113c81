"""Training crops for the context model: the card face around each labelled corner index.

Cuts, from generated scenes (``meta/{train,val}.jsonl`` of
:mod:`vision.training.synth.generate`), a square :data:`vision.context.CONTEXT_SCALE` times each
labelled index's size around its box, with the generator's jitter (box noise, scale and shift),
twice per index for training and once for validation, and writes them in the generator's form
(``crops/{train,val}.npz``), which ``python -m vision.training.train classify`` reads. The jitter
is drawn from the scene's number and the dataset's seed, so a rerun writes the same crops.

Usage:
    python -m vision.training.context_crops datasets/context datasets/chunk-011 datasets/chunk-012
    python -m vision.training.train classify --data datasets/context --cls-crop-scale 3.0 ...
"""

from __future__ import annotations

import argparse
import json
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from vision import CARDS
from vision.context import CONTEXT_SCALE
from vision.crops import CROP_SIZE
from vision.training.synth.generate import jittered_crop, scene_image

COPIES = {"train": 2, "val": 1}
"""Crops cut per labelled index in each split."""


def scene_context_crops(
    image: np.ndarray, labels: list[dict[str, Any]], rng: np.random.Generator, copies: int
) -> tuple[list[np.ndarray], list[int]]:
    """``copies`` jittered context crops of each labelled index (``{"card", "box"}``).

    The jitter is the generator's (:func:`vision.training.synth.generate.jittered_crop`).
    """
    xs, ys = [], []
    for label in labels:
        for _ in range(copies):
            xs.append(jittered_crop(image, label["box"], rng, CONTEXT_SCALE))
            ys.append(CARDS.index(label["card"]))
    return xs, ys


def _scene(job: tuple[str, str, int, int]) -> tuple[list[np.ndarray], list[int]]:
    folder, line, seed, copies = job
    scene = json.loads(line)
    image = scene_image(Path(folder), scene)
    return scene_context_crops(image, scene["labels"], np.random.default_rng(seed), copies)


def write_context_crops(out: Path, datasets: list[Path], workers: int = 2) -> dict[str, int]:
    """Cut the context crops of every scene of ``datasets`` into ``out/crops``.

    Scene ``i`` of dataset ``d`` (in the order given) and split ``s`` draws its jitter from
    the seed ``[d, i, s]``.

    Returns:
        (dict[str, int]): Crops written per split.
    """
    (out / "crops").mkdir(parents=True, exist_ok=True)
    written = {}
    with get_context("spawn").Pool(workers) as pool:
        for s, (split, copies) in enumerate(COPIES.items()):
            jobs = [
                (str(folder), line, hash_free_seed(d, i, s), copies)
                for d, folder in enumerate(datasets)
                for i, line in enumerate(_scene_lines(folder, split))
            ]
            xs: list[np.ndarray] = []
            ys: list[int] = []
            for x, y in pool.imap(_scene, jobs, chunksize=16):
                xs += x
                ys += y
            x_all = np.stack(xs) if xs else np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8)
            np.savez(out / "crops" / f"{split}.npz", x=x_all, y=np.array(ys, np.int16))
            written[split] = len(ys)
    return written


def _scene_lines(folder: Path, split: str) -> list[str]:
    return (folder / "meta" / f"{split}.jsonl").read_text().splitlines()


def hash_free_seed(dataset: int, scene: int, split: int) -> int:
    """One integer seed from the three numbers (Python's ``hash`` of text is salted per run)."""
    return int(np.random.SeedSequence([dataset, scene, split]).generate_state(1)[0])


def main() -> None:
    """CLI entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="where crops/{train,val}.npz go")
    ap.add_argument(
        "data", type=Path, nargs="+", help="folders written by vision.training.synth.generate"
    )
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    for folder in a.data:
        if not (folder / "meta" / "train.jsonl").is_file():
            ap.error(f"{folder} holds no generated scenes (meta/train.jsonl)")
    for split, n in write_context_crops(a.out, a.data, a.workers).items():
        print(f"{split}: {n} crops")


if __name__ == "__main__":
    main()
