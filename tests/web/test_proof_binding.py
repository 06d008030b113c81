"""A proof of work buys one password check on its own form, from its own address, a few an
address.

Attack round 4, finding 7: proofs were good on any form from anywhere, and challenges could be
stockpiled for their 10 minutes (GETs are unlimited): 30 stockpiled proofs gave 30 password
checks while the site's budget was spent.
"""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from limits import parse_many

from web import limits

from .conftest import AuthActions, Clock, post_form
from .test_limits import budget_app, cheap_proofs, proof_of_work, spend_site_budget

__all__ = ["budget_app", "cheap_proofs"]  # the fixtures this module's tests use

RIGHT = {"username": "alice", "password": "cribbage29"}


@pytest.fixture
def spent(budget_app: Flask, auth: AuthActions, clock: Clock) -> Flask:
    """``budget_app`` with alice registered and the site's budget spent, its clock stopped (the
    budget does not come back during the test)."""
    clock.stop()
    auth.register("alice")
    auth.logout()
    spend_site_budget(budget_app, "10.7.0")
    return budget_app


@pytest.mark.usefixtures("cheap_proofs")
def test_a_proof_is_good_on_its_own_form_only(spent: Flask) -> None:
    """A proof made on the registration page does not let a log-in past the spent budget (nor
    one of the log-in page a registration); each is let past on its own form."""
    browser = spent.test_client()
    registration = proof_of_work(browser, "/auth/register")
    assert post_form(browser, "/auth/login", RIGHT | registration).status_code == 429
    login = proof_of_work(browser, "/auth/login")
    newcomer = {"username": "newcomer", "password": "cribbage29"}
    assert post_form(browser, "/auth/register", newcomer | login).status_code == 429
    assert post_form(browser, "/auth/register", newcomer | registration).status_code == 302
    owner = spent.test_client()
    proof = proof_of_work(owner, "/auth/login")
    assert post_form(owner, "/auth/login", RIGHT | proof).status_code == 302


@pytest.mark.usefixtures("cheap_proofs")
def test_a_proof_is_good_from_the_address_it_was_given_to(spent: Flask) -> None:
    """A challenge fetched from one address and solved is refused from another."""
    browser = spent.test_client()
    proof = proof_of_work(browser, "/auth/login", "10.7.1.1")
    address = {"REMOTE_ADDR": "10.7.1.2"}
    assert post_form(browser, "/auth/login", RIGHT | proof, environ_base=address).status_code == 429


@pytest.mark.slow
@pytest.mark.usefixtures("cheap_proofs")
def test_an_address_gets_a_few_proofs_past_the_budget(spent: Flask) -> None:
    """Stockpiled proofs from one address: the first PROOFS_PER_CLIENT let registrations past
    the spent budget, the rest are refused; another address's proof is still let past."""
    count = parse_many(limits.PROOFS_PER_CLIENT)[0].amount
    browsers = [spent.test_client() for _ in range(count + 3)]
    stock = [proof_of_work(browser, "/auth/register", "10.7.2.1") for browser in browsers]
    statuses = [
        register(browser, f"stock{n}", proof, "10.7.2.1")
        for n, (browser, proof) in enumerate(zip(browsers, stock, strict=True))
    ]
    assert statuses == [302] * count + [429] * 3
    other = spent.test_client()
    assert (
        register(other, "other", proof_of_work(other, "/auth/register", "10.7.2.9"), "10.7.2.9")
        == 302
    )


def register(browser: FlaskClient, name: str, proof: dict[str, str], address: str) -> int:
    """The status of registering ``name`` with ``proof`` from ``address``."""
    form = {"username": name, "password": "cribbage29"} | proof
    return post_form(
        browser, "/auth/register", form, environ_base={"REMOTE_ADDR": address}
    ).status_code
