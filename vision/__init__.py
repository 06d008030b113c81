"""Camera hand reader: synthetic data, training and ONNX inference for playing-card photos.

Serving code (:mod:`vision.reader` and the modules beside it) needs only numpy, OpenCV and
onnxruntime; the code that makes the models (:mod:`vision.training`: scenes, training,
quantization, evaluation) imports Ultralytics/torch lazily, and serving never imports it.
``vision`` reads no setting: its callers (the web app, ``crib read``) give the reader its
models folder.
"""

from __future__ import annotations

from pathlib import Path

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
CARDS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""The 52 card codes, rank then suit, e.g. ``"10D"``, ``"QS"``."""

REPO_ROOT = Path(__file__).resolve().parents[1]
MODELS_DIR = REPO_ROOT / "models"
"""The shipped ONNX models (the default of the ``CRIB_VISION_MODELS`` setting)."""
CACHE_DIR = REPO_ROOT / ".cache" / "vision"
"""Rendered deck faces and other regenerable files (gitignored); the training tools' default."""
