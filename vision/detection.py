"""The corner-index detector as the reader serves it, and what a reading is made of.

The detector's files (:data:`DET_ONNX`, float32, and its int8 copy :data:`INT8_ONNX`, made by
:mod:`vision.training.quantize`), its input (:func:`letterbox`), and the cards read
(:class:`DetectedCard`): shared by the reader, the card bodies and grouping, and by training
(calibration, export) without their importing one another.

The int8 copy records the SHA-256 of the float model it was made from (:data:`SOURCE_KEY` in its
metadata); :func:`load_detector` serves it only while that matches, so a folder given a new
detector but not a new copy reads in float, never with a stale copy.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

DET_ONNX = "index_detector.onnx"
"""The detector (float32): what training exports and fine-tunes from."""
INT8_ONNX = "index_detector.int8.onnx"
SOURCE_KEY = "quantized_from_sha256"
"""Metadata key of the int8 copy: the SHA-256 of the float model it was made from."""

Outline = tuple[tuple[float, float], tuple[float, float], float]
"""A turned rectangle as OpenCV gives it: centre (x, y), size (width, height), angle (degrees)."""


@dataclass(frozen=True)
class DetectedCard:
    """One card read from a photo.

    Attributes:
        card (str): Card code such as ``"5H"`` or ``"10D"`` (best guess even when uncertain).
        confidence (float): Probability of that identity, in [0, 1].
        box (tuple[float, float, float, float]): Corner-index box x1, y1, x2, y2 in image pixels.
        uncertain (bool): True when the identity is not trusted (low confidence).
        corners (tuple[tuple[float, float, float, float], ...]): Every corner index of this card
            that was read (``box`` is the surest of them); empty when not recorded.
        body (int | None): The stretch of card face its indices lie on: cards with the same
            body overlap or touch (:mod:`vision.bodies`); None when not found.
        choices (tuple[str, ...]): The identities the classifier found likely
            (:data:`vision.reader.CHOICE_ABOVE`), best first: ``card`` and, when unsure, what
            else it may be; empty when not recorded.
        outline (Outline | None): Where the card lies, when it lies alone on its body: the
            body's rectangle (:mod:`vision.bodies`); None otherwise.
    """

    card: str
    confidence: float
    box: tuple[float, float, float, float]
    uncertain: bool = False
    corners: tuple[tuple[float, float, float, float], ...] = ()
    body: int | None = None
    choices: tuple[str, ...] = ()
    outline: Outline | None = None

    @property
    def center(self) -> tuple[float, float]:
        """Centre of the box."""
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    @property
    def position(self) -> tuple[float, float]:
        """Where the card lies: the middle of its corner indices read, else its box's centre.

        The middle of two opposite corners is the card's centre.
        """
        if not self.corners:
            return self.center
        xs = [(b[0] + b[2]) / 2 for b in self.corners]
        ys = [(b[1] + b[3]) / 2 for b in self.corners]
        return (sum(xs) / len(xs), sum(ys) / len(ys))


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_detector(models_dir: Path, session_options: Any, int8: bool = True) -> tuple[Any, Path]:
    """The onnxruntime session of a folder's detector: its int8 copy when current, else float.

    Args:
        models_dir (Path): Folder with :data:`DET_ONNX` (and maybe :data:`INT8_ONNX`).
        session_options: onnxruntime session options (threads) shared with the reader.
        int8 (bool): Serve the int8 copy when the folder holds one made from its float model.

    Returns:
        (tuple[onnxruntime.InferenceSession, Path]): The detector and the file it was loaded from.
    """
    import onnxruntime as ort

    providers = ["CPUExecutionProvider"]
    source, copy = models_dir / DET_ONNX, models_dir / INT8_ONNX
    if int8 and copy.exists():
        session = ort.InferenceSession(str(copy), session_options, providers=providers)
        if session.get_modelmeta().custom_metadata_map.get(SOURCE_KEY) == file_sha256(source):
            return session, copy
    return ort.InferenceSession(str(source), session_options, providers=providers), source


def letterbox(img: np.ndarray, size: int) -> tuple[np.ndarray, float, tuple[int, int]]:
    """The detector's input: ``img`` scaled to fit ``size`` x ``size`` on grey, RGB, in [0, 1].

    Args:
        img (np.ndarray): uint8 BGR image.
        size (int): The detector's input side.

    Returns:
        (tuple[np.ndarray, float, tuple[int, int]]): The (1, 3, size, size) float32 tensor, the
            scale applied and the padding (x, y) in pixels.
    """
    h, w = img.shape[:2]
    s = size / max(h, w)
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    canvas = np.full((size, size, 3), 114, np.uint8)
    px, py = (size - nw) // 2, (size - nh) // 2
    canvas[py : py + nh, px : px + nw] = cv2.resize(img, (nw, nh), interpolation=interp)
    return canvas[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255, s, (px, py)
