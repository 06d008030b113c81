"""The web app's decoding process: the same images and refusals, stopped past its CPU time."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator

import cv2
import numpy as np
import pytest

from vision.errors import ImageError
from vision.timebox import Decoder
from vision.upload import decode_upload

from .test_upload import gif_bomb


@pytest.fixture
def decoder() -> Iterator[Decoder]:
    box = Decoder()
    yield box
    box.stop()


def _jpeg(height: int, width: int) -> bytes:
    noise = np.random.default_rng(3).integers(0, 255, (height, width, 3), np.uint8)
    ok, encoded = cv2.imencode(".jpg", noise, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    return encoded.tobytes()


def test_decodes_as_in_this_process(decoder: Decoder) -> None:
    """The image and its scale are the ones decoded here (a big JPEG at half size), and a
    refusal is the same ImageError; one process answers them all."""
    for data in (_jpeg(300, 400), _jpeg(2000, 2700)):
        image, scale = decoder.decode(data, reduce=True)
        expected, expected_scale = decode_upload(data, reduce=True)
        assert np.array_equal(image, expected) and scale == expected_scale
    assert scale == 2
    with pytest.raises(ImageError, match="6320x6320 pixels in only"):
        decoder.decode(gif_bomb(6320))
    with pytest.raises(ImageError, match="not an image"):
        decoder.decode(b"GIF89a")


@pytest.mark.slow
def test_a_decode_past_its_cpu_time_is_stopped(decoder: Decoder) -> None:
    """A decode that spends more CPU than the box allows is killed, and refused in players'
    words; the next photo gets a new process. (A box of no time at all stands for an upload
    that no check foresaw: a 24 MP JPEG decoded whole takes a few tenths of a second.) Past its
    wall-clock time instead, the decoder is said to be unavailable (a 503 in the web app)."""
    data = _jpeg(4000, 6000)
    decoder.cpu_seconds = 0
    with pytest.raises(ImageError, match="takes too long to decode"):
        decoder.decode(data, reduce=False)
    decoder.cpu_seconds = 60
    image, _ = decoder.decode(data, reduce=False)
    assert image.shape == (4000, 6000, 3)
    decoder.wall_seconds = 0  # a machine too busy to decode in time: not the photo's fault
    with pytest.raises(RuntimeError, match="to decode"):
        decoder.decode(data, reduce=False)


@pytest.mark.skipif(sys.platform != "linux", reason="a thread has its own priority on Linux only")
def test_the_process_runs_at_the_priority_of_the_thread_that_started_it(
    decoder: Decoder,
) -> None:
    """Started from the web app's reading thread (nice +10), it decodes at that priority."""
    seen: list[int] = []

    def start_lowered() -> None:
        thread = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, thread, os.getpriority(os.PRIO_PROCESS, thread) + 5)
        decoder.decode(_jpeg(30, 40))
        seen.append(os.getpriority(os.PRIO_PROCESS, thread))

    worker = threading.Thread(target=start_lowered)
    worker.start()
    worker.join()
    process = decoder._process
    assert process is not None
    assert os.getpriority(os.PRIO_PROCESS, process.pid) == seen[0]
    assert seen[0] == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 5)
