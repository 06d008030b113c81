"""A card's body as evidence of its suit and rank (``vision.evidence``), the corroboration of
certain cards by their bodies, and unsure number cards made certain by their bodies
(``vision.certainty.corroborate``)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision import MODELS_DIR, RANKS, SUITS
from vision.certainty import (
    DEFAULT_CORROBORATION,
    NO_CORROBORATION,
    STRICT_CORROBORATION,
    Corroboration,
    corroborate,
)
from vision.evidence import (
    FACE_SIZE,
    BodyReading,
    CropEvidence,
    FrameColour,
    face_crop,
    frame_colour,
    ink_redness,
    paper_balanced,
)
from vision.reader import DetectedCard, load_reader
from vision.training.synth.faces import draw_suit
from vision.training.synth.webcam import webcam_camera


def _body(suit: str, rank: str, p: float = 0.95, redness: float = 0.0) -> BodyReading:
    suits = np.full(4, (1 - p) / 3)
    suits[SUITS.index(suit)] = p
    ranks = np.full(13, (1 - p) / 12)
    ranks[RANKS.index(rank)] = p
    return BodyReading(suits, ranks, redness)


def _crops_evidence(n: int, sharpness: float, redness: float = 0.0) -> CropEvidence:
    """The evidence of ``n`` unclipped index crops of one sharpness and ink redness."""
    return CropEvidence(
        np.zeros(n), np.full(n, sharpness), np.full(n, redness), np.full((n, 53), np.nan)
    )


RULE = Corroboration(body_suit=0.5, body_rank=0.3, refute=0.6, small_index=22.0, soft_below=0.07)
NO_PROMOTION = dataclasses.replace(DEFAULT_CORROBORATION, promote_suit=1.1)
"""The default rule, except that no body makes an uncertain card certain."""


def test_a_spade_index_on_a_club_body_is_asked_with_the_club_offered() -> None:
    """The index reads 7S with certainty, the body's pips are clubs: asked, 7C offered."""
    assert corroborate("7S", True, _body("C", "7"), RULE) == (False, ("7C",))
    assert corroborate("7C", True, _body("C", "7"), RULE) == (True, ())


def test_a_body_of_another_pip_count_makes_the_rank_a_question() -> None:
    """The index reads 7C, the body holds eight clubs: asked, 8C offered."""
    assert corroborate("7C", True, _body("C", "8"), RULE) == (False, ("8C",))


def test_a_court_figure_is_not_a_number_card() -> None:
    """An index read QC on a body of pips is asked; on a court's figure (any court) it stays."""
    assert corroborate("QC", False, _body("C", "7"), RULE) == (False, ("7C",))
    assert corroborate("QC", False, _body("C", "K"), RULE) == (True, ())


def test_a_body_unsure_of_its_suit_counts_as_none() -> None:
    """A body torn between clubs and spades neither confirms nor refutes: a card read at low
    resolution is then asked about, one read on large sharp indices stands."""
    torn = BodyReading(np.array([0.45, 0.0, 0.0, 0.55]), np.eye(13)[6], 0.0)
    assert corroborate("7C", True, torn, RULE) == (False, ())
    assert corroborate("7C", False, torn, RULE) == (True, ())


def test_strictly_a_small_index_needs_its_body_to_agree() -> None:
    """Under the strict rule, a card read on small soft indices is certain only where its body
    agrees: not with an unsure body, nor with none."""
    served = STRICT_CORROBORATION
    torn = BodyReading(np.array([0.45, 0.0, 0.0, 0.55]), np.eye(13)[6], 0.0)
    assert corroborate("7S", True, torn, served) == (False, ())
    assert corroborate("7S", True, _body("S", "7"), served) == (True, ())
    assert corroborate("7S", True, None, served) == (False, ())
    assert corroborate("7S", False, None, served) == (True, ())


def test_a_court_index_agrees_with_a_body_of_any_court() -> None:
    """A body cannot tell a king's figure from a queen's at a webcam's size: its courts together
    agree with a court's index."""
    ranks = np.zeros(13)
    ranks[RANKS.index("Q")], ranks[RANKS.index("K")] = 0.7, 0.25
    body = BodyReading(np.array([0.95, 0.0, 0.0, 0.05]), ranks, 0.0)
    assert RULE.body_agrees("KC", body)
    assert not RULE.body_agrees("7C", body)


def test_a_refuting_body_outweighs_a_large_index_and_both_corners() -> None:
    assert corroborate("7S", False, _body("C", "7"), RULE) == (False, ("7C",))


@pytest.mark.parametrize(("card", "redness", "sure"), [("8S", 0.3, False), ("8S", 0.0, True)])
def test_red_ink_refutes_a_black_index(card: str, redness: float, sure: bool) -> None:
    """A number card's ink colour is evidence of its own: a black index over red pips is asked,
    even where the body model took the pips for spades."""
    rule = Corroboration(red_above=0.12, small_index=22.0)
    assert corroborate(card, False, _body("S", "8", redness=redness), rule)[0] is sure


def test_in_a_washed_out_photo_even_large_sharp_indices_need_agreement() -> None:
    """A washed-out photo (:func:`vision.evidence.frame_colour`: little colour, no deep black,
    mid grey) makes even large sharp indices need agreement; a grey photo with black ink, or an
    overexposed one, does not."""
    rule = Corroboration(
        small_index=22.0, soft_below=0.07, washed_below=30.0, washed_black=50.0,
        washed_middle=200.0,
    )  # fmt: skip
    grey, washed = FrameColour(20.0, 10.0, 110.0), FrameColour(20.0, 70.0, 110.0)
    overexposed = FrameColour(20.0, 70.0, 250.0)
    assert rule.low_resolution(15.0, 0.04, grey) and not rule.low_resolution(40.0, 0.2, grey)
    assert rule.low_resolution(40.0, 0.2, washed)
    assert not rule.low_resolution(40.0, 0.2, overexposed)


def test_the_default_rule_trusts_the_indices_its_bodies_do_not_refute() -> None:
    """Small soft indices, even in a washed-out photo: the default reader keeps them certain
    unless a body names another card (ordinary photos keep their recall); the strict rule asks
    for their bodies' agreement."""
    grey, washed = FrameColour(20.0, 10.0, 110.0), FrameColour(20.0, 70.0, 110.0)
    assert not DEFAULT_CORROBORATION.low_resolution(15.0, 0.04, washed)
    assert STRICT_CORROBORATION.low_resolution(15.0, 0.04, grey)
    assert STRICT_CORROBORATION.low_resolution(40.0, 0.2, washed)
    assert corroborate("7S", False, None, DEFAULT_CORROBORATION) == (True, ())
    assert corroborate("7S", False, _body("C", "7"), DEFAULT_CORROBORATION) == (
        False,
        ("7C",),
    )


def test_cards_on_one_face_need_agreement_only_when_the_rule_says_so() -> None:
    shares = Corroboration(shared_faces=True)
    assert shares.low_resolution(40.0, 0.2, shared=True)
    assert not shares.low_resolution(40.0, 0.2)
    assert not Corroboration().low_resolution(40.0, 0.2, shared=True)


def test_frame_colour_measures_a_photos_colour_and_its_black(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A webcam in dim grey light that keeps a quarter to three quarters of the colour washes a
    photo's colour out and lifts its black."""
    from vision.training.synth import webcam

    monkeypatch.setattr(webcam, "COLOUR_KEPT", (0.25, 0.75))
    photo = _composite("8D", "8D")
    before = frame_colour(photo)
    after = frame_colour(webcam_camera(photo, np.random.default_rng(4)))
    assert before.saturation > 60 and after.saturation < 30
    assert after.black > before.black


def test_without_a_body_a_small_index_is_asked_about() -> None:
    """No face found (a fan, a light table): a card read at low resolution is asked about;
    larger or sharp indices are trusted alone."""
    assert RULE.low_resolution(15.0, 0.04) and not RULE.low_resolution(30.0, 0.04)
    assert not RULE.low_resolution(15.0, 0.1)
    assert corroborate("7S", True, None, RULE) == (False, ())
    assert corroborate("7S", False, None, RULE) == (True, ())


def test_strictly_a_small_court_needs_its_body_sure_of_its_suit() -> None:
    """A court's figure shows little of its suit: under the strict rule a court read on small
    soft indices stays certain only when its body gives its suit at ``court_suit``; a number
    card, or the same court on larger indices, needs only ``body_suit``."""
    strict = STRICT_CORROBORATION
    assert strict.body_suit <= 0.95 and strict.court_suit > 0.95
    assert corroborate("KS", True, _body("S", "K", p=0.95), strict) == (False, ())
    assert corroborate("KS", True, _body("S", "K", p=0.999), strict) == (True, ())
    assert corroborate("8S", True, _body("S", "8", p=0.95), strict) == (True, ())
    assert corroborate("KS", False, _body("S", "K", p=0.95), strict) == (True, ())


def test_an_uncertain_reading_stays_uncertain() -> None:
    """A rule that does not promote leaves a card its index reads unsure asked, whatever its
    body says."""
    assert RULE.body_confirms("7C", 0.45, _body("C", "7")) is False


def _card_photo(
    pips: str, turn: float = 0.0, cast: tuple[float, float, float] = (1.0, 1.0, 1.0)
) -> tuple[np.ndarray, tuple[tuple[float, float], tuple[float, float], float]]:
    """A 300 x 400 photo of a plain card (140 x 200 px) with three ``pips`` (a suit letter),
    a black bar at the top of its left side, turned by ``turn`` degrees, under a ``cast``."""
    import cv2

    face = np.full((200, 140, 3), 235, np.uint8)
    colour = (30, 30, 200) if pips in "HD" else (25, 25, 25)
    for y in (60, 100, 140):
        draw_suit(face, pips, 70, y, 30, colour)
    face[60:90, 28:34] = 0
    photo = np.full((400, 300, 3), 70, np.uint8)
    m = cv2.getRotationMatrix2D((70, 100), turn, 1.0)
    m[:, 2] += (150 - 70, 200 - 100)
    mask = cv2.warpAffine(np.full((200, 140), 255, np.uint8), m, (300, 400))
    card = cv2.warpAffine(face, m, (300, 400))
    photo[mask > 127] = card[mask > 127]
    photo = np.clip(photo * np.array(cast), 0, 255).astype(np.uint8)
    (x, y), (w, h), angle = cv2.minAreaRect(cv2.findNonZero((mask > 127).astype(np.uint8)))
    return photo, ((x, y), (w, h), angle)


@pytest.mark.parametrize("turn", [0.0, 30.0, 90.0, 200.0])
def test_the_face_is_cut_upright_and_not_mirrored(turn: float) -> None:
    """However the card lies, the face comes out with its long side vertical, and the bar at
    the top of its left side stays on the left at the top (or on the right at the bottom, the
    card turned round), never mirrored."""
    photo, outline = _card_photo("S", turn)
    face = face_crop(photo, outline)
    assert face.shape == (FACE_SIZE[1], FACE_SIZE[0], 3)
    dark = face.mean(-1) < 60
    h, w = dark.shape
    top_left = dark[h // 4 : h // 2, : w // 3].mean()
    bottom_right = dark[h // 2 : 3 * h // 4, 2 * w // 3 :].mean()
    top_right = dark[h // 4 : h // 2, 2 * w // 3 :].mean()
    bottom_left = dark[h // 2 : 3 * h // 4, : w // 3].mean()
    assert max(top_left, bottom_right) > 0.03
    assert max(top_right, bottom_left) < 0.005


def test_red_ink_is_told_from_black_under_a_blue_cast_in_a_webcam() -> None:
    """Against the card's own paper, red pips stay red and black ones black through a blue
    cast, dim light, washed-out colour, noise and JPEG."""
    rng = np.random.default_rng(3)
    scores = {}
    for pips in "DS":
        photo, outline = _card_photo(pips, 20.0, cast=(1.25, 1.0, 0.8))
        seen = webcam_camera(photo, rng)
        scores[pips] = float(ink_redness(paper_balanced(face_crop(seen, outline)[None]))[0])
    assert scores["D"] > 0.12 > 0.06 > scores["S"]


class _FixedBody:
    """A body model whose every face reads as ``reading``."""

    def __init__(self, reading: BodyReading) -> None:
        self.reading = reading

    def read(self, faces: np.ndarray) -> list[BodyReading]:
        return [self.reading] * len(faces)


def _grey_photo(washed: bool) -> np.ndarray:
    """A 400 x 400 photo of no colour: mid-grey paper alone (washed out), or with black ink."""
    image = np.full((400, 400, 3), 150, np.uint8)
    if not washed:
        image[300:360, 300:360] = 15
    return image


def _corroborated(
    readings: tuple[str, ...],
    body: BodyReading,
    one_face: bool,
    image: np.ndarray,
    confidence: float = 0.99,
    rule: Corroboration = STRICT_CORROBORATION,
) -> list[DetectedCard]:
    """The cards ``readings`` (read at ``confidence`` on large, sharp indices, apart: certain
    at 0.7 or more, the rest of the probability on the other suit of the same rank) as ``rule``
    corroborates them, each body reading ``body``, in the photo ``image``."""
    reader = load_reader(MODELS_DIR)
    saved = reader.__dict__.get("body")
    try:
        reader.body = _FixedBody(body)  # type: ignore[assignment]
        probs = np.zeros((len(readings), len(reader.classes)))
        boxes = [(100.0 * k, 100.0, 100.0 * k + 20.0, 135.0) for k in range(1, len(readings) + 1)]
        outline = ((160.0, 180.0), (130.0, 180.0), 0.0)
        cards = []
        for k, (card, box) in enumerate(zip(readings, boxes, strict=True)):
            other = card[:-1] + {"C": "S", "S": "C", "D": "H", "H": "D"}[card[-1]]
            probs[k, reader.classes.index(card)] = confidence
            probs[k, reader.classes.index(other)] = 1 - confidence
            face = 1 if one_face else k
            cards.append(
                DetectedCard(
                    card, confidence, box, confidence < 0.7, (box,), face, (card, other), outline
                )
            )
        sharp = _crops_evidence(len(readings), 0.3)
        rows = {b: k for k, b in enumerate(boxes)}
        return reader.corroborated(image, cards, 1.0, rows, probs, sharp, rule)
    finally:
        if saved is None:
            reader.__dict__.pop("body", None)
        else:
            reader.body = saved


@pytest.mark.parametrize(
    ("body", "washed", "certain"),
    [
        (_body("C", "9"), True, {"9C"}),  # the bodies say clubs: the club stays certain
        (_body("C", "9", p=0.45), True, set()),  # bodies unsure of their suit: both asked
        (_body("C", "9", p=0.45), False, {"9C", "9S"}),  # the same with black ink in the photo
    ],
)
def test_in_a_washed_out_photo_every_card_needs_its_body(
    body: BodyReading, washed: bool, certain: set[str]
) -> None:
    """A photo of no colour and no deep black (a webcam's dim grey frame) trusts no index
    alone, however large and sharp: a 9C and a 9S on faces of their own are certain only as far
    as their bodies agree. With black ink in the photo, large sharp indices stand alone."""
    read = _corroborated(("9C", "9S"), body, False, _grey_photo(washed))
    assert {c.card for c in read if not c.uncertain} == certain


@pytest.mark.parametrize(
    ("body", "one_face", "certain"),
    [
        (_body("C", "9"), True, {"9C"}),  # the face says clubs: the club stays, the spade asked
        (_body("C", "9", p=0.45), True, set()),  # a face unsure of its suit: both asked
        (_body("C", "9", p=0.45), False, {"9C", "9S"}),  # two cards apart, large sharp indices
    ],
)
def test_two_cards_of_one_rank_on_one_face_need_that_face_to_agree(
    body: BodyReading, one_face: bool, certain: set[str]
) -> None:
    """A 9C and a 9S read on large, sharp indices but lying on one card's face (one card whose
    corners disagree) are certain only as far as the face agrees; the same two readings on two
    faces, with faces that say nothing clearly, stay certain."""
    read = _corroborated(("9C", "9S"), body, one_face, _grey_photo(washed=False))
    assert {c.card for c in read if not c.uncertain} == certain
    if one_face and certain:
        assert "9C" in next(c for c in read if c.card == "9S").choices


def _composite(index: str, body: str, turn: float = 12.0) -> np.ndarray:
    """A 640 x 480 photo of one anglo card, 170 px high on a dark table, whose corner indices
    are ``index``'s and whose body is ``body``'s (a card misprinted, as a webcam misreads)."""
    import cv2

    from vision.training.synth.faces import rendered_deck

    deck = rendered_deck("anglo")
    face = deck.faces[body].copy()
    h, w = face.shape[:2]
    _, _, x2, y2 = (round(v) for v in deck.index_box)
    corner = deck.faces[index][: y2 + 2, : x2 + 2]
    face[: y2 + 2, : x2 + 2] = corner
    face[h - y2 - 2 :, w - x2 - 2 :] = corner[::-1, ::-1]
    s = 170 / h
    small = cv2.resize(face, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    m = cv2.getRotationMatrix2D((sw / 2, sh / 2), turn, 1.0)
    m[:, 2] += (320 - sw / 2, 240 - sh / 2)
    photo = np.full((480, 640, 3), (40, 60, 45), np.uint8)
    mask = cv2.warpAffine(np.full((sh, sw), 255, np.uint8), m, (640, 480))
    card = cv2.warpAffine(small, m, (640, 480))
    photo[mask > 127] = card[mask > 127]
    return photo


def _read(photo: np.ndarray, rule: Corroboration | None = None) -> list[DetectedCard]:
    """The cards the shared reader of the shipped models reads on ``photo`` under ``rule`` (its
    default rule when None)."""
    return load_reader(MODELS_DIR).read(photo, corroboration=rule).cards


@pytest.mark.parametrize("strict", [False, True], ids=["default reader", "strict rule"])
@pytest.mark.parametrize(
    ("index", "body", "offered"),
    [
        ("3S", "3C", "3C"),  # the suit: a spade index on a body of clubs (on 7S/7C the context
        # model already reads the index as 7C, so the index alone is not wrong there)
        ("8D", "8S", "8S"),  # the colour and suit: a diamond index on black spades
        ("7C", "8C", "8C"),  # the pip count: a seven's index on eight pips
        ("QC", "7C", "7C"),  # a court's index on a number card's body
    ],
)
def test_an_index_its_body_contradicts_is_asked_about(
    index: str, body: str, offered: str, strict: bool
) -> None:
    """Read at its index alone the card is certain; its body says otherwise, so the reader
    asks, offering the card the body names: by default, and under the strict rule. (Fails
    without a body model in ``models/``.)"""
    photo = _composite(index, body)
    alone = [c for c in _read(photo, NO_CORROBORATION) if c.card == index]
    assert alone and not alone[0].uncertain, "the index alone must read it with certainty"
    read = _read(photo, STRICT_CORROBORATION if strict else None)
    card = next(c for c in read if c.card == index)
    assert card.uncertain
    assert offered in card.choices


@pytest.mark.parametrize("card", ["7C", "8D", "QH", "AS"])
def test_a_card_its_body_agrees_with_stays_certain(card: str) -> None:
    cards = _read(_composite(card, card), STRICT_CORROBORATION)
    assert [c.card for c in cards if not c.uncertain] == [card]


def test_an_unsure_index_its_body_confirms_is_certain() -> None:
    """A number card its index reads unsure (0.45 7C, 0.55 on other cards) is certain when its
    body says clubs and seven: two independent readings name it. Its confidence is then their
    joint probability. Each piece must agree: a body of another suit or pip count, or one unsure
    of its suit, leaves it asked; so does an index too unsure to count."""
    rule = DEFAULT_CORROBORATION
    assert rule.body_confirms("7C", 0.45, _body("C", "7")) is True
    assert rule.body_confirms("7C", 0.45, _body("S", "7")) is False
    assert rule.body_confirms("7C", 0.45, _body("C", "8")) is False
    assert rule.body_confirms("7C", 0.45, _body("C", "7", p=0.8)) is False
    assert rule.body_confirms("7C", 0.2, _body("C", "7")) is False


def test_a_body_does_not_tell_one_court_from_another() -> None:
    """An unsure court stays asked, whatever its body says: a court's figure is a court's."""
    for rule in (DEFAULT_CORROBORATION, STRICT_CORROBORATION):
        assert rule.body_confirms("QC", 0.6, _body("C", "Q", p=0.999)) is False


@pytest.mark.parametrize(
    "rule", [DEFAULT_CORROBORATION, STRICT_CORROBORATION], ids=["default", "strict"]
)
def test_the_reader_makes_an_unsure_card_its_body_confirms_certain(rule: Corroboration) -> None:
    """Read at 0.45 on its index, the 9C is certain on a body of nine clubs, with their joint
    probability as its confidence; on a body of nine spades it stays asked."""
    photo = _grey_photo(washed=False)
    (confirmed,) = _corroborated(("9C",), _body("C", "9"), False, photo, 0.45, rule)
    assert not confirmed.uncertain
    assert confirmed.confidence > 0.9
    (refuted,) = _corroborated(("9C",), _body("S", "9"), False, photo, 0.45, rule)
    assert refuted.uncertain and refuted.confidence == 0.45
    (without,) = _corroborated(("9C",), _body("C", "9"), False, photo, 0.45, NO_PROMOTION)
    assert without.uncertain
