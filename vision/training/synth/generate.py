"""Generate a synthetic corner-index dataset (deterministic from the seed).

Writes, under ``--out``:
    images/{train,val}/NNNNNN.jpg, labels/{train,val}/NNNNNN.txt  YOLO set (1 class: index)
    meta/{train,val}.jsonl         per-image cards, boxes, quads
    crops/{train,val}.npz          classifier crops (x: N,64,64,3 uint8 BGR; y: N class ids)
    cards.yaml                     Ultralytics data config (absolute path)

Scene ``i`` depends only on ``(seed, i)``, so the output does not depend on the worker count.

Usage:
    python -m vision.training.synth.faces     # once: render deck faces into .cache/vision
    python -m vision.training.synth.generate --out datasets/cards --n 5000 --seed 0
    python -m vision.training.synth.generate --webcam --out datasets/webcam71 --n 200 --seed 71 \
        --val-frac 1                           # held-out webcam frames
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from vision import CACHE_DIR, CARDS
from vision.crops import CROP_SCALE, CROP_SIZE, crop_index
from vision.training.synth.faces import Deck, load_decks, rendered_deck_names

if TYPE_CHECKING:
    from vision.training.synth.scene import IndexLabel

NONE_CLASS = len(CARDS)
"""Classifier label for crops that are not a corner index (hard negatives)."""
CLASS_NAMES: tuple[str, ...] = (*CARDS, "none")

_DECKS: list[Deck] = []
_WEBCAM = False


def _init(face_root: str, webcam: bool = False) -> None:
    global _DECKS, _WEBCAM
    cv2.setNumThreads(1)
    _DECKS = load_decks(Path(face_root))
    _WEBCAM = webcam
    if webcam:
        from vision.training.synth.webcam import styled_decks

        _DECKS += styled_decks()


def _area(z: np.ndarray) -> np.ndarray:
    return (z[..., 2] - z[..., 0]) * (z[..., 3] - z[..., 1])


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Intersection over union of box ``a`` (4,) with each row of ``b`` (N, 4); x1, y1, x2, y2."""
    x1 = np.maximum(a[0], b[:, 0])
    y1 = np.maximum(a[1], b[:, 1])
    x2 = np.minimum(a[2], b[:, 2])
    y2 = np.minimum(a[3], b[:, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    return inter / (_area(a) + _area(b) - inter + 1e-9)


def scene_image(folder: Path, scene: dict[str, Any]) -> np.ndarray:
    """The photo of one generated scene (a line of ``meta/*.jsonl``) in ``folder``.

    Raises:
        FileNotFoundError: The file is missing or is not a readable image.
    """
    path = Path(folder) / scene["file"]
    image = cv2.imread(str(path))
    if image is None:
        raise FileNotFoundError(f"{path} is not a readable image")
    return image


def jittered_crop(
    image: np.ndarray,
    box: Sequence[float],
    rng: np.random.Generator,
    scale: float = CROP_SCALE,
) -> np.ndarray:
    """A crop around a labelled index ``box`` as a detector might box it.

    The box's sides move by 6 % (s.d.), the crop's scale by x0.88-1.15 and its centre by 4 % of
    its side (s.d.).
    """
    b = np.array(box, np.float64)
    w, h = b[2] - b[0], b[3] - b[1]
    b += rng.normal(0, 0.06, 4) * [w, h, w, h]  # detector box noise
    return crop_index(
        image,
        tuple(b),
        scale=scale * rng.uniform(0.88, 1.15),
        shift=tuple(rng.normal(0, 0.04, 2)),
    )


def scene_crops(
    rng: np.random.Generator,
    image: np.ndarray,
    labels: list[IndexLabel],
    hidden: list[IndexLabel],
    n_pos: int = 2,
    n_neg: int = 2,
    owner: np.ndarray | None = None,
) -> tuple[list[np.ndarray], list[int]]:
    """Classifier crops from one scene: jittered crops of labelled indices plus hard negatives.

    Negatives are cut near the indices (pips, borders, neighbours), anywhere in the photo, and,
    given the scene's ``owner`` map, on the card faces (court art, brand print, big pips).
    """
    xs, ys = [], []
    for lab in labels:
        for _ in range(n_pos):
            xs.append(jittered_crop(image, lab.box, rng))
            ys.append(CARDS.index(lab.card))
    every = [lab.box for lab in labels + hidden]
    sizes = [max(b[2] - b[0], b[3] - b[1]) for b in every] or [image.shape[0] * 0.05]
    H, W = image.shape[:2]
    boxes = np.array(every, np.float64).reshape(-1, 4)
    on_card = np.flatnonzero(owner.ravel() >= 0) if owner is not None else None
    tries = 0
    while sum(1 for y in ys if y == NONE_CLASS) < n_neg * max(1, len(labels)) // 2 and tries < 50:
        tries += 1
        s = float(rng.choice(sizes)) * rng.uniform(0.7, 1.4)
        u = rng.random()
        if labels and u < 0.45:  # near a real index: pips, borders, neighbours
            ref = labels[rng.integers(len(labels))].box
            cx = (ref[0] + ref[2]) / 2 + rng.uniform(-3, 3) * s
            cy = (ref[1] + ref[3]) / 2 + rng.uniform(-3, 3) * s
        elif on_card is not None and len(on_card) and u < 0.75:  # the face: art, print, pips
            k = int(on_card[rng.integers(len(on_card))])
            cy, cx = divmod(k, W)
        else:
            cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        b = np.array([cx - s * 0.35, cy - s / 2, cx + s * 0.35, cy + s / 2])
        if len(boxes) and box_iou(b, boxes).max() > 0.05:
            continue
        xs.append(crop_index(image, tuple(b), scale=CROP_SCALE * rng.uniform(0.88, 1.15)))
        ys.append(NONE_CLASS)
    return xs, ys


def _one(args: tuple[int, int, str, str]) -> dict[str, Any]:
    from vision.training.synth.scene import make_scene
    from vision.training.synth.webcam import make_webcam_scene

    seed, i, out, split = args
    rng = np.random.default_rng([seed, i])
    sc = make_webcam_scene(rng, _DECKS) if _WEBCAM else make_scene(rng, _DECKS)
    H, W = sc.image.shape[:2]
    name = f"{i:06d}"
    cv2.imwrite(f"{out}/images/{split}/{name}.jpg", sc.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    with open(f"{out}/labels/{split}/{name}.txt", "w") as f:
        for lab in sc.labels:
            x1, y1, x2, y2 = lab.box
            f.write(
                f"0 {(x1 + x2) / 2 / W:.6f} {(y1 + y2) / 2 / H:.6f} "
                f"{(x2 - x1) / W:.6f} {(y2 - y1) / H:.6f}\n"
            )
    xs, ys = scene_crops(
        rng, sc.image, sc.labels, sc.hidden, n_pos=3 if split == "train" else 1, owner=sc.owner
    )
    meta = {
        "file": f"images/{split}/{name}.jpg",
        "size": [W, H],
        "layout": sc.layout,
        "cards": sc.visible_cards,
        "placed": sc.cards,
        "starter": sc.starter,
        "labels": [
            {
                "card": lab.card,
                "box": [round(v, 2) for v in lab.box],
                "quad": np.round(lab.quad, 2).tolist(),
                "card_id": lab.card_id,
            }
            for lab in sc.labels
        ],
    }
    return {
        "meta": meta,
        "x": np.stack(xs) if xs else np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8),
        "y": np.array(ys, np.int16),
    }


def generate(
    out: Path,
    n: int,
    seed: int = 0,
    val_frac: float = 0.05,
    workers: int | None = None,
    face_root: Path = CACHE_DIR / "faces",
    webcam: bool = False,
) -> Path:
    """Generate ``n`` scenes into ``out``; returns the path of the data YAML.

    Args:
        out (Path): Output folder (created).
        n (int): Number of scenes (the last ``val_frac`` of them form the validation split).
        seed (int): Dataset seed.
        val_frac (float): Validation fraction.
        workers (int | None): Processes (default: all cores), spawned: a script that calls
            this needs the ``if __name__ == "__main__":`` guard.
        face_root (Path): Rendered faces (``python -m vision.training.synth.faces``).
        webcam (bool): Webcam frames of cards on a desk (:mod:`vision.training.synth.webcam`,
            from ``face_root``'s decks and the styled ones) instead of the table scenes.

    The names of the decks the scenes are drawn from are written to ``out/decks.json``.
    """
    out = out.resolve()
    decks = rendered_deck_names(face_root)  # the decks load_decks gives the workers
    if not decks:
        from vision.training.synth.faces import build_all

        build_all(face_root)
        decks = rendered_deck_names(face_root)
    if webcam:  # drawn once here, not by every worker at once
        from vision.training.synth.webcam import styled_decks

        decks += [deck.name for deck in styled_decks()]
    n_val = max(1, round(n * val_frac)) if n > 1 else 0
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    (out / "meta").mkdir(exist_ok=True)
    (out / "crops").mkdir(exist_ok=True)
    (out / "decks.json").write_text(json.dumps(decks))
    jobs = [(seed, i, str(out), "val" if i >= n - n_val else "train") for i in range(n)]
    workers = workers or os.cpu_count() or 1
    bufs: dict[str, tuple[list[dict[str, Any]], list[np.ndarray], list[np.ndarray]]] = {
        "train": ([], [], []),
        "val": ([], [], []),
    }
    # spawned, not forked: a fork of a process that holds a reader's threads can hang
    spawn = get_context("spawn")
    with spawn.Pool(workers, initializer=_init, initargs=(str(face_root), webcam)) as pool:
        for job, r in zip(jobs, pool.imap(_one, jobs, chunksize=4), strict=True):
            m, xs, ys = bufs[job[3]]
            m.append(r["meta"])
            xs.append(r["x"])
            ys.append(r["y"])
    for split, (m, xs, ys) in bufs.items():
        with open(out / "meta" / f"{split}.jsonl", "w") as f:
            for row in m:
                f.write(json.dumps(row) + "\n")
        x = np.concatenate(xs) if xs else np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8)
        y = np.concatenate(ys) if ys else np.zeros((0,), np.int16)
        np.savez(out / "crops" / f"{split}.npz", x=x, y=y)
    yaml = out / "cards.yaml"
    yaml.write_text(
        f"# generated by vision.training.synth.generate (seed {seed}, n {n})\npath: {out}\n"
        "train: images/train\nval: images/val\nnames:\n  0: index\n"
    )
    return yaml


def main() -> None:
    """CLI entry point."""
    ap = argparse.ArgumentParser(description="Generate a synthetic corner-index dataset.")
    ap.add_argument("--out", type=Path, default=Path("datasets/cards"))
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--val-frac", type=float, default=0.05)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--faces", type=Path, default=CACHE_DIR / "faces")
    ap.add_argument(
        "--webcam", action="store_true",
        help="webcam frames of 3-13 cards on a desk in dim light (vision.training.synth.webcam)",
    )  # fmt: skip
    a = ap.parse_args()
    from vision.training.synth.faces import build_all

    build_all(a.faces)  # every deck: those missing from the cache are rendered first
    y = generate(a.out, a.n, a.seed, a.val_frac, a.workers, a.faces, a.webcam)
    decks = json.loads((a.out / "decks.json").read_text())
    print(f"wrote {a.n} scenes from {len(decks)} decks; data config {y}")


if __name__ == "__main__":
    main()
