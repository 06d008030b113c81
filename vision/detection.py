"""The corner-index detector as the reader serves it, and what a reading is made of.

The detector's files (:data:`DET_ONNX`, float32, and its int8 copy :data:`INT8_ONNX`, made by
:mod:`vision.training.quantize`), its input (:func:`letterbox`), and the cards read
(:class:`DetectedCard`): shared by the reader, the card bodies and grouping, and by training
(calibration, export) without their importing one another.

The int8 copy records the SHA-256 of the float model it was made from (:data:`SOURCE_KEY` in its
metadata); :func:`load_detector` serves it only while that matches, so a folder given a new
detector but not a new copy reads in float, never with a stale copy.

The int8 copy reads the same on every CPU: an x86 CPU without VNNI (AVX2, or AVX-512 before
Cascade Lake and Zen 4) multiplies uint8 activations by int8 weights with ``vpmaddubsw``, which
adds two products into 16 bits and saturates past 32,767 (255 x 127 x 2 does), so such a CPU read
bright photos differently and found fewer cards in them. :func:`load_detector` has such a CPU,
and only such a CPU (:func:`products_saturate`), multiply as onnxruntime's
``session.x64quantprecision`` does (:data:`EXACT_INT8`): the weights as unsigned 8-bit integers
widened to 16 bits, which never saturates, so that its outputs are a VNNI CPU's to the last bit
(emulated: model card, "Speed: the detector in 8-bit integers"). A VNNI CPU keeps its kernels:
the setting would make it as slow as the float model. ARM's kernels never saturate.
"""

from __future__ import annotations

import hashlib
import importlib
import platform
from collections.abc import Mapping
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
EXACT_INT8 = ("session.x64quantprecision", "1")
"""onnxruntime's session setting (key, value) for 8-bit products that never saturate on an x86
CPU (u8 x u8 widened to 16 bits, not u8 x s8 summed in pairs into 16 bits; the module's
docstring). It costs the int8 copy its speed: on this CPU (AVX-512 VNNI) a pass at 640 then took
1.07 times the float model's time, 0.63 without it."""

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
            (:data:`vision.certainty.CHOICE_ABOVE`), best first: ``card`` and, when unsure, what
            else it may be; empty when not recorded.
        outline (Outline | None): Where the card lies, when it lies alone on its body (or
            shares one card's face, :func:`vision.bodies.with_bodies`): the body's rectangle
            (:mod:`vision.bodies`); None otherwise.
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


def products_saturate(features: Mapping[str, bool] | None = None, machine: str = "") -> bool:
    """Whether this CPU's 8-bit kernels sum u8 x s8 products in pairs into 16 bits, saturating.

    An x86-64 CPU does unless it has AVX-512 VNNI, as the CPUID instruction tells it to NumPy and
    to onnxruntime (a CPU with only AVX-VNNI, which NumPy does not name, is taken to: computing
    exactly costs it speed, not readings). Another machine (ARM) does not.

    Args:
        features (Mapping[str, bool] | None): The CPU's features by NumPy's names; None: this
            CPU's (:func:`cpu_features`).
        machine (str): :func:`platform.machine`; empty: this machine's.

    Examples:
        >>> products_saturate({"AVX2": True, "AVX512VNNI": True}, "x86_64")
        False
        >>> products_saturate({"AVX2": True, "AVX512VNNI": False}, "x86_64")
        True
        >>> products_saturate({}, "aarch64")
        False
    """
    if (machine or platform.machine()).lower() not in ("x86_64", "amd64", "x86", "i686"):
        return False
    return not (cpu_features() if features is None else features).get("AVX512VNNI", False)


def cpu_features() -> dict[str, bool]:
    """This CPU's features by NumPy's names, read by NumPy with CPUID (empty if it cannot)."""
    for name in ("numpy._core._multiarray_umath", "numpy.core._multiarray_umath"):  # NumPy 2, 1
        try:
            return dict(getattr(importlib.import_module(name), "__cpu_features__", {}))
        except ImportError:
            continue
    return {}


def load_detector(models_dir: Path, session_options: Any, int8: bool = True) -> tuple[Any, Path]:
    """The onnxruntime session of a folder's detector: its int8 copy when current, else float.

    Args:
        models_dir (Path): Folder with :data:`DET_ONNX` (and maybe :data:`INT8_ONNX`).
        session_options: onnxruntime session options (threads) shared with the reader; given
            :data:`EXACT_INT8` where :func:`products_saturate` (nothing to float models).
        int8 (bool): Serve the int8 copy when the folder holds one made from its float model.

    Returns:
        (tuple[onnxruntime.InferenceSession, Path]): The detector and the file it was loaded from.
    """
    import onnxruntime as ort

    providers = ["CPUExecutionProvider"]
    if int8 and products_saturate():
        session_options.add_session_config_entry(*EXACT_INT8)
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
