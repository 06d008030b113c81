"""Run the shipped nginx config (``deploy/nginx.conf``) on this machine, in front of a trainer.

For the deployment tests (``tests/deploy/test_nginx.py``) and the load benchmark
(``benchmarks/web_load.py --proxy``): both put the documented deployment in front of a trainer
started with :func:`deploy.local_server.spawn` (with ``CRIB_TRUSTED_PROXIES=1``, as
``deploy/crib-trainer.service`` runs it), without touching the machine's own nginx.

The config is rendered as an install sets it, and nothing more: the server name, the
certificate (a throwaway self-signed one made with openssl), the ports nginx listens on (free
ones instead of 80 and 443) and the trainer's address (its port instead of 8000). It is
included from a minimal main config that keeps nginx's pid, logs and temporary files in one
folder, and nginx runs in the foreground (``daemon off``), a child of the caller.

    with running(prepare(folder, trainer_port)) as proxy:
        ...  # requests to proxy.origin, trusting proxy.context()
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from deploy.local_server import free_port

HOST = "127.0.0.1"
"""Where nginx is reached (the certificate names it, and ``localhost``)."""
SHIPPED = Path(__file__).with_name("nginx.conf")
"""The config an install copies to ``/etc/nginx/sites-available``."""


def find_program(name: str) -> str | None:
    """The path of the program ``name``, or ``None`` when it is not installed.

    ``/usr/sbin`` is searched too: nginx is there, and not on every user's ``PATH``.
    """
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")


def _program(name: str) -> str:
    """The path of the program ``name``.

    Raises:
        FileNotFoundError: it is not installed.
    """
    path = find_program(name)
    if path is None:
        raise FileNotFoundError(f"{name} is not installed (scripts/install-test-deps installs it)")
    return path


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """Write a throwaway self-signed certificate and its key into ``folder``.

    The certificate (``fullchain.pem``) names ``localhost`` and 127.0.0.1; the key is
    ``privkey.pem``, an ECDSA P-256 key as certbot (2.0 and newer) makes by default, so that a
    TLS handshake costs nginx what it costs a real deployment.

    Returns:
        The certificate's path and the key's.

    Raises:
        FileNotFoundError: openssl is not installed.
        subprocess.CalledProcessError: openssl failed.
    """
    certificate, key = folder / "fullchain.pem", folder / "privkey.pem"
    subprocess.run(
        [
            *(_program("openssl"), "req", "-x509", "-nodes"),
            *("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"),
            *("-days", "1", "-subj", "/CN=localhost"),
            *("-addext", f"subjectAltName=DNS:localhost,IP:{HOST}"),
            *("-keyout", str(key), "-out", str(certificate)),
        ],
        check=True,
        capture_output=True,
    )
    return certificate, key


def _replace(text: str, pattern: str, replacement: str) -> str:
    """``text`` with ``pattern`` replaced.

    Raises:
        ValueError: the text has no ``pattern`` (the shipped file changed, and the rendering
            would silently run something else).
    """
    rendered, count = re.subn(pattern, replacement, text, flags=re.MULTILINE)
    if not count:
        raise ValueError(f"deploy/nginx.conf has no {pattern!r} to set")
    return rendered


def ipv6_available() -> bool:
    """Whether this machine can listen on IPv6 (a container may have it turned off)."""
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


def render_site(
    shipped: str, certificate: Path, key: Path, http_port: int, https_port: int, trainer: int
) -> str:
    """``deploy/nginx.conf`` (the text ``shipped``) as an install sets it up.

    An install sets the server name, the certificate and its key, the ports for HTTP and
    HTTPS, and the trainer's port; nothing else changes. On a machine without IPv6 the
    ``[::]`` listens go, as they must on such a host.

    Raises:
        ValueError: the text lacks one of the lines an install sets.
    """
    site = _replace(shipped, r"server_name crib\.example\.org;", "server_name localhost;")
    site = _replace(site, r"ssl_certificate +\S+;", f"ssl_certificate {certificate};")
    site = _replace(site, r"ssl_certificate_key +\S+;", f"ssl_certificate_key {key};")
    site = _replace(site, r"(listen (?:\[::\]:)?)80\b", rf"\g<1>{http_port}")
    site = _replace(site, r"(listen (?:\[::\]:)?)443\b", rf"\g<1>{https_port}")
    site = _replace(site, r"server 127\.0\.0\.1:8000;", f"server 127.0.0.1:{trainer};")
    if not ipv6_available():
        site = _replace(site, r"^\s*listen \[::\].*$", "")
    return site


def main_config(folder: Path, site: Path, worker_processes: str = "1") -> str:
    """A minimal main config around ``site``: everything nginx writes stays in ``folder``.

    ``worker_processes`` is nginx's setting: a count, or ``"auto"`` (one a core, the default
    of Debian's ``/etc/nginx/nginx.conf``).
    """
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};" if os.geteuid() == 0 else ""
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    mime_types = Path("/etc/nginx/mime.types")
    include_mime = f"include {mime_types};" if mime_types.exists() else ""
    return f"""
{user}
worker_processes {worker_processes};
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} notice;
events {{}}
http {{
    {include_mime}
    log_format timed '$remote_addr "$request" $status $request_time $upstream_response_time';
    access_log {folder / "access.log"} timed;
{temp}
    include {site};
}}
"""


def nginx_command(folder: Path, *extra: str) -> list[str]:
    """The command running ``nginx`` on ``folder``'s main config, with ``extra`` arguments.

    nginx logs to ``folder`` from its start; ``"-t"`` among the ``extra`` tests the config.

    Raises:
        FileNotFoundError: nginx is not installed.
    """
    config = folder / "nginx.conf"
    error_log = folder / "error.log"
    return [_program("nginx"), "-p", str(folder), "-c", str(config), "-e", str(error_log), *extra]


@dataclass(frozen=True)
class LocalNginx:
    """A folder holding a rendered config for nginx, and where that nginx listens."""

    folder: Path
    http_port: int
    https_port: int

    @property
    def certificate(self) -> Path:
        """The throwaway certificate nginx serves."""
        return self.folder / "fullchain.pem"

    @property
    def origin(self) -> str:
        """The proxied site's origin, as a browser names it (``https://127.0.0.1:PORT``)."""
        return f"https://{HOST}:{self.https_port}"

    def context(self) -> ssl.SSLContext:
        """A client's TLS context that trusts this nginx's certificate (and verifies it)."""
        return ssl.create_default_context(cafile=self.certificate)


def prepare(folder: Path, trainer_port: int, *, worker_processes: str = "1") -> LocalNginx:
    """Write into ``folder`` what nginx needs to run the shipped config locally.

    That is a throwaway certificate, the shipped config rendered to listen on free ports and
    to send requests to the trainer on ``trainer_port``, and a main config around it (see
    :func:`main_config` for ``worker_processes``).

    Raises:
        FileNotFoundError: openssl is not installed.
    """
    folder.mkdir(parents=True, exist_ok=True)
    certificate, key = make_certificate(folder)
    http_port, https_port = free_port(), free_port()
    site = folder / "crib-trainer.conf"
    shipped = SHIPPED.read_text()
    site.write_text(render_site(shipped, certificate, key, http_port, https_port, trainer_port))
    (folder / "nginx.conf").write_text(main_config(folder, site, worker_processes))
    return LocalNginx(folder, http_port, https_port)


@contextlib.contextmanager
def running(proxy: LocalNginx, timeout: float = 10.0) -> Iterator[subprocess.Popen[bytes]]:
    """Run nginx on ``proxy``'s config, in the foreground, while the block runs.

    Yields nginx's master process (its workers are the master's children) once nginx accepts
    connections on its HTTPS port; nginx is stopped when the block ends.

    Raises:
        FileNotFoundError: nginx is not installed.
        RuntimeError: with nginx's error log, when it exits or does not listen within
            ``timeout`` seconds (it is stopped).
    """
    process = subprocess.Popen(
        nginx_command(proxy.folder, "-g", "daemon off;"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                socket.create_connection((HOST, proxy.https_port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    log = proxy.folder / "error.log"
                    said = log.read_text() if log.exists() else "(no error log)"
                    raise RuntimeError(f"nginx did not start:\n{said}") from None
                time.sleep(0.05)
        yield process
    finally:
        process.terminate()
        process.wait(timeout=10)
