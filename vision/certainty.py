"""When a card read from a corner-index crop may be stated as certain.

The classifier's top probability alone overstates its certainty in bad light: on overexposed
and blurred photos it names wrong cards at 0.5-0.7. A read is stated as certain only when

- its probability reaches the operating point's :attr:`Certainty.sure_above`;
- a crop read below :attr:`Certainty.reread_below` was read a second time under the other
  normalisation (:func:`second_view`: the crop as photographed when the classifier reads
  contrast-stretched crops, and the reverse) and both readings name the same card;
- a blurred crop (:func:`crop_quality` sharpness under :attr:`Certainty.blurred_below`) or a
  clipped one (share of clipped pixels over :attr:`Certainty.clipped_above`) reaches the
  stricter probability set for it.

Everything else is reported uncertain (asked about), with the identities the classifier found
likely. The operating point is chosen per perturbation on held-out synthetic scenes by
``benchmarks/vision_thresholds.py --conditions``.

A card read with certainty from its index is then **corroborated** (:class:`Corroboration`,
:func:`corroborate`): at a webcam's resolution an index of 15 px is read as the wrong suit with
confidence (a club as a spade, a grey-lit diamond as a spade), and its two corners err alike.
Where the card's body is found (:mod:`vision.evidence`: its large pips' shape and colour, their
count, a court's figure), the card stays certain only when the body agrees with the index; a body
that says another suit or rank, or says nothing clearly, makes it a question. Where no body is
found, a card read on small indices stays certain only when two of its corners agree. In a
washed-out photo (:func:`frame_colour`: little colour and no deep black, a webcam's dim grey
frame, where neither the ink's colour nor a symbol's shape can be trusted at the index) every
card needs its body's agreement.

Whatever else is said, a card read as a black suit whose ink is red against its own paper (its
body's pips, else every corner index read: :meth:`Corroboration.ink_refutes`) is a question:
on real webcam frames a dim diamond's index is read as a spade with confidence, and its colour
is the evidence that is left where its face is not found.

Evidence also works the other way (:meth:`Corroboration.body_confirms`): a number card the index
reads unsure is certain when its body names the same card, its pips' suit and their count, as
two independent readings agreeing; its confidence is then their joint probability
(:func:`weighed_by_body`). A court is not made certain so: its figure does not tell a jack from
a king.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision import CARDS, RANKS, SUITS
from vision.crops import normalize_crops
from vision.evidence import BodyReading

CLIPPED_LEVEL = 250
"""A pixel is clipped when any of its channels is at least this."""

NOT_READ_AGAIN = -1
""":attr:`CropEvidence.second` of a crop that was not read a second time."""


@dataclass(frozen=True)
class CropEvidence:
    """What a reading rests on besides its probability, one entry per crop.

    Attributes:
        clipped (np.ndarray): float (N,) share of the crop's pixels that are clipped.
        sharpness (np.ndarray): float (N,) RMS of the grey Laplacian over the crop's grey range
            (:func:`crop_quality`); a sharp printed index scores about 0.2, a blurred one under 0.1.
        second (np.ndarray): int (N,) the class the second reading found likeliest, or
            :data:`NOT_READ_AGAIN`.
        redness (np.ndarray): float (N,) how red the crop's ink is against its paper
            (:func:`vision.evidence.index_redness`): > 0 red, about 0 black.
    """

    clipped: np.ndarray
    sharpness: np.ndarray
    second: np.ndarray
    redness: np.ndarray

    def rows(self, rows: list[int]) -> CropEvidence:
        """The evidence of the crops ``rows`` only, in that order."""
        return CropEvidence(
            self.clipped[rows], self.sharpness[rows], self.second[rows], self.redness[rows]
        )


@dataclass(frozen=True)
class Certainty:
    """An operating point: when a crop's reading is stated as certain.

    Attributes:
        sure_above (float): Least top probability of a certain read.
        reread_below (float): A crop read with less than this is read again under the other
            normalisation, and is certain only when both readings agree (0: never read again).
        blurred_below (float): A crop whose sharpness is under this is blurred (0: never).
        blurred_sure_above (float): Least top probability of a certain read of a blurred crop.
        clipped_above (float): A crop with more than this share of clipped pixels is
            overexposed (1: never).
        clipped_sure_above (float): Least top probability of a certain read of a clipped crop.
    """

    sure_above: float = 0.5
    reread_below: float = 0.0
    blurred_below: float = 0.0
    blurred_sure_above: float = 0.9
    clipped_above: float = 1.0
    clipped_sure_above: float = 0.8

    def sure(self, probs: np.ndarray, evidence: CropEvidence) -> np.ndarray:
        """Which crops' readings are certain.

        Args:
            probs (np.ndarray): (N, C) class probabilities of the first reading.
            evidence (CropEvidence): The crops' evidence (second readings taken at least below
                :attr:`reread_below`).

        Returns:
            (np.ndarray): bool (N,).

        Examples:
            >>> ev = CropEvidence(np.zeros(3), np.full(3, 0.2), np.array([-1, 0, 1]), np.zeros(3))
            >>> probs = np.array([[0.95, 0.05], [0.6, 0.4], [0.6, 0.4]])
            >>> Certainty(reread_below=0.9).sure(probs, ev).tolist()
            [True, True, False]
        """
        top, conf = probs.argmax(1), probs.max(1)
        need = np.full(len(conf), self.sure_above)
        need = np.where(
            evidence.sharpness < self.blurred_below, np.maximum(need, self.blurred_sure_above), need
        )
        need = np.where(
            evidence.clipped > self.clipped_above, np.maximum(need, self.clipped_sure_above), need
        )
        agree = (conf >= self.reread_below) | (evidence.second == top)
        sure: np.ndarray = (conf >= need) & agree
        return sure


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


def second_view(crops: np.ndarray, normalized: bool) -> np.ndarray:
    """The crops under the other normalisation, for a second reading.

    Args:
        crops (np.ndarray): uint8 BGR crops as photographed.
        normalized (bool): Whether the first reading was of contrast-stretched crops
            (:func:`vision.crops.normalize_crops`).

    Returns:
        (np.ndarray): The crops as photographed when the first reading was stretched, else
        stretched.
    """
    return crops if normalized else normalize_crops(crops)


SERVING_CERTAINTY = Certainty(
    0.7, blurred_below=0.08, blurred_sure_above=0.8, clipped_above=0.5, clipped_sure_above=0.8
)
"""The reader's operating point: certain at 0.7, at 0.8 for a blurred or clipped crop; no second
readings. Chosen with ``benchmarks/vision_thresholds.py --conditions`` on 250 held-out synthetic
scenes of seed 181 and confirmed on 250 of seed 182 (issue 18): 0.5 (before) let 2-4.4% of the
certain cards be wrong under every perturbation; 0.7 cut that to 0.5-1.1% on seed 182 for 5.5
points of recall (71.3 -> 65.9% clean); the stricter 0.8 for clipped crops took overexposed
precision from 98.9 to 99.6%, and for blurred ones blur from 99.1 to 99.4%, each costing less
recall elsewhere than a global 0.75 or 0.8. Second readings under the other normalisation
helped at 0.5 (+0.2 to +0.8 points of precision) but not at 0.7 (within +-0.2 points, at 11% of
the read time), so they are off."""


def _stricter(sure_above: float, hard_sure_above: float) -> Certainty:
    """The serving point's form, with other bars."""
    return Certainty(
        sure_above,
        blurred_below=SERVING_CERTAINTY.blurred_below,
        blurred_sure_above=hard_sure_above,
        clipped_above=SERVING_CERTAINTY.clipped_above,
        clipped_sure_above=hard_sure_above,
    )


CERTAINTY_LADDER: tuple[Certainty, ...] = (
    SERVING_CERTAINTY,
    _stricter(0.75, 0.85),
    _stricter(0.8, 0.9),
    _stricter(0.85, 0.9),
    _stricter(0.9, 0.95),
)
"""Operating points for a new classifier, from the serving one to the strictest. A candidate
takes the loosest whose precision on held-out synthetic scenes is at least the shipped reader's
under every condition (:func:`vision.training.chunks.calibrate`), and states it in its
``card_classifier.json``: a classifier that reads more cards may also be surer of wrong ones."""


COURTS = ("J", "Q", "K")
CARD_CODES = frozenset(CARDS)


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
class Corroboration:
    """When a card read with certainty from its index stays certain (:func:`corroborate`).

    A card's body (:mod:`vision.evidence`) **agrees** with its index when it gives the index's
    suit at least :attr:`body_suit` and its rank at least :attr:`body_rank`; it **refutes** it
    when it gives another suit, or another rank (for a court, a number card's rank: one court's
    figure is not told from another's as surely), at least :attr:`refute`. Otherwise it is
    unsure, and counts as no body. Whatever else is said, a card whose **ink** is of the other
    colour than its index's suit (:meth:`ink_refutes`: its body's pips, else its indices) is
    never certain.

    Attributes:
        body_suit (float): Least body probability of the index's suit that agrees.
        body_rank (float): Least body probability of the index's rank that agrees.
        refute (float): Least body probability of another suit or rank that refutes.
        red_above (float): A card's ink redder than this (:func:`vision.evidence.ink_redness`,
            against its own paper) is red: it refutes a black index (inf: never). The ink is a
            number card's body's pips where its face was read, else its indices' (every corner
            read must be so: a neighbour's ink may lie in one corner's crop).
        black_below (float): A card's ink less red than this is black: it refutes a red index
            (-inf: never).
        small_index (float): A card whose indices are smaller than this (pixels of the photo as
            read, their longer side) ...
        soft_below (float): ... and soft (the sharpness of its sharpest corner crop,
            :func:`crop_quality`, under this: a webcam's or a small photo's, not a sharp
            photo's) is read at low resolution: unless its body agrees, it stays certain only
            when two of its corners agree (``small_index`` 0: every card is trusted on its
            index alone) ...
        washed_below (float): Every card in a washed-out photo, one whose mean saturation
            (:func:`frame_colour`) is under this ...
        washed_black (float): ... whose darkest 1 % is lighter than this ...
        washed_middle (float): ... and whose median grey is under this (a camera in dim light
            exposes to a mid grey; an overexposed photo is bright, and its certainty point
            already weighs its clipped crops), is read at low resolution (``washed_below`` 0: no
            photo is washed out) ...
        shared_faces (bool): The cards read on one card's face (its corners disagreeing, or its
            print misread: :func:`vision.bodies.with_bodies`'s ``shared_faces``) each get that
            face and are read at low resolution ...
        context_above (float): ... and the context model (:mod:`vision.context`: the card face
            around an index) gives the card at least this at one of them (0: not asked for; over
            1: two corners never suffice, and the context model is not read).
        body_decides (bool): A card read at low resolution whose body was found stays certain
            only when its body agrees (its corners' agreement does not stand in for an unsure
            body).
        court_suit (float): A court read at low resolution: its body agrees only when it gives
            the index's suit at least this (a court's figure shows little of its suit).
        promote_suit (float): A number card its index reads **uncertain** is made certain when
            its body gives the index's likeliest suit at least this ...
        promote_rank (float): ... and its rank at least this, its ink is not of the other
            colour, ...
        promote_from (float): ... and the index gives the card at least this: two independent
            readings name the same card (over 1: never). A court is not: its figure does not
            tell a jack from a king.
    """

    body_suit: float = 0.5
    body_rank: float = 0.3
    refute: float = 1.1
    red_above: float = float("inf")
    black_below: float = float("-inf")
    small_index: float = 0.0
    soft_below: float = float("inf")
    washed_below: float = 0.0
    washed_black: float = 255.0
    washed_middle: float = 256.0
    shared_faces: bool = False
    context_above: float = 0.0
    body_decides: bool = False
    court_suit: float = 0.0
    promote_suit: float = 1.1
    promote_rank: float = 1.1
    promote_from: float = 0.0

    def low_resolution(
        self,
        index_px: float,
        sharpness: float,
        frame: FrameColour = GREY_WITH_BLACK,
        shared: bool = False,
    ) -> bool:
        """Whether a card is read poorly, so that it needs agreement (its body's, or both corners').

        Args:
            index_px (float): Its indices' height, pixels of the photo as read.
            sharpness (float): Its sharpest corner crop's (:func:`crop_quality`).
            frame (FrameColour): The photo's colour (:func:`frame_colour`).
            shared (bool): It is one of the cards read on one card's face, read poorly as
                small indices are when :attr:`shared_faces`.

        Examples:
            >>> rule = Corroboration(small_index=22, soft_below=0.07, washed_below=30,
            ...                      washed_black=50, washed_middle=200)
            >>> rule.low_resolution(15, 0.04), rule.low_resolution(30, 0.04)
            (True, False)
            >>> rule.low_resolution(30, 0.2, FrameColour(12, 70, 110))  # a washed-out photo
            True
        """
        if (
            frame.saturation < self.washed_below
            and frame.black > self.washed_black
            and frame.middle < self.washed_middle
        ):
            return True
        if shared and self.shared_faces:
            return True
        return index_px < self.small_index and sharpness < self.soft_below

    def body_agrees(self, card: str, body: BodyReading, low_resolution: bool = False) -> bool:
        """Whether the body ``body`` confirms the card ``card`` read at its index.

        A court read at low resolution (``low_resolution``) needs its suit at
        :attr:`court_suit` as well.

        Examples:
            >>> reading = BodyReading(np.array([0.9, 0.0, 0.0, 0.1]), np.eye(13)[6], 0.0)
            >>> rule = Corroboration()
            >>> rule.body_agrees("7C", reading), rule.body_agrees("7S", reading)
            (True, False)
            >>> rule.body_agrees("8C", reading)
            False
            >>> court = BodyReading(np.array([0.95, 0.0, 0.0, 0.05]), np.eye(13)[11], 0.0)
            >>> strict = Corroboration(court_suit=0.99)
            >>> strict.body_agrees("QC", court), strict.body_agrees("QC", court, True)
            (True, False)
        """
        rank, suit = card[:-1], card[-1]
        least = self.court_suit if low_resolution and rank in COURTS else 0.0
        if body.suits[SUITS.index(suit)] < max(self.body_suit, least):
            return False
        return _rank_probability(body, rank) >= self.body_rank

    def body_refutes(self, card: str, body: BodyReading) -> tuple[str, ...] | None:
        """The cards the body ``body`` names instead of ``card``, or None if it does not refute.

        Examples:
            >>> clubs = BodyReading(np.array([0.9, 0.0, 0.0, 0.1]), np.eye(13)[6], 0.0)
            >>> rule = Corroboration(refute=0.8)
            >>> rule.body_refutes("7S", clubs), rule.body_refutes("7C", clubs)
            (('7C',), None)
            >>> rule.body_refutes("QC", clubs), rule.body_refutes("8S", clubs)
            (('7C',), ('8C', '7S'))
        """
        rank, suit = card[:-1], card[-1]
        top_suit, top_rank = int(np.argmax(body.suits)), int(np.argmax(body.ranks))
        instead = []
        if SUITS[top_suit] != suit and body.suits[top_suit] >= self.refute:
            instead.append(rank + SUITS[top_suit])
        if rank in COURTS:
            other_rank = 1 - _rank_probability(body, rank) >= self.refute
        else:
            other_rank = RANKS[top_rank] != rank and body.ranks[top_rank] >= self.refute
        if other_rank:
            instead.append(RANKS[top_rank] + suit)
        return tuple(instead) if instead else None

    def may_confirm(self, card: str, confidence: float) -> bool:
        """Whether a body may make certain ``card``, read uncertain at its index.

        True when the rule promotes, the card is a number card, and the index gives it
        ``confidence`` of at least :attr:`promote_from`; otherwise its body need not be read.

        Examples:
            >>> rule = Corroboration(promote_suit=0.9, promote_rank=0.5, promote_from=0.3)
            >>> [rule.may_confirm(card, p) for card, p in (("7C", 0.4), ("7C", 0.2), ("QC", 0.9))]
            [True, False, False]
        """
        return (
            self.promote_suit <= 1 and card[:-1] not in COURTS and confidence >= self.promote_from
        )

    def body_confirms(
        self,
        card: str,
        confidence: float,
        body: BodyReading,
        index_redness: Sequence[float] = (),
    ) -> bool:
        """Whether the body ``body`` makes certain a card its index reads uncertain.

        ``card`` is the index's reading, ``confidence`` its probability (:attr:`promote_suit`,
        :attr:`promote_rank`, :attr:`promote_from`); its ink (:meth:`ink_refutes`, its indices'
        ``index_redness``) must not be of the other colour.

        Examples:
            >>> clubs = BodyReading(np.array([0.95, 0.0, 0.0, 0.05]), np.eye(13)[6], 0.0)
            >>> rule = Corroboration(promote_suit=0.9, promote_rank=0.5, promote_from=0.3)
            >>> rule.body_confirms("7C", 0.4, clubs), rule.body_confirms("7S", 0.4, clubs)
            (True, False)
            >>> rule.body_confirms("7C", 0.2, clubs)  # the index gives it too little
            False
            >>> Corroboration().body_confirms("7C", 0.4, clubs)  # a rule that never promotes
            False
            >>> court = BodyReading(np.array([0.99, 0.0, 0.0, 0.01]), np.eye(13)[11], 0.0)
            >>> rule.body_confirms("QC", 0.6, court)
            False
        """
        rank, suit = card[:-1], card[-1]
        return self.may_confirm(card, confidence) and bool(
            body.suits[SUITS.index(suit)] >= self.promote_suit
            and _rank_probability(body, rank) >= self.promote_rank
            and self.ink_refutes(card, index_redness, body) is None
        )

    def needs_context(self, corners_agreeing: int, low_resolution: bool) -> bool:
        """Whether a card its body does not confirm needs its context model's agreement too."""
        return 0 < self.context_above <= 1 and corners_agreeing >= 2 and low_resolution

    def ink_refutes(
        self, card: str, index_redness: Sequence[float], body: BodyReading | None = None
    ) -> tuple[str, ...] | None:
        """The cards of ``card``'s rank in its ink's colour when that is not its suit's, else None.

        The ink is a number card's body's pips where ``body`` was read (a court's figure is of
        many colours), else its indices' (``index_redness``, one a corner read: red only when
        every one is over :attr:`red_above`, black only when every one is under
        :attr:`black_below`).

        Examples:
            >>> rule = Corroboration(red_above=0.1, black_below=0.03)
            >>> rule.ink_refutes("3S", [0.3]), rule.ink_refutes("3S", [0.3, 0.0])
            (('3D', '3H'), None)
            >>> [rule.ink_refutes("3D", inks) for inks in ([0.0], [0.3], [])]
            [('3C', '3S'), None, None]
            >>> black_pips = BodyReading(np.full(4, 0.25), np.eye(13)[2], 0.01)
            >>> rule.ink_refutes("3D", [0.3], black_pips), rule.ink_refutes("QD", [0.3], black_pips)
            (('3C', '3S'), None)
        """
        if body is not None and card[:-1] not in COURTS:
            low = high = body.redness
        elif index_redness:
            low, high = min(index_redness), max(index_redness)
        else:
            return None
        red = card[-1] in "HD"
        if (red and high >= self.black_below) or (not red and low <= self.red_above):
            return None
        return tuple(card[:-1] + other for other in ("CS" if red else "DH"))


def weighed_by_body(probs: np.ndarray, classes: list[str], body: BodyReading) -> np.ndarray:
    """An index's class probabilities weighed by its body's, normalised.

    Each class is weighed by what the body says of its suit and rank (any court for a court;
    ``none`` weighs nothing): the two readings' joint probabilities, as if each were independent
    of the other.

    Examples:
        >>> clubs = BodyReading(np.array([0.95, 0.0, 0.0, 0.05]), np.eye(13)[6], 0.0)
        >>> joint = weighed_by_body(np.array([0.4, 0.5, 0.1]), ["7C", "7S", "none"], clubs)
        >>> joint.round(3).tolist()
        [0.938, 0.062, 0.0]
    """
    weights = np.array(
        [
            0.0
            if c not in CARD_CODES
            else body.suits[SUITS.index(c[-1])] * _rank_probability(body, c[:-1])
            for c in classes
        ]
    )
    joint: np.ndarray = probs * weights
    total = float(joint.sum())
    return joint / total if total > 0 else joint


def _rank_probability(body: BodyReading, rank: str) -> float:
    """The body's probability of ``rank``; of any court for a court."""
    if rank in COURTS:
        return float(sum(body.ranks[RANKS.index(r)] for r in COURTS))
    return float(body.ranks[RANKS.index(rank)])


NO_CORROBORATION = Corroboration(body_suit=0.0, body_rank=0.0)
"""Every card certain from its index stays certain (the reader before corroboration)."""


def corroborate(
    card: str,
    corners_agreeing: int,
    low_resolution: bool,
    body: BodyReading | None,
    rule: Corroboration,
    context: float = 1.0,
    index_redness: Sequence[float] = (),
) -> tuple[bool, tuple[str, ...]]:
    """Whether a card read with certainty at its index stays certain, and what else it may be.

    (A card read uncertain there is certain only when its body confirms it:
    :meth:`Corroboration.body_confirms`.) A card whose ink is of the other colour than its
    suit (:meth:`Corroboration.ink_refutes`) is a question, offering its rank in the ink's
    suits. A body that agrees keeps the card certain; one that
    refutes it makes it a question, offering the cards it names. Without a
    body, or with an unsure one, a card read on sharp or large indices stays certain, and one
    read at low resolution (:meth:`Corroboration.low_resolution`) only when two of its corners
    agree (and its context model, :attr:`Corroboration.context_above`).

    Args:
        card (str): The card the index reads with certainty (e.g. ``"7S"``).
        corners_agreeing (int): How many of the card's corner indices each read it so.
        low_resolution (bool): Whether its indices are read at low resolution
            (:meth:`Corroboration.low_resolution`).
        body (BodyReading | None): What its body says, where its face was found.
        rule (Corroboration): The thresholds.
        context (float): The context model's probability of the card at its likeliest corner,
            where :meth:`Corroboration.needs_context` (1: not needed, or not read).
        index_redness (Sequence[float]): The ink redness of each corner index read
            (:func:`vision.evidence.index_redness`).

    Returns:
        (tuple[bool, tuple[str, ...]]): Certain or not, and the cards the body names instead.

    Examples:
        >>> says_clubs = BodyReading(np.array([0.95, 0.0, 0.0, 0.05]), np.eye(13)[6], 0.0)
        >>> rule = Corroboration(refute=0.8, small_index=22)
        >>> corroborate("7S", 2, False, says_clubs, rule)
        (False, ('7C',))
        >>> corroborate("7C", 1, True, says_clubs, rule)
        (True, ())
        >>> lone, both = (corroborate("7S", n, True, None, rule) for n in (1, 2))
        >>> lone, both
        ((False, ()), (True, ()))
        >>> corroborate("7S", 1, False, None, rule)
        (True, ())
        >>> unsure = BodyReading(np.full(4, 0.25), np.eye(13)[6], 0.0)
        >>> corroborate("7S", 2, True, unsure, rule)
        (True, ())
        >>> strict = Corroboration(refute=0.8, small_index=22, body_decides=True)
        >>> corroborate("7S", 2, True, unsure, strict)
        (False, ())
        >>> corroborate("7S", 2, False, None, Corroboration(red_above=0.1), index_redness=[0.3])
        (False, ('7D', '7H'))
    """
    instead = rule.ink_refutes(card, index_redness, body)
    if instead is not None:
        return False, instead
    if body is not None:
        if rule.body_agrees(card, body, low_resolution):
            return True, ()
        instead = rule.body_refutes(card, body)
        if instead is not None:
            return False, instead
        if low_resolution and rule.body_decides:
            return False, ()
    if not low_resolution:
        return True, ()
    return corners_agreeing >= 2 and context >= rule.context_above, ()


DEFAULT_CORROBORATION = Corroboration(
    body_suit=0.85,
    body_rank=0.3,
    refute=0.9,
    promote_suit=0.9,
    promote_rank=0.5,
    promote_from=0.3,
)
"""The reader's corroboration (:class:`vision.reader.CardReader`'s default): a card whose body
names another card at 0.9 or more (its suit, or its rank, any court for a court) is a question,
the body's card offered; every other card certain at its index stays so. A number card read
unsure at its index (0.3 or more) is certain when its body gives its suit at 0.9 and its rank at
0.5 (chosen on the validation webcam series 75, 77 and 78 and the ordinary ones 1902 and 1903:
one more wrong card of 2,440 certain for 6.8 points of webcam recall and 0.6 of ordinary;
``benchmarks/webcam.py --sweep``, the rows ``promote``). The ink's colour is the strict rule's
(:data:`STRICT_CORROBORATION`): in the default it cost 3 right cards of the real photos (recall
93.5 -> 93.0 %) for 4 of the 54 wrong real webcam cards. Figures: models/README.md, "Reading: a
card's body as evidence" and "The ink's colour"."""

STRICT_CORROBORATION = dataclasses.replace(
    DEFAULT_CORROBORATION,
    small_index=22.0,
    soft_below=0.08,
    washed_below=30.0,
    washed_black=50.0,
    washed_middle=200.0,
    shared_faces=True,
    context_above=1.1,
    body_decides=True,
    court_suit=0.99,
    red_above=0.1,
)
"""The strict corroboration (opt-in: ``CardReader(corroboration=STRICT_CORROBORATION)``, since
it costs recall on ordinary photos): :data:`DEFAULT_CORROBORATION`, and a card is certain only
when its body agrees (its suit at 0.85 or more, its rank, or any court for a court, at 0.3 or
more; a court's suit at 0.99, as a court's figure shows little of it) where its indices are
under 22 px (as read) and soft (sharpness under 0.08), where it is one of the cards read on one
card's face (its corners disagreeing, or its print misread), and anywhere in a washed-out photo
(mean saturation under 30, its darkest 1 % lighter than 50, its median grey under 200: a
webcam's dim grey frame); two corners agreeing do not suffice (on the validation webcam series
they were wrong together). Chosen with ``benchmarks/webcam.py --sweep`` on validation webcam
series (seeds 71, 73 and 74 from 9 decks; 75, 77 and 78 from all 30: 3 wrong of 1,745 certain
with the body model trained on all 30 decks and unsure number cards its bodies confirm, 2 of
1,205 without those, 3 of 965 with the first body model, 10 of 1,145 with a court's suit at 0.85
and soft 0.07, and 264 of 2,156 index alone) and ordinary synthetic ones (seeds 1902 and 1903:
recall 53.2 % against 55.9 % index alone);
26 px would make the README's sample hand, indices of 25-28 px, a question. And a card read
as a black suit whose ink is red is a question (redness over 0.1 at its body's pips, else at
every corner read: :meth:`Corroboration.ink_refutes`; chosen on the validation webcam series 79
and 80 and the ordinary 1903 with ``benchmarks/webcam.py --ink``: the loosest red whose ordinary
recall cost stays under a point). Figures: models/README.md, "Reading: a card's body as
evidence" and "The ink's colour"."""
