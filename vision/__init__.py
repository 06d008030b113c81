"""Camera hand reader: synthetic data, training and ONNX inference for playing-card photos.

Serving code (:mod:`vision.reader` and the modules beside it) needs only numpy, OpenCV and
onnxruntime; the code that makes the models (:mod:`vision.training`: scenes, training,
quantization, evaluation) imports Ultralytics/torch lazily, and serving never imports it.
"""

from __future__ import annotations

from pathlib import Path

from crib.settings import value

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
CARDS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""The 52 card codes, rank then suit, e.g. ``"10D"``, ``"QS"``."""

REPO_ROOT = Path(__file__).resolve().parents[1]
MODELS_DIR: Path = value("VISION_MODELS")
"""Shipped ONNX models (the ``CRIB_VISION_MODELS`` setting, :mod:`crib.settings`)."""
CACHE_DIR: Path = value("VISION_CACHE")
"""Rendered deck faces and other regenerable files (gitignored; ``CRIB_VISION_CACHE``)."""
