"""Read the playing cards in a photo: ONNX corner-index detector + crop classifier (no torch).

API (stable; used by the web app and ``crib read``):

    from vision.reader import read_cards, read_image_bytes
    reading = read_cards("photo.jpg", models_dir)    # a path, the file's bytes or a BGR array
    reading = read_image_bytes(data, models_dir)     # an upload: also an error for no card
    for c in reading.cards:                          # list[DetectedCard]
        c.card, c.confidence, c.box, c.uncertain     # "5H", 0.97, (x1, y1, x2, y2) px, False
        c.choices                                    # ("5H", "5D"): the likeliest, best first
    reading.starter_index                            # index into reading.cards, or None
    reading.certain_cards                            # codes of the cards read with confidence

Photos given as bytes or paths are checked and decoded by :mod:`vision.upload`, which raises
:class:`vision.errors.ImageError` for an empty, truncated or non-image upload or one over
:data:`vision.upload.MAX_PIXELS`; ``read_image_bytes`` adds
:class:`~vision.errors.NoCardsError` when no card is found (and
:class:`~vision.errors.TooManyCardsError` only when a caller sets ``max_cards``: a whole table
is 13 to 21 cards, and spurious uncertain readings count too, so the app never does).

How it reads: the detector (its int8 copy when the folder holds a current one:
:mod:`vision.detection`) finds printed corner indices (rank + suit, one class) on the whole photo
letterboxed to 640 px and, for large photos whose indices come out small, on windows around
them zoomed in (a second look: :mod:`vision.second_look`); each index is cut from the
full-resolution photo and named by the classifier (52 cards + "none"); a crop it is unsure of
is read again turned by 90, 180 and 270 degrees and the four readings are averaged; a reading
under 0.97 is weighed with the card face around the index
(:mod:`vision.context`: a second small classifier of a crop three times as wide, which tells clubs
from spades where the index's own suit is a few pixels high). Detections of one identity that are
plausibly the same physical card (its two corners) are merged, and each card notes the light card
face its indices lie on (:mod:`vision.bodies`: cards that overlap share one); two corners read as
different but likely-alike cards, the only ones on a card-shaped face and at its opposite corners,
are one card read from both (the product of their probabilities). The reader gathers this
evidence, and each card's body's (:mod:`vision.evidence`); :mod:`vision.certainty` decides which
cards are certain, and the rest are returned with ``uncertain=True`` instead of being guessed.
The starter is the card set apart from the rest (farthest from the centroid of the others by a
clear margin, each card placed at the middle of its corners read, :attr:`DetectedCard.position`);
callers may override it.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache, partial
from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from vision import CARDS
from vision.bodies import with_bodies
from vision.certainty import (
    DEFAULT_CORROBORATION,
    NO_CORROBORATION,
    SERVING_CERTAINTY,
    CardEvidence,
    Certainty,
    Corroboration,
    likeliest,
    one_deck,
)
from vision.context import WEIGHED_BELOW, load_context
from vision.crops import (
    CROP_SCALE,
    CROP_SIZE,
    SOFTEN_SIGMA,
    crop_index,
    crop_probabilities,
    normalize_crops,
)
from vision.detection import DetectedCard, letterbox, load_detector
from vision.errors import NoCardsError, TooManyCardsError
from vision.evidence import (
    BodyModel,
    CropEvidence,
    crop_quality,
    face_crop,
    frame_colour,
    index_redness,
    load_body,
    soften_sharp_crops,
)
from vision.second_look import look, plan
from vision.upload import decode_upload


@dataclass
class Reading:
    """The result of reading one photo.

    Attributes:
        cards (list[DetectedCard]): Cards found, left to right.
        starter_index (int | None): Index in ``cards`` of the card set apart, if any.
        image_size (tuple[int, int]): (width, height) of the photo read.
        seconds (float): Time spent reading.
    """

    cards: list[DetectedCard] = field(default_factory=list)
    starter_index: int | None = None
    image_size: tuple[int, int] = (0, 0)
    seconds: float = 0.0

    @property
    def certain_cards(self) -> list[str]:
        """Codes of the cards read with confidence."""
        return [c.card for c in self.cards if not c.uncertain]


DETECTOR_CONF = 0.25
"""Least detector score of a corner index."""
SMALL_INDEX = 16
"""A photo over 1.6 times the detector's size gets a second look when its corner indices come out
under this many pixels (median) at that size."""
LOOK_AROUND_FROM = 4
"""Fewer first detections than this (a hand's worth) on a photo over 1.6 times the detector's
size say little of the cards' size: the photo gets a second look, unless the classifier reads
them as cards whose indices are large (:data:`FEW_BUT_LARGE`). From this many on, the indices'
size decides (:data:`SMALL_INDEX`)."""
HINT = 0.1
"""Least detector score of a small first detection that the second look looks around: the first
pass often scores an index too small for it under :data:`DETECTOR_CONF` (not reported). Chosen
on synthetic tables (the model card's HISTORY.md)."""
UNSURE_HINT = 0.05
"""Least detector score of a small first detection that the second look looks around too where
its canvases have room for it."""
FEW_BUT_LARGE = 24
"""A big photo with fewer than :data:`LOOK_AROUND_FROM` first detections gets no second look
when those the classifier reads as cards (not ``none``) come out this many pixels or more
(median) at the detector's size: a photo of one or two cards held close."""


def _nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> list[int]:
    if len(boxes) == 0:
        return []
    xywh = np.c_[boxes[:, :2], boxes[:, 2:] - boxes[:, :2]].tolist()
    keep = cv2.dnn.NMSBoxes(xywh, scores.tolist(), 0.0, iou)
    return [int(i) for i in np.array(keep).flatten()]


def _joined(
    boxes: np.ndarray, scores: np.ndarray, more: np.ndarray, more_scores: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Two passes' boxes and scores, one box kept of those that overlap (non-maximum)."""
    boxes, scores = np.concatenate([boxes, more]), np.concatenate([scores, more_scores])
    keep = _nms(boxes, scores, 0.5)
    return boxes[keep], scores[keep]


def starter_index(centers: list[tuple[float, float]], margin: float = 1.6) -> int | None:
    """Index of the card set apart from the others, or None if no card clearly is.

    The candidate is the card farthest from the centroid of the rest; it must be more than
    ``margin`` times farther than the runner-up and more than twice the spread of the rest.

    Args:
        centers (list[tuple[float, float]]): Card centres.
        margin (float): Required ratio to the second-farthest card.

    Returns:
        (int | None): The index, or None.

    Examples:
        >>> starter_index([(0, 0), (10, 0), (20, 0), (30, 0), (15, 200)])
        4
        >>> starter_index([(0, 0), (10, 0), (20, 0), (30, 0)]) is None
        True
    """
    n = len(centers)
    if n < 3:
        return None
    p = np.asarray(centers, np.float64)
    d = np.empty(n)
    spread = np.empty(n)
    for i in range(n):
        rest = np.delete(p, i, 0)
        c = rest.mean(0)
        d[i] = np.linalg.norm(p[i] - c)
        spread[i] = np.linalg.norm(rest - c, axis=1).mean()
    order = np.argsort(-d)
    best, second = order[0], order[1]
    if d[best] > margin * d[second] and d[best] > 2.0 * spread[best] + 1e-9:
        return int(best)
    return None


@dataclass(frozen=True)
class ReaderOptions:
    """How a :class:`CardReader` reads; benchmarks vary them with :func:`dataclasses.replace`.

    Attributes:
        certainty (Certainty | None): When a crop's reading is certain
            (:class:`vision.certainty.Certainty`); None: the classifier's own operating point
            (``"certainty"`` in ``card_classifier.json``), else
            :data:`vision.certainty.SERVING_CERTAINTY`.
        corroboration (Corroboration): The reader's rule for a card's body, ink and resolution
            (:class:`vision.certainty.Corroboration`; a read may give another):
            :data:`~vision.certainty.STRICT_CORROBORATION` asks about most cards read on
            small soft indices or in a washed-out photo, at a cost in recall;
            :data:`~vision.certainty.NO_CORROBORATION` trusts every index alone.
        none_above (float): A detection whose probability of ``none`` (not an index) is at
            least this is dropped, even when a card is likelier.
        turn_below (float): A crop read with a top probability under this is also read turned
            (:meth:`CardReader.classify`).
        tiles (str): ``"auto"`` (a second look on large photos whose indices come out small),
            ``"always"`` (2x2 tiles on every photo) or ``"never"``.
        context (bool): Weigh unsure readings with the card face around the index when the
            folder holds a context model (``card_context.onnx``, :mod:`vision.context`).
        int8 (bool): Detect with the detector's int8 copy (``index_detector.int8.onnx``,
            :mod:`vision.detection`) when the folder holds one made from its float model.
        soften (float): The Gaussian (crop pixels) the sharp index crops, and every context
            crop, are softened with before they are read (:data:`vision.crops.SOFTEN_SIGMA`; 0:
            as cut).
    """

    certainty: Certainty | None = None
    corroboration: Corroboration = DEFAULT_CORROBORATION
    none_above: float = 0.05
    turn_below: float = 0.9
    tiles: Literal["auto", "always", "never"] = "auto"
    context: bool = True
    int8: bool = True
    soften: float = SOFTEN_SIGMA


class CardReader:
    """Corner-index detector + crop classifier, both ONNX (onnxruntime, CPU).

    Args:
        models_dir (Path): Folder with ``index_detector.onnx``, ``card_classifier.onnx`` and
            ``card_classifier.json`` (and, optional, ``card_context.onnx``,
            ``index_detector.int8.onnx`` and ``card_body.onnx``).
        options (ReaderOptions): How it reads.
        threads (int): onnxruntime intra-op threads.

    Crops are contrast-stretched (:func:`vision.crops.normalize_crops`) before classifying when
    the classifier was trained so (``"normalize": true`` in ``card_classifier.json``).

    Attributes:
        options (ReaderOptions): How it reads.
        certainty (Certainty): Its operating point (:attr:`ReaderOptions.certainty`, resolved).
        detector_file (Path): The detector's file read (the float model or its int8 copy).
    """

    def __init__(
        self, models_dir: Path, options: ReaderOptions = ReaderOptions(), threads: int = 2
    ) -> None:
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        # idle intra-op threads sleep: spinning, they burned a second core for nothing (a read
        # on 2 threads cost 467 ms of CPU spinning, 258 ms not, on 1 thread 238 ms)
        so.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.options = options
        self.det, self.detector_file = load_detector(models_dir, so, options.int8)
        self.cls = ort.InferenceSession(
            str(models_dir / "card_classifier.onnx"), so, providers=["CPUExecutionProvider"]
        )
        meta = json.loads((models_dir / "card_classifier.json").read_text())
        self.classes: list[str] = meta["classes"]
        self._none = self.classes.index("none") if "none" in self.classes else -1
        self.crop_size = int(meta.get("crop_size", CROP_SIZE))
        self.crop_scale = float(meta.get("crop_scale", CROP_SCALE))
        self.normalize = bool(meta.get("normalize", False))
        det_input = self.det.get_inputs()[0]
        self._det_input = det_input.name
        self._cls_input = self.cls.get_inputs()[0].name
        shape = det_input.shape
        self.imgsz = int(shape[2]) if isinstance(shape[2], int) else 640
        certainty = options.certainty
        if certainty is None:
            certainty = Certainty(**meta["certainty"]) if "certainty" in meta else SERVING_CERTAINTY
        self.certainty = certainty
        self.context = load_context(models_dir, so) if options.context else None
        self._load_body = partial(load_body, models_dir, so)
        self._lock = threading.Lock()

    # ------------------------------------------------------------------------------ detector
    def _detect(
        self, img: np.ndarray, least: float = DETECTOR_CONF
    ) -> tuple[np.ndarray, np.ndarray]:
        """Boxes (N, 4, ``img`` pixels) and scores of ``least`` or more, surest first.

        ``img`` is letterboxed to the model's size.
        """
        h, w = img.shape[:2]
        x, s, (px, py) = letterbox(img, self.imgsz)
        out = self.det.run(None, {self._det_input: x})[0][0]  # (5, N)
        scores = out[4]
        k = scores >= least
        if not k.any():
            return np.zeros((0, 4), np.float32), np.zeros((0,), np.float32)
        cx, cy, bw, bh = out[:4, k]
        boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], 1)
        boxes = (boxes - [px, py, px, py]) / s
        boxes = np.clip(boxes, 0, [w, h, w, h])
        sc = scores[k]
        keep = _nms(boxes, sc, 0.5)
        return boxes[keep].astype(np.float32), sc[keep].astype(np.float32)

    def _tiles(self, h: int, w: int) -> list[tuple[int, int, int, int]]:
        """Overlapping 2x2 (or 2x1) tiles covering the image."""
        tw, th = int(w * 0.6), int(h * 0.6)
        xs = [0, w - tw] if w > 1.3 * self.imgsz else [0]
        ys = [0, h - th] if h > 1.3 * self.imgsz else [0]
        return [(x, y, tw if len(xs) > 1 else w, th if len(ys) > 1 else h) for y in ys for x in xs]

    def detect(
        self, image: np.ndarray, cards: Callable[[np.ndarray], np.ndarray] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Find corner indices; returns boxes (N, 4) x1, y1, x2, y2 in image pixels and scores.

        A photo over 1.6 times the model's size whose indices come out under
        :data:`SMALL_INDEX` px at that size (median) gets a second look
        (:func:`vision.second_look.plan`) around its small first detections of :data:`HINT` or
        more (and, where the look's canvases have room, around those of :data:`UNSURE_HINT` or
        more). Fewer than :data:`LOOK_AROUND_FROM` first detections say little of the indices'
        size: those read as cards of :data:`FEW_BUT_LARGE` px or more get no second look, the
        rest is looked around too. The photo is looked at in 2x2 tiles where there is nothing to
        look around or the look's windows do not fit its canvases.

        Args:
            image (np.ndarray): uint8 BGR photo.
            cards: Which of some first detections' boxes are cards (bool (N,): the
                classifier's reading, :meth:`on_cards`), asked only when they are few on a big
                photo; None: every detection may be print, and few get the second look.
        """
        h, w = image.shape[:2]
        auto = self.options.tiles == "auto" and max(h, w) > 1.6 * self.imgsz
        found, found_scores = self._detect(image, UNSURE_HINT if auto else DETECTOR_CONF)
        sure = found_scores >= DETECTOR_CONF
        boxes, scores = found[sure], found_scores[sure]
        if self.options.tiles == "always":
            return self._tiled(image, boxes, scores)
        if not auto:
            return boxes, scores
        at_size = (found[:, 2:] - found[:, :2]).max(1) * self.imgsz / max(h, w)
        looked_around = (at_size < SMALL_INDEX) & (found_scores >= HINT)
        if len(boxes) >= LOOK_AROUND_FROM:
            if float(np.median(at_size[sure])) >= SMALL_INDEX:
                return boxes, scores
        elif len(boxes) and cards is not None:
            on_card = cards(boxes)
            if on_card.any() and float(np.median(at_size[sure][on_card])) >= FEW_BUT_LARGE:
                return boxes, scores
            looked_around[np.flatnonzero(sure)[on_card]] = True
        unsure = found[(at_size < SMALL_INDEX) & ~looked_around]
        windows = plan(found[looked_around], (w, h), self.imgsz, unsure)
        if windows is None:
            return self._tiled(image, boxes, scores)
        more, more_scores = look(image, windows, self.imgsz, self._detect)
        return _joined(boxes, scores, more, more_scores)

    def _tiled(
        self, image: np.ndarray, boxes: np.ndarray, scores: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The first pass's ``boxes`` and ``scores`` with those found on 2x2 (or 2x1) tiles."""
        h, w = image.shape[:2]
        more, more_scores = [], []
        for x, y, tw, th in self._tiles(h, w):
            b, s = self._detect(image[y : y + th, x : x + tw])
            more.append(b + np.array([x, y, x, y], np.float32))
            more_scores.append(s)
        return _joined(boxes, scores, np.concatenate(more), np.concatenate(more_scores))

    # ------------------------------------------------------------------------------ classifier
    def classify(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """Class probabilities (N, 53) for the crops around ``boxes``.

        A crop whose top probability is under :attr:`ReaderOptions.turn_below` is also read
        turned by 90, 180 and 270 degrees (the classifier was trained on indices at every
        angle) and the four probability vectors are averaged, which steadies unsure readings.
        """
        return self._classify(self.crops(image, boxes))

    def _classify(self, crops: np.ndarray) -> np.ndarray:
        """:meth:`classify` of the crops as photographed (stretched first if the model was)."""
        if len(crops) == 0:
            return np.zeros((0, len(self.classes)), np.float32)
        return self._read_crops(normalize_crops(crops) if self.normalize else crops)

    def _classify_anew(
        self, crops: np.ndarray, boxes: np.ndarray, known: dict[bytes, np.ndarray]
    ) -> np.ndarray:
        """:meth:`_classify` of the crops around ``boxes`` but those ``known`` already (by box)."""
        rows = [known.get(box.tobytes()) for box in boxes]
        new = [k for k, row in enumerate(rows) if row is None]
        if len(new) == len(boxes):
            return self._classify(crops)
        empty = np.zeros(len(self.classes), np.float32)
        probs = np.stack([empty if row is None else row for row in rows])
        if new:
            probs[new] = self._classify(crops[new])
        return probs

    def crops(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """The uint8 BGR crops (N, S, S, 3) around ``boxes``, softened where sharp.

        A crop not blurred already (by :attr:`certainty`'s measure) is softened by
        :attr:`ReaderOptions.soften` (:func:`vision.evidence.soften_sharp_crops`).
        """
        if len(boxes) == 0:
            return np.zeros((0, self.crop_size, self.crop_size, 3), np.uint8)
        crops = np.stack(
            [crop_index(image, tuple(b), self.crop_size, self.crop_scale) for b in boxes]
        )
        return soften_sharp_crops(crops, self.certainty.blurred_below, self.options.soften)

    def _read_crops(self, crops: np.ndarray) -> np.ndarray:
        """Class probabilities of crops as given, those under ``turn_below`` read turned too."""
        probs = self._probabilities(crops)
        unsure = np.flatnonzero(probs.max(1) < self.options.turn_below)
        if len(unsure):
            turned = np.concatenate([np.rot90(crops[unsure], k, axes=(1, 2)) for k in (1, 2, 3)])
            more = self._probabilities(turned).reshape(3, len(unsure), -1)
            probs[unsure] = (probs[unsure] + more.sum(0)) / 4
        return probs

    def _probabilities(self, crops: np.ndarray) -> np.ndarray:
        """Softmax of the classifier over uint8 BGR crops (N, S, S, 3)."""
        return crop_probabilities(self.cls, self._cls_input, crops)

    def on_cards(self, probs: np.ndarray) -> np.ndarray:
        """Which detections are corner indices on a card (the rest are not reported at all).

        A detection is dropped when the classifier's likeliest class is ``none``, or when its
        probability of ``none`` is at least :attr:`ReaderOptions.none_above`.

        Returns:
            (np.ndarray): bool (N,).
        """
        keep: np.ndarray = probs.argmax(1) != self._none
        if self._none >= 0:
            keep &= probs[:, self._none] < self.options.none_above
        return keep

    def evidence(
        self,
        image: np.ndarray,
        boxes: np.ndarray,
        probs: np.ndarray,
        crops: np.ndarray | None = None,
    ) -> CropEvidence:
        """What the readings ``probs`` of the crops around ``boxes`` rest on besides probability.

        Each crop's clipped share and sharpness (:func:`vision.evidence.crop_quality`) and its
        ink's redness (:func:`vision.evidence.index_redness`); for a reading under
        :data:`vision.context.WEIGHED_BELOW`, the context model's reading of the face around it.
        ``crops`` are the crops read (:meth:`crops`), cut again when not given.
        """
        if crops is None:
            crops = self.crops(image, boxes)
        context = np.full((len(boxes), len(self.classes)), np.nan, np.float32)
        weighed = np.flatnonzero(probs.max(1) < WEIGHED_BELOW)
        if self.context is not None and len(weighed):
            context[weighed] = self.context.probabilities(
                image, boxes[weighed], self.options.soften
            )
        if len(crops) == 0:
            empty = np.zeros(0)
            return CropEvidence(empty, empty, empty, context)
        clipped, sharpness = crop_quality(crops)
        return CropEvidence(clipped, sharpness, index_redness(crops, self.crop_scale), context)

    # ------------------------------------------------------------------------------ reading
    def read(
        self, image: np.ndarray, scale: float = 1.0, corroboration: Corroboration | None = None
    ) -> Reading:
        """Read the cards in a BGR photo.

        Args:
            image (np.ndarray): uint8 BGR image (H, W, 3); grayscale and BGRA are converted.
            scale (float): Photo pixels per ``image`` pixel when the photo was decoded at reduced
                size; boxes and ``image_size`` are then given in the photo's pixels.
            corroboration (Corroboration | None): The rule of this read (default: the reader's,
                :attr:`ReaderOptions.corroboration`).

        Returns:
            (Reading): Cards with confidences and boxes, and the starter guess.
        """
        t0 = time.perf_counter()
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        elif image.shape[2] == 4:
            image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
        with self._lock:
            first: dict[bytes, np.ndarray] = {}  # the first detections' readings, by box

            def cards(found: np.ndarray) -> np.ndarray:
                read = self._classify(self.crops(image, found))
                first.update((box.tobytes(), p) for box, p in zip(found, read, strict=True))
                return self.on_cards(read)

            boxes, det_scores = self.detect(image, cards)
            crops = self.crops(image, boxes)
            probs = self._classify_anew(crops, boxes, first)
            on_card = self.on_cards(probs)  # not a corner index
            boxes, det_scores, probs = boxes[on_card], det_scores[on_card], probs[on_card]
            evidence = self.evidence(image, boxes, probs, crops[on_card])
            probs, sure = self.certainty.settle(probs, evidence, self._none)
        cand = []
        # by a detection's box: its likeliest readings, and whether it is read with certainty
        choices: dict[Box, tuple[str, ...]] = {}
        certain: dict[Box, bool] = {}
        for b, ds, p, is_sure in zip(boxes, det_scores, probs, sure, strict=True):
            k = int(p.argmax())
            x1, y1, x2, y2 = (float(v) for v in b)
            cand.append((self.classes[k], float(p[k]), float(ds), (x1, y1, x2, y2)))
            choices[(x1, y1, x2, y2)] = likeliest(p, self.classes)
            certain[(x1, y1, x2, y2)] = bool(is_sure)
        merged = _merge_corners(cand)
        out = [
            DetectedCard(
                c,
                conf,
                _scaled(b, scale),
                not any(certain[corner] for corner in corners),  # one certain corner suffices
                tuple(_scaled(corner, scale) for corner in corners),
                choices=choices[b],
            )
            for c, conf, b, corners in merged
        ]
        rows = {_scaled(box, scale): k for k, (_, _, _, box) in enumerate(cand)}
        read_as_one = partial(self._read_as_one, rows=rows, probs=probs, evidence=evidence)
        rule = self.options.corroboration if corroboration is None else corroboration
        out = with_bodies(image, out, scale, one_card=read_as_one, shared_faces=rule.shared_faces)
        if rule != NO_CORROBORATION:
            out = self.corroborated(image, out, scale, rows, probs, evidence, rule)
        out = one_deck(out)
        out.sort(key=lambda c: (c.center[0], c.center[1]))
        st = starter_index([c.position for c in out])
        h, w = image.shape[:2]
        return Reading(out, st, (round(w * scale), round(h * scale)), time.perf_counter() - t0)

    @cached_property
    def body(self) -> BodyModel | None:
        """The folder's body model (:mod:`vision.evidence`), or None.

        Loaded when a corroboration rule first needs it (none does with
        :data:`vision.certainty.NO_CORROBORATION`).
        """
        return self._load_body()

    def corroborated(
        self,
        image: np.ndarray,
        cards: list[DetectedCard],
        scale: float,
        rows: dict[Box, int],
        probs: np.ndarray,
        evidence: CropEvidence,
        rule: Corroboration,
    ) -> list[DetectedCard]:
        """``cards`` as ``rule`` decides them (:meth:`vision.certainty.Corroboration.decide`).

        Gathers each card's evidence (:class:`vision.certainty.CardEvidence`): its body read
        by the body model where :mod:`vision.bodies` found its face (a card certain at its index,
        or one its body may confirm), its indices' size and sharpness, whether it shares one
        card's face, its corners' ink and readings, and the photo's colour.

        Args:
            image (np.ndarray): The photo as read.
            cards (list[DetectedCard]): The cards read, their boxes in photo pixels.
            scale (float): Photo pixels per ``image`` pixel.
            rows (dict[Box, int]): Each corner box's row in ``probs``.
            probs (np.ndarray): The readings of every corner.
            evidence (CropEvidence): What every corner's reading rests on, by row.
            rule (Corroboration): When a card is certain.
        """
        faces = [
            k
            for k, card in enumerate(cards)
            if card.outline is not None
            and (not card.uncertain or rule.may_confirm(card.card, card.confidence))
        ]
        read = []
        if self.body is not None and faces:
            crops = [face_crop(image, cards[k].outline, scale) for k in faces]  # type: ignore[arg-type]
            read = self.body.read(np.stack(crops))
        bodies = dict(zip(faces, read, strict=False))
        on_body = Counter(card.body for card in cards if card.outline is not None)
        frame = frame_colour(image)
        out = []
        for k, card in enumerate(cards):
            corners = [rows[b] for b in card.corners if b in rows]
            index_px = float(np.median([max(b[2] - b[0], b[3] - b[1]) for b in card.corners]))
            card_evidence = CardEvidence(
                index_px=index_px / scale,
                sharpness=max((float(evidence.sharpness[r]) for r in corners), default=0),
                shares_face=card.outline is not None and on_body[card.body] > 1,
                frame=frame,
                body=bodies.get(k),
                inks=tuple(float(evidence.redness[r]) for r in corners),
                corners=probs[corners],
            )
            out.append(rule.decide(card, card_evidence, self.classes))
        return out

    def _read_as_one(
        self,
        first: DetectedCard,
        second: DetectedCard,
        rows: dict[Box, int],
        probs: np.ndarray,
        evidence: CropEvidence,
    ) -> DetectedCard | None:
        """One card read from two corners read as different cards, or None if they are two.

        ``rows`` gives each card's row in ``probs`` and ``evidence`` by its box. Two corners
        with no likely identity in common (:attr:`DetectedCard.choices`) are two cards. The
        card is the likeliest identity by the product of both corners' probabilities, certain
        when that reading would be certain for each of the two crops, asked about otherwise.
        """
        if not set(first.choices) & set(second.choices):
            return None  # not one card misread a little: two cards (one under the other)
        a, b = rows[first.box], rows[second.box]
        joint = self.certainty.read_as_one(probs[a], probs[b], evidence.rows([a, b]), self._none)
        if joint is None:
            return None
        both, sure = joint
        k = int(both.argmax())
        return DetectedCard(
            self.classes[k],
            float(both[k]),
            max(first, second, key=lambda card: card.confidence).box,
            not sure,
            first.corners + second.corners,
            choices=likeliest(both, self.classes),
        )


Box = tuple[float, float, float, float]


def _scaled(box: Box, scale: float) -> Box:
    return (box[0] * scale, box[1] * scale, box[2] * scale, box[3] * scale)


def _merge_corners(
    cand: list[tuple[str, float, float, Box]],
    reach: float = 9.0,
) -> list[tuple[str, float, Box, list[Box]]]:
    """Merge same-identity detections that are plausibly two corners of one card.

    Two detections of one identity are the same card when their centres are closer than ``reach``
    times the longer side of the larger box (a card's diagonal is about 5-6 index heights). Each
    card keeps its surest box and the list of all its corner boxes.
    """
    cand = sorted(cand, key=lambda c: -c[1] * c[2])
    kept: list[tuple[str, float, Box, list[Box]]] = []
    for card, conf, _ds, box in cand:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        side = max(box[2] - box[0], box[3] - box[1])
        dup = False
        for k_card, _k_conf, kb, corners in kept:
            if k_card != card:
                continue
            kx, ky = (kb[0] + kb[2]) / 2, (kb[1] + kb[3]) / 2
            ks = max(kb[2] - kb[0], kb[3] - kb[1], side)
            if np.hypot(cx - kx, cy - ky) < reach * ks:
                dup = True
                corners.append(box)
                break
        if not dup:
            kept.append((card, conf, box, [box]))
    return kept


def load_reader(models_dir: Path | str) -> CardReader:
    """The shared :class:`CardReader` for ``models_dir`` (created once; safe to share)."""
    return _load_reader(str(Path(models_dir).resolve()))


@lru_cache(maxsize=4)
def _load_reader(models_dir: str) -> CardReader:
    return CardReader(Path(models_dir))


Decode = Callable[[bytes], tuple[np.ndarray, float]]
"""Decodes an image file's bytes to BGR and its scale to full size (as :func:`_decode_reduced`)."""


def _decode_reduced(data: bytes) -> tuple[np.ndarray, float]:
    return decode_upload(data, reduce=True)


def read_cards(
    image: np.ndarray | bytes | str | Path,
    models_dir: Path,
    *,
    decode: Decode = _decode_reduced,
    corroboration: Corroboration | None = None,
) -> Reading:
    """Read the cards in a photo: each with its confidence and box, and the starter guess.

    Args:
        image (np.ndarray | bytes | str | Path): A BGR image, or an image file's bytes or path
            (decoded as uploads are: checked, and big JPEGs at half size).
        models_dir (Path): Model folder.
        decode (Decode): Decodes bytes (the web app's: :func:`vision.timebox.decode`).
        corroboration (Corroboration | None): The rule of this read (:meth:`CardReader.read`).

    Returns:
        (Reading): The cards read (some may be ``uncertain``); unlike
        :func:`read_image_bytes`, how many were found is not checked.

    Raises:
        ImageError: Not an image, empty, truncated, or too many pixels.
        OSError: ``image`` is a path that cannot be read.
    """
    if isinstance(image, np.ndarray):
        return load_reader(models_dir).read(image, corroboration=corroboration)
    data = image if isinstance(image, bytes) else Path(image).read_bytes()
    img, f = decode(data)
    return load_reader(models_dir).read(img, scale=f, corroboration=corroboration)


def read_image_bytes(
    data: bytes,
    models_dir: Path,
    max_cards: int | None = None,
    *,
    decode: Decode | None = None,
    corroboration: Corroboration | None = None,
) -> Reading:
    """Decode an uploaded photo and read its cards.

    Args:
        data (bytes): The uploaded file's bytes.
        models_dir (Path): Model folder.
        max_cards (int | None): Raise :class:`TooManyCardsError` above this many (None, the
            default: no limit; every card read is reported).
        decode (Decode | None): Decodes the bytes (the web app's: :func:`vision.timebox.decode`);
            by default as :func:`read_cards` does.
        corroboration (Corroboration | None): The rule of this read (:meth:`CardReader.read`:
            ``crib read --strict`` gives :data:`vision.certainty.STRICT_CORROBORATION`).

    Returns:
        (Reading): The cards read (some may be ``uncertain``).

    Raises:
        ImageError: Not an image, empty, truncated, or too many pixels.
        NoCardsError: No card found in the photo.
        TooManyCardsError: More than ``max_cards`` cards found.
    """
    options = {} if decode is None else {"decode": decode}
    reading = read_cards(data, models_dir, corroboration=corroboration, **options)
    if not reading.cards:
        raise NoCardsError(
            "No playing cards were found in the photo. Make sure the corner "
            "indices (rank and suit) are visible and in focus."
        )
    if max_cards is not None and len(reading.cards) > max_cards:
        raise TooManyCardsError(
            f"Found {len(reading.cards)} cards; at most {max_cards} are expected in one photo.",
            len(reading.cards),
            max_cards,
        )
    return reading


__all__ = [
    "CARDS",
    "CardReader",
    "DetectedCard",
    "ReaderOptions",
    "Reading",
    "load_reader",
    "read_cards",
    "read_image_bytes",
    "starter_index",
]
