"""What a card's body says of its suit and rank: evidence independent of its corner index.

At a webcam's resolution a corner index is 12 to 20 px high and its suit symbol 6 or 7: a club
and a spade are each a blob on a stem, and a red diamond in grey light is a dark grey blob. The
card's body is many times larger: a number card prints its suit as large pips, as many as its
rank, and a court its figure. Where the reader found a card's face (a card alone on a
card-shaped stretch of face: :attr:`vision.detection.DetectedCard.outline`, :mod:`vision.bodies`),
the face is cut out upright (:func:`face_crop`: :data:`FACE_SIZE`), its corner indices painted
over with its own paper (:data:`INDEX_CORNER`: the body model must not read the index again),
its colours divided by its paper's (a grey or blue cast cancels), and read:

- the **ink colour** (:func:`ink_redness`): red or black, measured against the card's own paper
  (also at its corner indices, :func:`index_redness`, where its face is not found);
- the **body model** (``card_body.onnx``, :class:`BodyModel`): a small network trained on
  synthetic faces seen by every camera the generator knows (``python -m
  vision.training.body_crops``), giving the suit from the pips' shape and colour and the rank
  from their count and layout, or from a court's figure.

Also the evidence a corner index's reading rests on (:class:`CropEvidence`: its crop's
sharpness and clipping, :func:`crop_quality`; its ink) and the photo's colour
(:func:`frame_colour`). The reader gathers it; :mod:`vision.certainty` decides with it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import RANKS, SUITS
from vision.crops import CROP_SCALE, SOFTEN_SIGMA, soften_crops
from vision.detection import Outline

CLIPPED_LEVEL = 250
"""A pixel is clipped when any of its channels is at least this."""

FACE_SIZE = (48, 68)
"""Width and height of an upright face cut out for the body model (a card's 1.4 shape)."""
INDEX_CORNER = (0.16, 0.28)
"""Share of the face's width and height, at each corner, painted over with paper: the corner
indices (most decks print theirs within 0.13-0.23 of the width and 0.19-0.3 of the height; a
court's suit symbol beside its figure begins at about 0.15 of the width, and stays). A body
model records the share it was trained with (``index_corner`` in its JSON)."""
INK_BELOW = 0.7
"""A face pixel is ink when its brightness is under this share of the paper's."""
MIN_INK = 6
"""Fewest ink pixels a face, or a blob of an index, needs to be given a colour."""
BODY_ONNX = "card_body.onnx"
BODY_JSON = "card_body.json"


def face_crop(image: np.ndarray, outline: Outline, scale: float = 1.0) -> np.ndarray:
    """The card face inside ``outline``, upright (its long side vertical), :data:`FACE_SIZE`.

    Args:
        image (np.ndarray): uint8 BGR photo the outline was found on.
        outline (Outline): The face's rectangle in photo pixels (:mod:`vision.bodies`).
        scale (float): Photo pixels per ``image`` pixel.

    Returns:
        (np.ndarray): uint8 BGR (height, width, 3); upside down or not, as it lies.

    Examples:
        >>> photo = np.zeros((200, 300, 3), np.uint8); photo[50:150, 100:170] = 255
        >>> face = face_crop(photo, ((135.0, 100.0), (100.0, 70.0), 90.0))
        >>> face.shape, int(face[30, 20, 0])
        ((68, 48, 3), 255)
    """
    (cx, cy), (w, h), angle = outline
    box = cv2.boxPoints(((cx / scale, cy / scale), (w / scale, h / scale), angle))
    # boxPoints go round the rectangle; start at a corner whose next side is a short one
    sides = [np.hypot(*(box[(k + 1) % 4] - box[k])) for k in range(4)]
    start = 0 if sides[0] <= sides[1] else 1
    corners = np.array([box[(start + k) % 4] for k in range(4)], np.float32)
    (ax, ay), (bx, by) = corners[1] - corners[0], corners[2] - corners[1]
    if ax * by - ay * bx < 0:  # counter-clockwise on the photo: the face would be mirrored
        corners = np.array([corners[1], corners[0], corners[3], corners[2]], np.float32)
    fw, fh = FACE_SIZE
    long_side = max(sides)
    k = int(np.clip(np.floor(long_side / fh), 1, 4))  # warp at up to 4x, then shrink by area
    target = np.array([[0, 0], [fw * k, 0], [fw * k, fh * k], [0, fh * k]], np.float32)
    # the short side first: corners[0] -> corners[1] is the top edge
    m = cv2.getPerspectiveTransform(corners, target)
    face = cv2.warpPerspective(
        image, m, (fw * k, fh * k), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    if k > 1:
        face = cv2.resize(face, (fw, fh), interpolation=cv2.INTER_AREA)
    return face


def paper_balanced(faces: np.ndarray, corner: tuple[float, float] = INDEX_CORNER) -> np.ndarray:
    """Faces with their colours divided by their paper's, and their index corners painted over.

    The paper is each face's 80th percentile per channel (more of a face is paper than ink);
    dividing by it takes out the light's colour and level. Each corner's ``corner`` rectangle
    (shares of the width and height) is set to the paper.

    Args:
        faces (np.ndarray): uint8 BGR (N, H, W, 3) from :func:`face_crop`.
        corner (tuple[float, float]): What is painted over at each corner (:data:`INDEX_CORNER`).

    Returns:
        (np.ndarray): float32 (N, H, W, 3), paper at 1.

    Examples:
        >>> face = np.full((1, 68, 48, 3), (100, 120, 140), np.uint8); face[0, 30:38, 20:28] = 10
        >>> out = paper_balanced(face)
        >>> [round(float(v), 2) for v in out[0, 0, 0]], [round(float(v), 2) for v in out[0, 34, 24]]
        ([1.0, 1.0, 1.0], [0.1, 0.08, 0.07])
    """
    x = faces.astype(np.float32)
    paper = np.percentile(x, 80, axis=(1, 2), keepdims=True)
    x = np.minimum(x / np.maximum(paper, 8.0), 1.5)
    h, w = faces.shape[1:3]
    ch, cw = round(h * corner[1]), round(w * corner[0])
    for ys in (slice(0, ch), slice(h - ch, h)):
        for xs in (slice(0, cw), slice(w - cw, w)):
            x[:, ys, xs] = 1.0
    return x


def _redness(pixels: np.ndarray) -> np.ndarray:
    """How red each paper-balanced BGR pixel is (the measure of :func:`ink_redness`)."""
    b, g, r = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    dark = np.maximum(1.0 - pixels.mean(-1), 0.1)
    redness: np.ndarray = (r - np.maximum(g, b) - np.abs(g - b)) / dark
    return redness


def ink_redness(balanced: np.ndarray) -> np.ndarray:
    """How red each face's ink is against its paper: > 0 red, about 0 black.

    Over the ink (pixels under :data:`INK_BELOW` of the paper's brightness, the index corners
    painted over), the median of red minus the larger of green and blue, less the gap between
    green and blue (a card's red has as much of one as of the other; an orange or brown, a cork
    or wooden table or fingers, has more green), as a share of the ink's darkness (paper 1
    minus its brightness), so that dim or washed-out ink weighs as much as saturated ink. A face
    with almost no ink scores 0.

    Args:
        balanced (np.ndarray): float32 (N, H, W, 3) BGR from :func:`paper_balanced`.

    Returns:
        (np.ndarray): float32 (N,).

    Examples:
        >>> face = np.ones((3, 68, 48, 3), np.float32)
        >>> face[0, 30:40, 20:30] = (0.3, 0.3, 0.8); face[1, 30:40, 20:30] = (0.2, 0.2, 0.22)
        >>> face[2, 30:40, 20:30] = (0.35, 0.5, 0.65)  # cork: orange, not red
        >>> [round(float(v), 2) for v in ink_redness(face)]
        [0.94, 0.03, -0.0]
    """
    out = np.zeros(len(balanced), np.float32)
    for k, face in enumerate(balanced):
        ink = face.mean(-1) < INK_BELOW
        if ink.sum() >= MIN_INK:
            out[k] = float(np.median(_redness(face[ink])))
    return out


def reddest_blob(balanced: np.ndarray) -> np.ndarray:
    """How red the reddest blob of each patch's ink is (:func:`ink_redness` a blob): > 0 red.

    An index is two blobs of ink, its rank and its suit symbol, and a webcam sees them apart:
    a real webcam frame's red rank, its strokes thin and soft, scores 0.03 to 0.1 while the
    solid suit symbol beside it scores 0.2 to 0.4, so the median over all the ink (the rank's
    strokes, a shadow, a neighbour's edge) calls a third of the real red indices black. Each
    blob (8-connected, at least :data:`MIN_INK` pixels) is scored by the median of its own
    pixels, and the reddest counts; a black index's blobs all score about 0. A blob cut by the
    patch's edge is not the index's (a neighbour's pip, the table, a red court figure beside a
    corner) and is left out.

    Args:
        balanced (np.ndarray): float32 (N, H, W, 3) BGR from :func:`paper_balanced`.

    Returns:
        (np.ndarray): float32 (N,); 0 where a patch has no blob.

    Examples:
        >>> patch = np.ones((1, 32, 32, 3), np.float32)
        >>> patch[0, 2:16, 2:12] = (0.25, 0.23, 0.3)  # a rank come out nearly black, many strokes
        >>> patch[0, 20:26, 20:26] = (0.3, 0.3, 0.8)   # a red suit symbol
        >>> round(float(ink_redness(patch)[0]), 2), round(float(reddest_blob(patch)[0]), 2)
        (0.04, 0.94)
    """
    out = np.zeros(len(balanced), np.float32)
    for k, patch in enumerate(balanced):
        ink = (patch.mean(-1) < INK_BELOW).astype(np.uint8)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
        redness = _redness(patch)
        h, w = ink.shape
        x, y, bw, bh, area = stats[1:].T  # label 0 is the paper
        inside = (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h) & (area >= MIN_INK)
        blobs = [float(np.median(redness[labels == 1 + blob])) for blob in np.flatnonzero(inside)]
        out[k] = max(blobs, default=0.0)
    return out


def index_redness(crops: np.ndarray, crop_scale: float = CROP_SCALE) -> np.ndarray:
    """How red each corner index's suit symbol is against the paper round it (:func:`reddest_blob`).

    An index prints its rank and suit in the suit's colour, so where a card's face is not found
    (a card overlapping another) its index still tells red from black. Only the middle
    ``1 / crop_scale`` of each crop is measured (the square of the index box's longer side: the
    rest may hold more of the table or a neighbour's ink), divided by its own paper (its 80th
    percentile per channel: a grey or warm cast cancels), nothing painted over. A neighbour's
    red pip within that square reads as red too: the reader trusts a red index only where every
    corner read is red (:meth:`vision.certainty.Corroboration.ink_refutes`).

    Args:
        crops (np.ndarray): uint8 BGR crops (N, S, S, 3) around the indices, as photographed,
            each ``crop_scale`` times its index box's longer side (:func:`vision.crops.crop_index`).
        crop_scale (float): The crops' side over their boxes'.

    Returns:
        (np.ndarray): float32 (N,).

    Examples:
        >>> crops = np.full((2, 32, 32, 3), (163, 146, 149), np.uint8)  # bluish grey paper
        >>> crops[0, 10:22, 12:20] = (45, 36, 80); crops[1, 10:22, 12:20] = (8, 7, 8)
        >>> red, black = index_redness(crops)
        >>> bool(red > 0.3), bool(abs(black) < 0.05)
        (True, True)
    """
    if len(crops) == 0:
        return np.zeros(0, np.float32)
    side = crops.shape[1]
    margin = round(side * (1 - 1 / crop_scale) / 2)
    box = crops[:, margin : side - margin, margin : side - margin]
    return reddest_blob(paper_balanced(box, (0.0, 0.0)))


@dataclass(frozen=True)
class CropEvidence:
    """What the readings of corner-index crops rest on besides their probability, a row a crop.

    Attributes:
        clipped (np.ndarray): float (N,) share of the crop's pixels that are clipped.
        sharpness (np.ndarray): float (N,) :func:`crop_quality`'s; a sharp printed index scores
            about 0.2, a blurred one under 0.1.
        redness (np.ndarray): float (N,) how red the crop's ink is against its paper
            (:func:`index_redness`): > 0 red, about 0 black.
        context (np.ndarray): float (N, C) the context model's probabilities of the face around
            the index (:mod:`vision.context`); NaN in the rows of crops it did not read.
    """

    clipped: np.ndarray
    sharpness: np.ndarray
    redness: np.ndarray
    context: np.ndarray

    def rows(self, rows: list[int]) -> CropEvidence:
        """The evidence of the crops ``rows`` only, in that order."""
        return CropEvidence(
            self.clipped[rows], self.sharpness[rows], self.redness[rows], self.context[rows]
        )


def crop_quality(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The clipped share and the sharpness of each crop as photographed.

    Sharpness is the RMS of the Laplacian of the grey crop divided by its grey range (5th to
    95th percentile), so that it measures edges, not exposure.

    Args:
        crops (np.ndarray): uint8 BGR crops (N, S, S, 3), before any normalisation.

    Returns:
        (tuple[np.ndarray, np.ndarray]): float (N,) clipped shares and (N,) sharpnesses.

    Examples:
        >>> edge = np.zeros((1, 16, 16, 3), np.uint8); edge[0, :, 8:] = 255
        >>> soft = cv2.GaussianBlur(edge[0], (0, 0), 2.0)[None]
        >>> clipped, sharp = crop_quality(np.concatenate([edge, soft]))
        >>> clipped.round(2).tolist(), bool(sharp[0] > 2 * sharp[1])
        ([0.5, 0.25], True)
    """
    if len(crops) == 0:
        return np.zeros(0), np.zeros(0)
    clipped = (crops.max(-1) >= CLIPPED_LEVEL).mean((1, 2))
    grey = crops.astype(np.float32).mean(-1)
    lo, hi = np.percentile(grey, (5, 95), axis=(1, 2))
    laplace = np.stack([cv2.Laplacian(g, cv2.CV_32F) for g in grey])
    sharpness = np.sqrt((laplace**2).mean((1, 2))) / np.maximum(hi - lo, 1.0)
    return clipped, sharpness


def soften_sharp_crops(
    crops: np.ndarray, blurred_below: float, sigma: float = SOFTEN_SIGMA
) -> np.ndarray:
    """The crops as the reader classifies them: those not blurred already softened.

    A crop whose :func:`crop_quality` sharpness is at least ``blurred_below`` is blurred by
    :func:`vision.crops.soften_crops` (``sigma``); the others are kept as cut. Training softens
    its crops by the same rule, so that a classifier learns from crops as it is given them.

    Args:
        crops (np.ndarray): uint8 BGR crops (N, S, S, 3), as cut.
        blurred_below (float): The certainty's blurred bar
            (:attr:`vision.certainty.Certainty.blurred_below`).
        sigma (float): The softening Gaussian, crop pixels (0: none).

    Returns:
        (np.ndarray): The crops softened where sharp (a new array), or ``crops`` itself when
            none is to be softened.

    Examples:
        >>> edge = np.zeros((1, 16, 16, 3), np.uint8); edge[0, :, 8:] = 255
        >>> soft = cv2.GaussianBlur(edge[0], (0, 0), 2.0)[None]
        >>> both = np.concatenate([edge, soft])
        >>> served = soften_sharp_crops(both, crop_quality(both)[1].mean())
        >>> bool((served[0] != edge[0]).any()), bool((served[1] == soft[0]).all())
        (True, True)
    """
    if sigma <= 0 or len(crops) == 0:
        return crops
    sharp = crop_quality(crops)[1] >= blurred_below
    if not sharp.any():
        return crops
    served = crops.copy()
    served[sharp] = soften_crops(crops[sharp], sigma)
    return served


@dataclass(frozen=True)
class FrameColour:
    """How much colour, black and light a whole photo shows (:func:`frame_colour`).

    Attributes:
        saturation (float): Mean HSV saturation, 0 (grey) to 255.
        black (float): Grey level of its darkest 1 % of pixels, 0 to 255.
        middle (float): Its median grey level, 0 to 255.
    """

    saturation: float
    black: float
    middle: float


GREY_WITH_BLACK = FrameColour(0.0, 0.0, 128.0)
"""A photo of no colour whose ink is black: small indices are read poorly, none is washed out."""


def frame_colour(image: np.ndarray) -> FrameColour:
    """The colour, black and light of the uint8 BGR photo ``image`` (every 4th pixel of it).

    Examples:
        >>> grey = np.full((40, 40, 3), 120, np.uint8); grey[:8, :8] = 10
        >>> frame_colour(grey)
        FrameColour(saturation=0.0, black=10.0, middle=120.0)
        >>> round(frame_colour(np.full((40, 40, 3), (40, 40, 200), np.uint8)).saturation)
        204
    """
    sample = np.ascontiguousarray(image[::4, ::4])
    saturation = cv2.cvtColor(sample, cv2.COLOR_BGR2HSV)[..., 1]
    grey = cv2.cvtColor(sample, cv2.COLOR_BGR2GRAY)
    black, middle = np.percentile(grey, (1, 50))
    return FrameColour(float(saturation.mean()), float(black), float(middle))


@dataclass(frozen=True)
class BodyReading:
    """What one card's body says.

    Attributes:
        suits (np.ndarray): float (4,) probabilities of :data:`vision.SUITS`.
        ranks (np.ndarray): float (13,) probabilities of :data:`vision.RANKS`.
        redness (float): :func:`ink_redness` of the face.
    """

    suits: np.ndarray
    ranks: np.ndarray
    redness: float


class BodyModel:
    """The body model of a models folder (``card_body.onnx`` and its JSON).

    Args:
        onnx (Path): The model.
        session_options: onnxruntime session options shared with the reader.
    """

    def __init__(self, onnx: Path, session_options: object) -> None:
        import onnxruntime as ort

        meta = json.loads((onnx.parent / BODY_JSON).read_text())
        if tuple(meta["face_size"]) != FACE_SIZE or (meta["suits"], meta["ranks"]) != (
            list(SUITS),
            list(RANKS),
        ):
            raise ValueError(f"{onnx} reads faces of another shape or order than this reader's")
        width, height = meta.get("index_corner", INDEX_CORNER)
        self.corner = (float(width), float(height))
        self._session = ort.InferenceSession(
            str(onnx), session_options, providers=["CPUExecutionProvider"]
        )
        self._input = self._session.get_inputs()[0].name

    def read(self, faces: np.ndarray) -> list[BodyReading]:
        """Readings of uint8 BGR faces (N, H, W, 3) from :func:`face_crop`."""
        if len(faces) == 0:
            return []
        balanced = paper_balanced(faces, self.corner)
        x = np.clip(balanced, 0, 1.5).transpose(0, 3, 1, 2).astype(np.float32)
        suit_logits, rank_logits = self._session.run(None, {self._input: x})
        suits, ranks = _softmax(suit_logits), _softmax(rank_logits)
        redness = ink_redness(balanced)
        return [BodyReading(s, r, float(d)) for s, r, d in zip(suits, ranks, redness, strict=True)]


def _softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(1, keepdims=True))
    out: np.ndarray = e / e.sum(1, keepdims=True)
    return out


def load_body(models_dir: Path, session_options: object) -> BodyModel | None:
    """The body model in ``models_dir``, or None when the folder lacks its ONNX file or JSON."""
    onnx = models_dir / BODY_ONNX
    found = onnx.exists() and (models_dir / BODY_JSON).exists()
    return BodyModel(onnx, session_options) if found else None


__all__ = [
    "BODY_JSON",
    "BODY_ONNX",
    "FACE_SIZE",
    "GREY_WITH_BLACK",
    "RANKS",
    "SUITS",
    "BodyModel",
    "BodyReading",
    "CropEvidence",
    "FrameColour",
    "crop_quality",
    "face_crop",
    "frame_colour",
    "index_redness",
    "ink_redness",
    "load_body",
    "paper_balanced",
    "reddest_blob",
    "soften_sharp_crops",
]
