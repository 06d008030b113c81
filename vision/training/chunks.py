"""Fine-tune the card classifier on the CPU in chunks; a chunk ships only when it reads better.

Every chunk follows one fixed recipe (:data:`RECIPE`):

1. generate fresh scenes of the extended generator from a seed derived from the chunk number
   (:func:`chunk_seed`), into ``datasets/chunk-NNN``;
2. fine-tune the previous chunk's classifier (:func:`starting_classifier`; the shipped one in
   ``models/`` for the first chunk, or after a chunk that read the clean held-out scenes no
   better than the shipped one) on their crops for a fixed number of minutes on one torch
   thread, with the run-5 settings (stretched crops, 30% extra blurred or overexposed crops,
   AdamW 5e-4): the series trains on ever more scenes whether or not a chunk ships;
3. give the candidate its certainty operating point (:func:`calibrate`: the loosest at which
   it is as precise as the shipped reader on the held-out scenes below, under each condition),
   then read the same held-out synthetic scenes (``datasets/held41``: seed 41, validation split
   only) with the candidate and the shipped classifier through
   ``benchmarks/classifier_conditions.py`` (clean, overexposed, blur, dark; each classifier's
   figures are kept, see :func:`figures_file`), then whole photos of the older scene generator
   that the reader's tests use (:func:`older_scene_figures`: printed and procedural decks
   apart), and decide with :func:`judge`.

Everything a chunk writes goes under ``runs/chunks/NNN`` (``chunk.json``: recipe, seed, times,
figures, verdict). A rerun of a chunk skips the steps already done, so an interrupted chunk
continues; the next session runs chunk N + 1.

Usage:
    scripts/train-chunk 1        # in the background: nohup, nice -n 19, OMP_NUM_THREADS=1
    python -m vision.training.chunks 1    # the same in the foreground
    python -m vision.training.chunks --judge runs/gpu/1   # a classifier trained elsewhere
    python -m vision.training.chunks --judge-detector runs/gpu/det   # a detector, the same
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from vision import CACHE_DIR, MODELS_DIR, REPO_ROOT
from vision.context import CONTEXT_JSON, CONTEXT_ONNX
from vision.detection import DET_ONNX, INT8_ONNX
from vision.evidence import BODY_JSON, BODY_ONNX
from vision.training.quantize import CALIBRATION_SCENES, CALIBRATION_SEED, quantize_detector

CHUNK_RUNS = REPO_ROOT / "runs" / "chunks"
"""Where each chunk's folder and the kept figures go."""
DATASETS = REPO_ROOT / "datasets"
"""Where the chunks' scenes and the held-out scenes go."""
CONDITIONS = ("clean", "overexposed", "blur", "dark")
"""Held-out scene conditions of ``benchmarks/classifier_conditions.py``, ``clean`` first."""


@dataclasses.dataclass(frozen=True)
class Recipe:
    """What every chunk does; change it only between series, never between two chunks."""

    scenes: int = 2400
    """Scenes generated for the chunk (5% of them validate each epoch)."""
    minutes: float = 55.0
    """Training budget: warm-up and cosine decay end when it is spent."""
    lr: float = 5e-4
    """Peak AdamW learning rate."""
    batch: int = 128
    """Crops a step."""
    epochs: int = 3
    """Upper bound on epochs (the time budget normally ends the chunk first)."""
    hard_light: float = 0.3
    """Share of training crops blurred or overexposed on top of the generator's effects."""
    seed_base: int = 1000
    """Chunk ``n`` generates and trains with seed ``seed_base + n`` (no other run used these)."""
    held_seed: int = 41
    """Seed of the held-out scenes, the same for every chunk."""
    held_scenes: int = 300
    """Held-out scenes."""
    workers: int = 2
    """Generator processes (niced with the rest of the chunk)."""
    older_scenes: int = 240
    """Held-out photos of the older scene generator (``make_scene``) per kind of deck."""
    decks: int = 30
    """Decks the scenes are drawn from: every deck ``python -m vision.training.synth.faces``
    renders (18 printed, 12 procedural). Chunk 1 was drawn from one deck, because the face cache
    held only that one, and forgot the others: a chunk refuses to start with fewer."""


RECIPE = Recipe()
"""The recipe of this series of chunks."""


@dataclasses.dataclass(frozen=True)
class Verdict:
    """Whether a candidate model should replace the shipped one, and why."""

    ship: bool
    """True when the candidate reads the clean held-out scenes better and nothing worse."""
    reasons: tuple[str, ...]
    """One line a compared figure: ``"clean 77.66% -> 78.10% (better)"``."""


class ChunkError(ValueError):
    """A chunk that cannot run as asked, for a reason its user can fix (said in one line)."""


def chunk_seed(chunk: int, recipe: Recipe = RECIPE) -> int:
    """The generator and training seed of chunk ``chunk`` (1, 2, ...).

    >>> chunk_seed(1), chunk_seed(2)
    (1001, 1002)

    Raises:
        ChunkError: ``chunk`` is below 1.
    """
    if chunk < 1:
        raise ChunkError(f"chunks are numbered from 1, not {chunk!r}")
    return recipe.seed_base + chunk


def judge(candidate: dict[str, Any], shipped: dict[str, Any]) -> Verdict:
    """Decide whether ``candidate`` replaces the shipped classifier.

    It must read the clean held-out scene indices better, and no condition, nor the stored
    held-out crops, nor (when both carry them) the certain cards of the older generator's photos
    (precision and recall, by kind of deck), worse.

    Args:
        candidate (dict): One models folder's figures as ``classifier_conditions.py --json``
            writes them (``{"crops": {"all": ...}, "scenes": {"clean": ..., ...}}``), with
            :func:`older_scene_figures`'s under ``"older"`` when measured.
        shipped (dict): The shipped folder's figures, same form.

    Returns:
        (Verdict): The decision and the figures behind it.
    """
    pairs = [(name, shipped["scenes"][name], candidate["scenes"][name]) for name in CONDITIONS]
    pairs.append(("stored crops", shipped["crops"]["all"], candidate["crops"]["all"]))
    return _verdict(pairs + _older_pairs(candidate, shipped))


def judge_detector(candidate: dict[str, Any], shipped: dict[str, Any]) -> Verdict:
    """Decide whether a candidate detector replaces the shipped one (the classifier unchanged).

    The whole reader with the candidate must read the clean held-out scenes' cards with higher
    recall at the serving certainty, and under no condition with lower precision or recall, nor
    the older generator's photos (by kind of deck) with lower precision or recall: precision
    first, as for the classifier (:func:`judge`).

    Args:
        candidate (dict): ``{"served": {condition: {"precision": p, "recall": r}}, "older":
            ...}`` for the reader with the candidate detector (:func:`judge_detector_folder`).
        shipped (dict): The same for the shipped reader.

    Returns:
        (Verdict): The decision and the figures behind it.
    """
    pairs = [
        (f"{name} {figure}", shipped["served"][name][figure], candidate["served"][name][figure])
        for name in CONDITIONS
        for figure in ("recall", "precision")
    ]
    return _verdict(pairs + _older_pairs(candidate, shipped))


Compared = tuple[str, float, float]
"""A figure's name, the shipped model's value and the candidate's."""


def _older_pairs(candidate: dict[str, Any], shipped: dict[str, Any]) -> list[Compared]:
    """The older generator's photos' precision and recall by kind of deck, where measured."""
    return [
        (f"older scenes, {kind} decks, {figure}", old[figure], candidate["older"][kind][figure])
        for kind, old in shipped.get("older", {}).items()
        for figure in ("precision", "recall")
    ]


def _verdict(pairs: list[Compared]) -> Verdict:
    """Ship when the first figure is better and none worse; a reason line for each figure."""
    reasons = []
    for name, old, new in pairs:
        word = "better" if new > old else "same" if new == old else "worse"
        reasons.append(f"{name} {old:.2%} -> {new:.2%} ({word})")
    first_better = pairs[0][2] > pairs[0][1]
    none_worse = all(new >= old for _, old, new in pairs)
    return Verdict(first_better and none_worse, tuple(reasons))


def deck_names(faces: Path, recipe: Recipe = RECIPE) -> list[str]:
    """The decks rendered under ``faces``, checked against the recipe's count.

    Raises:
        ChunkError: Fewer decks than :attr:`Recipe.decks` are rendered.
    """
    from vision.training.synth.faces import rendered_deck_names

    names = rendered_deck_names(faces)
    if len(names) < recipe.decks:
        raise ChunkError(
            f"{faces} holds {len(names)} rendered decks, the recipe draws from {recipe.decks}: "
            "render them first (python -m vision.training.synth.faces; needs rsvg-convert and "
            "Debian's gnome-cards-data and kdegames-card-data-kf5)"
        )
    return names


def _generated(
    out: Path, n: int, seed: int, val_frac: float, recipe: Recipe, faces: Path, decks: list[str]
) -> Path:
    """Generate ``n`` scenes from ``decks`` into ``out`` unless a finished set of them is there.

    Raises:
        ChunkError: The finished set there was drawn from other decks (delete it to redraw it).
    """
    from vision.training.synth.generate import generate

    drawn_from = out / "decks.json"  # written by generate
    if not (out / "cards.yaml").exists():  # written last: a set without it is unfinished
        generate(out, n, seed, val_frac, recipe.workers, faces)
    if not drawn_from.exists() or json.loads(drawn_from.read_text()) != decks:
        raise ChunkError(f"{out} was drawn from other decks than {faces}'s: delete it")
    return out


def figures_file(models: Path, held: Path, cache: Path) -> Path:
    """Where the held-out figures of the classifier in ``models`` on ``held`` are kept.

    The name hashes the classifier, the held-out labels and crops and the reader's code, so the
    shipped classifier is read once per held-out set, not once a chunk, and a changed set or
    reader is read again.
    """
    return _kept_file(
        cache,
        "held",
        models / "card_classifier.onnx",
        models / "card_classifier.json",
        held / "meta" / "val.jsonl",
        held / "crops" / "val.npz",
    )


def reader_files(models: Path) -> list[Path]:
    """The files of ``models`` that a reader loads.

    Both models, and where the folder holds them the context model, the detector's int8 copy and
    the body model.
    """
    files = [models / n for n in ("card_classifier.onnx", "card_classifier.json", DET_ONNX)]
    optional = (CONTEXT_ONNX, CONTEXT_JSON, INT8_ONNX, BODY_ONNX, BODY_JSON)
    return files + [models / n for n in optional if (models / n).exists()]


def share_detector(base: Path, models: Path) -> None:
    """Give ``models`` ``base``'s detector, with its int8 copy (:mod:`vision.training.quantize`)."""
    for name in (DET_ONNX, INT8_ONNX):
        if (base / name).exists():
            shutil.copyfile(base / name, models / name)


def quantize_like(base: Path, models: Path, faces: Path, recipe: Recipe = RECIPE) -> None:
    """Quantize the detector of ``models`` as the shipped one was, if ``base`` serves an int8 copy.

    Each side is then judged with the detector it would serve. The calibration scenes are those
    of the model card's command (seed :data:`vision.training.quantize.CALIBRATION_SEED`),
    generated into ``DATASETS`` once.
    """
    if not (base / INT8_ONNX).exists():
        return
    scenes = _generated(
        DATASETS / f"calib{CALIBRATION_SEED}", CALIBRATION_SCENES, CALIBRATION_SEED, 1.0,
        recipe, faces, deck_names(faces, recipe),
    )  # fmt: skip
    quantize_detector(models, scenes)


def share_context(base: Path, models: Path, replace: bool = False) -> None:
    """Give ``models`` the context model and the body model of ``base``.

    They are :mod:`vision.context`'s and :mod:`vision.evidence`'s. The model judged is then the
    only difference between the two folders. A context or body model of ``models``' own is kept
    unless ``replace``.
    """
    for onnx, meta in ((CONTEXT_ONNX, CONTEXT_JSON), (BODY_ONNX, BODY_JSON)):
        if not (base / onnx).exists() or ((models / onnx).exists() and not replace):
            continue
        for name in (onnx, meta):
            shutil.copyfile(base / name, models / name)


def _kept_file(cache: Path, kind: str, *inputs: Path | str) -> Path:
    """``cache/KIND-HASH.json``, named by what its figures were measured from.

    That is ``inputs`` and the reader's code (``vision/*.py``): a changed reader measures again.

    Args:
        cache (Path): The folder of kept figures.
        kind (str): What was measured.
        *inputs (Path | str): Files (hashed by content) and settings (by their text).
    """
    digest = hashlib.sha256()
    for part in (*inputs, *sorted((REPO_ROOT / "vision").glob("*.py"))):
        digest.update(part.read_bytes() if isinstance(part, Path) else part.encode())
    return cache / f"{kind}-{digest.hexdigest()[:16]}.json"


def _kept(kept: Path, measure: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The figures kept in ``kept``, measured (and kept) the first time."""
    if not kept.exists():
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(json.dumps(measure(), indent=1))
    figures: dict[str, Any] = json.loads(kept.read_text())
    return figures


def older_scene_figures(
    models: Path, faces: Path, cache: Path, recipe: Recipe = RECIPE
) -> dict[str, Any]:
    """Precision and recall of the certain cards the reader with ``models`` reads on whole photos.

    The photos come from the older scene generator
    (:func:`vision.training.synth.scene.make_scene`, clean, 960x720, seeds
    ``[recipe.held_seed * 100, i]``), ``recipe.older_scenes`` of them drawn from the printed decks
    under ``faces`` and as many from the procedural ones. Run 6 passed the
    chunk gate on today's generator and lost a fifth of these cards (``models/README.md``).

    The figures are kept in ``cache``, named by a hash of both models, the decks and the
    recipe's photos, and read from there next time.

    Returns:
        (dict): ``{"printed": {"precision": p, "recall": r}, "procedural": {...}}``, a kind with
        no deck under ``faces`` left out.
    """
    photos = json.dumps([deck_names(faces, recipe), recipe.held_seed, recipe.older_scenes])
    kept = _kept_file(cache, "older", *reader_files(models), photos)
    return _kept(kept, lambda: _read_older_scenes(models, faces, recipe))


def _read_older_scenes(models: Path, faces: Path, recipe: Recipe) -> dict[str, Any]:
    """:func:`older_scene_figures`, measured."""
    import numpy as np

    from vision.reader import CardReader
    from vision.training.evaluate import SubsetScore
    from vision.training.synth.faces import load_decks
    from vision.training.synth.scene import make_scene

    reader = CardReader(models)
    every = load_decks(faces)
    kinds = {
        "printed": [deck for deck in every if not deck.name.startswith("proc")],
        "procedural": [deck for deck in every if deck.name.startswith("proc")],
    }
    figures = {}
    for kind, decks in kinds.items():
        if not decks:
            continue
        score = SubsetScore()
        for i in range(recipe.older_scenes):
            rng = np.random.default_rng([recipe.held_seed * 100, i])
            scene = make_scene(rng, decks, size=(960, 720), effects=False)
            score.record(reader.read(scene.image), scene.visible_cards, seconds=0.0)
        figures[kind] = {"precision": score.precision, "recall": score.recall}
    return figures


def held_out_figures(models: Path, held: Path, cache: Path) -> dict[str, Any]:
    """Read ``held`` with the classifier in ``models`` (``benchmarks/classifier_conditions.py``).

    The figures are kept in ``cache`` (:func:`figures_file`) and read from there next time.
    """

    def measure() -> dict[str, Any]:
        figures = _benchmark("classifier_conditions.py", "--data", str(held), str(models))
        return dict(figures[str(models)])

    return _kept(figures_file(models, held, cache), measure)


def _benchmark(script: str, *args: str) -> dict[str, Any]:
    """The figures ``benchmarks/SCRIPT ARGS --json FILE`` writes, run in a subprocess."""
    with tempfile.TemporaryDirectory() as scratch:
        fresh = Path(scratch) / "figures.json"
        command = [sys.executable, str(REPO_ROOT / "benchmarks" / script), *args]
        subprocess.run([*command, "--json", str(fresh)], check=True)
        figures: dict[str, Any] = json.loads(fresh.read_text())
    return figures


def starting_classifier(chunk: int, runs: Path, base: Path) -> Path:
    """The models folder chunk ``chunk`` fine-tunes.

    That is the previous chunk's (``runs/NNN/models``) when that chunk finished and its
    classifier read the clean held-out scenes better than the one it was compared with, so that
    each chunk continues the last one's training; otherwise ``base``, the shipped classifier
    (chunk 1, a previous chunk missing or unfinished, or a line that stopped getting better).
    """
    previous = runs / f"{chunk - 1:03d}"
    if chunk > 1 and (previous / "chunk.json").exists():
        figures = json.loads((previous / "chunk.json").read_text())["figures"]
        if figures["candidate"]["scenes"]["clean"] > figures["shipped"]["scenes"]["clean"]:
            return previous / "models"
    return base


def run_chunk(
    chunk: int,
    recipe: Recipe = RECIPE,
    base: Path = MODELS_DIR,
    runs: Path = CHUNK_RUNS,
    datasets: Path = DATASETS,
    faces: Path = CACHE_DIR / "faces",
) -> Verdict:
    """Generate, fine-tune and judge chunk ``chunk``; write ``runs/NNN/chunk.json``.

    Args:
        chunk (int): Chunk number, from 1.
        recipe (Recipe): The series' recipe.
        base (Path): Models folder to compare with (the shipped one), and to fine-tune from
            when the previous chunk's is not continued (:func:`starting_classifier`).
        runs (Path): Where each chunk's folder goes.
        datasets (Path): Where the chunk's scenes and the held-out scenes go.
        faces (Path): Rendered deck faces (``python -m vision.training.synth.faces``).

    Returns:
        (Verdict): Whether the candidate (``runs/NNN/models``) should replace ``base``.

    Raises:
        ChunkError: ``faces`` holds fewer decks than the recipe's, or a scene set already there
            was drawn from other decks.
    """
    seed = chunk_seed(chunk, recipe)
    out = runs / f"{chunk:03d}"
    models = out / "models"
    record: dict[str, Any] = {"chunk": chunk, "seed": seed, "recipe": dataclasses.asdict(recipe)}
    init = starting_classifier(chunk, runs, base)
    record["base"], record["init"] = str(base), str(init)
    times = record.setdefault("times", {})

    def phase(name: str, t0: float) -> None:
        times[name] = f"{(time.time() - t0) / 60:.1f} min"
        print(f"chunk {chunk}: {name} done in {times[name]}", flush=True)

    record["decks"] = decks = deck_names(faces, recipe)
    t0 = time.time()
    data = _generated(
        datasets / f"chunk-{chunk:03d}", recipe.scenes, seed, 0.05, recipe, faces, decks
    )
    held_out = datasets / f"held{recipe.held_seed}"
    held = _generated(held_out, recipe.held_scenes, recipe.held_seed, 1.0, recipe, faces, decks)
    phase("generate", t0)
    t0 = time.time()
    if not (models / "card_classifier.onnx").exists():
        import torch  # the train extra's: the refusals above run without it

        from vision.training.train import train_classifier

        torch.set_num_threads(1)
        train_classifier(
            data, recipe.epochs, recipe.batch, "cpu", lr=recipe.lr, name="train", resume=True,
            minutes=recipe.minutes, seed=seed, models_dir=models, project=out,
            init=init / "card_classifier.onnx", normalize=True, hard_light=recipe.hard_light,
        )  # fmt: skip
    share_detector(base, models)  # the reader needs both models
    share_context(base, models)
    phase("train", t0)
    t0 = time.time()
    verdict, record["figures"] = judge_folder(models, base, held, faces, runs, recipe)
    phase("held-out check", t0)
    record["verdict"] = dataclasses.asdict(verdict)
    (out / "chunk.json").write_text(json.dumps(record, indent=1))
    return verdict


def judge_folder(
    models: Path, base: Path, held: Path, faces: Path, runs: Path, recipe: Recipe = RECIPE
) -> tuple[Verdict, dict[str, Any]]:
    """Judge the classifier in ``models`` against ``base``'s by the chunk gate (step 3).

    Also for classifiers trained elsewhere (a GPU run): ``models`` must hold both of the
    reader's models. Figures are kept in ``runs`` as a chunk's are.

    Returns:
        (tuple): The verdict, and ``{"shipped": ..., "candidate": ...}`` figures.
    """
    share_context(base, models)
    certainty = calibrate(models, base, held, runs)
    shipped = held_out_figures(base, held, runs)
    shipped["older"] = older_scene_figures(base, faces, runs, recipe)
    candidate = held_out_figures(models, held, runs)
    candidate["older"] = older_scene_figures(models, faces, runs, recipe)
    candidate["certainty"] = certainty
    return judge(candidate, shipped), {"shipped": shipped, "candidate": candidate}


def judge_detector_folder(
    models: Path, base: Path, held: Path, faces: Path, runs: Path, recipe: Recipe = RECIPE
) -> tuple[Verdict, dict[str, Any]]:
    """Judge the detector in ``models`` against ``base``'s, each read with ``base``'s classifier.

    ``base``'s classifier files are copied into ``models`` first, so that the detector is the
    only difference, and the candidate is quantized as ``base``'s was (:func:`quantize_like`).
    Figures are kept in ``runs`` as a chunk's are.

    Returns:
        (tuple): The verdict, and ``{"shipped": ..., "candidate": ...}`` figures.
    """
    for name in ("card_classifier.onnx", "card_classifier.json"):
        shutil.copyfile(base / name, models / name)
    share_context(base, models, replace=True)
    quantize_like(base, models, faces, recipe)
    figures = {}
    for side, folder in (("shipped", base), ("candidate", models)):
        served = _served_figures(folder, held, runs)
        figures[side] = {
            "served": {c: served[c]["serving"] for c in CONDITIONS},
            "older": older_scene_figures(folder, faces, runs, recipe),
        }
    return judge_detector(figures["candidate"], figures["shipped"]), figures


def _served_figures(models: Path, held: Path, cache: Path) -> dict[str, Any]:
    """The reader with ``models`` on ``held`` at its serving certainty, by condition (kept)."""
    scenes = held / "meta" / "val.jsonl"
    return _kept(
        _kept_file(cache, "served", scenes, *reader_files(models)),
        lambda: _thresholds(models, held, ladder=False),
    )


def calibrate(models: Path, base: Path, held: Path, cache: Path) -> dict[str, Any]:
    """Give the classifier in ``models`` its operating point, before any figure of the gate.

    That is the loosest rung of :data:`vision.certainty.CERTAINTY_LADDER` at which its certain
    cards on the held-out scenes are at least as precise as ``base``'s reader's, under each
    condition (``benchmarks/vision_thresholds.py --conditions``), the strictest rung when none
    is; written as ``"certainty"`` into ``models/card_classifier.json``.

    Returns:
        (dict): The rung (``"rung"``, from 0), its settings, and the precisions compared.
    """
    from vision.certainty import CERTAINTY_LADDER

    scenes = held / "meta" / "val.jsonl"
    served = _served_figures(base, held, cache)
    ladder = _kept(
        _kept_file(  # not the classifier's JSON: the rung found is written there
            cache,
            "ladder",
            scenes,
            *(f for f in reader_files(models) if f.name != "card_classifier.json"),
        ),
        lambda: _thresholds(models, held, ladder=True),
    )
    wanted = {c: served[c]["serving"]["precision"] for c in CONDITIONS}
    rung = next(
        (
            i
            for i in range(len(CERTAINTY_LADDER))
            if all(ladder[c][f"ladder {i}"]["precision"] >= wanted[c] for c in CONDITIONS)
        ),
        len(CERTAINTY_LADDER) - 1,
    )
    point = dataclasses.asdict(CERTAINTY_LADDER[rung])
    meta_file = models / "card_classifier.json"
    meta_file.write_text(
        json.dumps(json.loads(meta_file.read_text()) | {"certainty": point}, indent=1)
    )
    compared = {
        c: {"base": wanted[c], "candidate": ladder[c][f"ladder {rung}"]["precision"]}
        for c in CONDITIONS
    }
    return {"rung": rung, "point": point, "precision": compared}


def _thresholds(models: Path, held: Path, ladder: bool) -> dict[str, Any]:
    """``benchmarks/vision_thresholds.py --conditions`` on ``held`` with ``models``, as JSON."""
    conditions = ("--conditions", ",".join(CONDITIONS), *(["--ladder"] if ladder else []))
    return _benchmark("vision_thresholds.py", str(held), "--models", str(models), *conditions)


def main() -> None:
    """CLI entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("chunk", type=int, nargs="?", help="chunk number, from 1")
    ap.add_argument("--base", type=Path, default=MODELS_DIR, help="models folder to improve on")
    faces = CACHE_DIR / "faces"
    ap.add_argument("--faces", type=Path, default=faces, help=f"rendered decks (default: {faces})")
    ap.add_argument(
        "--judge", type=Path, metavar="FOLDER",
        help="judge this models folder (trained elsewhere) by the gate instead of running a chunk",
    )  # fmt: skip
    ap.add_argument(
        "--judge-detector", type=Path, metavar="FOLDER",
        help="judge the index_detector.onnx in this folder (trained elsewhere) with the base's "
        "classifier, by the detector's gate",
    )  # fmt: skip
    a = ap.parse_args()
    judged = a.judge or a.judge_detector
    if [a.chunk, a.judge, a.judge_detector].count(None) != 2:
        ap.error("give a chunk number, --judge FOLDER or --judge-detector FOLDER")
    if judged:
        model = "card_classifier.onnx" if a.judge else DET_ONNX
        if not (judged / model).exists():
            ap.error(f"{judged} holds no {model}")
        held = DATASETS / f"held{RECIPE.held_seed}"
        if not (held / "meta" / "val.jsonl").exists():
            ap.error(f"{held} holds no held-out scenes: run a chunk first, which makes them")
        gate = judge_folder if a.judge else judge_detector_folder
        verdict, figures = gate(judged, a.base, held, a.faces, CHUNK_RUNS)
        record = {"figures": figures, "verdict": dataclasses.asdict(verdict)}
        (judged / "gate.json").write_text(json.dumps(record, indent=1))
        print("\n".join(verdict.reasons))
        print(f"verdict: {'ship' if verdict.ship else 'keep the shipped ' + model}")
        return
    try:
        verdict = run_chunk(a.chunk, base=a.base, faces=a.faces)
    except ChunkError as error:
        ap.error(str(error))
    print("\n".join(verdict.reasons))
    out = f"runs/chunks/{a.chunk:03d}/models"
    if verdict.ship:
        print(f"verdict: ship: cp {out}/card_classifier.onnx {out}/card_classifier.json models/")
    else:
        print(f"verdict: keep the shipped classifier; next: scripts/train-chunk {a.chunk + 1}")


if __name__ == "__main__":
    main()
