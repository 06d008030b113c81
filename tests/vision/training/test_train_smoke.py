"""One-epoch training smoke test on a tiny generated set (CI installs the ``train`` extra).

Without the train extra (torch and Ultralytics) the test is skipped, saying so, so that the
fast lane runs on a machine without it; under CI (``CI`` set, as ``.ci/run`` runs) a missing
extra fails loudly instead.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

if not os.environ.get("CI"):
    for extra in ("torch", "ultralytics"):
        pytest.importorskip(
            extra, reason=f"{extra} is the train extra's: pip install -e '.[train]'"
        )
import torch
import ultralytics  # noqa: F401

from vision import MODELS_DIR
from vision.crops import normalize_crops
from vision.reader import CardReader
from vision.training.synth.generate import generate
from vision.training.train import train_classifier, train_detector


@pytest.mark.slow
def test_one_epoch_training_and_export(tmp_path: Path, proc_faces: Path, monkeypatch) -> None:
    monkeypatch.setenv("YOLO_CONFIG_DIR", str(tmp_path / ".yolo"))
    data = tmp_path / "data"
    yaml = generate(data, n=8, seed=0, val_frac=0.25, workers=1, face_root=proc_faces)
    assert yaml.exists() and len(list((data / "images" / "train").glob("*.jpg"))) == 6
    assert np.load(data / "crops" / "train.npz")["x"].shape[1:] == (64, 64, 3)
    models = tmp_path / "models"
    cls = train_classifier(
        data, epochs=1, batch=64, models_dir=models, project=tmp_path / "runs", width=8
    )
    det = train_detector(
        data, epochs=1, imgsz=64, batch=4, models_dir=models, project=tmp_path / "runs"
    )
    assert cls.exists() and det.exists()
    # the shipped detector, rebuilt from its export, fine-tunes on the same set; a project given
    # relative to the working folder is that folder's (Ultralytics would put it under its own)
    monkeypatch.chdir(tmp_path)
    tuned = train_detector(
        data, epochs=1, imgsz=64, batch=4, models_dir=tmp_path / "tuned", name="det-tuned",
        project=Path("runs"), init=MODELS_DIR / "index_detector.onnx",
    )  # fmt: skip
    assert tuned.exists() and (tmp_path / "runs" / "det-tuned" / "init.pt").exists()
    tuned_args = (tmp_path / "runs" / "det-tuned" / "args.yaml").read_text().splitlines()
    assert "warmup_epochs: 0" in tuned_args  # no warm-up's bias rate on trained weights
    # resumable: a second call continues from the checkpoint without error
    train_classifier(
        data, epochs=2, batch=64, models_dir=models, project=tmp_path / "runs", width=8, resume=True
    )
    reader = CardReader(models)
    img = cv2.imread(str(next((data / "images" / "val").glob("*.jpg"))))
    reading = reader.read(img)
    assert reading.image_size == (img.shape[1], img.shape[0])


@pytest.mark.slow
def test_a_resumed_classifier_run_keeps_its_time_budget(tmp_path: Path, proc_faces: Path) -> None:
    """The time a run spent before it stopped counts against its budget when it resumes (a
    resumed chunk trains for what is left of its 55 minutes, not 55 more)."""
    data = tmp_path / "data"
    generate(data, n=4, seed=1, val_frac=0.25, workers=1, face_root=proc_faces)
    runs, models = tmp_path / "runs", tmp_path / "models"
    train_classifier(data, epochs=1, batch=64, models_dir=models, project=runs, width=8)
    checkpoint = runs / "cls" / "last.pt"
    state = torch.load(checkpoint, weights_only=False)
    assert state["seconds"] > 0
    torch.save(state | {"seconds": 120.0}, checkpoint)  # as if it had trained 2 minutes
    train_classifier(
        data, epochs=5, batch=64, models_dir=models, project=runs, width=8, minutes=1, resume=True
    )
    # the 1-minute budget was spent before the resume: one step of epoch 2, then the end
    assert torch.load(checkpoint, weights_only=False)["epoch"] == 1


@pytest.mark.slow
def test_a_classifier_trained_softened_learns_from_crops_as_the_reader_gives_them(
    tmp_path: Path, proc_faces: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``soften``: the training and validation crops go through the reader's softening rule
    (at the serving certainty's blurred bar) before training, and the model's JSON says so."""
    import vision.training.train as train
    from vision.certainty import SERVING_CERTAINTY
    from vision.evidence import soften_sharp_crops

    data = tmp_path / "data"
    generate(data, n=4, seed=3, val_frac=0.25, workers=1, face_root=proc_faces)
    given: list[tuple[int, float, float]] = []

    def spy(crops: np.ndarray, blurred_below: float, sigma: float) -> np.ndarray:
        given.append((len(crops), blurred_below, sigma))
        return soften_sharp_crops(crops, blurred_below, sigma)

    monkeypatch.setattr(train, "soften_sharp_crops", spy)
    models = tmp_path / "models"
    train_classifier(
        data, epochs=1, batch=64, models_dir=models, project=tmp_path / "runs", width=8,
        soften=0.8,
    )  # fmt: skip
    sizes = [len(np.load(data / "crops" / f"{s}.npz")["y"]) for s in ("train", "val")]
    bar = SERVING_CERTAINTY.blurred_below
    assert given == [(sizes[0], bar, 0.8), (sizes[1], bar, 0.8)]
    assert json.loads((models / "card_classifier.json").read_text())["trained_softened"] == 0.8


def test_fine_tuning_starts_from_the_shipped_classifier() -> None:
    """The exported classifier's weights load back into the network and give its logits."""
    import onnxruntime as ort

    from vision.training.classifier import index_net
    from vision.training.train import _normalized, load_onnx_weights

    meta = json.loads((MODELS_DIR / "card_classifier.json").read_text())
    model = index_net(len(meta["classes"]), int(meta["width"]))
    load_onnx_weights(model, MODELS_DIR / "card_classifier.onnx")
    model.eval()
    x = torch.rand(8, 3, 64, 64)
    session = ort.InferenceSession(
        str(MODELS_DIR / "card_classifier.onnx"), providers=["CPUExecutionProvider"]
    )
    want = session.run(None, {"images": x.numpy()})[0]
    with torch.no_grad():
        got = model(x).numpy()
    assert np.abs(got - want).max() < 1e-3
    # training stretches crops with the reader's own function
    crops = (x * 255).round().byte().permute(0, 2, 3, 1).numpy()
    stretched = (_normalized(x) * 255).round().byte().permute(0, 2, 3, 1).numpy()
    assert np.array_equal(stretched, normalize_crops(crops))


def test_the_detector_rebuilt_from_its_export_computes_what_the_export_does() -> None:
    """Rebuilt from the shipped ONNX (no checkpoint of it exists), the detector gives the
    export's boxes and scores in eval mode, and in training mode on its calibration photos too:
    each batch norm's statistics are those of its input there."""
    import onnxruntime as ort

    from vision.training.detector_init import detector_from_onnx

    photos = np.random.default_rng(0).random((2, 3, 640, 640), dtype=np.float32)
    model = detector_from_onnx(MODELS_DIR / "index_detector.onnx", photos)
    session = ort.InferenceSession(
        str(MODELS_DIR / "index_detector.onnx"), providers=["CPUExecutionProvider"]
    )
    want = np.concatenate([session.run(None, {"images": photos[i : i + 1]})[0] for i in (0, 1)])
    with torch.no_grad():
        got = model(torch.from_numpy(photos))[0].numpy()
        for layer in model.modules():
            if isinstance(layer, torch.nn.BatchNorm2d):
                layer.train()  # normalise by the batch's own statistics, as in training
        trained = model(torch.from_numpy(photos))[0].numpy()
    assert got.shape == want.shape == (2, 5, 8400)
    assert np.abs(got[:, :4] - want[:, :4]).max() < 0.05  # box pixels at 640
    assert np.abs(got[:, 4] - want[:, 4]).max() < 1e-4  # scores
    assert np.abs(trained[:, 4] - want[:, 4]).max() < 1e-3


def test_a_file_that_is_not_the_detectors_export_is_refused(tmp_path: Path) -> None:
    from vision.training.detector_init import detector_from_onnx

    with pytest.raises(ValueError, match="is not a one-class YOLOv8n export"):
        detector_from_onnx(MODELS_DIR / "card_classifier.onnx", np.zeros((1, 3, 64, 64), "f4"))


def test_hard_light_blurs_or_overexposes_the_share_asked_for() -> None:
    from vision.training.train import _hard_light

    torch.manual_seed(0)
    x = torch.rand(400, 3, 64, 64) * 0.5
    assert torch.equal(_hard_light(x, 0.0), x)
    out = _hard_light(x, 0.5)
    assert out.shape == x.shape and float(out.min()) >= 0 and float(out.max()) <= 1
    changed = (out != x).flatten(1).any(1)
    brighter = out.mean((1, 2, 3)) > x.mean((1, 2, 3)) + 0.1
    blurred = changed & ~brighter
    assert 0.15 < float(brighter.float().mean()) < 0.35  # about a quarter overexposed
    assert 0.15 < float(blurred.float().mean()) < 0.35  # about a quarter blurred
    # a blur keeps the mean level and smooths the noise; the rest are left alone
    assert float((out[blurred].std((2, 3)) < x[blurred].std((2, 3))).float().mean()) == 1.0
    assert torch.equal(out[~changed], x[~changed])
