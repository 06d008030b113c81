"""Load benchmark: drill round trips (deal + answer) against gunicorn, measured with wrk.

The trainer runs as ``crib serve`` would run it (``web.serve.serve``: gunicorn, SQLite in WAL
mode) on 127.0.0.1 with a fresh database; wrk, a separate process, drives it with a Lua
script in which every connection deals a hand (``GET /api/drills/next``) and answers it
(``POST /api/drills/<id>/answer``), as several guest players. Bounded in time.

    python benchmarks/web_load.py [--workers 2] [--seconds 10] [--connections 8] [--players 4]

Prints requests per second, answers (round trips) per second, latency percentiles and errors.
Target on a 2-core machine: >= 500 answers/s, p99 <= 50 ms, no errors.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tempfile
import urllib.request
from pathlib import Path

from web.serve import free_port, spawn

LUA = r"""
local cookies = {%(cookies)s}
local counter = 0
local threads = {}

function setup(thread)
  counter = counter + 1
  thread:set("cookie", cookies[(counter - 1) %% #cookies + 1])
  table.insert(threads, thread)
end

function init(args)
  pending = {}
  answers = 0
  deals = 0
  errors = 0
  wrk.headers["Cookie"] = cookie
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  local id = table.remove(pending)
  if id then
    return wrk.format("POST", "/api/drills/" .. id .. "/answer", nil, '{"points": 4}')
  end
  return wrk.format("GET", "/api/drills/next?kind=hand", nil, nil)
end

function response(status, headers, body)
  if status ~= 200 then
    errors = errors + 1
    return
  end
  if string.find(body, '"correct"', 1, true) then
    answers = answers + 1
  else
    local id = string.match(body, '"id":%%s*(%%d+)')
    if id then
      deals = deals + 1
      table.insert(pending, id)
    end
  end
end

function done(summary, latency, requests)
  local a, d, e = 0, 0, 0
  for _, thread in ipairs(threads) do
    a = a + thread:get("answers")
    d = d + thread:get("deals")
    e = e + thread:get("errors")
  end
  io.write(string.format("LUA answers=%%d\nLUA deals=%%d\nLUA errors=%%d\n", a, d, e))
  for _, p in ipairs({50, 90, 99, 99.9}) do
    io.write(string.format("LUA p%%s=%%.3f\n", p, latency:percentile(p) / 1000))
  end
end
"""


def guest_cookie(port: int) -> str:
    """A new guest's session cookie (the first deal makes the guest)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/drills/next?kind=hand") as reply:
        return str(reply.headers["Set-Cookie"]).split(";", 1)[0]


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    wrk = shutil.which("wrk")
    if wrk is None:
        raise SystemExit("wrk is missing: apt-get install wrk")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        port = free_port()
        try:
            server = spawn(port, args.workers, folder, "benchmark")
        except RuntimeError as error:
            raise SystemExit(str(error)) from None
        try:
            cookies = ", ".join(f'"{guest_cookie(port)}"' for _ in range(args.players))
            script = folder / "roundtrip.lua"
            script.write_text(LUA % {"cookies": cookies})
            command = [
                wrk,
                f"-t{args.threads}",
                f"-c{args.connections}",
                f"-d{args.seconds}s",
                "--timeout",
                "5s",
                "-s",
                str(script),
                f"http://127.0.0.1:{port}",
            ]
            output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        finally:
            server.terminate()
            server.wait(timeout=10)
    figures = dict(re.findall(r"LUA (\S+)=(\S+)", output))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    answers = int(figures["answers"]) / args.seconds
    print(output.split("LUA")[0].rstrip())
    print(f"\nworkers={args.workers} connections={args.connections} players={args.players}")
    print(f"requests/s         {rps:8.1f}")
    print(f"answers/s          {answers:8.1f}   (deal + answer round trips)")
    for p in ("50", "90", "99", "99.9"):
        print(f"latency p{p:<5}      {float(figures['p' + p]):8.2f} ms")
    print(f"errors             {int(figures['errors']):8d}")


if __name__ == "__main__":
    main()
