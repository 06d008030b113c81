"""``crib serve``'s gunicorn worker: ``gthread``, with a deadline for reading a request's head.

A thread of gunicorn's ``gthread`` worker reads a request's line and headers for as long as the
client keeps sending them: a client sending a header a second holds the thread for minutes (a
slow-loris attack), and the worker meanwhile goes on accepting connections that wait behind it.
Here the head must arrive whole within :data:`HEAD_TIMEOUT` seconds of the thread starting to
read it; past that the connection is shut and the thread is free for others, as nginx's
``client_header_timeout`` does in front of it (``deploy/nginx.conf``). Many slow clients at once
can still keep every thread busy: the proxy in front is what holds any number of them.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

HEAD_TIMEOUT = 10.0
"""Seconds a request's line and headers may take to arrive, once a thread reads them."""
CHECK_EVERY = 0.5
"""Seconds between two looks for heads past their deadline."""


class DeadlineThreadWorker(ThreadWorker):  # type: ignore[misc]
    """gunicorn's ``gthread`` worker, shutting connections whose head is too slow to arrive."""

    def init_process(self) -> None:
        """Start the watch for slow heads in the worker process, then serve."""
        self._reading: dict[Any, float] = {}
        """The connections whose head a thread is reading, with their deadlines."""
        watch = threading.Thread(target=self._shut_slow_heads, name="head-deadline", daemon=True)
        watch.start()
        super().init_process()

    def handle(self, conn: Any) -> Any:
        """Handle the next request on ``conn`` (in a pool thread), its head on a deadline."""
        self._reading[conn] = time.monotonic() + HEAD_TIMEOUT
        try:
            return super().handle(conn)
        finally:
            self._reading.pop(conn, None)

    def handle_request(self, req: Any, conn: Any) -> Any:
        """Answer ``req``: its head arrived in time, the deadline no longer applies."""
        self._reading.pop(conn, None)
        return super().handle_request(req, conn)

    def _shut_slow_heads(self) -> None:
        while True:
            time.sleep(CHECK_EVERY)
            now = time.monotonic()
            for conn, deadline in list(self._reading.items()):
                # popping first: a head that arrives meanwhile is not cut off
                if deadline < now and self._reading.pop(conn, None) is not None:
                    with contextlib.suppress(OSError):
                        conn.sock.shutdown(socket.SHUT_RDWR)
