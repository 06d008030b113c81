"""The shipped systemd unit (``deploy/crib-trainer.service``), read by systemd's own parser.

``systemd-analyze verify`` loads a unit without a running systemd (these tests run where
systemd is not PID 1): it reports unknown sections and keys, values it cannot parse and an
``ExecStart`` that is not executable. The unit runs the install's
``/srv/crib-trainer/venv/bin/crib``, which does not exist here, so the test verifies a copy
whose ``ExecStart`` runs this checkout's ``crib`` (``python -m crib``) with the unit's own
arguments; every other line is as shipped (``verify`` does not look up ``User``/``Group``).
What no test here can show is systemd restarting the server after a ``kill -9``: that needs
systemd running as PID 1.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

from crib.cli import build_parser
from web.limits import READS_AT_ONCE, READS_WAITING

from .conftest import DEPLOY, program

UNIT = DEPLOY / "crib-trainer.service"
INSTALLED_CRIB = "/srv/crib-trainer/venv/bin/crib"
"""The ``crib`` command of the install the unit describes."""


def exec_start(unit: str) -> list[str]:
    """The command line of the unit's ``ExecStart``."""
    found = re.search(r"^ExecStart=(.+)$", unit, flags=re.MULTILINE)
    assert found, "the unit has no ExecStart"
    return shlex.split(found[1])


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    """``systemd-analyze verify`` passes without a word on the unit, run on this checkout."""
    shipped = UNIT.read_text()
    assert exec_start(shipped)[0] == INSTALLED_CRIB
    local = f"{shlex.quote(sys.executable)} -m crib"
    copy = tmp_path / UNIT.name
    copy.write_text(shipped.replace(f"ExecStart={INSTALLED_CRIB}", f"ExecStart={local}"))
    result = subprocess.run(
        [program("systemd-analyze"), "verify", str(copy)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and result.stdout == ""


def test_the_unit_serves_where_nginx_sends_requests() -> None:
    """The unit's ``crib serve`` takes every option it is given, listens at the address of
    ``deploy/nginx.conf``'s upstream, and trusts that one proxy's headers."""
    unit = UNIT.read_text()
    args = build_parser().parse_args(exec_start(unit)[1:])  # exits (status 2) on a bad option
    assert args.command == "serve"
    upstream = re.search(
        r"^\s*server (\S+):(\d+);", (DEPLOY / "nginx.conf").read_text(), flags=re.MULTILINE
    )
    assert upstream, "deploy/nginx.conf has no upstream server"
    assert (args.host, args.port) == (upstream[1], int(upstream[2]))
    assert "Environment=CRIB_TRUSTED_PROXIES=1" in unit.splitlines()


def test_nginx_lets_through_as_many_reads_at_once_as_the_unit_takes() -> None:
    """nginx refuses photos and frames beyond those the trainer reads at once (its worker
    processes, each reading one at a time), before their bodies are read: the two agree."""
    args = build_parser().parse_args(exec_start(UNIT.read_text())[1:])
    site_cap = re.search(r"limit_conn crib_reads_site (\d+);", (DEPLOY / "nginx.conf").read_text())
    assert site_cap, "deploy/nginx.conf does not cap the reads in flight"
    assert int(site_cap[1]) == args.workers * READS_AT_ONCE


def test_no_address_can_hold_the_whole_reader() -> None:
    """Attack round 4, finding 1: an address could have as many reads in flight as the whole
    site (2 and 2), and one address keeping two photos in flight had most honest photos
    refused. An address now has fewer than the site and no more than a worker reads at once,
    and the site no more than one worker reads and keeps in line: wherever nginx's reads in
    flight land, each is read or waits its turn, never refused busy."""
    config = (DEPLOY / "nginx.conf").read_text()
    caps = dict(re.findall(r"limit_conn crib_reads_(address|site) (\d+);", config))
    assert set(caps) == {"address", "site"}, "deploy/nginx.conf does not cap the reads in flight"
    address, site = int(caps["address"]), int(caps["site"])
    assert address < site
    assert address <= READS_AT_ONCE
    assert site <= READS_AT_ONCE + READS_WAITING


INSTALLED_FIREWALL = "/etc/nftables.d/crib-trainer.nft"
"""Where the documented install copies ``deploy/nftables.conf`` (root's, not the checkout's)."""


def test_the_unit_loads_the_firewall_before_every_start() -> None:
    """Attack round 4, finding 9: the frame-flood protection held only with the firewall loaded
    (16 posters from one address: the drills kept 117 % with it, 12 % without), and loading it
    was a step of its own that an install could miss. The unit loads the installed rules as
    root ("+") before each start, after the machine's own firewall (which may flush every
    table), so the trainer never serves without them: a missing or bad file stops the start.
    The documented install copies the shipped file there."""
    unit = UNIT.read_text()
    before = [shlex.split(line) for line in re.findall(r"^ExecStartPre=(.+)$", unit, re.M)]
    assert ["+/usr/sbin/nft", "-f", INSTALLED_FIREWALL] in before
    after = re.search(r"^After=(.+)$", unit, flags=re.MULTILINE)
    assert after and "nftables.service" in after[1].split()
    guide = (DEPLOY.parent / "docs" / "deployment.md").read_text()
    assert f"sudo cp deploy/nftables.conf {INSTALLED_FIREWALL}" in guide
