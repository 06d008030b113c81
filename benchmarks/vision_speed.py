"""Speed of the card reader on this machine (onnxruntime, CPU), stage by stage.

Prints model sizes and, for each set of photos, the CPU time of a read (decode + read, as an
upload is read) with where it goes: decoding, the detector's pass at 640, its second look
(region or tiles), cutting the crops, the classifier's batch, its re-reads of unsure crops at
quarter turns, finding the card bodies, reading them (the corroboration), and the rest. Times are
CPU seconds of the whole process (``time.process_time``), so a busy shared machine does not
inflate them; run with ``--threads 1`` (the default) for the cost on one core.

Sets: synthetic photos at phone sizes (1600-2048 px long side, JPEG q90; also scored against
their cards: precision and recall of the certain cards), synthetic phone-size photos of whole
tables of small cards (``--tables``), the shared real photos at their own size, phone-size
photos composed of them without upscaling (``--real-tables``: several side by side, some made
smaller, on one canvas, so that their cards are small as on a whole table), the same real
photos scaled up to the size phones send (``--real-phone``: each to a longer side of 1600, 1800
or 2048 px in turn, JPEG q90) and synthetic 4000x3000 JPEGs. Real photos are measured, never
tuned on. Every set but the first and last is scored, and each read's time is given as a ratio
to one plain pass of the float detector at 640 on the same photo with the same threads,
measured in the same run (this machine's load and speed cancel), with the detector passes a
read made (machine-independent).

Usage:
    python benchmarks/vision_speed.py [--threads 1] [--scenes 30] [--tables 24] [--phone 4]
        [--real DIR] [--real-tables 24] [--real-phone] [--float-detector | --exact-int8]
        [--index-alone]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.detection  # noqa: E402
import vision.reader  # noqa: E402
from vision import CACHE_DIR, MODELS_DIR  # noqa: E402
from vision.certainty import NO_CORROBORATION  # noqa: E402
from vision.reader import CardReader, ReaderOptions, Reading  # noqa: E402
from vision.training.evaluate import SubsetScore  # noqa: E402
from vision.upload import decode_upload  # noqa: E402

PHONE_SIZES = (1600, 1800, 2048)
"""Long sides of the synthetic phone-size photos."""
SCENE_SEED = 1600
"""Seed of the synthetic photos (no training or choosing set uses it)."""
TABLE_SEED = 1601
"""Seed of the synthetic photos of whole tables (no training or choosing set uses it)."""
REAL_TABLE_SEED = 1602
"""Seed of the phone-size photos composed of real ones."""
STAGES = (
    "decode",
    "detector 640",
    "second look",
    "crops",
    "classifier",
    "re-reads",
    "bodies",
    "corroboration",
    "rest",
)


@dataclass
class StageClock:
    """CPU seconds per stage of each read, from wrappers put around the reader's steps."""

    photos: list[dict[str, float]] = field(default_factory=list)
    calls: Counter[str] = field(default_factory=Counter)

    def wrap(self, owner: Any, name: str, first: str, again: str | None = None) -> None:
        """Time ``owner.name`` as stage ``first`` (its later calls in one read as ``again``)."""
        inner = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            stage = again if again and self.calls[name] else first
            self.calls[name] += 1
            t0 = time.process_time()
            try:
                return inner(*args, **kwargs)
            finally:
                self.photos[-1][stage] += time.process_time() - t0

        setattr(owner, name, timed)

    @contextlib.contextmanager
    def photo(self) -> Iterator[None]:
        """Account one photo's read; what no stage claims is ``rest``."""
        self.calls.clear()
        self.photos.append(defaultdict(float))
        t0 = time.process_time()
        yield
        spent = self.photos[-1]
        spent["rest"] = time.process_time() - t0 - sum(spent.values())
        spent["total"] = time.process_time() - t0
        spent["passes"] = self.calls["_detect"]


def clocked(reader: CardReader) -> StageClock:
    """A :class:`StageClock` around ``reader``'s steps and the module's helpers it calls."""
    clock = StageClock()
    clock.wrap(reader, "_detect", "detector 640", "second look")
    clock.wrap(reader, "_probabilities", "classifier", "re-reads")
    clock.wrap(vision.reader, "crop_index", "crops")
    clock.wrap(vision.reader, "normalize_crops", "crops")
    clock.wrap(vision.reader, "with_bodies", "bodies")
    clock.wrap(reader, "corroborated", "corroboration")
    return clock


def read_upload(reader: CardReader, clock: StageClock, data: bytes) -> Reading:
    """Decode ``data`` as an upload is decoded and read it, stage by stage."""
    with clock.photo():
        t0 = time.process_time()
        image, scale = decode_upload(data, reduce=True)
        clock.photos[-1]["decode"] += time.process_time() - t0
        return reader.read(image, scale=scale)


def report(title: str, clock: StageClock, first: int) -> None:
    """Print the median CPU ms of the photos from ``first`` on, and each stage's mean share."""
    photos = clock.photos[first:]
    totals = [p["total"] * 1000 for p in photos]
    q50, q90 = np.percentile(totals, [50, 90])
    print(f"{title}: CPU median {q50:6.1f} ms   p90 {q90:6.1f} ms   (n={len(photos)})")
    mean_total = statistics.fmean(totals)
    parts = []
    for stage in STAGES:
        ms = statistics.fmean(p.get(stage, 0.0) for p in photos) * 1000
        parts.append(f"{stage} {ms:.1f} ({ms / mean_total:.0%})")
    looks = sum(1 for p in photos if p.get("second look", 0.0) > 0)
    passes = statistics.fmean(p["passes"] for p in photos)
    print(f"  mean ms: {', '.join(parts)}")
    print(f"  second look on {looks}/{len(photos)}, detector passes a photo {passes:.2f}")


Photo = tuple[bytes, list[str], bool]
"""A photo to read: its JPEG (or file) bytes, its cards, whether those are every card in it."""


def _jpeg(image: np.ndarray) -> bytes:
    _ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return buf.tobytes()


def _labelled(real: Path) -> Iterator[tuple[Path, list[str], bool]]:
    """The shared real photos' files, their labelled cards and whether the labels list every
    card in the photo."""
    labels = json.loads((real / "labels.json").read_text())
    for name in sorted(labels):
        label = labels[name]
        yield real / "images" / name, list(label["cards"]), bool(label.get("labels_complete", True))


def real_photos(real: Path) -> Iterator[tuple[np.ndarray, list[str], bool]]:
    """The shared real photos decoded, as :func:`_labelled`."""
    for path, cards, complete in _labelled(real):
        yield cv2.imread(str(path)), cards, complete


def real_at_own_size(real: Path) -> Iterator[Photo]:
    """The shared real photos as their files are."""
    for path, cards, complete in _labelled(real):
        yield path.read_bytes(), cards, complete


def real_at_phone_size(real: Path) -> Iterator[Photo]:
    """The shared real photos scaled up to :data:`PHONE_SIZES` in turn (bicubic, JPEG q90)."""
    for i, (image, cards, complete) in enumerate(real_photos(real)):
        h, w = image.shape[:2]
        f = PHONE_SIZES[i % len(PHONE_SIZES)] / max(h, w)
        big = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_CUBIC)
        yield _jpeg(big), cards, complete


def real_tables(real: Path, n: int) -> Iterator[Photo]:
    """``n`` phone-size photos (:data:`PHONE_SIZES`, 4:3) each composed of 3 to 9 real photos
    of few cards, none upscaled: in cells of a 4x4 grid on a synthetic table, each photo shrunk
    to 40-100 % of its cell's size (JPEG q90)."""
    from vision.training.synth.backgrounds import background

    few = [photo for photo in real_photos(real) if len(photo[1]) <= 6]
    rng = np.random.default_rng(REAL_TABLE_SEED)
    order = iter(int(k) for k in rng.permutation(np.resize(np.arange(len(few)), n * 9)))
    for i in range(n):
        long = PHONE_SIZES[i % len(PHONE_SIZES)]
        w, h = long, long * 3 // 4
        canvas = background(rng, h, w).astype(np.uint8)
        cards, complete = [], True
        for cell in rng.permutation(16)[: int(rng.integers(3, 10))]:
            image, its_cards, its_complete = few[next(order)]
            cw, ch = w // 4, h // 4
            f = min(1.0, cw / image.shape[1], ch / image.shape[0]) * rng.uniform(0.4, 1.0)
            small = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
            x = int(cell % 4 * cw + rng.integers(0, cw - small.shape[1] + 1))
            y = int(cell // 4 * ch + rng.integers(0, ch - small.shape[0] + 1))
            canvas[y : y + small.shape[0], x : x + small.shape[1]] = small
            cards += its_cards
            complete &= its_complete
        yield _jpeg(canvas), cards, complete


def phone_tables(n: int) -> Iterator[Photo]:
    """``n`` synthetic phone-size photos (:data:`PHONE_SIZES`, 4:3) of whole cribbage tables of
    2 to 4 players (:func:`vision.training.synth.table.make_table`; JPEG q90): every other one a
    table filling the photo (cards of 11-13 % of its height), the rest one or two tables each in
    a quarter of the photo (cards of about 60-100 px) on a synthetic table; half of the tables
    through the camera's effects."""
    from vision.training.synth.backgrounds import background
    from vision.training.synth.faces import load_deck, load_decks, procedural_deck
    from vision.training.synth.table import RULES_BY_PLAYERS, make_table

    decks = load_decks(CACHE_DIR / "faces") or [load_deck(procedural_deck(0))]
    for i in range(n):
        rng = np.random.default_rng([TABLE_SEED, i])
        long = PHONE_SIZES[i % len(PHONE_SIZES)]
        w, h = long, long * 3 // 4
        quarters = i % 2
        canvas = background(rng, h, w).astype(np.uint8)
        cards: list[str] = []
        for cell in rng.permutation(4)[: int(rng.integers(1, 3)) if quarters else 1]:
            rules = RULES_BY_PLAYERS[int(rng.integers(2, 5))]
            size = (w // 2, h // 2) if quarters else (w, h)
            table = make_table(rng, decks, rules, size, effects=bool(rng.random() < 0.5))
            x, y = cell % 2 * size[0] * quarters, cell // 2 * size[1] * quarters
            canvas[y : y + size[1], x : x + size[0]] = table.image
            cards += {label.card_id: label.card for label in table.labels}.values()
        yield _jpeg(canvas), cards, True


def ratios_to_a_plain_pass(
    reader: CardReader, plain: CardReader, clock: StageClock, title: str, photos: list[Photo]
) -> None:
    """Read ``photos`` as uploads, each just after one ``plain`` pass of the float detector at
    640 on it, and print each read's CPU and wall time as a ratio to that pass's."""
    score = SubsetScore()
    cpu: list[float] = []
    wall: list[float] = []
    first = len(clock.photos)
    for data, cards, complete in photos:
        image, _scale = decode_upload(data, reduce=True)
        c0, w0 = time.process_time(), time.perf_counter()
        plain._detect(image)
        pass_cpu, pass_wall = time.process_time() - c0, time.perf_counter() - w0
        w0 = time.perf_counter()
        reading = read_upload(reader, clock, data)
        read_wall = time.perf_counter() - w0
        score.record(reading, cards, clock.photos[-1]["total"], complete)
        cpu.append(clock.photos[-1]["total"] / pass_cpu)
        wall.append(read_wall / pass_wall)
    report(title, clock, first)
    for what, ratios in (("CPU", cpu), ("wall", wall)):
        q50, q90 = np.percentile(ratios, [50, 90])
        print(f"  {what} time / one plain float pass at 640: median x{q50:.2f}, p90 x{q90:.2f}")
    print(
        f"  certain cards: precision {score.precision:.2%}, recall {score.recall:.2%}, "
        f"uncertain {score.uncertain}; target median x2, p90 x4"
    )


def phone_scenes(n: int) -> Iterator[tuple[bytes, list[str], int]]:
    """``n`` synthetic photos at :data:`PHONE_SIZES`: JPEG bytes, visible cards, long side."""
    from vision.training.synth.faces import load_deck, load_decks, procedural_deck
    from vision.training.synth.scene import make_scene

    decks = load_decks(CACHE_DIR / "faces") or [load_deck(procedural_deck(0))]
    for i in range(n):
        rng = np.random.default_rng([SCENE_SEED, i])
        long = PHONE_SIZES[i % len(PHONE_SIZES)]
        short = long * 3 // 4
        scene = make_scene(rng, decks, size=(long, short) if i % 2 else (short, long))
        _ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        yield buf.tobytes(), list(scene.visible_cards), long


def main() -> None:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=1, help="onnxruntime and OpenCV threads")
    ap.add_argument("--scenes", type=int, default=30, help="synthetic 1600-2048 px photos")
    ap.add_argument(
        "--tables", type=int, default=24, help="synthetic 1600-2048 px photos of whole tables"
    )
    ap.add_argument("--real", type=Path, default=ROOT.parent / "shared/data/real-cards")
    ap.add_argument(
        "--real-tables", type=int, default=24,
        help="1600-2048 px photos composed of the real photos, none upscaled",
    )  # fmt: skip
    ap.add_argument("--phone", type=int, default=4, help="synthetic 4000x3000 photos to time")
    ap.add_argument(
        "--real-phone", action="store_true",
        help="the real photos scaled up to phone size, timed against a plain float pass",
    )  # fmt: skip
    ap.add_argument(
        "--no-context", action="store_true", help="without the context model (vision.context)"
    )
    ap.add_argument(
        "--float-detector", action="store_true",
        help="the detector in float32, not its int8 copy (vision.training.quantize)",
    )  # fmt: skip
    ap.add_argument(
        "--index-alone", action="store_true",
        help="no card corroborated by its body (vision.certainty.NO_CORROBORATION)",
    )  # fmt: skip
    ap.add_argument(
        "--exact-int8", action="store_true",
        help="the int8 copy computed as without VNNI (vision.detection.EXACT_INT8)",
    )  # fmt: skip
    a = ap.parse_args()
    cv2.setNumThreads(a.threads)
    if a.exact_int8:
        vision.detection.products_saturate = lambda *_args: True  # as on a CPU without VNNI

    sizes = {p.name: p.stat().st_size / 1e6 for p in sorted(MODELS_DIR.glob("*.onnx"))}
    print(", ".join(f"{k} {v:.1f} MB" for k, v in sizes.items()), f"(threads {a.threads})")
    options = ReaderOptions(context=not a.no_context, int8=not a.float_detector)
    if a.index_alone:
        options = dataclasses.replace(options, corroboration=NO_CORROBORATION)
    reader = CardReader(MODELS_DIR, options, threads=a.threads)
    print(f"context model: {'off' if a.no_context else 'on'}")
    print(f"detector: {reader.detector_file.name}")
    clock = clocked(reader)

    if a.scenes:
        scenes = list(phone_scenes(a.scenes))
        read_upload(reader, clock, scenes[0][0])  # warm-up
        score = SubsetScore()
        by_size: dict[int, list[float]] = defaultdict(list)
        first = len(clock.photos)
        for data, cards, long in scenes:
            reading = read_upload(reader, clock, data)
            score.record(reading, cards, clock.photos[-1]["total"])
            by_size[long].append(clock.photos[-1]["total"] * 1000)
        report("1600-2048 px synthetic JPEG", clock, first)
        print(
            "  median ms by long side: "
            + ", ".join(f"{k} px {statistics.median(v):.1f}" for k, v in sorted(by_size.items()))
        )
        print(
            f"  certain cards: precision {score.precision:.2%}, recall {score.recall:.2%}, "
            f"uncertain {score.uncertain}; target median 250 ms "
            + ("met" if statistics.median(score.seconds) <= 0.25 else "NOT met")
        )

    plain = CardReader(
        MODELS_DIR, ReaderOptions(int8=False, tiles="never", context=False), threads=a.threads
    )
    real = (a.real / "labels.json").exists()
    if not real:
        print(f"real photos: not found at {a.real}")
    sets = {
        "synthetic whole tables (1600-2048 px)": (a.tables > 0, phone_tables(a.tables)),
        "real photos at their own size (378-1200 px)": (real, real_at_own_size(a.real)),
        "real photos composed into phone-size tables (1600-2048 px)": (
            real and a.real_tables > 0,
            real_tables(a.real, a.real_tables),
        ),
        "real photos at phone size (1600-2048 px)": (
            real and a.real_phone,
            real_at_phone_size(a.real),
        ),
    }
    for title, (wanted, photos) in sets.items():
        if wanted:
            ratios_to_a_plain_pass(reader, plain, clock, title, list(photos))

    if a.phone:
        from vision.training.synth.faces import load_deck, load_decks, procedural_deck
        from vision.training.synth.scene import make_scene

        decks = load_decks(CACHE_DIR / "faces") or [load_deck(procedural_deck(0))]
        first = len(clock.photos)
        for seed in range(a.phone):
            sc = make_scene(np.random.default_rng([4000, seed]), decks, size=(4000, 3000))
            _ok, buf = cv2.imencode(".jpg", sc.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            read_upload(reader, clock, buf.tobytes())
        report("4000x3000 synthetic JPEG", clock, first)


if __name__ == "__main__":
    main()
