"""Proof of work of the account forms (``records/proofs.py``, ``web/static/proof.js``): what
finding a proof costs a browser and a script, and what checking one costs the trainer.

Chromium (headless, Debian's, as the browser tests drive it) loads ``web/static/proof.js`` from
a local static server and solves ``--challenges`` fresh challenges at each difficulty, timed
in the page (``performance.now()``), and measures its hashes a second over 2 million tries. A
script's rate is measured in Python (``hashlib``, the challenge's prefix hashed once, as the page
does) and, where ``openssl`` is installed, natively (``openssl speed`` on 64-byte blocks: one
hash of a proof is one or two such blocks). The trainer's side is ``records.proofs.accept``:
the signature, the hash and the single use, in the ``limits`` memory storage (the database's
storage adds its one statement, as each rate-limit count does).

    python benchmarks/proof_of_work.py [--difficulties 16,18,20] [--challenges 20]

Absolute figures on a shared 2-core machine swing by 2x: compare within one run.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import http.server
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from limits.storage import MemoryStorage
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from records import proofs  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

SOLVE = """async ([difficulty, count]) => {
  const { solver } = await import("/proof.js");
  const seconds = [];
  for (let i = 0; i < count; i++) {
    const challenge = `eyJpZCI6Ij${Math.random().toString(36).slice(2)}In0.${"x".repeat(64)}`;
    const started = performance.now();
    const work = solver(challenge, difficulty);
    while (work.step(20000) === null);
    seconds.push((performance.now() - started) / 1000);
  }
  return seconds;
}"""
RATE = """async () => {
  const { solver } = await import("/proof.js");
  const work = solver("y".repeat(96), 32);
  const started = performance.now();
  work.step(2000000);
  return 2000000 / ((performance.now() - started) / 1000);
}"""


def serve_static() -> tuple[http.server.ThreadingHTTPServer, str]:
    """``web/static`` served on a free port of 127.0.0.1, in a thread."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(ROOT / "web" / "static"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def python_rate(tries: int = 1_000_000) -> float:
    """Hashes a second in Python, the prefix hashed once (each try a copy and an update)."""
    prefix = hashlib.sha256(b"y" * 96 + b":")
    started = time.perf_counter()
    for nonce in range(tries):
        digest = prefix.copy()
        digest.update(str(nonce).encode())
        digest.digest()
    return tries / (time.perf_counter() - started)


def native_rate() -> float | None:
    """Hashes a second of ``openssl speed`` on 64-byte blocks, if openssl is installed."""
    openssl = shutil.which("openssl")
    if openssl is None:
        return None
    result = subprocess.run(
        [openssl, "speed", "-seconds", "2", "-bytes", "64", "-evp", "sha256"],
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(r"^sha256\s+([\d.]+)k", result.stdout, flags=re.MULTILINE)
    return float(found[1]) * 1000 / 64 if found else None


def verify_cost(count: int = 2000) -> float:
    """Microseconds ``proofs.accept`` takes for a good proof (memory storage)."""
    storage = MemoryStorage()
    secret = secrets.token_hex(16)
    made = [proofs.challenge(secret, time.time(), 8) for _ in range(count)]
    nonces = [proofs.solve(challenge, 8) for challenge in made]
    saved, proofs.DIFFICULTY = proofs.DIFFICULTY, 8
    try:
        started = time.perf_counter()
        for challenge, nonce in zip(made, nonces, strict=True):
            assert proofs.accept(secret, challenge, nonce, storage, time.time())
        return (time.perf_counter() - started) / count * 1e6
    finally:
        proofs.DIFFICULTY = saved


def main() -> None:
    """Measure and print the browser's, a script's and the trainer's figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--difficulties", type=lambda text: [int(d) for d in text.split(",")], default=[16, 18, 20]
    )
    parser.add_argument("--challenges", type=int, default=20)
    args = parser.parse_args()
    server, url = serve_static()
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(f"{url}/favicon.svg")
        rate = page.evaluate(RATE)
        print(f"Chromium: {rate / 1e6:.2f} million hashes a second (pure JavaScript)")
        for difficulty in args.difficulties:
            seconds = sorted(page.evaluate(SOLVE, [difficulty, args.challenges]))
            p90 = seconds[int(0.9 * (len(seconds) - 1))]
            print(
                f"  difficulty {difficulty}: {len(seconds)} challenges, mean"
                f" {statistics.mean(seconds):.2f} s, median {statistics.median(seconds):.2f} s,"
                f" p90 {p90:.2f} s, longest {seconds[-1]:.2f} s"
                f" (expected {2**difficulty / rate:.2f} s)"
            )
        browser.close()
    server.shutdown()
    print(f"Python (hashlib): {python_rate() / 1e6:.2f} million hashes a second")
    native = native_rate()
    if native is not None:
        print(f"native (openssl speed, 64-byte blocks): {native / 1e6:.2f} million a second")
    print(f"the trainer's check (records.proofs.accept): {verify_cost():.1f} µs a proof")


if __name__ == "__main__":
    main()
