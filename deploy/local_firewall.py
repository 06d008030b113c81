"""Load the shipped firewall rules (``deploy/nftables.conf``) on this machine, for a test port.

For the deployment tests (``tests/deploy/test_firewall.py``) and the load benchmark
(``benchmarks/web_load.py --proxy --firewall``). The rules are loaded as an install loads them,
with two changes: the ports are the local nginx's (free ones instead of 80 and 443), and the
table has a name of its own (so that it never replaces a table an install loaded). The table is
deleted when the block ends. Loading rules needs root and a kernel with nftables.

    with applied([proxy.https_port]):
        ...  # new connections to that port, per address, as a deployed server limits them
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path

from deploy.local_nginx import find_program

SHIPPED = Path(__file__).with_name("nftables.conf")
"""The rules an install loads (``nft -f``)."""
TABLE = "crib_trainer"
"""The shipped rules' table (``inet`` family)."""


def render(ports: Iterable[int], table: str) -> str:
    """The shipped rules for ``ports`` instead of 80 and 443, in the table ``table``."""
    text = SHIPPED.read_text()
    listed = ", ".join(str(port) for port in ports)
    text, defined = re.subn(
        r"^define crib_web_ports = \{ 80, 443 \}$",
        f"define crib_web_ports = {{ {listed} }}",
        text,
        flags=re.MULTILINE,
    )
    text, tables = re.subn(rf"\btable inet {TABLE}\b", f"table inet {table}", text)
    if defined != 1 or tables != 3:
        raise ValueError(f"{SHIPPED} no longer has the ports' define and its table three times")
    return text


def _nft(*arguments: str, rules: str | None = None) -> None:
    nft = find_program("nft")
    if nft is None:
        raise FileNotFoundError("nft is not installed (scripts/install-test-deps installs it)")
    result = subprocess.run(
        [nft, *arguments], input=rules, capture_output=True, text=True, timeout=30, check=False
    )
    if result.returncode != 0:
        raise OSError(f"nft {' '.join(arguments)}: {result.stderr.strip()}")


@contextlib.contextmanager
def applied(ports: Iterable[int]) -> Iterator[str]:
    """Load the shipped rules for ``ports`` while the block runs; yields the table's name.

    Raises:
        FileNotFoundError: nft is not installed.
        OSError: nft could not load the rules (not root, no nftables in the kernel).
    """
    table = f"{TABLE}_test_{os.getpid()}"
    _nft("-f", "-", rules=render(ports, table))
    try:
        yield table
    finally:
        _nft("delete", "table", "inet", table)
