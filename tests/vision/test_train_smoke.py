"""One-epoch training smoke test on a tiny generated set (CI installs the ``train`` extra).

Ultralytics and torch are imported unconditionally: if they are missing this test fails loudly
instead of being skipped.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import torch  # noqa: F401  (fail loudly when the train extra is missing)
import ultralytics  # noqa: F401

from vision.reader import CardReader
from vision.synth.generate import generate
from vision.train import train_classifier, train_detector


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
    # resumable: a second call continues from the checkpoint without error
    train_classifier(
        data, epochs=2, batch=64, models_dir=models, project=tmp_path / "runs", width=8, resume=True
    )
    reader = CardReader(models)
    img = cv2.imread(str(next((data / "images" / "val").glob("*.jpg"))))
    reading = reader.read(img)
    assert reading.image_size == (img.shape[1], img.shape[0])
