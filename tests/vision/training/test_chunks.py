"""The classifier's CPU fine-tune in chunks (vision/training/chunks.py): seeds, verdict, one tiny
chunk."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from vision import MODELS_DIR
from vision.certainty import CERTAINTY_LADDER, SERVING_CERTAINTY, Certainty
from vision.training.chunks import (
    CONDITIONS,
    DATASETS,
    RECIPE,
    Recipe,
    calibrate,
    chunk_seed,
    deck_names,
    judge,
    judge_detector,
    judge_detector_folder,
    main,
    quantize_like,
    run_chunk,
    starting_classifier,
)


def figures(
    clean: float, others: float = 0.6, crops: float = 0.85, proc_precision: float = 0.95
) -> dict[str, dict]:
    """Held-out figures in the form ``run_chunk`` records per folder."""
    scenes = {name: others for name in CONDITIONS} | {"clean": clean, "indices": 2037}
    older = {
        "printed": {"precision": 0.97, "recall": 0.77},
        "procedural": {"precision": proc_precision, "recall": 0.80},
    }
    crops_read = {"all": crops, "indices": 0.74, "none": 0.97}
    return {"crops": crops_read, "scenes": scenes, "older": older}


def test_every_chunk_trains_on_scenes_of_its_own_seed() -> None:
    seeds = [chunk_seed(n) for n in range(1, 50)]
    assert len(set(seeds)) == len(seeds)
    assert RECIPE.held_seed not in seeds
    with pytest.raises(ValueError, match="numbered from 1"):
        chunk_seed(0)


def test_the_verdict_ships_the_better_model_only() -> None:
    shipped, better = figures(0.7766), figures(0.7800)
    verdict = judge(better, shipped)
    assert verdict.ship
    assert "clean 77.66% -> 78.00% (better)" in verdict.reasons
    assert not judge(shipped, better).ship  # the worse one is never shipped
    assert not judge(shipped, shipped).ship  # a tie keeps the shipped one


@pytest.mark.parametrize(
    "candidate",
    [figures(0.79, others=0.59), figures(0.79, crops=0.84), figures(0.79, proc_precision=0.915)],
    ids=["a-condition-worse", "stored-crops-worse", "older-generator-worse"],
)
def test_a_better_clean_reading_does_not_ship_when_anything_got_worse(candidate: dict) -> None:
    verdict = judge(candidate, figures(0.7766))
    assert not verdict.ship
    assert any(reason.endswith("(worse)") for reason in verdict.reasons)


def reader_figures(clean_recall: float, overexposed_precision: float = 0.96) -> dict:
    """The whole reader's figures in the form ``judge_detector_folder`` gathers per folder."""
    served = {c: {"precision": 0.965, "recall": 0.55} for c in CONDITIONS}
    served["clean"] = {"precision": 0.963, "recall": clean_recall}
    served["overexposed"] = {"precision": overexposed_precision, "recall": 0.47}
    older = {"printed": {"precision": 0.99, "recall": 0.72}}
    return {"served": served, "older": older}


def test_a_detector_ships_when_the_reader_reads_more_clean_cards_and_nothing_worse() -> None:
    shipped, better = reader_figures(0.5845), reader_figures(0.6012)
    verdict = judge_detector(better, shipped)
    assert verdict.ship
    assert "clean recall 58.45% -> 60.12% (better)" in verdict.reasons
    assert not judge_detector(shipped, better).ship
    assert not judge_detector(shipped, shipped).ship  # a tie keeps the shipped one


def test_a_detector_that_reads_more_but_less_precisely_under_a_condition_does_not_ship() -> None:
    verdict = judge_detector(
        reader_figures(0.62, overexposed_precision=0.958), reader_figures(0.58)
    )
    assert not verdict.ship
    assert "overexposed precision 96.00% -> 95.80% (worse)" in verdict.reasons


def test_a_detector_is_judged_with_the_base_classifier(tmp_path: Path, monkeypatch) -> None:
    base, models = tmp_path / "base", tmp_path / "candidate"
    base.mkdir()
    models.mkdir()
    for name in ("card_classifier.onnx", "card_classifier.json", "index_detector.onnx"):
        (base / name).write_text(f"base {name}")
    (models / "index_detector.onnx").write_text("candidate detector")
    (models / "card_classifier.onnx").write_text("another classifier")
    read = {}

    def served(folder: Path, held: Path, cache: Path) -> dict:
        read[folder.name] = [
            (folder / n).read_text() for n in sorted(p.name for p in base.iterdir())
        ]
        recall = 0.60 if folder == models else 0.58
        return {c: {"serving": {"precision": 0.96, "recall": recall}} for c in CONDITIONS}

    monkeypatch.setattr("vision.training.chunks._served_figures", served)
    monkeypatch.setattr(
        "vision.training.chunks.older_scene_figures",
        lambda *args: {"printed": {"precision": 0.99, "recall": 0.72}},
    )
    verdict, figures = judge_detector_folder(models, base, tmp_path, tmp_path, tmp_path)
    assert read["candidate"] == [
        "base card_classifier.json", "base card_classifier.onnx", "candidate detector"
    ]  # fmt: skip
    assert read["base"][2] == "base index_detector.onnx"
    assert verdict.ship
    assert figures["candidate"]["served"]["clean"]["recall"] == 0.60


def test_a_detector_is_quantized_as_the_base_detector_was_before_it_is_judged(
    tmp_path: Path, monkeypatch
) -> None:
    base, models = tmp_path / "base", tmp_path / "candidate"
    base.mkdir()
    models.mkdir()
    (models / "index_detector.onnx").write_text("candidate detector")
    calls = []
    monkeypatch.setattr("vision.training.chunks.deck_names", lambda faces, recipe: ["anglo"])

    def generated(out: Path, n: int, seed: int, *rest: object) -> Path:
        calls.append((out.name, n, seed))
        return out

    monkeypatch.setattr("vision.training.chunks._generated", generated)
    monkeypatch.setattr(
        "vision.training.chunks.quantize_detector",
        lambda folder, scenes: calls.append((folder, scenes)),
    )
    quantize_like(base, models, tmp_path)
    assert calls == []  # a base without an int8 copy serves its float detector: so does this
    (base / "index_detector.int8.onnx").write_text("base int8 copy")
    quantize_like(base, models, tmp_path)
    assert calls == [("calib90", 64, 90), (models, DATASETS / "calib90")]


def finished_chunk(runs: Path, chunk: int, candidate_clean: float) -> Path:
    """A finished chunk's folder under ``runs`` whose candidate read ``candidate_clean`` of the
    clean held-out indices against the shipped classifier's 77.66 %."""
    folder = runs / f"{chunk:03d}"
    folder.mkdir(parents=True)
    compared = {"shipped": figures(0.7766), "candidate": figures(candidate_clean)}
    (folder / "chunk.json").write_text(json.dumps({"figures": compared}))
    return folder


def thresholds_figures(precisions: dict[str, list[float]], ladder: bool) -> dict:
    """``vision_thresholds.py --json`` figures: a precision per condition and operating point."""
    names = [f"ladder {i}" for i in range(len(CERTAINTY_LADDER))] if ladder else ["serving"]
    return {
        c: {name: {"precision": p} for name, p in zip(names, precisions[c], strict=True)}
        for c in CONDITIONS
    }


@pytest.mark.parametrize(
    ("overexposed", "rung"),
    [
        ([0.990, 0.994, 0.996, 0.997, 0.998], 0),  # as precise as the base at the serving point
        ([0.980, 0.985, 0.991, 0.997, 0.998], 2),  # the loosest rung that is
        ([0.970, 0.975, 0.980, 0.985, 0.988], 4),  # none is: the strictest
    ],
)
def test_a_candidate_takes_the_loosest_certainty_as_precise_as_the_base(
    overexposed: list[float], rung: int, tmp_path: Path, monkeypatch
) -> None:
    base, models = tmp_path / "base", tmp_path / "candidate"
    for folder in (base, models):
        folder.mkdir()
        for name in ("card_classifier.onnx", "index_detector.onnx"):
            (folder / name).write_bytes(folder.name.encode())
        (folder / "card_classifier.json").write_text('{"classes": ["AC", "none"]}')
    held = tmp_path / "held"
    (held / "meta").mkdir(parents=True)
    (held / "meta" / "val.jsonl").write_text("{}\n")
    base_precision = {c: [0.99] for c in CONDITIONS}
    candidate = {c: [0.995] * 5 for c in CONDITIONS} | {"overexposed": overexposed}
    measured = []

    def run(folder: Path, _held: Path, ladder: bool) -> dict:
        measured.append(folder)
        return thresholds_figures(candidate if ladder else base_precision, ladder)

    monkeypatch.setattr("vision.training.chunks._thresholds", run)
    chosen = calibrate(models, base, held, tmp_path / "runs")
    assert chosen["rung"] == rung
    assert chosen["precision"]["overexposed"] == {"base": 0.99, "candidate": overexposed[rung]}
    meta = json.loads((models / "card_classifier.json").read_text())
    assert Certainty(**meta["certainty"]) == CERTAINTY_LADDER[rung]
    assert meta["classes"] == ["AC", "none"]
    # both figures are kept: a second calibration measures nothing again
    assert calibrate(models, base, held, tmp_path / "runs") == chosen
    assert measured == [base, models]


def test_the_reader_reads_with_its_classifiers_own_certainty(tmp_path: Path) -> None:
    from vision.reader import CardReader

    for path in [*MODELS_DIR.glob("*.onnx"), MODELS_DIR / "card_context.json"]:
        (tmp_path / path.name).symlink_to(path)
    meta = json.loads((MODELS_DIR / "card_classifier.json").read_text())
    (tmp_path / "card_classifier.json").write_text(json.dumps(meta))
    assert CardReader(tmp_path).certainty == SERVING_CERTAINTY  # none stated
    stated = meta | {"certainty": dataclasses.asdict(CERTAINTY_LADDER[2])}
    (tmp_path / "card_classifier.json").write_text(json.dumps(stated))
    assert CardReader(tmp_path).certainty == CERTAINTY_LADDER[2] != SERVING_CERTAINTY


def test_each_chunk_continues_the_previous_chunks_training(tmp_path: Path) -> None:
    """A chunk fine-tunes the classifier the previous chunk trained, shipped or not, while that
    one read the clean held-out scenes better than the shipped one; else the shipped one."""
    runs, shipped = tmp_path / "runs", tmp_path / "models"
    assert starting_classifier(1, runs, shipped) == shipped
    assert starting_classifier(5, runs, shipped) == shipped  # chunk 4 is not here
    (runs / "004").mkdir(parents=True)
    assert starting_classifier(5, runs, shipped) == shipped  # chunk 4 has not finished
    (runs / "004").rmdir()
    better = finished_chunk(runs, 4, candidate_clean=0.7811)
    assert starting_classifier(5, runs, shipped) == better / "models"
    assert starting_classifier(6, runs, shipped) == shipped  # chunk 5 is not here
    finished_chunk(runs, 5, candidate_clean=0.7766)  # no better than the shipped one
    assert starting_classifier(6, runs, shipped) == shipped


def test_a_chunk_refuses_fewer_decks_than_its_recipe(tmp_path: Path, proc_faces) -> None:
    """Chunk 1 drew every scene from the one deck the face cache held and forgot the others:
    a chunk now stops before generating anything when decks are missing."""
    assert deck_names(proc_faces, Recipe(decks=3)) == ["proc00", "proc01", "proc02"]
    with pytest.raises(ValueError, match="holds 3 rendered decks, the recipe draws from 30"):
        run_chunk(1, RECIPE, MODELS_DIR, tmp_path / "runs", tmp_path / "datasets", proc_faces)
    assert not (tmp_path / "datasets").exists()


def test_scenes_drawn_from_other_decks_are_refused(tmp_path: Path, proc_faces) -> None:
    """A held-out set made before the decks changed is not compared against silently."""
    held = tmp_path / "datasets" / f"held{RECIPE.held_seed}"
    held.mkdir(parents=True)
    (held / "cards.yaml").write_text("finished\n")
    (held / "decks.json").write_text('["anglo"]')
    tiny = Recipe(scenes=2, held_scenes=2, workers=1, decks=3)
    chunk = tmp_path / "datasets" / "chunk-001"
    chunk.mkdir()
    (chunk / "cards.yaml").write_text("finished\n")
    (chunk / "decks.json").write_text('["proc00", "proc01", "proc02"]')
    with pytest.raises(ValueError, match="held41 was drawn from other decks"):
        run_chunk(1, tiny, MODELS_DIR, tmp_path / "runs", tmp_path / "datasets", proc_faces)


def test_a_chunk_without_its_decks_is_refused_in_one_line(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.setattr("sys.argv", ["vision.training.chunks", "4", "--faces", str(tmp_path)])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2
    assert f"{tmp_path} holds 0 rendered decks, the recipe draws from 30" in capsys.readouterr().err


def test_chunk_zero_is_refused_in_one_line(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.argv", ["vision.training.chunks", "0"])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2
    assert "chunks are numbered from 1, not 0" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        ([], "give a chunk number, --judge FOLDER or --judge-detector FOLDER"),
        (["3", "--judge", "runs/gpu/1"], "give a chunk number, --judge FOLDER or"),
        (["--judge", "a", "--judge-detector", "b"], "give a chunk number, --judge FOLDER or"),
        (["--judge", "{tmp}"], "{tmp} holds no card_classifier.onnx"),
        (["--judge-detector", "{tmp}/with-model"], "with-model holds no index_detector.onnx"),
        (["--judge", "{tmp}/with-model"], "held41 holds no held-out scenes: run a chunk first"),
    ],
)
def test_what_to_judge_is_asked_in_one_line(
    argv: list[str], said: str, tmp_path: Path, monkeypatch, capsys
) -> None:
    argv = [arg.format(tmp=tmp_path) for arg in argv]
    (tmp_path / "with-model").mkdir()
    (tmp_path / "with-model" / "card_classifier.onnx").write_bytes(b"")
    monkeypatch.setattr("vision.training.chunks.DATASETS", tmp_path / "datasets")  # none generated
    monkeypatch.setattr("sys.argv", ["vision.training.chunks", *argv])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2
    assert said.format(tmp=tmp_path) in capsys.readouterr().err


def test_a_folder_trained_elsewhere_is_judged_by_the_gate_and_its_verdict_kept(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    (tmp_path / "card_classifier.onnx").write_bytes(b"")
    held = tmp_path / "datasets" / f"held{RECIPE.held_seed}"
    (held / "meta").mkdir(parents=True)
    (held / "meta" / "val.jsonl").write_text("{}\n")
    monkeypatch.setattr("vision.training.chunks.DATASETS", tmp_path / "datasets")
    shipped, candidate = figures(0.7766), figures(0.7953)
    seen = {}

    def measured(models: Path, base: Path, held_scenes: Path, *args) -> tuple:
        seen["models"], seen["base"], seen["held"] = models, base, held_scenes
        return judge(candidate, shipped), {"shipped": shipped, "candidate": candidate}

    monkeypatch.setattr("vision.training.chunks.judge_folder", measured)
    monkeypatch.setattr("sys.argv", ["vision.training.chunks", "--judge", str(tmp_path)])
    main()
    assert seen == {"models": tmp_path, "base": MODELS_DIR, "held": held}
    kept = json.loads((tmp_path / "gate.json").read_text())
    assert kept["verdict"]["ship"] is True
    assert kept["figures"]["candidate"]["scenes"]["clean"] == 0.7953
    assert capsys.readouterr().out.splitlines()[-1] == "verdict: ship"


@pytest.mark.slow
# torch warns from inside vision.training.train: load_onnx_weights wraps a read-only ONNX array (the
# copy_ is safe) and export_classifier uses the TorchScript exporter, deprecated since 2.9
@pytest.mark.filterwarnings("ignore:The given NumPy array is not writable:UserWarning")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_tiny_chunk_trains_checks_and_records_its_verdict(tmp_path: Path, proc_faces) -> None:
    sizes = {"scenes": 6, "held_scenes": 2, "older_scenes": 2, "decks": 3}
    tiny = Recipe(minutes=0.02, epochs=1, batch=32, workers=1, **sizes)
    args = (3, tiny, MODELS_DIR, tmp_path / "runs", tmp_path / "datasets", proc_faces)
    verdict = run_chunk(*args)
    record = json.loads((tmp_path / "runs" / "003" / "chunk.json").read_text())
    assert record["seed"] == chunk_seed(3, tiny) and record["recipe"]["scenes"] == 6
    assert record["decks"] == ["proc00", "proc01", "proc02"]
    assert record["init"] == str(MODELS_DIR)  # no chunk 2 before it: from the shipped one
    assert record["verdict"]["ship"] == verdict.ship and len(verdict.reasons) == 7
    older = record["figures"]["candidate"]["older"]
    assert list(older) == ["procedural"]  # proc_faces holds no printed deck
    assert 0 <= older["procedural"]["precision"] <= 1 and 0 <= older["procedural"]["recall"] <= 1
    candidate = tmp_path / "runs" / "003" / "models"
    assert {p.name for p in candidate.iterdir()} >= {
        "card_classifier.onnx", "index_detector.onnx", "index_detector.int8.onnx"
    }  # fmt: skip
    assert (tmp_path / "datasets" / "held41" / "meta" / "val.jsonl").exists()
    rung = record["figures"]["candidate"]["certainty"]["rung"]
    meta = json.loads((candidate / "card_classifier.json").read_text())
    assert Certainty(**meta["certainty"]) == CERTAINTY_LADDER[rung]
    # a rerun continues: the trained candidate is kept, not trained again, and the detector it
    # reads with is there even when the run stopped between the export and the copy
    trained = (candidate / "card_classifier.onnx").stat().st_mtime_ns
    (candidate / "index_detector.onnx").unlink()
    assert run_chunk(*args) == verdict
    assert (candidate / "card_classifier.onnx").stat().st_mtime_ns == trained
    # each classifier read the held-out scenes and the older photos once: the shipped, the candidate
    assert len(list((tmp_path / "runs").glob("held-*.json"))) == 2
    assert len(list((tmp_path / "runs").glob("older-*.json"))) == 2
