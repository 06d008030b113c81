"""Uploaded photos: checked and decoded before any reading (size, format, truncation, pixels).

A photo is refused with an :class:`~vision.errors.ImageError` saying why, in players' words,
before it costs memory: its pixel count is read from the file's header first, and checked
against the limit and against the bytes sent (:data:`MAX_PIXELS_PER_BYTE`).
"""

from __future__ import annotations

import struct

import cv2
import numpy as np

from vision.errors import ImageError

MAX_PIXELS = 40_000_000
"""Largest accepted photo (width x height)."""
MAX_BYTES = 50 * 1024 * 1024
"""Largest accepted upload in bytes."""
MAX_PIXELS_PER_BYTE = 100
"""Most pixels an upload may declare per byte it sends (as Pillow's decompression-bomb check).

Card photos hold 1.4 to 6.6 pixels a byte (115 phone photos), 50 at most squeezed as hard as
WebP at quality 30 goes; an image bomb holds hundreds (a flat PNG: deflate packs about 1,000
to one) to millions (a GIF declaring a screen it never fills)."""
SMALL_IMAGE_PIXELS = 1_000_000
"""Images up to this many pixels are decoded however well they pack (a few ms each)."""

_NOT_AN_IMAGE = "The file is not an image that can be read (use JPEG, PNG, WebP, BMP or GIF)."


def _header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) read from a PNG, GIF, WebP, BMP or JPEG header; None if unknown."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return struct.unpack("<HH", data[6:10])
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        chunk = data[12:16]
        if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":  # lossy: 14-bit sizes
            w, h = struct.unpack("<HH", data[26:30])
            return w & 0x3FFF, h & 0x3FFF
        if chunk == b"VP8L" and data[20] == 0x2F:  # lossless: 14-bit sizes minus one
            bits = int.from_bytes(data[21:25], "little")
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8X":  # extended: 24-bit canvas sizes minus one
            return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(
                data[27:30], "little"
            ) + 1
    if data[:2] == b"BM" and len(data) >= 26:
        w, h = struct.unpack("<ii", data[18:26])
        return abs(w), abs(h)
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
                i += 1 if marker == 0xFF else 2
                continue
            seg = struct.unpack(">H", data[i + 2 : i + 4])[0]
            if marker in (
                0xC0,
                0xC1,
                0xC2,
                0xC3,
                0xC5,
                0xC6,
                0xC7,
                0xC9,
                0xCA,
                0xCB,
                0xCD,
                0xCE,
                0xCF,
            ):
                h, w = struct.unpack(">HH", data[i + 5 : i + 9])
                return w, h
            i += 2 + seg
    return None


def _truncated(data: bytes) -> bool:
    """True when a JPEG lacks its end marker or a PNG lacks its IEND chunk."""
    if data[:2] == b"\xff\xd8":
        return b"\xff\xd9" not in data[-4096:]
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return b"IEND" not in data[-64:]
    return False


REDUCE_ABOVE = 2600
"""JPEGs whose longer side exceeds this are decoded at half size (DCT scaling, about 2x faster)."""


def _too_many_pixels(w: int, h: int, max_pixels: int) -> ImageError:
    return ImageError(
        f"The image has too many pixels ({w}x{h} = {w * h / 1e6:.0f} MP; "
        f"limit {max_pixels / 1e6:.0f} MP). Please send a smaller photo."
    )


def _implausibly_packed(w: int, h: int, size: int) -> ImageError:
    return ImageError(
        f"The image declares {w}x{h} pixels in only {size:,} bytes: no photo packs that tightly"
        f" (at most {MAX_PIXELS_PER_BYTE} pixels a byte). Please send the photo as taken."
    )


def decode_image(data: bytes, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """Decode uploaded bytes to a full-size BGR image, with clear errors.

    Raises:
        ImageError: Empty, not an image, truncated, or more than ``max_pixels`` pixels.
    """
    return decode_upload(data, max_pixels)[0]


def decode_upload(
    data: bytes, max_pixels: int = MAX_PIXELS, *, reduce: bool = False
) -> tuple[np.ndarray, float]:
    """Decode uploaded bytes to BGR with checks; big JPEGs at half size when ``reduce``.

    Returns:
        (tuple[np.ndarray, float]): The image and its scale to full size (1, or about 2).

    Raises:
        ImageError: Empty, too large, not an image, truncated, over ``max_pixels``, or
            declaring more pixels than its bytes can plausibly hold (an image bomb).
    """
    if not data:
        raise ImageError("The file is empty: no image data was received.")
    if len(data) > MAX_BYTES:
        raise ImageError(
            f"The file is too large ({len(data) / 1e6:.0f} MB; limit {MAX_BYTES / 1e6:.0f} MB)."
        )
    size = _header_size(data)
    if size is None:  # also keeps a format whose size is unknown from being decoded blind
        raise ImageError(_NOT_AN_IMAGE)
    pixels = size[0] * size[1]
    if pixels > max_pixels:
        raise _too_many_pixels(*size, max_pixels)
    if pixels > max(SMALL_IMAGE_PIXELS, MAX_PIXELS_PER_BYTE * len(data)):
        raise _implausibly_packed(*size, len(data))
    if _truncated(data):
        raise ImageError("The image file is truncated (incomplete upload?). Please send it again.")
    half = reduce and size is not None and data[:2] == b"\xff\xd8" and max(size) > REDUCE_ABOVE
    flag = cv2.IMREAD_REDUCED_COLOR_2 if half else cv2.IMREAD_COLOR
    img = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    if img is None or img.size == 0:
        raise ImageError(_NOT_AN_IMAGE)
    factor = max(size) / max(img.shape[:2]) if half else 1.0
    return img, factor
