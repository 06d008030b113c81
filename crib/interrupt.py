"""Ctrl-C reaches the main thread: :func:`held` keeps the libraries' threads from taking it.

Ctrl-C sends SIGINT to the process, and the kernel hands it to any thread that does not block
it. Python raises :class:`KeyboardInterrupt` in the main thread only: when a native library's
thread takes the signal (OpenBLAS's, started as NumPy loads; OpenCV's; onnxruntime's), the main
thread is only flagged, and if it is waiting in a read (a photo still arriving through a pipe,
a line typed at ``crib score -``) it waits on, Ctrl-C unheard. A thread takes the signal mask of
the thread that starts it, so ``crib`` loads those libraries, and makes the reader, inside
:func:`held`.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Hold SIGINT back in this thread while the block runs; a Ctrl-C meanwhile is heard as it ends.

    Threads started inside never take SIGINT (the module's docstring says why).
    """
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
