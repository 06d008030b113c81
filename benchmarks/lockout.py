"""Guessers against the site's budget of password checks (attack round 3, finding 4): does the
owner of the guessed name still get in from a new browser, and can a newcomer register?

The trainer runs as ``web_load.py`` runs it (``crib serve``, with ``--proxy`` behind nginx
running ``deploy/nginx.conf``), with ``alice`` registered. An attack of ``web_load.ATTACKS``
runs meanwhile (``--attack``: ``guessers-64``, 64 addresses posting wrong passwords for
``alice`` as fast as they are answered, or ``rotating-guesser``, one wrong password a second,
each from a new address). Every ``--every`` seconds, ``--tries`` times, the owner logs in with
the right password from a new browser on a new address, as the page does: it opens the log-in
page and, where the page carries a challenge, solves it (``records.proofs.solve``, what the
page's script does in the browser) before posting, and tries again after a refusal's
``Retry-After`` for up to 20 s as a person would; a newcomer registers the same way. Printed:
how many got in at the first try and within 20 s, and the seconds each took (solving
included).

    python benchmarks/lockout.py [--attack guessers-64|rotating-guesser] [--proxy]
        [--tries 12] [--every 5]
"""

from __future__ import annotations

import argparse
import http.client
import http.cookies
import os
import re
import statistics
import sys
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import web_load  # noqa: E402  (this folder is on sys.path)


def rotating_guesser(
    target: web_load.Target, stop: threading.Event, _index: int, tries: list[int]
) -> None:
    """One wrong password for ``alice`` a second, each from a new address."""
    n = 0
    while not stop.is_set():
        started = time.monotonic()
        post_account(target, f"127.0.{100 + n // 250}.{n % 250 + 2}", "/auth/login", "guess")
        tries[0] += 1
        n += 1
        stop.wait(max(0.0, 1.0 - (time.monotonic() - started)))


web_load.ATTACKS["rotating-guesser"] = (rotating_guesser, 1)


def post_account(
    target: web_load.Target, source: str, path: str, password: str, name: str = "alice"
) -> tuple[int, float]:
    """Open ``path``'s page from ``source`` as a new browser, solve its challenge if it has
    one, and post ``name`` and ``password``: the answer's status and its ``Retry-After``."""
    connection = target.connect(timeout=60, source_address=(source, 0))
    try:
        connection.request("GET", path)
        reply = connection.getresponse()
        page = reply.read().decode()
        cookie = http.cookies.SimpleCookie(reply.headers.get("Set-Cookie", ""))
        jar = "; ".join(f"{key}={morsel.value}" for key, morsel in cookie.items())
        form = {"username": name, "password": password}
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        if token:
            form["csrf_token"] = token.group(1)
        challenge = re.search(
            r'name="proof_challenge" value="([^"]+)" data-difficulty="(\d+)"', page
        )
        if challenge:  # (a trainer from before proofs of work has none)
            from records import proofs

            form["proof_challenge"] = challenge.group(1)
            form["proof_nonce"] = proofs.solve(challenge.group(1), int(challenge.group(2)))
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": target.url,
            "Referer": f"{target.url}{path}",
            "Cookie": jar,
        }
        connection.request("POST", path, urllib.parse.urlencode(form), headers)
        answer = connection.getresponse()
        answer.read()
        return answer.status, float(answer.headers.get("Retry-After") or 1)
    except (OSError, http.client.HTTPException):
        return 0, 1.0
    finally:
        connection.close()


PATIENCE = 20.0
"""Seconds a person goes on trying (a refusal's ``Retry-After`` waited out each time)."""


def get_in(target: web_load.Target, source: str, path: str, name: str) -> tuple[int, float, int]:
    """Log in (or register) as a person does: again after each refusal's wait, for up to
    :data:`PATIENCE` seconds. The last status, the seconds from the first try, and the tries."""
    started = time.monotonic()
    tries = 0
    while True:
        tries += 1
        status, wait = post_account(target, source, path, "cribbage29", name)
        elapsed = time.monotonic() - started
        if status == 302 or elapsed + wait > PATIENCE:
            return status, elapsed, tries
        time.sleep(wait)


def main() -> None:
    """Serve, attack, log in and register as the owner and newcomers, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--attack", choices=("guessers-64", "rotating-guesser"), default="guessers-64"
    )
    parser.add_argument("--proxy", action="store_true")
    parser.add_argument("--tries", type=int, default=12)
    parser.add_argument("--every", type=float, default=5.0)
    args = parser.parse_args()
    args.workers, args.server_threads, args.firewall = 2, 4, False
    if args.proxy:
        os.environ["CRIB_TRUSTED_PROXIES"] = "1"
    with web_load.serving("SQLite", None, args) as (target, _folder, _name):
        status, _ = post_account(target, "127.0.3.1", "/auth/register", "cribbage29")
        assert status == 302, f"registering alice: {status}"
        with web_load.attack(target, args.attack) as guesses:
            time.sleep(5)  # the budget spent
            owner, newcomers = [], []
            for n in range(args.tries):
                owner.append(get_in(target, f"127.0.4.{n + 1}", "/auth/login", "alice"))
                newcomers.append(get_in(target, f"127.0.5.{n + 1}", "/auth/register", f"new{n}"))
                time.sleep(args.every)
            made = guesses[0]
    for who, results in (("the owner's log-ins", owner), ("newcomers' registrations", newcomers)):
        first = sum(status == 302 and tries == 1 for status, _, tries in results)
        got_in = [seconds for status, seconds, _ in results if status == 302]
        median = f"{statistics.median(got_in):.2f}" if got_in else "-"
        longest = f"{max(got_in):.2f}" if got_in else "-"
        print(
            f"{who}: {first} of {len(results)} in at the first try, {len(got_in)} within"
            f" {PATIENCE:.0f} s (statuses {sorted({s for s, _, _ in results})}); seconds to get"
            f" in, the page solved: median {median}, longest {longest}"
        )
    print(f"the attack ({args.attack}) made {made} posts")


if __name__ == "__main__":
    main()
