"""A second look at each corner index with the card face around it (the context model).

At the size a whole cribbage table is photographed, a corner index is 20 to 30 px high and its
suit symbol a third of that: clubs and spades, hearts and diamonds, look alike there, and the
classifier of the index alone (:mod:`vision.reader`) is torn between them or sure of the wrong
one. The card's face around the index is larger: its pips, the court's art, the card's edge.
The context model is the same small classifier, trained on crops :data:`CONTEXT_SCALE` times
the index's size around the same box (``python -m vision.training.context_crops``); it reads
worse alone than the index classifier, but sees what the index does not.

The reader reads the context of every index read under :data:`WEIGHED_BELOW`; how both
readings are weighed together is decided in :meth:`vision.certainty.Certainty.settle`. Chosen on
held-out synthetic scenes and show-mode tables (model card, "The card face around the index").
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.crops import (
    SOFTEN_SIGMA,
    crop_index,
    crop_probabilities,
    normalize_crops,
    soften_crops,
)

CONTEXT_SCALE = 3.0
"""Side of the context crop as a multiple of the longer side of the index box."""
WEIGHED_BELOW = 0.97
"""Only readings whose top probability is under this are weighed with their context: surer ones
stand."""
CONTEXT_ONNX = "card_context.onnx"
CONTEXT_JSON = "card_context.json"


class ContextModel:
    """The context classifier of a models folder (``card_context.onnx`` and its JSON).

    Args:
        onnx (Path): The model.
        session_options: onnxruntime session options (threads) shared with the reader.

    Attributes:
        classes (list[str]): Class names, the reader's order (52 cards and ``none``).
        crop_scale (float): Crop side as a multiple of the index box's longer side.
    """

    def __init__(self, onnx: Path, session_options: object) -> None:
        import onnxruntime as ort

        meta = json.loads(onnx.with_suffix(".json").read_text())
        self.classes: list[str] = meta["classes"]
        self.crop_size = int(meta["crop_size"])
        self.crop_scale = float(meta["crop_scale"])
        self.normalize = bool(meta["normalize"])
        self._session = ort.InferenceSession(
            str(onnx), session_options, providers=["CPUExecutionProvider"]
        )
        self._input = self._session.get_inputs()[0].name

    def probabilities(
        self, image: np.ndarray, boxes: np.ndarray, soften: float = SOFTEN_SIGMA
    ) -> np.ndarray:
        """Class probabilities (N, C) of the context crops around ``boxes`` on ``image``.

        Each crop is softened by a Gaussian of ``soften`` crop pixels first
        (:func:`vision.crops.soften_crops`).
        """
        crops = np.stack(
            [crop_index(image, tuple(b), self.crop_size, self.crop_scale) for b in boxes]
        )
        crops = soften_crops(crops, soften)
        if self.normalize:
            crops = normalize_crops(crops)
        return crop_probabilities(self._session, self._input, crops)


def load_context(models_dir: Path, session_options: object) -> ContextModel | None:
    """The context model in ``models_dir``, or None when the folder has none."""
    onnx = models_dir / CONTEXT_ONNX
    return ContextModel(onnx, session_options) if onnx.exists() else None


__all__ = ["CONTEXT_SCALE", "WEIGHED_BELOW", "ContextModel", "load_context"]
