"""Image bombs: a few bytes declaring millions of pixels are refused before decoding."""

from __future__ import annotations

import itertools
import re
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import ImageError
from vision.upload import MAX_PIXELS_PER_BYTE, MAX_SCANS, SMALL_IMAGE_PIXELS, decode_upload

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


@pytest.mark.slow
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


def _jpeg_segments(data: bytes) -> list[bytes]:
    """A JPEG's segments from SOI to EOI, each scan with its entropy-coded data."""
    segments, i = [data[:2]], 2
    while data[i + 1] != 0xD9:
        end = i + 2 + struct.unpack(">H", data[i + 2 : i + 4])[0]
        if data[i + 1] == 0xDA:
            end = re.compile(rb"\xff[^\x00\xd0-\xd7]").search(data, end).start()  # type: ignore[union-attr]
        segments.append(data[i:end])
        i = end
    return [*segments, data[i:]]


def progressive_bomb(side: int, size: int) -> bytes:
    """A progressive JPEG of ``size`` bytes whose refinement scans are repeated: each scan of a
    few dozen bytes walks every block of the ``side`` x ``side`` image again (attack round 3:
    400 KB took 16 CPU-seconds to decode; 2000x2000 here, 9 CPU-seconds)."""
    flat = np.full((side, side, 3), 128, np.uint8)
    ok, encoded = cv2.imencode(".jpg", flat, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    assert ok
    segments = _jpeg_segments(encoded.tobytes())
    repeated = b""
    for before, scan in itertools.pairwise(segments):
        if scan[1] != 0xDA:
            continue
        selection = scan[5 + 2 * scan[4] :]  # spectral start, end, approximation bits
        if selection[0] > 0 and selection[2] >> 4:  # an AC refinement
            repeated += (before if before[1] == 0xC4 else b"") + scan  # with its Huffman table
    head = b"".join(segments[:-1])
    return head + repeated * ((size - len(head)) // len(repeated)) + segments[-1]


def test_a_progressive_jpeg_of_repeated_scans_is_refused_before_decoding() -> None:
    """Attack round 3: its image data is plenty for its pixels (10 a byte), but its 10,000
    scans would each walk the whole image; photos have 1 to 10 scans."""
    bomb = progressive_bomb(2000, 400_000)
    assert bomb.count(b"\xff\xda") > 100 * MAX_SCANS
    assert 20 * len(bomb) > 2000 * 2000
    with pytest.raises(ImageError, match=r"a JPEG in [\d,]+ scans \(at most 32\)"):
        decode_upload(bomb)  # refused before decoding (which took 9 CPU-seconds here)


def test_a_progressive_photo_is_decoded() -> None:
    """A progressive JPEG as encoders write it (libjpeg's 10 scans) is decoded."""
    image = np.random.default_rng(1).integers(0, 255, (600, 800, 3), np.uint8)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    assert ok and encoded.tobytes().count(b"\xff\xda") == 10
    assert decode_upload(encoded.tobytes())[0].shape == (600, 800, 3)


def _with_junk(data: bytes, at: int, junk: bytes) -> bytes:
    return data[:at] + junk + data[at:]


@pytest.mark.parametrize(
    ("side", "message"),
    [(3500, "bytes of image data"), (6320, "bytes of image data")],
    ids=["png-12mp", "png-40mp"],
)
def test_padding_does_not_count_as_image_data_png(side: int, message: str) -> None:
    """A flat PNG padded with a junk ancillary chunk (attack round 3: 40 MP, 1.9 to 2.1
    CPU-seconds and 120 to 210 MB): the pixels per byte count the IDAT chunks, not the file."""
    data = png_bomb(side)
    padded = _with_junk(data, 33, _chunk(b"juNk", bytes(side * side // 50)))
    assert side * side < MAX_PIXELS_PER_BYTE * len(padded)  # passed the check on the file
    with pytest.raises(ImageError, match=message):
        decode_upload(padded)


def test_padding_does_not_count_as_image_data_jpeg() -> None:
    """A flat 12 MP JPEG padded with comments: the pixels per byte count its scans' data."""
    flat = np.zeros((3000, 4000, 3), np.uint8)
    ok, encoded = cv2.imencode(".jpg", flat, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    assert ok and MAX_PIXELS_PER_BYTE * len(encoded) < 4000 * 3000
    junk = b"".join(b"\xff\xfe" + struct.pack(">H", 65_535) + bytes(65_533) for _ in range(3))
    padded = _with_junk(encoded.tobytes(), 2, junk)
    assert MAX_PIXELS_PER_BYTE * len(padded) > 4000 * 3000
    with pytest.raises(ImageError, match=r"4000x3000 pixels in only [\d,]+ bytes of image data"):
        decode_upload(padded)


def test_padding_does_not_count_as_image_data_gif_webp_bmp() -> None:
    """The same for a GIF (a comment), a WebP (an unknown chunk) and a BMP (a gap before its
    pixels, run-length coded)."""
    gif = _with_junk(gif_bomb(3000), 13, b"\x21\xfe" + (b"\xff" + bytes(255)) * 400 + b"\x00")
    ok, webp = cv2.imencode(".webp", np.zeros((3000, 3000, 3), np.uint8))
    assert ok
    junk = b"JUNK" + struct.pack("<I", 100_000) + bytes(100_000)
    body = webp.tobytes()[8:] + junk
    padded_webp = b"RIFF" + struct.pack("<I", len(body)) + body
    header = struct.pack("<2sIHHI", b"BM", 0, 0, 0, 14 + 40 + 100_000)
    info = struct.pack("<IiiHHIIiiII", 40, 3000, 3000, 1, 8, 1, 4, 0, 0, 0, 0)  # BI_RLE8
    bmp = header + info + bytes(100_000) + b"\x00\x01"  # the end of the bitmap
    for padded in (gif, padded_webp, bmp):
        assert MAX_PIXELS_PER_BYTE * len(padded) > 3000 * 3000
        with pytest.raises(ImageError, match=r"3000x3000 pixels in only [\d,]+ bytes of image"):
            decode_upload(padded)


def test_a_png_with_inflated_metadata_is_refused() -> None:
    """40 zTXt chunks of 7.8 KB, each inflating to megabytes nobody reads, cost 0.6
    CPU-seconds for a 500x500 image; a colour profile (an iCCP chunk of a few KB) is fine."""
    text = _chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress(bytes(8_000_000), 9))
    profile = _chunk(b"iCCP", b"icc\x00\x00" + zlib.compress(bytes(3_000), 9))
    data = png_bomb(500)
    decode_upload(_with_junk(data, 33, profile))
    with pytest.raises(ImageError, match="compressed metadata"):
        decode_upload(_with_junk(data, 33, text * 40))


@pytest.mark.slow
def test_big_images_of_formats_decoded_whole_are_refused() -> None:
    """PNG, WebP, BMP and GIF are decoded at full size: above 16 MP (a 5K screen is 14.7) they
    are refused however much data they hold; a JPEG that big is decoded (at half size)."""
    noisy = np.random.default_rng(2).integers(0, 255, (4100, 4100, 1), np.uint8)
    ok, png = cv2.imencode(".png", np.repeat(noisy, 3, axis=2), [cv2.IMWRITE_PNG_COMPRESSION, 1])
    assert ok and len(png) > 4100 * 4100
    with pytest.raises(ImageError, match="too many pixels for a PNG, WebP, BMP or GIF"):
        decode_upload(png.tobytes())
    ok, jpeg = cv2.imencode(".jpg", np.repeat(noisy, 3, axis=2))
    image, scale = decode_upload(jpeg.tobytes(), reduce=True)
    assert image.shape == (2050, 2050, 3) and scale == 2


def test_a_jpeg_declaring_no_height_is_not_an_image() -> None:
    """A height of 0 (to be given by a DNL marker) declares no pixels to check."""
    _, encoded = cv2.imencode(".jpg", np.zeros((64, 64, 3), np.uint8))
    data = bytearray(encoded.tobytes())
    sof = data.index(b"\xff\xc0")
    data[sof + 5 : sof + 7] = b"\x00\x00"
    with pytest.raises(ImageError, match="not an image that can be read"):
        decode_upload(bytes(data))


def test_a_file_of_a_million_pieces_is_refused_without_walking_them_all() -> None:
    """A PNG of 700,000 empty chunks, or a GIF whose image data comes a byte at a time: walking
    every piece would cost a second of Python before any check; past 50,000 the walk stops."""
    png = _with_junk(png_bomb(100), 33, _chunk(b"juNk", b"") * 700_000)
    gif = gif_bomb(2000)
    one_byte_blocks = b"\x01\x00" * 1_000_000 + b"\x00;"
    gif = gif[: gif.index(b"\x02\x02D") + 1] + one_byte_blocks
    for data in (png, gif):
        with pytest.raises(ImageError, match="more than 50,000 pieces"):
            decode_upload(data)
