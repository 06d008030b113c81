"""The detector's int8 serving copy (vision.training.quantize): current, served, and reading as
the float."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort
import pytest

from vision import MODELS_DIR, detection
from vision.detection import (
    DET_ONNX,
    EXACT_INT8,
    INT8_ONNX,
    SOURCE_KEY,
    file_sha256,
    load_detector,
)
from vision.reader import CardReader, ReaderOptions
from vision.training.quantize import quantize_detector
from vision.training.synth.generate import box_iou, generate

FLOAT = ReaderOptions(int8=False)
"""A reader that detects with the float model."""

ROOT = Path(__file__).resolve().parents[2]


def made_from(copy: Path) -> str | None:
    """The float model's SHA-256 that an int8 copy records."""
    session = ort.InferenceSession(str(copy), providers=["CPUExecutionProvider"])
    return session.get_modelmeta().custom_metadata_map.get(SOURCE_KEY)


def matched_share(a: np.ndarray, b: np.ndarray, iou: float = 0.7) -> float:
    """Share of the boxes ``a`` that overlap one of ``b`` by at least ``iou``."""
    if len(a) == 0:
        return 1.0 if len(b) == 0 else 0.0
    return float(np.mean([len(b) > 0 and box_iou(box, b).max() >= iou for box in a]))


def test_the_shipped_int8_copy_was_made_from_the_shipped_detector() -> None:
    # a new index_detector.onnx needs `python -m vision.training.quantize models` (model card,
    # "Speed")
    assert made_from(MODELS_DIR / INT8_ONNX) == file_sha256(MODELS_DIR / DET_ONNX)


@pytest.mark.parametrize("saturate", [True, False])
def test_a_cpu_whose_products_saturate_computes_the_int8_copy_exactly(
    saturate: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An x86 CPU without VNNI sums the copy's products in pairs into 16 bits, which saturated:
    it multiplies them widened to 16 bits instead (vision.detection.EXACT_INT8) and reads as a
    CPU with VNNI does, to the last bit; a CPU with VNNI keeps its faster kernels (model card,
    "Speed: the detector in 8-bit integers")."""
    monkeypatch.setattr(detection, "products_saturate", lambda: saturate)
    options = ort.SessionOptions()
    _session, file = load_detector(MODELS_DIR, options)
    assert file == MODELS_DIR / INT8_ONNX
    key, value = EXACT_INT8
    try:
        setting = options.get_session_config_entry(key)
    except RuntimeError:  # not set
        setting = None
    assert (setting == value) is saturate


def test_the_reader_detects_with_the_int8_copy_unless_told_not_to() -> None:
    assert CardReader(MODELS_DIR, threads=1).detector_file == MODELS_DIR / INT8_ONNX
    assert CardReader(MODELS_DIR, FLOAT, threads=1).detector_file == MODELS_DIR / DET_ONNX


def test_a_copy_of_another_detector_is_not_served(tmp_path: Path) -> None:
    onnx = pytest.importorskip("onnx", reason="editing a model's metadata needs onnx (train extra)")
    model = onnx.load(str(MODELS_DIR / DET_ONNX))
    onnx.helper.set_model_props(model, {"note": "a retrained detector, not yet quantized"})
    onnx.save(model, str(tmp_path / DET_ONNX))
    shutil.copyfile(MODELS_DIR / INT8_ONNX, tmp_path / INT8_ONNX)
    assert load_detector(tmp_path, ort.SessionOptions())[1] == tmp_path / DET_ONNX


@pytest.mark.slow
def test_the_int8_copy_reads_the_sample_hand_as_the_float_detector_does() -> None:
    image = cv2.imread(str(ROOT / "docs" / "sample-hand.jpg"))
    float_reader = CardReader(MODELS_DIR, FLOAT, threads=1)
    int8_reader = CardReader(MODELS_DIR, threads=1)
    boxes_float, _ = float_reader.detect(image)
    boxes_int8, _ = int8_reader.detect(image)
    assert len(boxes_float) >= 5
    assert matched_share(boxes_float, boxes_int8) == 1.0
    assert matched_share(boxes_int8, boxes_float) == 1.0
    readings = [reader.read(image) for reader in (float_reader, int8_reader)]
    assert sorted(readings[0].certain_cards) == sorted(readings[1].certain_cards)
    # the starter is placed by its corners' middle, whichever corner was read surer
    assert [r.cards[r.starter_index].card for r in readings if r.starter_index is not None] == [
        "6H",
        "6H",
    ]


@pytest.mark.slow
def test_quantize_detector_writes_a_current_copy_that_finds_the_float_models_boxes(
    tmp_path: Path, proc_faces: Path
) -> None:
    pytest.importorskip("onnx", reason="quantizing needs onnx (train extra)")
    data = tmp_path / "scenes"
    generate(data, n=3, seed=9, val_frac=1.0, workers=1, face_root=proc_faces)
    models = tmp_path / "models"
    models.mkdir()
    for f in MODELS_DIR.iterdir():
        if f.name != INT8_ONNX:
            shutil.copyfile(f, models / f.name)
    copy = quantize_detector(models, data, limit=3)
    assert copy == models / INT8_ONNX and made_from(copy) == file_sha256(models / DET_ONNX)
    int8_reader = CardReader(models, threads=1)
    float_reader = CardReader(models, FLOAT, threads=1)
    assert int8_reader.detector_file == copy
    found = 0
    for image_file in sorted((data / "images" / "val").glob("*.jpg")):
        image = cv2.imread(str(image_file))
        boxes_float, _ = float_reader.detect(image)
        boxes_int8, _ = int8_reader.detect(image)
        found += len(boxes_float)
        assert matched_share(boxes_float, boxes_int8) >= 0.8
    assert found >= 5
