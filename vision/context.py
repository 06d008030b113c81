"""A second look at each corner index with the card face around it (the context model).

At the size a whole cribbage table is photographed, a corner index is 20 to 30 px high and its
suit symbol a third of that: clubs and spades, hearts and diamonds, look alike there, and the
classifier of the index alone (:mod:`vision.reader`) is torn between them or sure of the wrong
one. The card's face around the index is larger: its pips, the court's art, the card's edge.
The context model is the same small classifier, trained on crops :data:`CONTEXT_SCALE` times
the index's size around the same box (``python -m vision.training.context_crops``); it reads
worse alone than the index classifier, but sees what the index does not.

Both are weighed together (:meth:`ContextModel.settle`): the product of their probabilities
names the card. A reading already certain stays certain only when the product agrees with it;
an uncertain one becomes certain only when the product is very sure
(:attr:`ContextModel.sure_above`), the context model's own top choice is the same card, and it
was one of the index classifier's two likeliest. Chosen on held-out synthetic scenes and
show-mode tables (model card, "The card face around the index").
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.crops import crop_index, crop_probabilities, normalize_crops

CONTEXT_SCALE = 3.0
"""Side of the context crop as a multiple of the longer side of the index box."""
SURE_ABOVE = 0.98
"""Least probability of the weighed reading that makes an uncertain reading certain (0.8, 0.9,
0.95 and 0.98 tried: from 0.95 down, blurred and dark held-out scenes gained wrong certain
cards; at 0.98 precision held under every condition)."""
WEIGHED_BELOW = 0.97
"""Only readings whose top probability is under this are weighed with their context: surer ones
stand (on the held-out scenes and show-mode tables of the choice the figures were the same as
weighing every reading, for 57 to 75 % of the context model's work; under 0.9 a wrong certain
reading the context would have vetoed stood four times in 180 tables)."""
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
        sure_above (float): Least probability of the weighed reading that makes an uncertain
            reading certain (:data:`SURE_ABOVE`).
    """

    def __init__(self, onnx: Path, session_options: object) -> None:
        import onnxruntime as ort

        meta = json.loads(onnx.with_suffix(".json").read_text())
        self.classes: list[str] = meta["classes"]
        self.crop_size = int(meta["crop_size"])
        self.crop_scale = float(meta["crop_scale"])
        self.normalize = bool(meta["normalize"])
        self.sure_above = SURE_ABOVE
        self._none = self.classes.index("none")
        self._session = ort.InferenceSession(
            str(onnx), session_options, providers=["CPUExecutionProvider"]
        )
        self._input = self._session.get_inputs()[0].name

    def probabilities(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """Class probabilities (N, C) of the context crops around ``boxes`` on ``image``."""
        crops = np.stack(
            [crop_index(image, tuple(b), self.crop_size, self.crop_scale) for b in boxes]
        )
        if self.normalize:
            crops = normalize_crops(crops)
        return crop_probabilities(self._session, self._input, crops)

    def weigh(
        self, image: np.ndarray, boxes: np.ndarray, probs: np.ndarray, sure: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`settle` the readings under :data:`WEIGHED_BELOW` with their context crops.

        Args:
            image (np.ndarray): uint8 BGR photo the indices were found on.
            boxes (np.ndarray): (N, 4) index boxes in ``image`` pixels.
            probs (np.ndarray): (N, C) the index classifier's probabilities.
            sure (np.ndarray): bool (N,) which of those readings are certain.

        Returns:
            (tuple[np.ndarray, np.ndarray]): Probabilities and certainty, those of the readings
            weighed replaced.
        """
        weighed = np.flatnonzero(probs.max(1) < WEIGHED_BELOW)
        if len(weighed) == 0:
            return probs, sure
        probs, sure = probs.copy(), sure.copy()
        context = self.probabilities(image, boxes[weighed])
        probs[weighed], sure[weighed] = self.settle(probs[weighed], sure[weighed], context)
        return probs, sure

    def settle(
        self, probs: np.ndarray, sure: np.ndarray, context: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The readings weighed with their context, and which of them are certain.

        Args:
            probs (np.ndarray): (N, C) the index classifier's probabilities.
            sure (np.ndarray): bool (N,) which of those readings are certain.
            context (np.ndarray): (N, C) the context model's probabilities of the same indices.

        Returns:
            (tuple[np.ndarray, np.ndarray]): The product of both, renormalised over the cards
            (``none`` set to 0), and which readings are certain now.

        Examples:
            >>> m = ContextModel.__new__(ContextModel)
            >>> m._none, m.sure_above = 2, 0.9
            >>> probs = np.array([[0.5, 0.45, 0.05], [0.9, 0.05, 0.05], [0.6, 0.35, 0.05]])
            >>> context = np.array([[0.02, 0.98, 0.0], [0.02, 0.98, 0.0], [0.99, 0.01, 0.0]])
            >>> both, certain = m.settle(probs, np.array([False, True, True]), context)
            >>> both.argmax(1).tolist(), certain.tolist()
            ([1, 1, 0], [True, False, True])
        """
        both = probs * context
        both[:, self._none] = 0.0
        both = both / np.maximum(both.sum(1, keepdims=True), 1e-12)
        top = both.argmax(1)
        first_two = np.argsort(-probs, axis=1)[:, :2]
        settled = (
            (both.max(1) >= self.sure_above)
            & (context.argmax(1) == top)
            & (first_two == top[:, None]).any(1)
        )
        return both, (sure & (top == probs.argmax(1))) | settled


def load_context(models_dir: Path, session_options: object) -> ContextModel | None:
    """The context model in ``models_dir``, or None when the folder has none."""
    onnx = models_dir / CONTEXT_ONNX
    return ContextModel(onnx, session_options) if onnx.exists() else None


__all__ = ["CONTEXT_SCALE", "ContextModel", "load_context"]
