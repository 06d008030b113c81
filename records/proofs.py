"""Proofs of work: signed challenges a browser solves, each accepted once.

While the site's budget of password checks for new browsers is spent (:mod:`web.limits`), a
log-in, a registration or a password change gets past it only with a proof: the nonce (up to
:data:`NONCE_DIGITS` decimal digits) of a challenge such that the SHA-256 of
``challenge + ":" + nonce`` starts with :data:`DIFFICULTY` zero bits, which takes about
``2 ** DIFFICULTY`` hashes to find and one to check (``web/static/proof.js`` finds it in the
page). A challenge is signed with the app's secret (itsdangerous), names a random id, its
difficulty, when it was made and its purpose (the web app's: the form and the client it was
given to, :func:`web.limits.proof_purpose`), and is good for :data:`LIFETIME` seconds, for that
purpose, once: its id is counted in the rate limits' storage (a ``limits`` storage,
:mod:`records.limit_storage` by default), so that every worker and server sharing it refuses a
proof spent elsewhere.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import secrets
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer
from limits.storage import Storage

DIFFICULTY = 20
"""Zero bits a proof's hash starts with: 2**20 hashes (about a million) on average to find one.

Measured (``benchmarks/proof_of_work.py``, this 2-core machine at a load of 5): Chromium's pure
JavaScript tried 2.1 million hashes a second, so a desktop browser found a proof in 0.47 s on
average (median 0.29 s, 9 in 10 within 1.15 s) while its player typed; a phone takes a few
times longer. A script pays about the same in Python (2.3 million a second) and a quarter of it
natively (``openssl speed``: 8.2 million a second, 0.13 s a proof), as much CPU as the scrypt
hash (75-100 ms) each proof lets it make the trainer spend. 18 bits cost a browser 0.14 s and
native code 0.03 s, a quarter of the hash it buys; 22 bits, 2 s a desktop browser."""
LIFETIME = 600
"""Seconds a challenge is good for (a page left open longer is reloaded to log in)."""
NONCE_DIGITS = 20
"""The longest nonce taken (a search finds one in about 2**DIFFICULTY tries, 6 digits)."""
_SALT = "proof-of-work"


def _serializer(secret: str | bytes) -> URLSafeSerializer:
    return URLSafeSerializer(secret, salt=_SALT)


def challenge(
    secret: str | bytes, now: float, difficulty: int | None = None, purpose: str = ""
) -> str:
    """A new challenge for ``purpose``, signed with ``secret`` and made at ``now``.

    It is solved at ``difficulty`` bits (:data:`DIFFICULTY` unless given).
    """
    bits = DIFFICULTY if difficulty is None else difficulty
    made = {"id": secrets.token_hex(8), "d": bits, "t": now, "p": purpose}
    return str(_serializer(secret).dumps(made))


def solves(challenge: str, nonce: str, difficulty: int) -> bool:
    """Whether ``nonce`` solves ``challenge`` at ``difficulty`` bits (one hash).

    >>> solves("x", "0", 0), solves("x", "0", 1), solves("x", "1", 1)
    (True, False, True)
    """
    digest = hashlib.sha256(f"{challenge}:{nonce}".encode()).digest()
    return int.from_bytes(digest, "big") >> (256 - difficulty) == 0


def solve(challenge: str, difficulty: int) -> str:
    """The first nonce that solves ``challenge`` (as the page searches: 0, 1, 2...).

    >>> solve("x", 1)
    '1'
    """
    for nonce in itertools.count():
        if solves(challenge, str(nonce), difficulty):
            return str(nonce)
    raise AssertionError("unreachable")  # pragma: no cover


def accept(
    secret: str | bytes,
    challenge: str,
    nonce: str,
    storage: Storage,
    now: float,
    purpose: str = "",
) -> bool:
    """Whether ``nonce`` proves the work for ``challenge``, accepting it once, for ``purpose``.

    The challenge must be signed with ``secret`` for ``purpose``, made within :data:`LIFETIME`
    of ``now`` and solved at :data:`DIFFICULTY` bits or more, and never accepted before (which
    this records in ``storage``).
    """
    if not (0 < len(nonce) <= NONCE_DIGITS and nonce.isascii() and nonce.isdigit()):
        return False
    try:
        made: Any = _serializer(secret).loads(challenge)
        difficulty, made_at, key = int(made["d"]), float(made["t"]), str(made["id"])
        made_for = str(made["p"])
    except (BadSignature, KeyError, TypeError, ValueError):
        return False
    if made_for != purpose or difficulty < DIFFICULTY:
        return False
    if not (math.isfinite(made_at) and 0 <= now - made_at <= LIFETIME):
        return False
    if not solves(challenge, nonce, difficulty):
        return False
    return storage.incr(f"proof-of-work/{key}", LIFETIME) == 1
