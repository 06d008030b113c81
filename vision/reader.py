"""Read the playing cards in a photo: ONNX corner-index detector + crop classifier (no torch).

API (stable; used by the web app and ``crib read``):

    from vision.reader import read_cards, read_image_bytes
    reading = read_cards("photo.jpg")                # a path, the file's bytes or a BGR array
    reading = read_image_bytes(data)                 # an upload: also an error for no card
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
letterboxed to 640 px and, for large photos, on overlapping tiles too (a second look for small
indices); each index is cut from the full-resolution photo and named by the classifier (52 cards +
"none"); a crop it is unsure of is read again turned by 90, 180 and 270 degrees and the four
readings are averaged; a reading under 0.97 is weighed with the card face around the index
(:mod:`vision.context`: a second small classifier of a crop three times as wide, which tells clubs
from spades where the index's own suit is a few pixels high). Detections of one identity that are
plausibly the same physical card (its two corners) are merged, and each card notes the light card
face its indices lie on (:mod:`vision.bodies`: cards that overlap share one); two corners read as
different but likely-alike cards, the only ones on a card-shaped face and at its opposite corners,
are one card read from both (the product of their probabilities). A card none of whose corners is
read with certainty (:mod:`vision.certainty`: its probability, with a stricter bar for blurred or
clipped crops; a second reading under the other normalisation is available, off) is returned with
``uncertain=True`` instead of being guessed. The starter is the card set apart from the rest
(farthest from the centroid of the others by a clear margin, each card placed at the middle of
its corners read, :attr:`DetectedCard.position`); callers may override it.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache, partial
from pathlib import Path

import cv2
import numpy as np

from vision import CARDS, MODELS_DIR
from vision.bodies import with_bodies
from vision.certainty import (
    DEFAULT_CORROBORATION,
    GREY_WITH_BLACK,
    NO_CORROBORATION,
    NOT_READ_AGAIN,
    SERVING_CERTAINTY,
    Certainty,
    Corroboration,
    CropEvidence,
    corroborate,
    crop_quality,
    frame_colour,
    second_view,
    weighed_by_body,
)
from vision.context import load_context
from vision.crops import CROP_SCALE, CROP_SIZE, crop_index, crop_probabilities, normalize_crops
from vision.detection import DetectedCard, letterbox, load_detector
from vision.errors import NoCardsError, TooManyCardsError
from vision.evidence import BodyModel, BodyReading, face_crop, index_redness, load_body
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


CHOICE_ABOVE = 0.1
"""An identity is among a card's choices when the classifier gives it more than this."""
MAX_CHOICES = 3
"""At most this many choices a card."""
SMALL_INDEX = 16
"""A photo over 1.6 times the detector's size gets a second look when its corner indices come out
under this many pixels (median) at that size. Chosen on held-out synthetic scenes (seeds 77 and
78, 112 photos of 1024 to 2048 px): under 16 px a second look found 32 more cards, at 16 to 24
px 2 (and cost half the passes); 24, the earlier bound, spent two passes a photo for them."""
LOOK_AROUND_FROM = 4
"""Fewer first detections than this (a hand's worth) on a photo over 1.6 times the detector's
size say little of the cards' size or place: the photo gets a second look in tiles. From this
many on, the indices' size decides (:data:`SMALL_INDEX`), and the second look covers the region
around them when it is compact. (Two large readings of print on a synthetic table of 17 small
cards on newspaper kept the whole table unread.) Unless the classifier reads them as cards
whose indices are large (:data:`FEW_BUT_LARGE`)."""
FEW_BUT_LARGE = 24
"""A big photo with fewer than :data:`LOOK_AROUND_FROM` first detections gets no second look
when those the classifier reads as cards (not ``none``) come out this many pixels or more
(median) at the detector's size: a photo of one or two cards held close, where four tile
passes find nothing the first pass did not. Chosen on held-out synthetic phone-size scenes
(seed 1700, 300 photos of 1600 to 2048 px): of the 53 with few first detections the tiles found
17 more cards on 9, every one of them with card readings under 24 px or none (16 to 24 px: 3
photos, 7 cards), and nothing on the 17 with readings of 24 px or more (one more wrong card,
one right card fewer). The shared real photos scaled up to phone size have few first detections
on 39 of 115 photos, all read as cards of 28 to 72 px: they were four passes of 5 a read."""


def likeliest(probs: np.ndarray, classes: list[str]) -> tuple[str, ...]:
    """The card identities in ``probs`` above :data:`CHOICE_ABOVE`, best first (not ``none``).

    Args:
        probs (np.ndarray): One crop's probability for each class.
        classes (list[str]): The classes' names (card codes and ``none``).

    Returns:
        (tuple[str, ...]): At most :data:`MAX_CHOICES` codes; the best one always.

    Examples:
        >>> likeliest(np.array([0.5, 0.3, 0.15, 0.05]), ["6D", "none", "6H", "5H"])
        ('6D', '6H')
        >>> likeliest(np.array([0.02, 0.9, 0.08]), ["QS", "none", "QC"])
        ('QC',)
    """
    order = [int(k) for k in np.argsort(-probs) if classes[int(k)] != "none"]
    best, rest = order[0], order[1:]
    likely = [k for k in rest if probs[k] > CHOICE_ABOVE][: MAX_CHOICES - 1]
    return tuple(classes[k] for k in (best, *likely))


def _nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> list[int]:
    if len(boxes) == 0:
        return []
    xywh = np.c_[boxes[:, :2], boxes[:, 2:] - boxes[:, :2]].tolist()
    keep = cv2.dnn.NMSBoxes(xywh, scores.tolist(), 0.0, iou)
    return [int(i) for i in np.array(keep).flatten()]


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


def paper_scores(image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """How much the ground under each corner-index box looks like card paper, in [0, 1].

    The photo's white is its 99th percentile per channel (so exposure and colour casts cancel);
    under each box, the brightest 40% of pixels (the paper between the strokes of an index) are
    scored by their brightness against that white times one minus their saturation. A printed
    index on a card scores near 1; box art, wood, felt and print on coloured stock score low.

    Args:
        image (np.ndarray): uint8 BGR photo.
        boxes (np.ndarray): (N, 4) boxes x1, y1, x2, y2 in ``image`` pixels.

    Returns:
        (np.ndarray): float32 (N,) scores.
    """
    if len(boxes) == 0:
        return np.zeros(0, np.float32)
    step = max(1, max(image.shape[:2]) // 400)
    white = np.percentile(image[::step, ::step].reshape(-1, 3), 99, axis=0).astype(np.float32)
    white = np.maximum(white, 16.0)
    out = np.empty(len(boxes), np.float32)
    for i, box in enumerate(boxes):
        patch = crop_index(image, tuple(box), 24, 1.0).reshape(-1, 3).astype(np.float32)
        rgb = np.minimum(patch / white, 1.0)
        hi, lo = rgb.max(1), rgb.min(1)
        bright = hi >= np.quantile(hi, 0.6)
        value = float(hi[bright].mean())
        saturation = float(((hi[bright] - lo[bright]) / np.maximum(hi[bright], 1e-3)).mean())
        out[i] = value * (1.0 - saturation)
    return out


class CardReader:
    """Corner-index detector + crop classifier, both ONNX (onnxruntime, CPU).

    Args:
        models_dir (Path): Folder with ``index_detector.onnx``, ``card_classifier.onnx`` and
            ``card_classifier.json`` (and, optional, ``card_context.onnx``: ``context``, and
            ``index_detector.int8.onnx``: ``int8``).
        threads (int): onnxruntime intra-op threads.
        det_conf (float): Minimum detector score for a corner index.
        certainty (Certainty): When a reading is stated as certain (:mod:`vision.certainty`);
            the rest are reported uncertain. By default the classifier's own operating point
            (``"certainty"`` in ``card_classifier.json``: it was chosen for that classifier's
            probabilities), else :data:`vision.certainty.SERVING_CERTAINTY`.
        turn_below (float): Top probability under which a crop is also read turned (see
            :meth:`classify`).
        tiles (str): ``"auto"`` (second look on large photos), ``"always"`` or ``"never"``.
        none_above (float): A detection whose probability of ``none`` (not an index) is at
            least this is dropped, not reported, even when a card is likelier. 0.05 was chosen
            on synthetic validation scenes with printed, brand-print and court-art negatives
            (``benchmarks/vision_thresholds.py``: of 0.5 (off), 0.3, 0.2, 0.1, 0.05, it read the
            most scenes exactly with nothing uncertain, for 0.3 points of recall).
        paper_below (float): A detection whose :func:`paper_scores` is under this does not lie
            on card paper and is dropped; 0 (off) by default, because on the same scenes every
            threshold up to 0.3 dropped nothing and 0.4 cost 0.8 points of recall for no more
            scenes read exactly.
        context (bool): Weigh each reading with the card face around its index when the folder
            holds a context model (``card_context.onnx``, :mod:`vision.context`).
        int8 (bool): Detect with the detector's int8 copy (``index_detector.int8.onnx``,
            :mod:`vision.detection`) when the folder holds one made from its float model.
        corroboration (Corroboration | None): When a card read with certainty at its index
            stays certain (:func:`vision.certainty.corroborate`), weighing its body as the
            folder's body model (``card_body.onnx``, :mod:`vision.evidence`) reads it; by
            default :data:`vision.certainty.DEFAULT_CORROBORATION` (a body that names another
            card makes it a question). :data:`vision.certainty.STRICT_CORROBORATION` also asks
            about most cards read on small indices or in a washed-out photo, at a cost in recall
            on ordinary photos and show-mode tables;
            :data:`vision.certainty.NO_CORROBORATION` trusts every index alone (models/README.md,
            "Reading: a card's body as evidence").

    Crops are contrast-stretched (:func:`vision.crops.normalize_crops`) before classifying when
    the classifier was trained so (``"normalize": true`` in ``card_classifier.json``).

    Attributes:
        detector_file (Path): The detector's file read (the float model or its int8 copy).
    """

    def __init__(
        self,
        models_dir: Path = MODELS_DIR,
        threads: int = 2,
        det_conf: float = 0.25,
        certainty: Certainty | None = None,
        turn_below: float = 0.9,
        tiles: str = "auto",
        none_above: float = 0.05,
        paper_below: float = 0.0,
        context: bool = True,
        int8: bool = True,
        corroboration: Corroboration | None = None,
    ) -> None:
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        # idle intra-op threads sleep: spinning, they burned a second core for nothing (a read
        # on 2 threads cost 467 ms of CPU spinning, 258 ms not, on 1 thread 238 ms)
        so.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.det, self.detector_file = load_detector(models_dir, so, int8)
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
        self.det_conf = det_conf
        if certainty is None:
            certainty = Certainty(**meta["certainty"]) if "certainty" in meta else SERVING_CERTAINTY
        self.certainty = certainty
        self.turn_below = turn_below
        self.tiles = tiles
        self.none_above = none_above
        self.paper_below = paper_below
        self.context = load_context(models_dir, so) if context else None
        self.corroboration = DEFAULT_CORROBORATION if corroboration is None else corroboration
        self._load_body = partial(load_body, models_dir, so)
        self._lock = threading.Lock()

    # ------------------------------------------------------------------------------ detector
    def _detect(self, img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Letterbox ``img`` to the model size; return boxes (N, 4) in ``img`` pixels and scores."""
        h, w = img.shape[:2]
        x, s, (px, py) = letterbox(img, self.imgsz)
        out = self.det.run(None, {self._det_input: x})[0][0]  # (5, N)
        scores = out[4]
        k = scores >= self.det_conf
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
        :data:`SMALL_INDEX` px at that size, or fewer than :data:`LOOK_AROUND_FROM` of them,
        gets a second look: one pass on the region around the first detections when it is
        compact and they are enough, else 2x2 tiles. Fewer than that many read as cards of
        :data:`FEW_BUT_LARGE` px or more get none.

        Args:
            image (np.ndarray): uint8 BGR photo.
            cards: Which of some first detections' boxes are cards (bool (N,): the
                classifier's reading, :meth:`on_cards`), asked only when they are few on a big
                photo; None: every detection may be print, and few get the second look.
        """
        h, w = image.shape[:2]
        boxes, scores = self._detect(image)
        if self.tiles == "never":
            return boxes, scores
        big = max(h, w) > 1.6 * self.imgsz
        side = (boxes[:, 2:] - boxes[:, :2]).max(1) if len(boxes) else np.zeros(0)
        few = len(boxes) < LOOK_AROUND_FROM
        small = few or float(np.median(side)) * self.imgsz / max(h, w) < SMALL_INDEX
        if big and few and len(boxes) and cards is not None and self.tiles == "auto":
            on_card = cards(boxes)
            at_size = side[on_card] * self.imgsz / max(h, w)
            small = not on_card.any() or float(np.median(at_size)) < FEW_BUT_LARGE
        if not (self.tiles == "always" or (big and small)):
            return boxes, scores
        regions = self._tiles(h, w)
        if not few and self.tiles != "always":
            m = 4 * float(np.median(side))
            x1, y1 = np.maximum(boxes[:, :2].min(0) - m, 0)
            x2, y2 = np.minimum(boxes[:, 2:].max(0) + m, [w, h])
            if (x2 - x1) * (y2 - y1) < 0.45 * w * h:
                regions = [(int(x1), int(y1), int(x2 - x1), int(y2 - y1))]
        bs, ss = [boxes], [scores]
        for x, y, tw, th in regions:
            b, s = self._detect(image[y : y + th, x : x + tw])
            bs.append(b + np.array([x, y, x, y], np.float32))
            ss.append(s)
        boxes, scores = np.concatenate(bs), np.concatenate(ss)
        keep = _nms(boxes, scores, 0.5)
        return boxes[keep], scores[keep]

    # ------------------------------------------------------------------------------ classifier
    def classify(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """Class probabilities (N, 53) for the crops around ``boxes``.

        A crop whose top probability is under ``turn_below`` is also read turned by 90, 180 and
        270 degrees (the classifier was trained on indices at every angle)
        and the four probability vectors are averaged, which steadies the uncertain readings.
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
        """The uint8 BGR crops (N, S, S, 3) around ``boxes``, as photographed."""
        if len(boxes) == 0:
            return np.zeros((0, self.crop_size, self.crop_size, 3), np.uint8)
        return np.stack(
            [crop_index(image, tuple(b), self.crop_size, self.crop_scale) for b in boxes]
        )

    def _read_crops(self, crops: np.ndarray) -> np.ndarray:
        """Class probabilities of crops as given, those under ``turn_below`` read turned too."""
        probs = self._probabilities(crops)
        unsure = np.flatnonzero(probs.max(1) < self.turn_below)
        if len(unsure):
            turned = np.concatenate([np.rot90(crops[unsure], k, axes=(1, 2)) for k in (1, 2, 3)])
            more = self._probabilities(turned).reshape(3, len(unsure), -1)
            probs[unsure] = (probs[unsure] + more.sum(0)) / 4
        return probs

    def _probabilities(self, crops: np.ndarray) -> np.ndarray:
        """Softmax of the classifier over uint8 BGR crops (N, S, S, 3)."""
        return crop_probabilities(self.cls, self._cls_input, crops)

    def on_cards(self, image: np.ndarray, boxes: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """Which detections are corner indices on a card (the rest are not reported at all).

        A detection is dropped when the classifier's likeliest class is ``none``, when its
        probability of ``none`` is at least ``none_above``, or when the ground under it is not
        card paper (:func:`paper_scores` under ``paper_below``).

        Returns:
            (np.ndarray): bool (N,).
        """
        keep: np.ndarray = probs.argmax(1) != self._none
        if self._none >= 0:
            keep &= probs[:, self._none] < self.none_above
        if self.paper_below > 0 and keep.any():
            keep[keep] = paper_scores(image, boxes[keep]) >= self.paper_below
        return keep

    def evidence(self, image: np.ndarray, boxes: np.ndarray, probs: np.ndarray) -> CropEvidence:
        """What the readings ``probs`` of the crops around ``boxes`` rest on besides probability.

        Each crop's clipped share and sharpness (:func:`vision.certainty.crop_quality`), its
        ink's redness (:func:`vision.evidence.index_redness`); a crop
        read with less than ``certainty.reread_below`` is read again under the other
        normalisation (:func:`vision.certainty.second_view`), turned as :meth:`classify` does.
        """
        return self._evidence(self.crops(image, boxes), probs)

    def _evidence(self, crops: np.ndarray, probs: np.ndarray) -> CropEvidence:
        """:meth:`evidence` of the crops as photographed."""
        if len(crops) == 0:
            empty = np.zeros(0)
            return CropEvidence(empty, empty, np.zeros(0, np.int64), empty)
        clipped, sharpness = crop_quality(crops)
        second = np.full(len(crops), NOT_READ_AGAIN, np.int64)
        again = np.flatnonzero(probs.max(1) < self.certainty.reread_below)
        if len(again):
            view = second_view(crops[again], self.normalize)
            second[again] = self._read_crops(view).argmax(1)
        return CropEvidence(clipped, sharpness, second, index_redness(crops, self.crop_scale))

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
                :attr:`corroboration`).

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
                return self.on_cards(image, found, read)

            boxes, det_scores = self.detect(image, cards)
            crops = self.crops(image, boxes)
            probs = self._classify_anew(crops, boxes, first)
            on_card = self.on_cards(image, boxes, probs)  # not a corner index, or not on a card
            boxes, det_scores, probs = boxes[on_card], det_scores[on_card], probs[on_card]
            evidence = self._evidence(crops[on_card], probs)
            sure = self.certainty.sure(probs, evidence)
            if self.context is not None:
                probs, sure = self.context.weigh(image, boxes, probs, sure)
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
        rule = self.corroboration if corroboration is None else corroboration
        out = with_bodies(image, out, scale, one_card=read_as_one, shared_faces=rule.shared_faces)
        if rule != NO_CORROBORATION:
            out = self.corroborated(image, out, scale, rows, probs, evidence, rule)
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
        """``cards`` as ``rule`` weighs their bodies and corners against their indices.

        A card certain at its index stays certain only when ``rule`` agrees, and a number card
        uncertain at its index becomes certain where its body confirms it. Each card's body
        (where :mod:`vision.bodies` found its face) is read by the body model
        (:mod:`vision.evidence`), and :func:`vision.certainty.corroborate` decides with it, the
        number of corners that read the card so, whether its indices are read at low
        resolution (their size and sharpness, and the photo's colour:
        :func:`vision.certainty.frame_colour`), and its ink's colour (its body's pips, else its
        indices': a card whose ink is of the other colour than its suit is never certain).
        Under a rule with ``shared_faces``, cards read on one card's face (its corners
        disagreeing, or its print misread: :func:`vision.bodies.with_bodies`'s
        ``shared_faces``) need their body's agreement as a card read at low resolution does. A
        card made uncertain gets the cards its body or ink names instead among its choices; a
        card made certain by its body (:meth:`vision.certainty.Corroboration.body_confirms`),
        the joint probability of both readings as its confidence.

        Args:
            image (np.ndarray): The photo as read.
            cards (list[DetectedCard]): The cards read, their boxes in photo pixels.
            scale (float): Photo pixels per ``image`` pixel.
            rows (dict[Box, int]): Each corner box's row in ``probs``.
            probs (np.ndarray): The readings of every corner.
            evidence (CropEvidence): What every corner's reading rests on (its crop's sharpness
                and ink colour), by row.
            rule (Corroboration): When a card stays certain.
        """
        sure = [k for k, card in enumerate(cards) if not card.uncertain]
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
        washable = rule.washed_below > 0  # else no photo is washed out
        colour = frame_colour(image) if washable else GREY_WITH_BLACK
        out = list(cards)
        for k in sure:
            card = cards[k]
            code = self.classes.index(card.card)
            agreeing = _apart(
                [b for b in card.corners if b in rows and probs[rows[b]].argmax() == code]
            )
            index_px = float(np.median([max(b[2] - b[0], b[3] - b[1]) for b in card.corners]))
            sharpest = max(
                (float(evidence.sharpness[rows[b]]) for b in card.corners if b in rows), default=0
            )
            shares = card.outline is not None and on_body[card.body] > 1
            low = rule.low_resolution(index_px / scale, sharpest, colour, shares)
            body = bodies.get(k)
            context = 1.0
            if rule.needs_context(agreeing, low) and (
                body is None or not rule.body_agrees(card.card, body, low)
            ):
                context = self._context_of(image, card, scale)
            inks = _inks(card, rows, evidence)
            certain, instead = corroborate(card.card, agreeing, low, body, rule, context, inks)
            if not certain:
                choices = (card.card, *instead, *card.choices[1:])
                out[k] = dataclasses.replace(
                    card, uncertain=True, choices=tuple(dict.fromkeys(choices))[:MAX_CHOICES]
                )
        for k in (k for k in bodies if cards[k].uncertain):  # certain where its body confirms it
            card, body = cards[k], bodies[k]
            if rule.body_confirms(card.card, card.confidence, body, _inks(card, rows, evidence)):
                out[k] = self._confirmed(card, body, rows, probs)
        return out

    def _confirmed(
        self, card: DetectedCard, body: BodyReading, rows: dict[Box, int], probs: np.ndarray
    ) -> DetectedCard:
        """``card`` made certain by its body.

        Its confidence becomes the joint probability of its corners' readings (their product,
        normalised) and its body's (:func:`vision.certainty.weighed_by_body`).
        """
        corners = [probs[rows[b]] for b in card.corners if b in rows]
        confidence = card.confidence
        if corners:
            joint = weighed_by_body(np.prod(corners, axis=0), self.classes, body)
            confidence = float(joint[self.classes.index(card.card)])
        return dataclasses.replace(card, confidence=confidence, uncertain=False)

    def _context_of(self, image: np.ndarray, card: DetectedCard, scale: float) -> float:
        """The context model's probability of ``card`` at its likeliest corner (0 without one)."""
        if self.context is None:
            return 0.0
        boxes = np.array([[v / scale for v in box] for box in card.corners], np.float32)
        probs = self.context.probabilities(image, boxes)
        return float(probs[:, self.context.classes.index(card.card)].max())

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
        both = probs[a] * probs[b]
        if self._none >= 0:
            both[self._none] = 0.0
        if both.sum() <= 0:
            return None
        both = both / both.sum()
        k = int(both.argmax())
        sure = self.certainty.sure(np.stack([both, both]), evidence.rows([a, b]))
        return DetectedCard(
            self.classes[k],
            float(both[k]),
            max(first, second, key=lambda card: card.confidence).box,
            not sure.all(),
            first.corners + second.corners,
            choices=likeliest(both, self.classes),
        )


Box = tuple[float, float, float, float]


def _inks(card: DetectedCard, rows: dict[Box, int], evidence: CropEvidence) -> list[float]:
    """The ink redness of each of ``card``'s corner crops (``rows``: each box's row)."""
    return [float(evidence.redness[rows[b]]) for b in card.corners if b in rows]


def _scaled(box: Box, scale: float) -> Box:
    return (box[0] * scale, box[1] * scale, box[2] * scale, box[3] * scale)


CORNERS_APART = 2.0
"""Two corner boxes of a card count as two corners when their centres lie this many index sizes
apart (a card's opposite corners lie 5 to 6 apart; the same index found twice, by the first
pass and the second look, lies within one)."""


def _apart(boxes: list[Box]) -> int:
    """How many of ``boxes`` lie :data:`CORNERS_APART` index sizes from each other (greedily).

    Examples:
        >>> _apart([(0, 0, 10, 20), (2, 1, 12, 21), (80, 100, 90, 120)])
        2
    """
    kept: list[Box] = []
    for box in boxes:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        side = max(box[2] - box[0], box[3] - box[1])
        if all(
            np.hypot(cx - (k[0] + k[2]) / 2, cy - (k[1] + k[3]) / 2) >= CORNERS_APART * side
            for k in kept
        ):
            kept.append(box)
    return len(kept)


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


def load_reader(models_dir: Path | str = MODELS_DIR) -> CardReader:
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
    models_dir: Path = MODELS_DIR,
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
    max_cards: int | None = None,
    models_dir: Path = MODELS_DIR,
    *,
    decode: Decode | None = None,
    corroboration: Corroboration | None = None,
) -> Reading:
    """Decode an uploaded photo and read its cards.

    Args:
        data (bytes): The uploaded file's bytes.
        max_cards (int | None): Raise :class:`TooManyCardsError` above this many (None, the
            default: no limit; every card read is reported).
        models_dir (Path): Model folder.
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
    "Reading",
    "load_reader",
    "read_cards",
    "read_image_bytes",
    "starter_index",
]
