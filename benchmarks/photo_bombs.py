"""Image bombs beside an honest photo (attack round 3, finding 2): how many of a player's photo
reads the trainer answers while scripts post bombs to ``/api/read``.

The trainer runs as ``crib serve`` runs it (``deploy.local_server.spawn``, 2 workers) on
127.0.0.1. ``--bombers`` threads, each from an address of its own, post a bomb again and
again, as fast as the answers come (served directly: the trainer counts its per-client limit
of 300 reads a minute by the address that connects); meanwhile one player, from another
address, tries ``--photos`` times to have the shipped sample photo (``docs/sample-hand.jpg``)
read, one try at a time, waiting out a refusal's ``Retry-After`` as the photo page does.
Printed: the player's tries answered (200) and refused (503: the reading slots were taken;
429: a limit), the seconds they took, and the bombs' answers with the longest time one took.
The bombs (built here, never downloaded):

- ``scans``: a 400 KB progressive JPEG of 2000x2000 pixels whose refinement scans are repeated
  (10,000 scans, each walking the whole image again: 9 CPU-seconds to decode here);
- ``padded-png``: a flat 16 MP PNG padded with a junk chunk to pass a pixels-per-byte check on
  the file.

    python benchmarks/photo_bombs.py [--bombers 2] [--photos 15] [--bomb scans|padded-png]
"""

from __future__ import annotations

import argparse
import http.client
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from photo_post import read_request  # noqa: E402  (this folder is on sys.path)

from deploy.local_server import free_port, spawn  # noqa: E402
from tests.vision.test_upload import _chunk, _with_junk, png_bomb, progressive_bomb  # noqa: E402

BOMBS = {
    "scans": lambda: progressive_bomb(2000, 400_000),
    "padded-png": lambda: _with_junk(png_bomb(4000), 33, _chunk(b"juNk", bytes(200_000))),
}


def post(port: int, request: urllib.request.Request, source: str) -> tuple[int, float, float]:
    """Post ``request`` from the address ``source``: its status, the seconds it took, and its
    ``Retry-After`` (0: none)."""
    started = time.monotonic()
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=120, source_address=(source, 0)
    )
    try:
        connection.request("POST", "/api/read", request.data, dict(request.header_items()))  # type: ignore[arg-type]
        reply = connection.getresponse()
        reply.read()
        wait = float(reply.headers.get("Retry-After") or 0)
        return reply.status, time.monotonic() - started, wait
    except (OSError, http.client.HTTPException):
        return 0, time.monotonic() - started, 1.0
    finally:
        connection.close()


def main() -> None:
    """Serve, bomb, read, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bombers", type=int, default=2)
    parser.add_argument("--photos", type=int, default=15)
    parser.add_argument("--bomb", choices=sorted(BOMBS), default="scans")
    args = parser.parse_args()
    bomb = BOMBS[args.bomb]()
    photo = (ROOT / "docs" / "sample-hand.jpg").read_bytes()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = spawn(port, 2, Path(folder), "bombs")
        url = f"http://127.0.0.1:{port}"
        try:
            honest = read_request(url, photo, "hand.jpg", "image/jpeg")
            player = "127.0.0.20"
            for _ in range(2):  # each worker loads the card model
                print(f"warm-up read: {post(port, honest, player)[:2]}")
            stop = threading.Event()
            bombs: Counter[int] = Counter()
            longest = [0.0]

            def bomber(source: str) -> None:
                request = read_request(url, bomb, "bomb.bin", "application/octet-stream")
                while not stop.is_set():
                    status, seconds, _ = post(port, request, source)
                    bombs[status] += 1
                    longest[0] = max(longest[0], seconds)

            threads = [
                threading.Thread(target=bomber, args=(f"127.0.0.{n + 2}",))
                for n in range(args.bombers)
            ]
            for thread in threads:
                thread.start()
            time.sleep(1.0)
            reads: Counter[int] = Counter()
            started = time.monotonic()
            for _ in range(args.photos):
                status, _, wait = post(port, honest, player)
                reads[status] += 1
                if wait:
                    time.sleep(wait)
            elapsed = time.monotonic() - started
            stop.set()
            for thread in threads:
                thread.join()
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(
        f"{args.bombers} bombers ({args.bomb}, {len(bomb):,} bytes): the player's {args.photos}"
        f" reads took {elapsed:.1f} s; answers {dict(reads)}"
    )
    print(f"the bombs' answers {dict(bombs)}; the longest took {longest[0]:.2f} s")


if __name__ == "__main__":
    main()
