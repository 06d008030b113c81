"""Which cards read on a photo are certain, decided from the evidence the reader gathered.

The reader (:mod:`vision.reader`) gathers; this module decides, each step on what the one
before decided:

1. **Crops** (:meth:`Certainty.settle`): a corner index's reading is certain when its
   probability reaches the operating point's bar (a stricter one for a blurred or clipped
   crop); where the context model read the face around it (:mod:`vision.context`), the product
   of both readings names the card, a certain reading stays so only when the product agrees,
   and an unsure one becomes certain when the product is very sure.
2. **Cards**: a card is certain when one of its corners is; two corners read as different
   cards that are one card's (:func:`vision.bodies.with_bodies`) are read together
   (:meth:`Certainty.read_as_one`).
3. **Corroboration** (:meth:`Corroboration.decide`): a card certain at its index stays certain
   only when its body (:mod:`vision.evidence`: its pips' suit and count, a court's figure) does
   not name another card and its ink is of its suit's colour; where it is read at low
   resolution (small soft indices, a washed-out photo, one card's face shared), only when its
   body agrees. A number card unsure at its index is certain when its body names the same card.
4. **One deck** (:func:`one_deck`): a card stated certain more than once is asked about each
   time (a cribbage deal is one deck, so at least one of them is misread).

Everything not certain is asked about, with the identities the evidence found likely
(:func:`likeliest`). How each threshold was chosen: ``models/README.md``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision import CARDS, RANKS, SUITS
from vision.detection import DetectedCard
from vision.evidence import GREY_WITH_BLACK, BodyReading, CropEvidence, FrameColour

CHOICE_ABOVE = 0.1
"""An identity is among a card's choices when the classifier gives it more than this."""
MAX_CHOICES = 3
"""At most this many choices a card."""
CONTEXT_SURE_ABOVE = 0.98
"""Least probability of an index's and its context's joint reading that makes it certain."""
COURTS = ("J", "Q", "K")
CARD_CODES = frozenset(CARDS)


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


@dataclass(frozen=True)
class Certainty:
    """An operating point: when a crop's reading is certain.

    Attributes:
        sure_above (float): Least top probability of a certain read.
        blurred_below (float): A crop whose sharpness is under this is blurred (0: never).
        blurred_sure_above (float): Least top probability of a certain read of a blurred crop.
        clipped_above (float): A crop with more than this share of clipped pixels is
            overexposed (1: never).
        clipped_sure_above (float): Least top probability of a certain read of a clipped crop.
    """

    sure_above: float = 0.5
    blurred_below: float = 0.0
    blurred_sure_above: float = 0.9
    clipped_above: float = 1.0
    clipped_sure_above: float = 0.8

    def sure(self, probs: np.ndarray, evidence: CropEvidence) -> np.ndarray:
        """Which crops' readings reach their bar (bool (N,)), the context left out.

        Examples:
            >>> ev = CropEvidence(np.zeros(2), np.array([0.2, 0.05]), np.zeros(2), np.zeros((2, 2)))
            >>> Certainty(0.7, blurred_below=0.08).sure(np.array([[0.8, 0.2]] * 2), ev).tolist()
            [True, False]
        """
        need = np.full(len(probs), self.sure_above)
        need = np.where(
            evidence.sharpness < self.blurred_below, np.maximum(need, self.blurred_sure_above), need
        )
        need = np.where(
            evidence.clipped > self.clipped_above, np.maximum(need, self.clipped_sure_above), need
        )
        sure: np.ndarray = probs.max(1) >= need
        return sure

    def settle(
        self, probs: np.ndarray, evidence: CropEvidence, none: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """The crops' readings weighed with their context where it was read, and which are certain.

        A crop its context was read for (:attr:`~vision.evidence.CropEvidence.context`) is read
        as the product of both (``none``, the index of the ``none`` class, set to 0,
        renormalised). It is certain when it was certain alone and the product names the same
        card, or when the product reaches :data:`CONTEXT_SURE_ABOVE`, the context's own top
        choice is that card, and it was one of the index's two likeliest.

        Returns:
            (tuple[np.ndarray, np.ndarray]): Probabilities (N, C) and certainty (N,).

        Examples:
            >>> probs = np.array([[0.5, 0.45, 0.05], [0.9, 0.02, 0.08], [0.9, 0.05, 0.05]])
            >>> context = np.array([[0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [np.nan] * 3])
            >>> ev = CropEvidence(np.zeros(3), np.full(3, 0.2), np.zeros(3), context)
            >>> both, certain = Certainty(0.7).settle(probs, ev, none=2)
            >>> both.argmax(1).tolist(), certain.tolist()
            ([1, 1, 0], [True, False, True])
        """
        sure = self.sure(probs, evidence)
        weighed = np.flatnonzero(~np.isnan(evidence.context[:, 0]))
        if len(weighed) == 0:
            return probs, sure
        probs, sure = probs.copy(), sure.copy()
        first, context = probs[weighed], evidence.context[weighed]
        both = first * context
        both[:, none] = 0.0
        both = both / np.maximum(both.sum(1, keepdims=True), 1e-12)
        top = both.argmax(1)
        first_two = np.argsort(-first, axis=1)[:, :2]
        settled = (
            (both.max(1) >= CONTEXT_SURE_ABOVE)
            & (context.argmax(1) == top)
            & (first_two == top[:, None]).any(1)
        )
        probs[weighed] = both
        sure[weighed] = (sure[weighed] & (top == first.argmax(1))) | settled
        return probs, sure

    def read_as_one(
        self, first: np.ndarray, second: np.ndarray, evidence: CropEvidence, none: int
    ) -> tuple[np.ndarray, bool] | None:
        """Two corners' readings as one card's, and whether that card is certain; None if none.

        The card's probabilities are the product of both (``none`` set to 0, renormalised); it
        is certain when that reading would be certain for each of the two crops (``evidence``:
        theirs, in order).
        """
        both = first * second
        if none >= 0:
            both[none] = 0.0
        if both.sum() <= 0:
            return None
        both = both / both.sum()
        return both, bool(self.sure(np.stack([both, both]), evidence).all())


SERVING_CERTAINTY = Certainty(
    0.7, blurred_below=0.08, blurred_sure_above=0.8, clipped_above=0.5, clipped_sure_above=0.8
)
"""The reader's operating point: certain at 0.7, at 0.8 for a blurred or clipped crop (model
card, "Certainty in bad light")."""


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


@dataclass(frozen=True)
class CardEvidence:
    """What a card read at its corner indices rests on besides them (the reader gathers it).

    Attributes:
        index_px (float): Its indices' longer side (their median), pixels of the photo as read.
        sharpness (float): Its sharpest corner crop's (:func:`vision.evidence.crop_quality`).
        shares_face (bool): It is one of several cards read on one card's face.
        frame (FrameColour): The photo's colour (:func:`vision.evidence.frame_colour`).
        body (BodyReading | None): What its body says, where its face was found and read.
        inks (tuple[float, ...]): The ink redness of each corner read
            (:func:`vision.evidence.index_redness`).
        corners (np.ndarray): (K, C) each corner's class probabilities.
    """

    index_px: float
    sharpness: float
    shares_face: bool = False
    frame: FrameColour = GREY_WITH_BLACK
    body: BodyReading | None = None
    inks: tuple[float, ...] = ()
    corners: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((0, 0)))


@dataclass(frozen=True)
class Corroboration:
    """When a card read at its index is certain, weighed with its body, ink and resolution.

    A card's body **agrees** with its index when it gives the index's suit at least
    :attr:`body_suit` and its rank (any court for a court) at least :attr:`body_rank`; it
    **refutes** it when it gives another suit, or another rank (for a court, a number card's),
    at least :attr:`refute`; otherwise it is unsure. The ink refutes a black card when it is red
    (:meth:`ink_refutes`).

    Attributes:
        body_suit (float): Least body probability of the index's suit that agrees.
        body_rank (float): Least body probability of the index's rank that agrees.
        refute (float): Least body probability of another suit or rank that refutes.
        red_above (float): Ink redder than this is red and refutes a black index (inf: never):
            a number card's body's pips where its face was read, else every corner's index.
        small_index (float): A card whose indices are smaller than this (photo pixels as read)
            ...
        soft_below (float): ... and whose sharpest corner is softer than this is read at low
            resolution (``small_index`` 0: none is).
        washed_below (float): Every card in a washed-out photo, whose mean saturation is under
            this ...
        washed_black (float): ... its darkest 1 % lighter than this ...
        washed_middle (float): ... and its median grey under this, is read at low resolution
            (``washed_below`` 0: no photo is washed out).
        shared_faces (bool): The cards read on one card's face (:func:`vision.bodies.with_bodies`)
            get that face and are read at low resolution.
        court_suit (float): A court read at low resolution: its body agrees only when it gives
            the index's suit at least this.
        promote_suit (float): A number card its index reads **uncertain** is certain when its
            body gives its suit at least this (over 1: never) ...
        promote_rank (float): ... its rank at least this, its ink is not of the other colour ...
        promote_from (float): ... and the index gives it at least this.
    """

    body_suit: float = 0.5
    body_rank: float = 0.3
    refute: float = 1.1
    red_above: float = float("inf")
    small_index: float = 0.0
    soft_below: float = float("inf")
    washed_below: float = 0.0
    washed_black: float = 255.0
    washed_middle: float = 256.0
    shared_faces: bool = False
    court_suit: float = 0.0
    promote_suit: float = 1.1
    promote_rank: float = 1.1
    promote_from: float = 0.0

    def decide(
        self, card: DetectedCard, evidence: CardEvidence, classes: list[str]
    ) -> DetectedCard:
        """``card`` as this rule decides it on ``evidence`` (``classes``: the classifier's).

        A card certain at its index stays so when :func:`corroborate` says so; else it is
        uncertain, the cards its body or ink names among its choices. A card uncertain at its
        index becomes certain where its body confirms it (:meth:`body_confirms`), its
        confidence then the joint probability of its corners' readings and its body's
        (:func:`weighed_by_body`).
        """
        body = evidence.body
        if card.uncertain:
            if body is None or not self.body_confirms(
                card.card, card.confidence, body, evidence.inks
            ):
                return card
            confidence = card.confidence
            if len(evidence.corners):
                joint = weighed_by_body(np.prod(evidence.corners, axis=0), classes, body)
                confidence = float(joint[classes.index(card.card)])
            return dataclasses.replace(card, confidence=confidence, uncertain=False)
        low = self.low_resolution(
            evidence.index_px, evidence.sharpness, evidence.frame, evidence.shares_face
        )
        certain, instead = corroborate(card.card, low, body, self, evidence.inks)
        if certain:
            return card
        choices = tuple(dict.fromkeys((card.card, *instead, *card.choices[1:])))
        return dataclasses.replace(card, uncertain=True, choices=choices[:MAX_CHOICES])

    def low_resolution(
        self,
        index_px: float,
        sharpness: float,
        frame: FrameColour = GREY_WITH_BLACK,
        shared: bool = False,
    ) -> bool:
        """Whether a card is read poorly, so that it is certain only where its body agrees.

        Args:
            index_px (float): Its indices' size, pixels of the photo as read.
            sharpness (float): Its sharpest corner crop's.
            frame (FrameColour): The photo's colour.
            shared (bool): It is one of the cards read on one card's face.

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

        A court read at low resolution needs its suit at :attr:`court_suit` as well.

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
        """Whether a body may make certain ``card``, read uncertain at ``confidence``.

        True when the rule promotes, the card is a number card, and ``confidence`` is at least
        :attr:`promote_from`; otherwise its body need not be read.

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

        ``card`` is the index's reading, ``confidence`` its probability; its ink
        (:meth:`ink_refutes`, its indices' ``index_redness``) must not be of the other colour.

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

    def ink_refutes(
        self, card: str, index_redness: Sequence[float], body: BodyReading | None = None
    ) -> tuple[str, ...] | None:
        """The red cards of a black number card's rank when its ink is red, else None.

        The ink is the card's body's pips where ``body`` was read, else its indices'
        (``index_redness``, one a corner read: red only when every one is over
        :attr:`red_above`). A court is never refuted so: its figure, on its face and beside its
        index, is of many colours.

        Examples:
            >>> rule = Corroboration(red_above=0.1)
            >>> rule.ink_refutes("3S", [0.3]), rule.ink_refutes("3S", [0.3, 0.0])
            (('3D', '3H'), None)
            >>> rule.ink_refutes("3D", [0.0]), rule.ink_refutes("3S", [])
            (None, None)
            >>> black_pips = BodyReading(np.full(4, 0.25), np.eye(13)[2], 0.01)
            >>> rule.ink_refutes("3S", [0.3], black_pips), rule.ink_refutes("QS", [0.3, 0.4])
            (None, None)
        """
        if card[-1] in "HD" or card[:-1] in COURTS:
            return None
        if body is not None:
            low = body.redness
        elif index_redness:
            low = min(index_redness)
        else:
            return None
        return (card[:-1] + "D", card[:-1] + "H") if low > self.red_above else None


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


def corroborate(
    card: str,
    low_resolution: bool,
    body: BodyReading | None,
    rule: Corroboration,
    index_redness: Sequence[float] = (),
) -> tuple[bool, tuple[str, ...]]:
    """Whether a card read with certainty at its index stays certain, and what else it may be.

    A card whose ink refutes it (:meth:`Corroboration.ink_refutes`) is a question, offering its
    rank in the ink's suits. A body that agrees keeps it certain; one that refutes it makes it a
    question, offering the cards it names. Without a body, or with an unsure one, a card read on
    sharp or large indices stays certain, and one read at low resolution does not.

    Args:
        card (str): The card the index reads with certainty (e.g. ``"7S"``).
        low_resolution (bool): Whether its indices are read at low resolution
            (:meth:`Corroboration.low_resolution`).
        body (BodyReading | None): What its body says, where its face was found.
        rule (Corroboration): The thresholds.
        index_redness (Sequence[float]): The ink redness of each corner index read.

    Returns:
        (tuple[bool, tuple[str, ...]]): Certain or not, and the cards named instead.

    Examples:
        >>> says_clubs = BodyReading(np.array([0.95, 0.0, 0.0, 0.05]), np.eye(13)[6], 0.0)
        >>> rule = Corroboration(refute=0.8)
        >>> corroborate("7S", False, says_clubs, rule), corroborate("7C", True, says_clubs, rule)
        ((False, ('7C',)), (True, ()))
        >>> corroborate("7S", True, None, rule), corroborate("7S", False, None, rule)
        ((False, ()), (True, ()))
        >>> corroborate("7S", False, None, Corroboration(red_above=0.1), index_redness=[0.3])
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
    return not low_resolution, ()


NO_CORROBORATION = Corroboration(body_suit=0.0, body_rank=0.0)
"""Every card certain from its index stays certain (the reader before corroboration)."""

DEFAULT_CORROBORATION = Corroboration(
    body_suit=0.85,
    body_rank=0.3,
    refute=0.9,
    promote_suit=0.9,
    promote_rank=0.5,
    promote_from=0.3,
)
"""The reader's rule: a card whose body names another card at 0.9 (its suit, or its rank, any
court for a court) is a question, the body's card offered; every other card certain at its index
stays so. A number card read unsure at its index (0.3 or more) is certain when its body gives
its suit at 0.9 and its rank at 0.5. Model card: "Reading: a card's body as evidence"."""

STRICT_CORROBORATION = dataclasses.replace(
    DEFAULT_CORROBORATION,
    small_index=22.0,
    soft_below=0.08,
    washed_below=30.0,
    washed_black=50.0,
    washed_middle=200.0,
    shared_faces=True,
    court_suit=0.99,
    red_above=0.1,
)
"""The strict rule (``crib read --strict``, the web page's "Dim light"): the default, and a card
is certain only where its body agrees (a court's suit at 0.99) when its indices are under 22 px
and soft (sharpness under 0.08), when it shares one card's face, and anywhere in a washed-out
photo (saturation under 30, darkest 1 % over 50, median grey under 200); a black number card
whose ink is red (over 0.1: its body's pips, else the suit symbol at every corner read) is a
question. It costs recall on ordinary photos. Model card: "Reading: a card's body as evidence"
and "The ink's colour"."""


def one_deck(cards: Sequence[DetectedCard]) -> list[DetectedCard]:
    """``cards`` as one deck allows: a card certain more than once is asked about each time.

    One deck holds one of each card, so two certain readings of one card are at least one
    misreading, and nothing on the photo says which: both are questions, with what else each
    may be (:attr:`DetectedCard.choices`). Uncertain cards are left as they are.

    Examples:
        >>> box = (0.0, 0.0, 10.0, 10.0)
        >>> cards = [DetectedCard("QS", 0.97, box), DetectedCard("QS", 0.83, box),
        ...          DetectedCard("5H", 0.99, box), DetectedCard("5H", 0.4, box, True)]
        >>> [(c.card, c.uncertain) for c in one_deck(cards)]
        [('QS', True), ('QS', True), ('5H', False), ('5H', True)]
    """
    certain = Counter(card.card for card in cards if not card.uncertain)
    return [
        dataclasses.replace(card, uncertain=True)
        if not card.uncertain and certain[card.card] > 1
        else card
        for card in cards
    ]
