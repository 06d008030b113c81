"""Players driving running servers over HTTP, and checks of what the database then holds."""

from __future__ import annotations

import http.client
import json
import threading
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, select

from records.drills import parse_categories
from records.models import Answer, Drill, Skill
from trainer import weak_spots


@dataclass
class LivePlayer:
    """One guest answering drills on servers at ``ports`` (in turn), over HTTP.

    ``drills`` is the deal's query (hands by default; a tab of the same player practises a
    kind of its own, as its unanswered drill is dealt to whoever asks for that kind).
    ``acknowledged`` holds each drill whose answer a server acknowledged with a 200;
    ``failures`` counts requests that got anything else (refused, reset, a 5xx).
    """

    ports: list[int]
    cookie: str | None = None
    drills: str = "kind=hand"
    acknowledged: list[int] = field(default_factory=list)
    failures: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _request(self, port: int, method: str, path: str, body: Any = None) -> Any:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)  # a busy machine
        headers = {"Content-Type": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        try:
            data = None if body is None else json.dumps(body)
            connection.request(method, path, body=data, headers=headers)
            reply = connection.getresponse()
            payload = reply.read()
            cookie = reply.getheader("Set-Cookie")
            if cookie and self.cookie is None:
                self.cookie = cookie.split(";", 1)[0]
            return json.loads(payload) if reply.status == 200 else None
        finally:
            connection.close()

    def play(self, rounds: int, stop: threading.Event | None = None) -> None:
        """Deal and answer ``rounds`` drills (or until ``stop`` is set), going round the
        servers; never raises on a server that is down."""
        for n in range(rounds):
            if stop is not None and stop.is_set():
                return
            port = self.ports[n % len(self.ports)]
            try:
                drill = self._request(port, "GET", f"/api/drills/next?{self.drills}")
                if drill is None:
                    raise OSError("no drill")
                port = self.ports[(n + 1) % len(self.ports)]
                verdict = self._request(
                    port, "POST", f"/api/drills/{drill['id']}/answer", {"points": n % 13}
                )
                if verdict is None:
                    raise OSError("no verdict")
            except (OSError, http.client.HTTPException, ValueError):
                with self._lock:
                    self.failures += 1
                continue
            with self._lock:
                self.acknowledged.append(int(drill["id"]))


def stored_answers(engine: Engine) -> set[int]:
    """The ids of every drill with a stored answer."""
    with engine.connect() as connection:
        return set(connection.scalars(select(Answer.drill_id)))


def tally_mismatches(engine: Engine) -> dict[int, tuple[dict[str, Any], dict[str, Any]]]:
    """Each player whose stored skill tallies differ from a recount of their stored answers,
    with (stored, recounted); empty when every tally matches."""
    with engine.connect() as connection:
        rows = connection.execute(
            select(Answer.player_id, Drill.categories, Answer.missed, Answer.seconds).join(
                Drill, Drill.id == Answer.drill_id
            )
        ).all()
        stored_rows = connection.execute(select(Skill)).all()
    players = {row.player_id for row in rows} | {row.player_id for row in stored_rows}
    differ = {}
    for player_id in players:
        recount = weak_spots.tally(
            (parse_categories(present), parse_categories(missed), seconds)
            for pid, present, missed, seconds in rows
            if pid == player_id
        )
        expected = {c.value: (t.seen, t.missed, round(t.seconds, 6)) for c, t in recount.items()}
        stored = {
            s.category: (s.seen, s.missed, round(s.seconds, 6))
            for s in stored_rows
            if s.player_id == player_id
        }
        if stored != expected:
            differ[player_id] = (stored, expected)
    return differ
