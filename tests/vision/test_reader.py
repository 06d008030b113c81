"""The reader: held-out synthetic scenes, shared real photos, starter rule and upload errors."""

from __future__ import annotations

import json
import struct
import zlib
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import CARDS, MODELS_DIR
from vision.errors import ImageError, NoCardsError, TooManyCardsError
from vision.reader import (
    CardReader,
    DetectedCard,
    ReaderOptions,
    Reading,
    load_reader,
    read_cards,
    read_image_bytes,
    starter_index,
)
from vision.training.evaluate import SubsetScore, evaluate, score_image
from vision.training.synth.faces import Deck
from vision.training.synth.scene import make_scene
from vision.upload import _header_size, decode_image


def _jpeg(img: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return buf.tobytes()


@pytest.mark.slow
def test_reads_held_out_synthetic_scenes(decks: list[Deck]) -> None:
    """Close, clear scenes from seeds never used for training: cards found with high precision,
    and at least half the scenes read exactly (the rest have cards under 60% visible)."""
    reader = load_reader(MODELS_DIR)
    tp = fp = fn = exact = n = 0
    for seed in range(16):
        rng = np.random.default_rng([2024, seed])
        sc = make_scene(rng, decks, size=(960, 720), effects=False)
        reading = reader.read(sc.image)
        a, b, c = score_image(reading.certain_cards, sc.visible_cards)
        tp, fp, fn = tp + a, fp + b, fn + c
        n += 1
        exact += int(Counter(reading.certain_cards) == Counter(sc.visible_cards))
        for card in reading.cards:
            x1, y1, x2, y2 = card.box
            assert 0 <= x1 < x2 <= 960 and 0 <= y1 < y2 <= 720
    precision, recall = tp / max(1, tp + fp), tp / max(1, tp + fn)
    print(f"synthetic held-out: precision {precision:.2f} recall {recall:.2f} exact {exact}/{n}")
    assert precision >= 0.85 and recall >= 0.6 and exact >= n // 2


@pytest.mark.slow
def test_reads_shared_real_photos(real_dir: Path) -> None:
    labels = json.loads((real_dir / "labels.json").read_text())
    names = [
        *[n for n in sorted(labels) if labels[n]["source"] == "edje_tfod"][:8],
        "bidly_deal5.jpg",
    ]
    tp = fp = fn = 0
    for name in names:
        reading = read_image_bytes(
            (real_dir / "images" / name).read_bytes(), MODELS_DIR, max_cards=None
        )
        a, b, c = score_image(reading.certain_cards, labels[name]["cards"])
        tp, fp, fn = tp + a, fp + b, fn + c
    assert tp / (tp + fp) >= 0.95 and tp / (tp + fn) >= 0.85, (tp, fp, fn)


def test_read_cards_takes_a_path_bytes_or_an_image(real_dir: Path) -> None:
    """``read_cards`` reads a photo however it is given, with the same result."""
    labels = json.loads((real_dir / "labels.json").read_text())
    name = sorted(n for n in labels if labels[n]["source"] == "edje_tfod")[0]
    path = real_dir / "images" / name
    by_path = read_cards(path, MODELS_DIR)
    assert sorted(by_path.certain_cards) == sorted(labels[name]["cards"])
    for other in (
        read_cards(str(path), MODELS_DIR),
        read_cards(path.read_bytes(), MODELS_DIR),
        read_cards(cv2.imread(str(path)), MODELS_DIR),
    ):
        assert [(c.card, c.box) for c in other.cards] == [(c.card, c.box) for c in by_path.cards]
    with pytest.raises(OSError):
        read_cards(real_dir / "images" / "no-such-photo.jpg", MODELS_DIR)


@pytest.mark.slow
def test_big_jpeg_is_read_at_half_size_in_photo_pixels(decks: list[Deck]) -> None:
    """A phone-size JPEG is decoded at half size, yet boxes and size are the photo's pixels."""
    sc = make_scene(np.random.default_rng([4000, 1]), decks, size=(4000, 3000), effects=False)
    reading = read_image_bytes(_jpeg(sc.image), MODELS_DIR, max_cards=None)
    assert reading.image_size == (4000, 3000)
    full = {c.card: c.center for c in load_reader(MODELS_DIR).read(sc.image).cards}
    common = [c for c in reading.cards if c.card in full]
    assert common
    for c in common:
        assert np.hypot(c.center[0] - full[c.card][0], c.center[1] - full[c.card][1]) < 40


@pytest.mark.slow
def test_unsure_crops_read_the_same_at_every_quarter_turn(decks: list[Deck]) -> None:
    """Turned readings are averaged: turning the photo by 90 degrees changes nothing.

    With ``turn_below=1`` every crop is also read turned; with ``turn_below=0`` none is, so
    the single reading of a turned photo differs while the averaged one stays put.
    """
    sc = make_scene(np.random.default_rng([2024, 6]), decks, size=(960, 720), effects=False)
    reader = load_reader(MODELS_DIR)
    boxes = reader.detect(sc.image)[0][:8]
    assert len(boxes)
    w = sc.image.shape[1]
    turned = np.ascontiguousarray(np.rot90(sc.image))  # counter-clockwise: (x, y) -> (y, w - x)
    turned_boxes = np.stack([boxes[:, 1], w - boxes[:, 2], boxes[:, 3], w - boxes[:, 0]], 1)
    always, never = (
        CardReader(MODELS_DIR, ReaderOptions(turn_below=turn_below)) for turn_below in (1.0, 0.0)
    )
    both = always.classify(sc.image, boxes), always.classify(turned, turned_boxes)
    single = never.classify(sc.image, boxes), never.classify(turned, turned_boxes)
    assert np.abs(both[0] - both[1]).max() < 0.01
    assert np.abs(single[0] - single[1]).max() > 0.05


def test_the_first_detections_read_for_the_second_look_are_not_read_again() -> None:
    """The crops the classifier read to decide on the second look keep their readings; only the
    others are read."""
    reader = CardReader(MODELS_DIR, threads=1)
    crops = np.random.default_rng(0).integers(0, 256, (3, 64, 64, 3), dtype=np.uint8)
    boxes = np.array([[0, 0, 10, 10], [20, 20, 30, 30], [40, 40, 50, 50]], np.float32)
    read = np.full(len(reader.classes), 1 / len(reader.classes), np.float32)
    batches: list[int] = []
    probabilities = reader._probabilities

    def counted(batch: np.ndarray) -> np.ndarray:
        batches.append(len(batch))
        return probabilities(batch)

    reader._probabilities = counted  # type: ignore[method-assign]
    probs = reader._classify_anew(crops, boxes, {boxes[1].tobytes(): read})
    assert np.array_equal(probs[1], read)
    assert np.allclose(probs[[0, 2]], reader._classify(crops[[0, 2]]), atol=1e-5)
    assert batches[0] == 2


def test_onnx_threads_wait_without_spinning() -> None:
    """The sessions' idle threads sleep instead of spinning (a spinning thread burns a core
    the other requests need: a read cost twice the CPU with two threads)."""
    reader = CardReader(MODELS_DIR, threads=2)
    for session in (reader.det, reader.cls):
        options = session.get_session_options()
        assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"


@pytest.mark.slow
def test_evaluate_function(real_dir: Path) -> None:
    """Three photos of each subset: every labelled card counted once, found or missed, the
    subsets adding up to "all", and the reader's recall on them as good as on the whole set."""
    labels = json.loads((real_dir / "labels.json").read_text())
    scores = evaluate(real_dir, limit=3)
    assert set(scores) == {"bidly_gold", "edje_tfod", "all"}
    for source in ("bidly_gold", "edje_tfod"):
        first = sorted(n for n in labels if labels[n]["source"] == source)[:3]
        score = scores[source]
        assert score.images == 3 and len(score.seconds) == 3
        assert score.tp + score.fn == sum(len(labels[n]["cards"]) for n in first)
    every = scores["all"]
    assert every.images == 6
    assert (every.tp, every.fp, every.fn) == tuple(
        sum(getattr(scores[s], k) for s in ("bidly_gold", "edje_tfod")) for k in ("tp", "fp", "fn")
    )
    assert every.recall >= 0.85 and every.precision >= 0.95, every


def test_subset_score_records_one_photo() -> None:
    """Only confident cards are predictions; a hand is exact when its multiset matches."""
    cards = [DetectedCard("5H", 0.9, (0, 0, 1, 1)), DetectedCard("QS", 0.4, (2, 0, 3, 1), True)]
    s = SubsetScore()
    assert s.record(Reading(cards), ["5H", "QS"], 0.25) == (1, 0, 1)
    assert s.record(Reading(cards[:1]), ["5H"], 0.5) == (1, 0, 0)
    assert s.record(Reading(cards[:1]), [], 0.5, complete=False) == (0, 0, 0)
    assert (s.images, s.tp, s.fp, s.fn, s.uncertain) == (3, 2, 0, 1, 1)
    assert (s.hands, s.hands_exact, s.seconds) == (2, 1, [0.25, 0.5, 0.5])


def test_starter_is_the_card_set_apart() -> None:
    hand = [(100, 100), (130, 102), (160, 104), (190, 106)]
    assert starter_index([*hand, (150, 400)]) == 4
    assert starter_index([(150, 400), *hand]) == 0
    assert starter_index(hand) is None
    assert starter_index([*hand, (205, 108)]) is None
    r = Reading([DetectedCard("5H", 0.9, (0, 0, 1, 1))] * 2, None)
    assert r.certain_cards == ["5H", "5H"]


def test_codes_are_card_codes(decks: list[Deck]) -> None:
    sc = make_scene(np.random.default_rng([5, 5]), decks, size=(800, 600), effects=False)
    for c in load_reader(MODELS_DIR).read(sc.image).cards:
        assert c.card in CARDS and 0 <= c.confidence <= 1


# ------------------------------------------------------------------------------------- errors


def test_empty_file() -> None:
    with pytest.raises(ImageError, match="empty"):
        read_image_bytes(b"", MODELS_DIR)


def test_not_an_image() -> None:
    with pytest.raises(ImageError, match="not an image"):
        read_image_bytes(b"hello, this is plain text and not a photo" * 10, MODELS_DIR)
    with pytest.raises(ValueError):  # ImageError is a ValueError
        read_image_bytes(b"\x00" * 1000, MODELS_DIR)


def test_format_without_a_known_size_is_not_decoded() -> None:
    """A TIFF (size not read from its header) is refused before decoding, whatever its size."""
    ok, tiff = cv2.imencode(".tiff", np.full((40, 60, 3), 200, np.uint8))
    assert ok and cv2.imdecode(tiff, cv2.IMREAD_COLOR) is not None  # OpenCV could decode it
    with pytest.raises(ImageError, match="not an image that can be read"):
        read_image_bytes(tiff.tobytes(), MODELS_DIR)


def test_truncated_jpeg() -> None:
    data = _jpeg(np.full((200, 300, 3), 200, np.uint8))
    with pytest.raises(ImageError, match="truncated"):
        read_image_bytes(data[: len(data) // 2], MODELS_DIR)


def test_too_many_pixels() -> None:
    # a PNG header claiming 10000 x 9000 pixels: refused before decoding
    ihdr = struct.pack(">IIBBBBB", 10000, 9000, 8, 2, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr
    png += struct.pack(">I", zlib.crc32(b"IHDR" + ihdr)) + b"\x00" * 64 + b"IEND"
    with pytest.raises(ImageError, match="too many pixels"):
        read_image_bytes(png, MODELS_DIR)


@pytest.mark.parametrize(
    ("channels", "quality"), [(3, 80), (3, 101), (4, 80)], ids=["lossy", "lossless", "extended"]
)
def test_webp_too_many_pixels_is_refused_before_decoding(channels: int, quality: int) -> None:
    """WebP sizes are read from the header (VP8, VP8L and VP8X), like PNG, GIF, BMP and JPEG."""
    ok, buf = cv2.imencode(
        ".webp", np.zeros((123, 457, channels), np.uint8), [cv2.IMWRITE_WEBP_QUALITY, quality]
    )
    assert ok
    assert _header_size(buf.tobytes()) == (457, 123)
    # an extended WebP header claiming 16384 x 16384 pixels, with no image data behind it
    vp8x = b"VP8X" + struct.pack("<I", 10) + b"\x00" * 4 + (16383).to_bytes(3, "little") * 2
    bomb = b"RIFF" + struct.pack("<I", 4 + len(vp8x)) + b"WEBP" + vp8x
    with pytest.raises(ImageError, match="too many pixels \\(16384x16384"):
        read_image_bytes(bomb, MODELS_DIR)


@pytest.mark.parametrize("ext", [".png", ".jpg", ".webp", ".bmp"])
def test_too_many_pixels_is_one_message_for_every_format(ext: str) -> None:
    """The size comes from each format's header, and the refusal reads the same."""
    ok, buf = cv2.imencode(ext, np.full((100, 300, 3), 90, np.uint8))
    assert ok
    with pytest.raises(ImageError) as e:
        decode_image(buf.tobytes(), max_pixels=20_000)
    assert str(e.value) == (
        "The image has too many pixels (300x100 = 0 MP; limit 0 MP). Please send a smaller photo."
    )


def test_no_cards() -> None:
    rng = np.random.default_rng(0)
    img = cv2.GaussianBlur(rng.integers(60, 120, (480, 640, 3)).astype(np.uint8), (0, 0), 8)
    with pytest.raises(NoCardsError, match="No playing cards"):
        read_image_bytes(_jpeg(img), MODELS_DIR)


def test_too_many_cards(decks: list[Deck]) -> None:
    for seed in range(10):
        sc = make_scene(np.random.default_rng([31, seed]), decks, size=(960, 720), effects=False)
        if len(sc.visible_cards) >= 2 and len(load_reader(MODELS_DIR).read(sc.image).cards) >= 2:
            with pytest.raises(TooManyCardsError) as e:
                read_image_bytes(_jpeg(sc.image), MODELS_DIR, max_cards=1)
            assert e.value.limit == 1 and e.value.count >= 2
            return
    pytest.fail("no synthetic scene with two readable cards")
