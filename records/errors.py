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


class PlayerGone(RecordsError):
    """The player named is no longer in the records (a guest purged, a new database)."""


class DrillRefused(RecordsError):
    """An answer the records refuse to take for this drill (the message says why)."""

    def __init__(self, drill_id: int, message: str) -> None:
        super().__init__(message)
        self.drill_id = drill_id


class DrillNotFound(DrillRefused):
    """No drill has this id."""

    def __init__(self, drill_id: int) -> None:
        super().__init__(drill_id, f"no drill {drill_id}")


class NotYourDrill(DrillRefused):
    """The drill was dealt to another player."""

    def __init__(self, drill_id: int) -> None:
        super().__init__(drill_id, f"drill {drill_id} was dealt to another player")


class DrillExpired(DrillRefused):
    """The drill was dealt too long ago to be answered (``records.drills.EXPIRES_AFTER``)."""

    def __init__(self, drill_id: int) -> None:
        super().__init__(
            drill_id, f"drill {drill_id} has expired (it was dealt over a day ago): deal a new one"
        )


class AlreadyAnswered(DrillRefused):
    """The drill has its one answer."""

    def __init__(self, drill_id: int) -> None:
        super().__init__(drill_id, f"drill {drill_id} is already answered")


class GameNotFound(RecordsError):
    """No game against the computer has this id for this player."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id} of yours: start a new one")
        self.game_id = game_id


class BoardMovedOn(RecordsError):
    """A board read as another process took moves back: its version's moves are gone.

    The board is to be read again.
    """

    def __init__(self) -> None:
        super().__init__(
            "The board moved on as this phone read it (another phone took a move back):"
            " nothing was saved. Make the move again if it is still to be made."
        )
