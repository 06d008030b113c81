"""Image bombs: a few bytes declaring millions of pixels are refused before decoding."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import ImageError
from vision.upload import MAX_PIXELS_PER_BYTE, SMALL_IMAGE_PIXELS, decode_upload

PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "data" / "real-cards" / "images"


def gif_bomb(side: int) -> bytes:
    """A 29-byte GIF: a ``side`` x ``side`` screen holding one 1x1 image."""
    screen = b"GIF89a" + struct.pack("<HHBBB", side, side, 0, 0, 0)
    image = b"," + struct.pack("<HHHHB", 0, 0, 1, 1, 0) + b"\x02\x02\x44\x01\x00"
    return screen + image + b";"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bomb(side: int) -> bytes:
    """A ``side`` x ``side`` black RGB PNG: deflate packs it about 1,000 to one."""
    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    packer = zlib.compressobj(9)
    row = bytes(1 + side * 3)  # filter byte, then the row's pixels
    pixels = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    signature = b"\x89PNG\r\n\x1a\n"
    return signature + _chunk(b"IHDR", header) + _chunk(b"IDAT", pixels) + _chunk(b"IEND", b"")


@pytest.mark.parametrize("bomb", [gif_bomb, png_bomb], ids=["gif-29-bytes", "png-117-kb"])
def test_an_image_bomb_is_refused_before_decoding(bomb: object) -> None:
    """The issue's bombs (6320x6320, under the pixel limit): 29 bytes of GIF and 117 KB of PNG
    decoded to 120 MB each; the pixels they declare are far more than their bytes can hold."""
    data = bomb(6320)  # type: ignore[operator]
    assert cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_REDUCED_COLOR_8) is not None
    with pytest.raises(ImageError, match=r"6320x6320 pixels in only [\d,]+ bytes"):
        decode_upload(data)


@pytest.mark.slow
def test_real_photos_are_far_below_the_ratio() -> None:
    """Card photos hold 1.4 to 6.6 pixels a byte; squeezed hard (WebP at quality 30) up to
    about 50: all are decoded."""
    photos = sorted(PHOTOS.glob("*.jpg"))[:8]
    assert photos, f"no photos in {PHOTOS}"
    for path in photos:
        data = path.read_bytes()
        image, _ = decode_upload(data)
        assert image.shape[0] * image.shape[1] < 10 * len(data)
        ok, squeezed = cv2.imencode(".webp", image, [cv2.IMWRITE_WEBP_QUALITY, 30])
        assert ok and image.size < 3 * MAX_PIXELS_PER_BYTE * squeezed.size
        decode_upload(squeezed.tobytes())


def test_a_small_image_is_decoded_however_well_it_packs() -> None:
    """Below :data:`SMALL_IMAGE_PIXELS` decoding is cheap: a flat 1000x1000 PNG (a few KB)
    is decoded."""
    side = int(SMALL_IMAGE_PIXELS**0.5)
    data = png_bomb(side)
    assert side * side > MAX_PIXELS_PER_BYTE * len(data)
    image, _ = decode_upload(data)
    assert image.shape == (side, side, 3)
