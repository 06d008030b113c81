"""Classifier crops cut at the detector's boxes (``vision.training.detector_crops``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vision import CARDS, REPO_ROOT
from vision.training.detector_crops import match_labels, mine
from vision.training.synth.generate import generate


def test_each_label_goes_to_its_most_overlapping_detection_once() -> None:
    labels = np.array([[0, 0, 10, 10], [8, 0, 18, 10]], float)
    dets = np.array(
        [
            [1, 0, 11, 10],  # label 0 (IoU 0.82), label 1 (0.33)
            [0, 0, 10, 10],  # label 0 exactly: takes it
            [8, 0, 18, 11],  # label 1
            [40, 40, 50, 50],  # nothing
        ]
    )
    assert match_labels(dets, labels).tolist() == [-1, 0, 1, -1]
    assert match_labels(dets, labels, min_iou=0.95).tolist() == [-1, 0, -1, -1]
    assert match_labels(dets[:0], labels).tolist() == []
    assert match_labels(dets, labels[:0]).tolist() == [-1, -1, -1, -1]


@pytest.fixture(scope="module")
def scenes(tmp_path_factory: pytest.TempPathFactory, proc_faces: Path) -> Path:
    data = tmp_path_factory.mktemp("scenes")
    generate(data, n=6, seed=3, val_frac=0.34, workers=1, face_root=proc_faces)
    return data


def _labelled(data: Path, split: str) -> set[int]:
    rows = [json.loads(s) for s in (data / "meta" / f"{split}.jsonl").read_text().splitlines()]
    return {CARDS.index(lab["card"]) for row in rows for lab in row["labels"]}


@pytest.mark.slow
def test_mined_crops_are_the_generators_form_and_hard_ones_are_repeated(
    scenes: Path, tmp_path: Path
) -> None:
    once = mine(scenes, tmp_path / "once", hard_copies=1)
    thrice = mine(scenes, tmp_path / "thrice", hard_copies=3)
    for split in ("train", "val"):
        n = once[split]
        assert n.scenes and n.matched and n.matched <= min(n.labels, n.detections)
        assert n.crops == n.matched
        with (
            np.load(scenes / "crops" / f"{split}.npz") as made,
            np.load(tmp_path / "once" / "crops" / f"{split}.npz") as got,
        ):
            assert got["x"].shape[1:] == made["x"].shape[1:] and got["x"].dtype == made["x"].dtype
            assert got["y"].dtype == made["y"].dtype and len(got["y"]) == n.crops
            assert set(got["y"].tolist()) <= _labelled(scenes, split)
    hard = once["train"].wrong + once["train"].unsure
    assert hard > 0  # these procedural scenes hold misread crops, so the repeat is exercised
    assert thrice["train"].crops == once["train"].crops + 2 * hard
    assert thrice["val"].crops == once["val"].crops  # validation keeps one of each
    kept = json.loads((tmp_path / "thrice" / "crops" / "mined.json").read_text())
    assert kept["hard_copies"] == 3 and kept["train"]["crops"] == thrice["train"].crops


@pytest.mark.slow
def test_worker_processes_write_what_one_process_does(scenes: Path, tmp_path: Path) -> None:
    one = mine(scenes, tmp_path / "one", hard_copies=2)
    two = mine(scenes, tmp_path / "two", hard_copies=2, workers=2)
    assert one == two
    for split in ("train", "val"):
        with (
            np.load(tmp_path / "one" / "crops" / f"{split}.npz") as a,
            np.load(tmp_path / "two" / "crops" / f"{split}.npz") as b,
        ):
            assert np.array_equal(a["y"], b["y"]) and np.array_equal(a["x"], b["x"])


def test_the_command_refuses_a_folder_without_scenes(tmp_path: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "vision.training.detector_crops",
            str(tmp_path),
            str(tmp_path / "out"),
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2 and "holds no generated scenes" in run.stderr
    assert not (tmp_path / "out").exists()
