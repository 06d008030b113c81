"""How well a card classifier names indices of held-out synthetic scenes, by lighting condition.

For choosing between classifiers on synthetic data only (never on the real photos). Reads the
validation split of a generated set (``python -m vision.training.synth.generate --val-frac
1.0``, a seed no classifier was trained on) and prints, for each models folder:

* its stored crops (jittered index crops and hard negatives), softened where sharp as the reader
  softens its crops: top-1 over all classes, over the indices, and over the negatives (``none``);
* the labelled indices cut from each scene photo under each condition of
  ``benchmarks/vision_robustness.py`` (clean, overexposed x1.6 + 40, Gaussian blur sigma 2,
  dark x0.35; the photo is perturbed, then cropped at the label's box): top-1 through the
  reader's own classification (contrast stretch and quarter-turn readings as served).

Usage:
    python benchmarks/classifier_conditions.py --data datasets/held41 models runs/new/models
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision_robustness import CONDITIONS  # noqa: E402

from vision.crops import normalize_crops  # noqa: E402
from vision.evidence import soften_sharp_crops  # noqa: E402
from vision.reader import CardReader  # noqa: E402
from vision.training.synth.generate import scene_image  # noqa: E402

SCENE_CONDITIONS = ("clean", "overexposed", "blur", "dark")


def stored_crops(reader: CardReader, data: Path) -> dict[str, float]:
    """Top-1 on the stored validation crops, softened as served: all classes, indices, negatives."""
    crops = np.load(data / "crops" / "val.npz")
    x, y = crops["x"], crops["y"].astype(int)
    x = soften_sharp_crops(x, reader.certainty.blurred_below, reader.options.soften)
    if reader.normalize:
        x = normalize_crops(x)
    pred = np.concatenate(
        [reader._probabilities(x[i : i + 512]).argmax(1) for i in range(0, len(x), 512)]
    )
    none = reader.classes.index("none")
    pos = y != none
    return {
        "all": float(np.mean(pred == y)),
        "indices": float(np.mean(pred[pos] == y[pos])),
        "none": float(np.mean(pred[~pos] == none)),
        "crops": len(y),
    }


def scene_indices(reader: CardReader, data: Path) -> dict[str, float]:
    """Top-1 on the labelled indices of the validation scenes under each condition."""
    scenes = [json.loads(line) for line in (data / "meta" / "val.jsonl").open()]
    right = dict.fromkeys(SCENE_CONDITIONS, 0)
    total = 0
    for scene in scenes:
        if not scene["labels"]:
            continue
        image = scene_image(data, scene)
        boxes = np.array([lab["box"] for lab in scene["labels"]], np.float32)
        truth = np.array([reader.classes.index(lab["card"]) for lab in scene["labels"]])
        total += len(truth)
        for name in SCENE_CONDITIONS:
            probs = reader.classify(CONDITIONS[name](image), boxes)
            right[name] += int((probs.argmax(1) == truth).sum())
    return {name: right[name] / max(total, 1) for name in SCENE_CONDITIONS} | {"indices": total}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", type=Path, nargs="+", help="folders holding the reader's models")
    ap.add_argument("--data", type=Path, required=True, help="generated set (its val split)")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    a = ap.parse_args()
    out = {}
    for models in a.models:
        reader = CardReader(models, threads=1)
        crops = stored_crops(reader, a.data)
        scenes = scene_indices(reader, a.data)
        out[str(models)] = {"crops": crops, "scenes": scenes}
        print(
            f"{models}: stored crops (n={crops['crops']}) all {crops['all']:.2%} "
            f"indices {crops['indices']:.2%} none {crops['none']:.2%}; scene indices "
            f"(n={scenes['indices']}) "
            + " ".join(f"{name} {scenes[name]:.2%}" for name in SCENE_CONDITIONS),
            flush=True,
        )
    if a.json:
        a.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
