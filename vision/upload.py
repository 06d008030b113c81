"""Uploaded photos: checked and decoded before any reading (size, format, truncation, pixels).

A photo is refused with an :class:`~vision.errors.ImageError` saying why, in players' words,
before it costs memory or time: its pixel count is read from the file's header first, and
checked against the limit and against the bytes of image data it holds
(:data:`MAX_PIXELS_PER_BYTE`; padding such as metadata or a junk chunk does not count), and
what else decoding would cost is bounded too: the scans of a progressive JPEG
(:data:`MAX_SCANS`), a PNG's compressed metadata (:data:`MAX_PNG_COMPRESSED_METADATA`), the
size of an image decoded whole (:data:`MAX_FULL_SIZE_PIXELS`; big JPEGs can be decoded at half
size). The web app decodes in a process of its own besides, stopped past a CPU time
(:mod:`vision.timebox`).
"""

from __future__ import annotations

import re
import struct
from typing import NamedTuple

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
MAX_SCANS = 32
"""Most scans a JPEG may have. Each scan of a progressive JPEG walks every block of the image
again, however few bytes it holds: 400 KB of repeated refinement scans of a 6000x6000 image
(2,946 scans) took 22.5 CPU-seconds to decode, 7.7 ms a scan. Encoders write 1 (baseline) to
about 10 (libjpeg's and mozjpeg's progressive modes; Photoshop's 3 to 5): 32 scans cost at
most a quarter of a second more at 36 MP."""
MAX_PNG_COMPRESSED_METADATA = 32 * 1024
"""Most bytes of compressed metadata (zTXt, iTXt, iCCP chunks) a PNG may hold: the decoder
inflates them (8 MB a chunk at most) though nobody reads them, and 40 zTXt chunks of 7.8 KB
(313 KB in all) cost 0.6 CPU-seconds. A colour profile compresses to 0.5 to 3 KB."""
MAX_PIECES = 50_000
"""Most segments, chunks or blocks a file's walk goes through before giving up on it: a JPEG
has a few dozen segments, a PNG's image data comes in chunks of 8 KB or more, a GIF's in blocks
of 255 bytes (a 10 MB upload holds 41,000); a file of one-byte pieces would cost a second of
Python to walk."""
MAX_FULL_SIZE_PIXELS = 16_000_000
"""Largest image of a format decoded at full size only (all but JPEG; PNG, WebP, BMP, GIF).

A 40 MP PNG costs 0.4 to 2 CPU-seconds and 120 to 210 MB to decode; these formats hold
screenshots (a 5K screen is 14.7 MP), while photos as PNG over about 7 MP do not fit the
10 MB upload. JPEGs may be larger: big ones are decoded at half size (:data:`REDUCE_ABOVE`)."""

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


class _Contents(NamedTuple):
    """What decoding an upload would work through, besides its pixels."""

    image_bytes: int
    """Bytes of image data, which the decoder expands into pixels (not metadata or padding)."""
    scans: int = 1
    """A JPEG's scans: each walks the whole image."""
    compressed_metadata: int = 0
    """A PNG's compressed metadata chunks (zTXt, iTXt, iCCP), which the decoder inflates."""


_JPEG_SCAN_END = re.compile(rb"\xff[^\x00\xd0-\xd7]")
"""The marker that ends a JPEG scan's entropy-coded data (not a stuffed 0xFF00, not a restart)."""


def _pieces(count: int) -> int:
    """``count`` + 1, the pieces walked so far; an ImageError past :data:`MAX_PIECES`."""
    if count >= MAX_PIECES:
        raise ImageError(
            f"The image is cut into more than {MAX_PIECES:,} pieces: no camera writes one so."
            " Please send the photo as taken."
        )
    return count + 1


def _jpeg_contents(data: bytes) -> _Contents:
    """A JPEG's scans and their entropy-coded bytes, walking its segments as libjpeg does."""
    image_bytes = scans = pieces = 0
    i = 2
    while i + 4 <= len(data):
        pieces = _pieces(pieces)
        if data[i] != 0xFF or data[i + 1] in (0xFF, 0x00, 0x01) or 0xD0 <= data[i + 1] <= 0xD8:
            i = data.find(b"\xff", i + 1)  # fill bytes or garbage: libjpeg skips to the next 0xFF
            if i < 0:
                break
            continue
        if data[i + 1] == 0xD9:  # end of image
            break
        end = i + 2 + struct.unpack(">H", data[i + 2 : i + 4])[0]
        if data[i + 1] == 0xDA:  # start of scan: its entropy-coded data runs to the next marker
            scans += 1
            found = _JPEG_SCAN_END.search(data, end)
            stop = found.start() if found else len(data)
            image_bytes += max(0, stop - end)
            end = stop
        i = end
    return _Contents(image_bytes, scans)


def _png_contents(data: bytes) -> _Contents:
    """A PNG's IDAT bytes and compressed metadata, from its chunks."""
    image_bytes = metadata = pieces = 0
    i = 8
    while i + 8 <= len(data):
        pieces = _pieces(pieces)
        length, kind = struct.unpack(">I4s", data[i : i + 8])
        if kind == b"IDAT":
            image_bytes += length
        elif kind in (b"zTXt", b"iTXt", b"iCCP"):
            metadata += length
        elif kind == b"IEND":
            break
        i += 12 + length
    return _Contents(image_bytes, compressed_metadata=metadata)


def _gif_contents(data: bytes) -> _Contents:
    """The bytes of a GIF's first image's LZW data (the one decoded), from its blocks."""
    i = 13 + ((3 << ((data[10] & 7) + 1)) if data[10] & 0x80 else 0)
    pieces = 0
    while i < len(data):
        pieces = _pieces(pieces)
        if data[i] == 0x21:  # an extension: its label, then sub-blocks
            i += 2
        elif data[i] == 0x2C and i + 10 <= len(data):  # an image: its descriptor, the LZW data
            flags = data[i + 9]
            i += 10 + ((3 << ((flags & 7) + 1)) if flags & 0x80 else 0) + 1
            image_bytes = 0
            while i < len(data) and data[i]:
                pieces = _pieces(pieces)
                image_bytes += data[i]
                i += 1 + data[i]
            return _Contents(image_bytes)
        else:
            break
        while i < len(data) and data[i]:  # an extension's sub-blocks
            pieces = _pieces(pieces)
            i += 1 + data[i]
        i += 1
    return _Contents(0)


def _webp_contents(data: bytes) -> _Contents:
    """A WebP's image chunks' bytes (VP8, VP8L, ALPH and its first animation frame)."""
    image_bytes = pieces = 0
    i = 12
    while i + 8 <= len(data):
        pieces = _pieces(pieces)
        kind, length = struct.unpack("<4sI", data[i : i + 8])
        if kind in (b"VP8 ", b"VP8L", b"ALPH", b"ANMF"):
            image_bytes += length
            if kind == b"ANMF":
                break
        i += 8 + length + (length & 1)
    return _Contents(image_bytes)


def _image_contents(data: bytes) -> _Contents:
    """What decoding ``data`` would work through; only known formats (:func:`_header_size`)."""
    if data[:2] == b"\xff\xd8":
        return _jpeg_contents(data)
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return _png_contents(data)
    if data[:3] == b"GIF":
        return _gif_contents(data)
    if data[:4] == b"RIFF":
        return _webp_contents(data)
    offset = int.from_bytes(data[10:14], "little")  # BMP: its pixel array starts there
    return _Contents(max(0, len(data) - offset))


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
        f"The image declares {w}x{h} pixels in only {size:,} bytes of image data: no photo packs"
        f" that tightly (at most {MAX_PIXELS_PER_BYTE} pixels a byte). Please send the photo as"
        " taken."
    )


def _too_costly(w: int, h: int, contents: _Contents, is_jpeg: bool) -> ImageError | None:
    """Why decoding this image would cost more than a photo does, if it would."""
    if contents.scans > MAX_SCANS:
        return ImageError(
            f"The image is a JPEG in {contents.scans:,} scans (at most {MAX_SCANS}): no camera"
            " writes that many. Please send the photo as taken."
        )
    if contents.compressed_metadata > MAX_PNG_COMPRESSED_METADATA:
        return ImageError(
            f"The image holds {contents.compressed_metadata:,} bytes of compressed metadata (at"
            f" most {MAX_PNG_COMPRESSED_METADATA:,}). Please send the photo as taken."
        )
    if not is_jpeg and w * h > MAX_FULL_SIZE_PIXELS:
        return ImageError(
            f"The image has too many pixels for a PNG, WebP, BMP or GIF ({w}x{h} = "
            f"{w * h / 1e6:.0f} MP; limit {MAX_FULL_SIZE_PIXELS / 1e6:.0f} MP). Please send a"
            " smaller image, or the photo as a JPEG."
        )
    return None


def decode_image(data: bytes, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """Decode uploaded bytes to a full-size BGR image, with clear errors.

    Raises:
        ImageError: Empty, not an image, truncated, or more than ``max_pixels`` pixels.
    """
    return decode_upload(data, max_pixels)[0]


def check_upload(data: bytes, max_pixels: int = MAX_PIXELS) -> tuple[int, int]:
    """Check uploaded bytes as :func:`decode_upload` does before decoding, cheaply: no decoding.

    Returns:
        (tuple[int, int]): The image's width and height, from its header.

    Raises:
        ImageError: Empty, too large, not an image, truncated, over ``max_pixels``,
            declaring more pixels than its image data can plausibly hold, or costing more to
            decode than a photo does (an image bomb: see the module's limits).
    """
    if not data:
        raise ImageError("The file is empty: no image data was received.")
    if len(data) > MAX_BYTES:
        raise ImageError(
            f"The file is too large ({len(data) / 1e6:.0f} MB; limit {MAX_BYTES / 1e6:.0f} MB)."
        )
    size = _header_size(data)
    if size is None or 0 in size:  # a format whose size is unknown is never decoded blind
        raise ImageError(_NOT_AN_IMAGE)
    pixels = size[0] * size[1]
    if pixels > max_pixels:
        raise _too_many_pixels(*size, max_pixels)
    if _truncated(data):
        raise ImageError("The image file is truncated (incomplete upload?). Please send it again.")
    contents = _image_contents(data)
    if pixels > max(SMALL_IMAGE_PIXELS, MAX_PIXELS_PER_BYTE * contents.image_bytes):
        raise _implausibly_packed(*size, contents.image_bytes)
    problem = _too_costly(*size, contents, data[:2] == b"\xff\xd8")
    if problem is not None:
        raise problem
    return size


def decode_upload(
    data: bytes, max_pixels: int = MAX_PIXELS, *, reduce: bool = False
) -> tuple[np.ndarray, float]:
    """Decode uploaded bytes to BGR once checked (:func:`check_upload`); big JPEGs at half size.

    They are decoded at half size when ``reduce`` and their longer side is over
    :data:`REDUCE_ABOVE`.

    Returns:
        (tuple[np.ndarray, float]): The image and its scale to full size (1, or about 2).

    Raises:
        ImageError: Refused by :func:`check_upload`, or not decodable.
    """
    size = check_upload(data, max_pixels)
    half = reduce and data[:2] == b"\xff\xd8" and max(size) > REDUCE_ABOVE
    flag = cv2.IMREAD_REDUCED_COLOR_2 if half else cv2.IMREAD_COLOR
    img = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    if img is None or img.size == 0:
        raise ImageError(_NOT_AN_IMAGE)
    factor = max(size) / max(img.shape[:2]) if half else 1.0
    return img, factor
