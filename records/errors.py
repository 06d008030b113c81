"""What the records refuse, in words a player can act on; :mod:`web.errors` maps each to HTTP."""

from __future__ import annotations


class RecordsError(Exception):
    """Something asked of the records that they refuse (the message says why)."""


class PaceError(RecordsError):
    """Too many in too short a time: try again after ``retry_after`` seconds."""

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class NameTakenError(RecordsError):
    """The username belongs to another player."""
