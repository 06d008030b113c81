"""Rate limits: password guessing and guest creation are bounded, with a 429 that says why."""

from __future__ import annotations

import concurrent.futures
import io
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from flask import Flask, request
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from benchmarks.photo_post import read_request
from records.limit_storage import DatabaseStorage
from web import auth as auth_module
from web import create_app, limits, sessions
from web.headers import CONTENT_SECURITY_POLICY
from web.limits import DATABASE_STORAGE
from web.settings import BY_NAME

from .conftest import CHEAP_PASSWORD_HASH, LOOSE_SITE_BUDGET, AuthActions, Clock, post_form


def failed_login(app: Flask, username: str, address: str, **kwargs: Any) -> TestResponse:
    """A wrong password for ``username`` posted from ``address`` (by a new browser unless
    ``client=`` names one)."""
    client = kwargs.pop("client", None) or app.test_client()
    form = {"username": username, "password": "wrong-guess"}
    return post_form(client, "/auth/login", form, environ_base={"REMOTE_ADDR": address}, **kwargs)


@pytest.mark.slow
def test_failures_from_other_addresses_never_lock_the_owner_out(
    app: Flask, client: FlaskClient, auth: AuthActions
) -> None:
    """50 failed log-ins on a name from other addresses (a day's limit for one name, before)
    do not lock the name: its owner logs in at once from the browser that logged in before,
    and from a new browser too; the guessers' addresses each met their own limit."""
    auth.register()
    auth.logout()
    for attempt in range(50):
        response = failed_login(app, "alice", f"10.0.0.{attempt // 10}")
        assert response.status_code == 401, attempt
    assert failed_login(app, "alice", "10.0.0.4").status_code == 429
    assert auth.login().status_code == 302
    assert AuthActions(app.test_client()).login().status_code == 302


@pytest.mark.slow
def test_a_guesser_cannot_go_faster_than_the_limit(app: Flask, auth: AuthActions) -> None:
    """One address guessing one name: 10 failures, then a 429 with Retry-After in players'
    words, even for the right password; the owner's own browser logs in from that address
    (a browser that logged in before gets through), and a forged device cookie does not."""
    auth.register()
    auth.logout()
    guesser = app.test_client()
    statuses = [
        failed_login(app, "Alice", "10.3.0.1", client=guesser).status_code for _ in range(10)
    ]
    assert statuses == [401] * 10
    refused = post_form(
        guesser,
        "/auth/login",
        {"username": "alice", "password": "cribbage29"},
        environ_base={"REMOTE_ADDR": "10.3.0.1"},
    )
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert "Too many tries for this username" in refused.get_data(as_text=True)
    guesser.set_cookie(sessions.DEVICE_COOKIE, "alice")
    assert failed_login(app, "alice", "10.3.0.1", client=guesser).status_code == 429
    owner = auth._client
    response = post_form(
        owner,
        "/auth/login",
        {"username": "alice", "password": "cribbage29"},
        environ_base={"REMOTE_ADDR": "10.3.0.1"},
    )
    assert response.status_code == 302


def test_a_twin_account_lets_no_guesser_past_the_limits_on_the_name(
    app: Flask, auth: AuthActions
) -> None:
    """Attack round 3, finding 5: a guesser registered ``vic`` beside ``Vic``, logged in to it,
    and its device cookie (names compared in lower case) let 20 of 25 wrong passwords for
    ``Vic`` be checked from one address. A name is now one account in any case, and the device
    cookie names the account's id: an account of the guesser's own lets it past nothing."""
    auth.register("Vic")
    auth.logout()
    guesser = app.test_client()
    address = {"REMOTE_ADDR": "10.3.1.1"}
    for name in ("vic", "mallory"):  # the twin if it can be had, else any account
        form = {"username": name, "password": "cribbage29"}
        if post_form(guesser, "/auth/register", form, environ_base=address).status_code == 302:
            break
    assert guesser.get_cookie(sessions.DEVICE_COOKIE) is not None
    statuses = [failed_login(app, "Vic", "10.3.1.1", client=guesser).status_code for _ in range(25)]
    assert statuses.count(401) == 10 and statuses[10:] == [429] * 15


@pytest.fixture
def budget_app(app: Flask) -> Iterator[Flask]:
    """The ``app`` fixture's trainer, on its database, with the trainer's own site-wide budget
    of password checks instead of the fixture's loose one."""
    config = {key: value for key, value in app.config.items() if key != "PASSWORD_CHECKS_SITE_WIDE"}
    budget_app = create_app(config)
    yield budget_app
    budget_app.extensions["crib_database"].dispose()


def test_failed_logins_have_a_site_wide_budget_in_small_steps(
    budget_app: Flask, auth: AuthActions
) -> None:
    """Guessing from many addresses and names meets one budget for the whole site, 5 failures
    in 15 seconds (so guessers cannot spend a minute's hashing in one burst): past it a log-in
    from anywhere is refused before its password is hashed, for seconds, not a minute, except
    from a browser that logged in to the account before."""
    auth.register()
    auth.logout()
    statuses = [failed_login(budget_app, f"name{n}", f"10.4.0.{n}").status_code for n in range(6)]
    assert statuses == [401] * 5 + [429]
    refused = AuthActions(budget_app.test_client()).login()
    # the 15-second window, rounded up by the limiter
    assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 16
    known = budget_app.test_client()
    device = auth._client.get_cookie(sessions.DEVICE_COOKIE)
    assert device is not None
    known.set_cookie(sessions.DEVICE_COOKIE, device.value)
    assert AuthActions(known).login().status_code == 302


def test_registrations_share_the_site_budget_of_password_checks(budget_app: Flask) -> None:
    """New names registered from many addresses meet the budget that failed log-ins meet (each
    a password to hash): the sixth in 15 seconds is refused before hashing, in players' words,
    and so is a failed log-in from a new browser after them."""

    def register(n: int) -> TestResponse:
        form = {"username": f"maker{n}", "password": "cribbage29"}
        address = {"REMOTE_ADDR": f"10.4.1.{n}"}
        return post_form(budget_app.test_client(), "/auth/register", form, environ_base=address)

    replies = [register(n) for n in range(6)]
    assert [reply.status_code for reply in replies] == [302] * 5 + [429]
    assert "checking new browsers" in replies[-1].get_data(as_text=True)
    assert failed_login(budget_app, "maker0", "10.4.2.1").status_code == 429


@pytest.fixture
def cheap_proofs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Proofs of work of 8 bits (256 hashes) instead of the site's 20 (a million, a second of
    Python): the tests check which proofs are let through, not what they cost."""
    from records import proofs

    monkeypatch.setattr(proofs, "DIFFICULTY", 8)


def proof_of_work(client: FlaskClient, page: str, address: str = "127.0.0.1") -> dict[str, str]:
    """The form fields the page's script adds: its challenge (the page fetched from
    ``address``), and the nonce that solves it."""
    from records import proofs

    html = client.get(page, environ_base={"REMOTE_ADDR": address}).get_data(as_text=True)
    challenge = re.search(r'name="proof_challenge" value="([^"]+)" data-difficulty="(\d+)"', html)
    assert challenge is not None
    nonce = proofs.solve(challenge.group(1), int(challenge.group(2)))
    return {"proof_challenge": challenge.group(1), "proof_nonce": nonce}


def spend_site_budget(app: Flask, network: str) -> None:
    """Fail log-ins on names of nobody from new browsers at addresses of ``network`` until the
    site's budget is spent (the next is refused)."""
    statuses = [failed_login(app, f"nobody{n}", f"{network}.{n}").status_code for n in range(6)]
    assert statuses[-1] == 429


@pytest.mark.usefixtures("cheap_proofs")
def test_a_spent_budget_locks_nobody_out_who_proves_some_work(
    budget_app: Flask, auth: AuthActions, clock: Clock
) -> None:
    """Attack round 3, finding 4: once guessers had spent the site's budget, the owner's right
    password from a new browser and any registration were refused for as long as the attack
    lasted. Past the budget, a form with a proof of work (which the page's script makes as the
    page opens) is let through, each proof once; one without, a wrong or a stale one is not."""
    auth.register("alice")
    auth.logout()
    spend_site_budget(budget_app, "10.4.3")
    owner = budget_app.test_client()
    right = {"username": "alice", "password": "cribbage29"}
    proof = proof_of_work(owner, "/auth/login")
    assert post_form(owner, "/auth/login", right | proof).status_code == 302
    again = budget_app.test_client()  # the same proof, spent
    assert post_form(again, "/auth/login", right | proof).status_code == 429
    newcomer = budget_app.test_client()
    form = {"username": "newcomer", "password": "cribbage29"}
    proof = proof_of_work(newcomer, "/auth/register")
    assert post_form(newcomer, "/auth/register", form | proof).status_code == 302
    guesser = budget_app.test_client()
    proof = proof_of_work(guesser, "/auth/login")
    wrong_nonce = proof | {"proof_nonce": proof["proof_nonce"] + "0"}
    assert post_form(guesser, "/auth/login", right | wrong_nonce).status_code == 429
    stale = proof_of_work(guesser, "/auth/login")
    from records.proofs import LIFETIME

    clock.advance(LIFETIME + 1)
    spend_site_budget(budget_app, "10.4.4")
    assert post_form(guesser, "/auth/login", right | stale).status_code == 429
    fresh = proof_of_work(guesser, "/auth/login")
    assert post_form(guesser, "/auth/login", right | fresh).status_code == 302


def test_wrong_current_passwords_are_limited_per_account(app: Flask, auth: AuthActions) -> None:
    """Attack round 3: 52 wrong current passwords in 30 s from 16 addresses sharing one session
    were each checked. They now count against the account: 10 in 10 minutes, from anywhere."""
    auth.register("alice")
    session_cookie = auth._client.get_cookie("session")
    assert session_cookie is not None
    statuses = []
    for n in range(16):
        thief = app.test_client()
        thief.set_cookie("session", session_cookie.value)
        form = {"password": "guess", "new_password": "cribbage30"}
        address = {"REMOTE_ADDR": f"10.4.6.{n}"}
        statuses.append(post_form(thief, "/auth/password", form, environ_base=address).status_code)
    assert statuses == [401] * 10 + [429] * 6


@pytest.mark.usefixtures("cheap_proofs")
def test_wrong_current_passwords_spend_the_site_budget(
    budget_app: Flask, auth: AuthActions
) -> None:
    """A wrong current password is a password checked: it counts against the site's budget,
    and past it a password change needs the page's proof of work as log-ins do."""
    auth.register("alice")
    owner = budget_app.test_client()
    assert AuthActions(owner).login("alice").status_code == 302
    form = {"password": "guess", "new_password": "cribbage30"}
    statuses = [post_form(owner, "/auth/password", form).status_code for _ in range(6)]
    assert statuses == [401] * 5 + [429]
    assert failed_login(budget_app, "nobody", "10.4.7.1").status_code == 429
    right = {"password": "cribbage29", "new_password": "cribbage30"}
    proof = proof_of_work(owner, "/auth/password")
    assert post_form(owner, "/auth/password", right | proof).status_code == 302


def test_an_ipv6_client_is_counted_by_its_64_network(client: FlaskClient) -> None:
    """Addresses in one IPv6 /64 (what one client is given) share their count; another /64
    and an IPv4 client have their own."""

    def register(address: str) -> int:
        form = {"username": f"x{address}"}  # no such name: refused without hashing
        reply = post_form(client, "/auth/register", form, environ_base={"REMOTE_ADDR": address})
        return reply.status_code

    for n in range(20):
        assert register(f"2001:db8:0:7::{n + 1:x}") == 200, n
    assert register("2001:db8:0:7:ffff::1") == 429
    for other in ("2001:db8:0:8::1", "::ffff:10.5.0.1", "10.5.0.2"):
        assert register(other) == 200, other


@pytest.mark.slow
def test_password_hashes_at_once_are_capped(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """With as many password checks running as the cap allows, one more log-in is answered
    at once with a 503 and Retry-After (never queued behind them); the running ones finish."""
    running = threading.Semaphore(0)
    release = threading.Event()

    def slow_check(stored: str, password: str) -> bool:
        running.release()
        release.wait(timeout=5)
        return False

    monkeypatch.setattr(auth_module, "check_password_hash", slow_check)
    with concurrent.futures.ThreadPoolExecutor(limits.HASHES_AT_ONCE) as pool:
        held = [
            pool.submit(failed_login, app, f"held{n}", f"10.6.0.{n}")
            for n in range(limits.HASHES_AT_ONCE)
        ]
        for _ in held:
            assert running.acquire(timeout=5)
        started = time.perf_counter()
        busy = failed_login(app, "one-more", "10.6.1.1")
        seconds = time.perf_counter() - started
        release.set()
        assert [future.result().status_code for future in held] == [401] * len(held)
    assert busy.status_code == 503 and int(busy.headers["Retry-After"]) >= 1
    assert seconds < 10  # at once: waiting for a slot, it would wait for the release below


@pytest.mark.skipif(sys.platform != "linux", reason="a thread has its own priority on Linux only")
def test_password_hashes_run_below_the_other_requests_priority(
    app: Flask, auth: AuthActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checking a password and hashing a new one run NICENESS below the requests' priority
    (guessers' hashes take the CPU the drills leave); the thread serving requests keeps its
    own, and the answers are what the hashes decide."""
    seen: list[int] = []

    def niceness() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    def spy(hash_function: Callable[..., Any]) -> Callable[..., Any]:
        def hashing(*args: Any) -> Any:
            seen.append(niceness())
            return hash_function(*args)

        return hashing

    monkeypatch.setattr(auth_module, "check_password_hash", spy(auth_module.check_password_hash))
    monkeypatch.setattr(
        auth_module, "generate_password_hash", spy(auth_module.generate_password_hash)
    )
    own = niceness()
    assert auth.register().status_code == 302
    auth.logout()
    assert failed_login(app, "alice", "10.6.2.1").status_code == 401
    assert auth.login().status_code == 302
    assert seen == [min(own + limits.NICENESS, 19)] * 3
    assert niceness() == own


@pytest.mark.slow
def test_right_passwords_do_not_count_against_the_username(app: Flask, auth: AuthActions) -> None:
    """Logging in (from many addresses) never locks the account."""
    auth.register()
    for attempt in range(15):
        phone = app.test_client()
        response = AuthActions(phone).login()
        assert response.status_code == 302, attempt


@pytest.mark.slow
def test_account_attempts_are_limited_per_address(client: FlaskClient) -> None:
    """One address trying many names (or registering many accounts) gets a 429, as JSON
    clients and pages alike see it."""
    statuses = [
        post_form(client, "/auth/login", {"username": f"user{i}", "password": "x" * 8}).status_code
        for i in range(21)
    ]
    assert statuses[:20] == [401] * 20 and statuses[20] == 429
    assert post_form(client, "/auth/register", {"username": "newname"}).status_code == 429
    assert client.get("/auth/login").status_code == 200  # the form itself is not limited


@pytest.mark.slow
def test_an_address_at_its_limit_gets_the_429_page_on_every_account_post(
    database_url: str,
) -> None:
    """Past its limit, an address's account posts get the 429 page in players' words, with
    Retry-After and the security headers; the address is the one a trusted proxy reports,
    other addresses and the address's other requests go on as before."""
    app = create_app(
        {
            "SECRET_KEY": "t",
            "DATABASE_URL": database_url,
            "TRUSTED_PROXIES": 1,
            "PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
            "PASSWORD_CHECKS_SITE_WIDE": LOOSE_SITE_BUDGET,
        }
    )
    guesser, other = app.test_client(), app.test_client()

    def post(client: FlaskClient, path: str, address: str, name: str = "somebody") -> TestResponse:
        form = {"username": name, "password": "x" * 8}
        return post_form(client, path, form, headers={"X-Forwarded-For": address})

    statuses = [post(guesser, "/auth/login", "10.2.0.1", f"user{i}").status_code for i in range(21)]
    assert statuses == [401] * 20 + [429]
    for path in ("/auth/login", "/auth/register", "/auth/password"):
        response = post(guesser, path, "10.2.0.1")
        assert response.status_code == 429, path
        assert int(response.headers["Retry-After"]) > 0
        assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        assert "Too many tries" in response.get_data(as_text=True)
    assert post(other, "/auth/login", "10.2.0.2").status_code == 401
    assert guesser.get("/auth/login", headers={"X-Forwarded-For": "10.2.0.1"}).status_code == 200
    app.extensions["crib_database"].dispose()


@pytest.mark.parametrize(("storage", "refused"), [(DATABASE_STORAGE, True), ("memory://", False)])
@pytest.mark.slow
def test_every_server_on_the_database_shares_the_counts(
    database_url: str, storage: str, refused: bool
) -> None:
    """Two servers (or worker processes) on one database: with the counts in the database
    (the default) an address's 21st try is refused whichever server takes it; kept in each
    process's memory, each server counts only its own."""
    config = {
        "SECRET_KEY": "t",
        "DATABASE_URL": database_url,
        "RATELIMIT_STORAGE_URI": storage,
        "PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
        "PASSWORD_CHECKS_SITE_WIDE": LOOSE_SITE_BUDGET,
    }
    servers = [create_app(config), create_app(config)]
    statuses = [
        post_form(servers[i % 2].test_client(), "/auth/login", {"username": f"u{i}"}).status_code
        for i in range(21)
    ]
    assert statuses[:20] == [401] * 20
    assert statuses[20] == (429 if refused else 401)
    for server in servers:
        server.extensions["crib_database"].dispose()


def test_the_counts_default_to_the_database(app: Flask) -> None:
    """Without a setting the counts are kept in the trainer's own database."""
    counter = app.extensions["crib_limits"]
    assert isinstance(counter.storage, DatabaseStorage)
    assert counter.storage.engine is app.extensions["crib_database"].engine


@pytest.mark.slow
def test_only_the_requests_a_limit_is_about_pay_for_the_limiter(database_url: str) -> None:
    """A drill (no limit on it, a browser with its guest) never reaches the counts; a log-in
    post (its limits) does."""
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": database_url})
    storage = app.extensions["crib_limits"].storage
    assert isinstance(storage, DatabaseStorage)
    counted: list[str] = []
    for name in ("incr", "get", "get_expiry"):
        method = getattr(storage, name)

        def counting(*args: Any, _method: Any = method, **kwargs: Any) -> Any:
            counted.append(request.path)
            return _method(*args, **kwargs)

        setattr(storage, name, counting)
    try:
        client = app.test_client()
        client.get("/api/drills/next")  # makes the guest (new_guest's limit counts it)
        counted.clear()
        drill = client.get("/api/drills/next").json
        assert (
            client.post(f"/api/drills/{drill['id']}/answer", json={"points": 4}).status_code == 200
        )
        assert counted == []
        post_form(client, "/auth/login", {"username": "alice", "password": "x" * 8})
        assert "/auth/login" in counted
    finally:
        app.extensions["crib_database"].dispose()


def test_a_limit_on_every_request_still_applies_when_set(database_url: str) -> None:
    """``CRIB_RATELIMIT_DEFAULT`` (Flask-Limiter's default limits) limits every view: the
    limiter's check before each request stays when such a limit is set."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "DATABASE_URL": database_url,
            "RATELIMIT_DEFAULT": "2 per minute",
        }
    )
    try:
        client = app.test_client()
        assert [client.get("/score").status_code for _ in range(3)] == [200, 200, 429]
    finally:
        app.extensions["crib_database"].dispose()


@pytest.mark.slow
def test_proxy_addresses_are_believed_only_when_trusted(database_url: str) -> None:
    """Behind ``CRIB_TRUSTED_PROXIES=1`` each forwarded client has its own count; without it
    the header is ignored (anybody could send it)."""
    for trusted, expected in ((1, 401), (0, 429)):
        app = create_app(
            {
                "SECRET_KEY": "t",
                "DATABASE_URL": database_url,
                "TRUSTED_PROXIES": trusted,
                "PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
                "PASSWORD_CHECKS_SITE_WIDE": LOOSE_SITE_BUDGET,
            }
        )
        client = app.test_client()
        for i in range(21):
            response = post_form(
                client,
                "/auth/login",
                {"username": f"user{i}", "password": "x" * 8},
                headers={"X-Forwarded-For": f"10.1.0.{i}"},
            )
        assert response.status_code == expected, trusted
        app.extensions["crib_database"].dispose()


@pytest.mark.slow
def test_guest_creation_is_limited_per_address(app: Flask) -> None:
    """Cookie-less deals each make a guest: 60 an hour from one address, then a 429; a
    browser that keeps its cookie deals on."""
    keeper = app.test_client()
    assert keeper.get("/api/drills/next").status_code == 200
    for _ in range(59):
        assert app.test_client().get("/api/drills/next").status_code == 200
    refused = app.test_client().get("/api/daily")
    assert refused.status_code == 429
    assert "keep the trainer's cookie" in refused.json["error"]
    assert "Retry-After" in refused.headers
    assert keeper.get("/api/drills/next").status_code == 200


@pytest.mark.slow
def test_unknown_usernames_cost_the_same_hash_as_known_ones(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong password for an unknown name is checked once against a hash of the same method
    and cost (scrypt's n, r, p) as a known name's, so the time taken does not tell which names
    exist (before, 2 ms against 75 ms did). Counted, not timed: a timing on a shared CI runner
    swung by 2x either way."""
    checked: list[str] = []
    real_check = auth_module.check_password_hash

    def recording_check(stored: str, password: str) -> bool:
        checked.append(stored.split("$", 1)[0])  # "scrypt:32768:8:1": the method and its cost
        return real_check(stored, password)

    monkeypatch.setattr(auth_module, "check_password_hash", recording_check)
    scrypt = create_app(
        {**app.config, "PASSWORD_HASH_METHOD": BY_NAME["PASSWORD_HASH_METHOD"].default}
    )
    try:
        AuthActions(scrypt.test_client()).register()
        costs = {}
        for username in ("alice", "nobody"):
            checked.clear()
            form = {"username": username, "password": "wrong-password"}
            assert post_form(scrypt.test_client(), "/auth/login", form).status_code == 401
            assert len(checked) == 1, username
            costs[username] = checked[0]
        assert costs["nobody"] == costs["alice"]
        assert costs["alice"].startswith(BY_NAME["PASSWORD_HASH_METHOD"].default + ":")
    finally:
        scrypt.extensions["crib_database"].dispose()


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("CRIB_RATELIMIT_STORAGE_URI", "bogus://"),
        ("CRIB_RATELIMIT_STORAGE_URI", "async+memory://"),
        ("CRIB_RATELIMIT_STORAGE_URI", "database:///x"),
        ("CRIB_PASSWORD_CHECKS_SITE_WIDE", "lots"),
    ],
)
@pytest.mark.slow
def test_serve_refuses_a_limit_setting_it_cannot_use_in_one_line(
    tmp_path: Path, setting: str, value: str
) -> None:
    """``crib serve`` with a rate-limit storage it cannot use, or a site-wide budget that is
    not a limit: exit status 2 and one line naming the setting."""
    result = subprocess.run(
        [sys.executable, "-m", "crib", "serve", "--port", "1"],
        env={
            "CRIB_DATABASE_URL": f"sqlite:///{tmp_path / 'trainer.sqlite'}",
            "CRIB_SECRET_KEY": "x",
            setting: value,
            "PATH": "/usr/bin",
        },
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"crib serve: error: {setting}: "), result.stderr
    assert value in result.stderr


TINY_PHOTO = (
    b"GIF89a\x01\x00\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)
"""A 1x1 GIF: an image the upload's checks pass (no card on it), so that it is read."""


def big_photo(size: int) -> bytes:
    """:data:`TINY_PHOTO` with a comment of about ``size`` bytes of noise: a photo that big."""
    comment = b"".join(b"\xff" + os.urandom(255) for _ in range(size // 256))
    return TINY_PHOTO[:13] + b"\x21\xfe" + comment + b"\x00" + TINY_PHOTO[13:]


def read_photo(client: FlaskClient, address: str = "10.7.0.1") -> TestResponse:
    """Post a photo (or a camera frame) to ``/api/read`` from ``address``."""
    photo = {"image": (io.BytesIO(TINY_PHOTO), "hand.gif")}
    return client.post("/api/read", data=photo, environ_base={"REMOTE_ADDR": address})


def read_photo_stream(client: FlaskClient, address: str) -> tuple[TestResponse, int]:
    """Post a 1 MB photo to ``/api/read`` from ``address`` as a raw multipart body: the answer,
    and how many of the body's bytes the server left unread."""
    photo = read_request("http://trainer", big_photo(1 << 20), "hand.gif", "image/gif")
    body = cast(bytes, photo.data)
    stream = io.BytesIO(body)
    answer = client.post(
        "/api/read",
        input_stream=stream,
        content_type=photo.get_header("Content-type"),
        content_length=len(body),
        environ_base={"REMOTE_ADDR": address},
    )
    return answer, len(body) - stream.tell()


@pytest.mark.slow
def test_reads_are_limited_per_client(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Photos and camera frames count against one limit per client (here 3 a minute): past
    it a 429 with Retry-After, as JSON; another client reads on."""
    monkeypatch.setattr(limits.reads_per_client, "limit_value", "3 per minute")
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": database_url})
    try:
        camera = app.test_client()
        statuses = [read_photo(camera).status_code for _ in range(4)]
        assert 429 not in statuses[:3] and statuses[3] == 429
        refused = read_photo(camera)
        assert int(refused.headers["Retry-After"]) > 0 and "error" in refused.json
        assert read_photo(app.test_client(), "10.7.0.2").status_code != 429
        refused, unread = read_photo_stream(camera, "10.7.0.1")
        assert refused.status_code == 429 and unread == 0  # read to its end, then refused
    finally:
        app.extensions["crib_database"].dispose()


def test_reads_at_once_are_capped(
    app: Flask, held_reader: tuple[threading.Semaphore, threading.Event]
) -> None:
    """With as many reads running as the cap allows and as many waiting in line, one more is
    answered at once with a 503 and ``Retry-After: 1``; the running ones finish."""
    running, release = held_reader
    places = limits.READS_AT_ONCE + limits.READS_WAITING
    with concurrent.futures.ThreadPoolExecutor(places) as pool:
        held = [
            pool.submit(read_photo, app.test_client(), f"10.8.0.{n}")
            for n in range(limits.READS_AT_ONCE)
        ]
        for _ in held:
            assert running.acquire(timeout=5)
        held += [
            pool.submit(read_photo, app.test_client(), f"10.8.0.{n}")
            for n in range(limits.READS_AT_ONCE, places)
        ]
        deadline = time.monotonic() + 30
        while limits.READING._held.total() < places:  # those in line got there
            assert time.monotonic() < deadline
            time.sleep(0.01)
        started = time.perf_counter()
        busy = read_photo(app.test_client(), "10.8.1.1")
        seconds = time.perf_counter() - started
        busy_streamed, unread = read_photo_stream(app.test_client(), "10.8.1.2")
        release.set()
        assert [future.result().status_code for future in held] == [503] * len(held)
        assert not any("busy" in future.result().json["error"] for future in held)
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "1"
    assert "error" in busy.json and seconds < 10  # at once (a wait would outlast the release)
    assert busy_streamed.status_code == 503 and unread == 0  # read to its end, then refused


def test_an_image_bomb_is_refused_without_taking_the_readers_turn(
    app: Flask, held_reader: tuple[threading.Semaphore, threading.Event]
) -> None:
    """Attack round 3: two scripts posting image bombs held the reader, and 15 of 15 photos of
    a player were refused (503). A bomb is now refused (a 400 saying why) as the upload is
    checked, before the reader's turn, even while every turn is taken."""
    from tests.vision.test_upload import progressive_bomb

    running, release = held_reader
    bomb = {"image": (io.BytesIO(progressive_bomb(2000, 400_000)), "bomb.jpg")}
    with concurrent.futures.ThreadPoolExecutor(limits.READS_AT_ONCE) as pool:
        held = [
            pool.submit(read_photo, app.test_client(), f"10.8.2.{n}")
            for n in range(limits.READS_AT_ONCE)
        ]
        for _ in held:
            assert running.acquire(timeout=5)
        refused = app.test_client().post(
            "/api/read", data=bomb, environ_base={"REMOTE_ADDR": "10.8.3.1"}
        )
        release.set()
        assert [future.result().status_code for future in held] == [503] * len(held)
    assert refused.status_code == 400 and "scans" in refused.json["error"]


@pytest.mark.skipif(sys.platform != "linux", reason="a thread has its own priority on Linux only")
def test_reads_run_below_the_other_requests_priority(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read runs on the reading thread, NICENESS below the requests' priority, in the
    request's context; the thread serving requests keeps its own."""
    import vision.reader

    seen: dict[str, Any] = {}

    def read(data: bytes, **options: Any) -> Any:
        seen["niceness"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        seen["data"] = data
        raise OSError("no model here")

    monkeypatch.setattr(vision.reader, "read_image_bytes", read)
    own = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    assert read_photo(app.test_client()).status_code == 503
    assert seen == {"niceness": min(own + limits.NICENESS, 19), "data": TINY_PHOTO}
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == own
