"""One deck holds one of each card: a card the reader would state certain twice is asked about
each time (``vision.certainty.one_deck``, applied by ``CardReader.read``)."""

from __future__ import annotations

import json
import random
from collections import Counter

import cv2

from tests.shared import shared_path
from vision import CARDS, MODELS_DIR
from vision.certainty import one_deck
from vision.detection import DetectedCard
from vision.reader import load_reader

BOX = (0.0, 0.0, 10.0, 10.0)


def _expected_uncertain(cards: list[DetectedCard]) -> list[bool]:
    """The independent model: a card is a question when it was one, or when another card of the
    list, itself certain, names the same card while it is certain too."""
    flags = []
    for k, card in enumerate(cards):
        twin = any(
            j != k and other.card == card.card and not other.uncertain
            for j, other in enumerate(cards)
        )
        flags.append(card.uncertain or twin)
    return flags


def test_a_card_certain_twice_is_asked_about_each_time_and_nothing_else_changes() -> None:
    rng = random.Random(7)
    for _ in range(500):
        pool = rng.sample(CARDS, rng.randint(1, 6))  # few identities, so that some repeat
        cards = [
            DetectedCard(rng.choice(pool), rng.random(), BOX, rng.random() < 0.3)
            for _ in range(rng.randint(0, 12))
        ]
        decided = one_deck(cards)
        assert [c.uncertain for c in decided] == _expected_uncertain(cards)
        assert [(c.card, c.confidence) for c in decided] == [(c.card, c.confidence) for c in cards]


def test_no_real_webcam_frame_is_read_with_a_card_certain_twice() -> None:
    """On the shared webcam frames the reader read 4 cards certain twice (one of each pair
    wrong) before this rule; now none."""
    root = shared_path("data/real-webcam/labels.json").parent
    reader = load_reader(MODELS_DIR)
    for name in sorted(json.loads((root / "labels.json").read_text())):
        reading = reader.read(cv2.imread(str(root / "images" / name)))
        twice = [c for c, n in Counter(reading.certain_cards).items() if n > 1]
        assert not twice, f"{name}: {twice} certain twice"
