"""Decoding uploads in a process of its own, stopped once it has spent :data:`CPU_SECONDS`.

:func:`vision.upload.decode_upload` refuses what is known to cost more than a photo (too many
pixels for the image data, too many scans, inflated metadata), but a decoder is a big piece of
C: this bounds what an upload the checks did not foresee can cost. The web app's reads decode
here (:func:`decode`); ``crib read`` decodes in its own process, as a script on one's own photos
needs no box.

Each process that decodes keeps one decoding process (``python -m vision.timebox``), started at
its first photo from the thread that reads (so at that thread's lower CPU priority), decoding
one photo at a time on one thread. While it decodes, the caller checks its CPU time every
:data:`POLL_SECONDS` and kills it past :data:`CPU_SECONDS` (or past :data:`WALL_SECONDS`
however little CPU it had: a machine that busy is better told to try again); the next photo
starts a new one (about 0.3 CPU-seconds: Python, numpy and OpenCV).
"""

from __future__ import annotations

import atexit
import io
import os
import select
import struct
import subprocess
import sys
import threading
import time
from typing import IO, cast

import numpy as np

from vision.errors import ImageError

CPU_SECONDS = 2.0
"""CPU time one decode may take. Photos take 0.01 to 0.4 (a 16 MP PNG, the largest image of a
format decoded whole; a 40 MP JPEG at half size takes 0.05 to 0.2); the image bombs of attack
round 3 took 2 to 22.5."""
WALL_SECONDS = 30.0
"""Wall-clock time one decode may take whatever its CPU time (a machine too busy, or a
decoding process stopped)."""
POLL_SECONDS = 0.05
"""How often the decoding process's CPU time is checked while it decodes."""

_REQUEST = struct.Struct("<QB")  # the upload's length, reduce (0 or 1)
_IMAGE = struct.Struct("<IIId")  # height, width, channels, scale to full size
_ERROR = struct.Struct("<I")  # the length of an ImageError's message (UTF-8)
_READY = b"R"
_TOO_COSTLY = (
    "The image takes too long to decode (over {seconds:g} CPU-seconds; photos take well under"
    " one). Please send the photo as taken."
)


class Decoder:
    """One decoding process, started when first needed, used by one caller at a time."""

    def __init__(self, cpu_seconds: float = CPU_SECONDS, wall_seconds: float = WALL_SECONDS):
        self.cpu_seconds = cpu_seconds
        self.wall_seconds = wall_seconds
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._owner = 0

    def decode(self, data: bytes, *, reduce: bool = True) -> tuple[np.ndarray, float]:
        """:func:`vision.upload.decode_upload` in the decoding process, within the time box.

        Raises:
            ImageError: The upload is refused (as ``decode_upload`` refuses it), or decoding it
                took more CPU time than the box allows.
            RuntimeError: The decoding process could not start, stopped by itself, or took
                more wall-clock time than the box allows.
        """
        with self._lock:
            process = self._running()
            assert process.stdin is not None and process.stdout is not None
            try:
                process.stdin.write(_REQUEST.pack(len(data), reduce) + data)
                process.stdin.flush()
                over = self._over_box(process)
                if over is not None:
                    self.stop()
                    raise over
                return _reply(process.stdout)
            except (OSError, EOFError):  # it died (killed for its memory, or crashed)
                self.stop()
                raise RuntimeError("the photo decoder stopped") from None

    def stop(self) -> None:
        """Kill the decoding process, if any (the next decode starts another)."""
        process, self._process = self._process, None
        if process is not None and self._owner == os.getpid():
            process.kill()
            process.wait()
            for pipe in (process.stdin, process.stdout):
                if pipe is not None:
                    pipe.close()

    def _running(self) -> subprocess.Popen[bytes]:
        """This process's decoding process, started if it has none (or it died)."""
        if self._process is not None and self._owner == os.getpid():
            if self._process.poll() is None:
                return self._process
            self.stop()
        self._process = subprocess.Popen(
            [sys.executable, "-m", "vision.timebox"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
        )
        self._owner = os.getpid()
        assert self._process.stdout is not None
        if self._process.stdout.read(1) != _READY:  # its imports done: they are not the box's
            self.stop()
            raise RuntimeError("the photo decoder could not start")
        return self._process

    def _over_box(self, process: subprocess.Popen[bytes]) -> Exception | None:
        """Wait for the reply to start; what to raise if the decode ran out of time first."""
        assert process.stdout is not None
        start_cpu = _cpu_seconds(process.pid)
        deadline = time.monotonic() + self.wall_seconds
        while not select.select([process.stdout], [], [], POLL_SECONDS)[0]:
            if _cpu_seconds(process.pid) - start_cpu > self.cpu_seconds:
                return ImageError(_TOO_COSTLY.format(seconds=self.cpu_seconds))
            if time.monotonic() > deadline:  # the machine too busy: not the photo's fault
                return RuntimeError(f"the photo took over {self.wall_seconds:g} s to decode")
        return None


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has spent; 0 where /proc cannot tell."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except OSError:  # not Linux, or the process is gone
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise EOFError
    return data


def _reply(stream: IO[bytes]) -> tuple[np.ndarray, float]:
    """The decoding process's answer: the image and its scale, or its ImageError raised."""
    kind = _read_exactly(stream, 1)
    if kind == b"E":
        (length,) = _ERROR.unpack(_read_exactly(stream, _ERROR.size))
        raise ImageError(_read_exactly(stream, length).decode())
    height, width, channels, scale = _IMAGE.unpack(_read_exactly(stream, _IMAGE.size))
    image = np.empty((height, width, channels), np.uint8)
    view = image.data.cast("B")
    readinto = cast(io.BufferedReader, stream).readinto
    got = 0
    while got < len(view):
        read = readinto(view[got:])
        if not read:
            raise EOFError
        got += read
    return image, scale


def _serve(requests: IO[bytes], replies: IO[bytes]) -> None:
    """Decode each request on ``requests`` and answer on ``replies``, until end of input."""
    import cv2

    from vision.upload import decode_upload

    cv2.setNumThreads(1)
    replies.write(_READY)
    replies.flush()
    while header := requests.read(_REQUEST.size):
        length, reduce = _REQUEST.unpack(header)
        data = _read_exactly(requests, length)
        try:
            image, scale = decode_upload(data, reduce=bool(reduce))
        except ImageError as error:
            message = str(error).encode()
            replies.write(b"E" + _ERROR.pack(len(message)) + message)
        else:
            image = np.ascontiguousarray(image, np.uint8)
            replies.write(b"I" + _IMAGE.pack(*image.shape, scale))
            replies.write(image.data.cast("B"))
        replies.flush()


_decoder = Decoder()
atexit.register(_decoder.stop)  # the process's own decoding process ends with it


def decode(data: bytes) -> tuple[np.ndarray, float]:
    """Decode an upload as the reader does (big JPEGs at half size), in this process's box.

    Raises:
        ImageError: Refused, or over the time box.
        RuntimeError: The decoding process could not start or stopped by itself.
    """
    return _decoder.decode(data, reduce=True)


if __name__ == "__main__":
    _serve(sys.stdin.buffer, sys.stdout.buffer)
