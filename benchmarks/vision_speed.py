"""Speed of the camera hand reader on this machine (onnxruntime, CPU).

Prints model sizes, the detector and classifier costs, and end-to-end read times (decode + read)
on the shared real photos (if present) and on synthetic 4000x3000 phone-size photos.

Usage:
    python benchmarks/vision_speed.py [--real ../shared/data/real-cards] [--phone 6]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import CACHE_DIR, MODELS_DIR  # noqa: E402
from vision.errors import NoCardsError  # noqa: E402
from vision.reader import load_reader, read_image_bytes  # noqa: E402


def _read(data: bytes) -> None:
    """The web path: decode (half size for big JPEGs) + read."""
    with contextlib.suppress(NoCardsError):
        read_image_bytes(data, max_cards=None)


def _times(fn: Callable[[], object], n: int) -> list[float]:
    """Seconds per call of ``fn`` over ``n`` calls, after one warm-up call."""
    fn()  # warm-up
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def _fmt(ts: list[float]) -> str:
    q = np.percentile(ts, [50, 90]) if ts else [float("nan")] * 2
    return f"median {q[0] * 1000:6.1f} ms   p90 {q[1] * 1000:6.1f} ms   (n={len(ts)})"


def main() -> None:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", type=Path, default=ROOT.parent / "shared/data/real-cards")
    ap.add_argument("--phone", type=int, default=6, help="synthetic 4000x3000 photos to time")
    a = ap.parse_args()
    cv2.setNumThreads(2)

    sizes = {p.name: p.stat().st_size / 1e6 for p in sorted(MODELS_DIR.glob("*.onnx"))}
    print(
        "models: "
        + ", ".join(f"{k} {v:.1f} MB" for k, v in sizes.items())
        + f"  (total {sum(sizes.values()):.1f} MB)"
    )
    t0 = time.perf_counter()
    reader = load_reader()
    print(f"load: {time.perf_counter() - t0:.2f} s")

    img = np.full((960, 1280, 3), 128, np.uint8)
    print("detector pass (640):     " + _fmt(_times(lambda: reader._detect(img), 10)))
    boxes = np.array([[100 + 40 * i, 100, 130 + 40 * i, 150] for i in range(10)], np.float32)
    ts = _times(lambda: reader.classify(img, boxes), 10)
    print("classifier, 10 crops:    " + _fmt(ts))

    if (a.real / "labels.json").exists():
        files = sorted((a.real / "images").glob("*.jpg"))
        ts = []
        for f in files:
            data = f.read_bytes()
            t0 = time.perf_counter()
            _read(data)
            ts.append(time.perf_counter() - t0)
        print(f"real photos (decode+read): {_fmt(ts)}")
    else:
        print(f"real photos: not found at {a.real}")

    if a.phone:
        from vision.synth.faces import load_deck, load_decks, procedural_deck
        from vision.synth.scene import make_scene

        decks = load_decks(CACHE_DIR / "faces") or [load_deck(procedural_deck(0))]
        ts = []
        for seed in range(a.phone):
            sc = make_scene(np.random.default_rng([4000, seed]), decks, size=(4000, 3000))
            _ok, buf = cv2.imencode(".jpg", sc.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            data = buf.tobytes()
            t0 = time.perf_counter()
            _read(data)
            ts.append(time.perf_counter() - t0)
        print(f"4000x3000 JPEG (decode+read): {_fmt(ts)}")
        print(
            f"median overall target 250 ms: {'met' if statistics.median(ts) <= 0.25 else 'NOT met'}"
        )


if __name__ == "__main__":
    main()
