"""The client nginx's limits count: an IPv4 address, an IPv6 address by its /64.

The trainer (``web.limits.client_key``) and the firewall count an IPv6 client by its /64 (what
one client is given), but nginx counted each address of it apart, so a client rotating through
its 2**64 addresses had a share of every nginx limit (GETs, account posts, photos in flight) per
address. The shipped map (``$crib_address``) is run here by the real nginx on addresses given in
a header in place of the connection's, which only loopback can be here.
"""

from __future__ import annotations

import http.client
import re

import pytest

from deploy.local_nginx import HOST, LocalNginx, main_config, running
from deploy.local_server import free_port

from .conftest import DEPLOY, program

pytestmark = pytest.mark.slow  # a real nginx

SAME_CLIENT = [
    ("2001:db8:0:7::1", "2001:db8:0:7:ffff:1:2:3", "2001:db8:0:7::"),
    ("2001:db8::1", "2001:db8::5:0:0:1", "2001:db8::ff"),
    ("10.0.0.1", "::ffff:10.0.0.1"),
]
"""Addresses (as nginx writes them) of one client each."""
OTHER_CLIENTS = ["2001:db8:0:8::1", "2001:db8:1::1", "2001:db9::1", "10.0.0.2", "::1"]


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The key nginx counts each address of the lists above by."""
    program("nginx")
    shipped = (DEPLOY / "nginx.conf").read_text()
    block = re.search(r"^map \$remote_addr \$crib_address \{.*?^\}", shipped, re.M | re.S)
    assert block, "deploy/nginx.conf has no $crib_address map"
    folder = tmp_path_factory.mktemp("addresses")
    port = free_port()
    site = folder / "site.conf"
    mapped = block[0].replace("$remote_addr", "$http_x_client")  # the source, and the default
    site.write_text(
        f"{mapped}\nserver {{ listen {HOST}:{port}; location / {{ return 200 $crib_address; }} }}\n"
    )
    (folder / "nginx.conf").write_text(main_config(folder, site))
    addresses = [address for client in SAME_CLIENT for address in client] + OTHER_CLIENTS
    found = {}
    with running(LocalNginx(folder, port, port)):
        for address in addresses:
            connection = http.client.HTTPConnection(HOST, port, timeout=10)
            connection.request("GET", "/", headers={"X-Client": address})
            found[address] = connection.getresponse().read().decode()
            connection.close()
    return found


def test_an_ipv6_client_is_one_client_by_its_64(keys: dict[str, str]) -> None:
    """Addresses of one /64 (or one IPv4 address, mapped or not) share a key; every other
    /64 and address has its own."""
    for client in SAME_CLIENT:
        assert len({keys[address] for address in client}) == 1, {a: keys[a] for a in client}
    distinct = [keys[client[0]] for client in SAME_CLIENT] + [keys[a] for a in OTHER_CLIENTS]
    assert len(set(distinct)) == len(distinct), keys
    assert all(keys.values()), keys
