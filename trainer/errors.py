"""The project's own errors: every problem with what a player or a caller gave us.

Each is a :class:`CribbageError`, itself a :class:`ValueError` (as python-chess does), so that
one ``except CribbageError`` tells bad input (a clear message for the player) from a bug (any
other exception). The web app turns a :class:`CribbageError` into a 400 and anything else into
a logged 500; the ``crib`` command prints its message on one line.

>>> from trainer import Card
>>> try:
...     Card.parse("1H")
... except CribbageError as error:
...     print(type(error).__name__, "-", error)
InvalidCardError - unknown rank '1' in '1H' (use A,2-10,J,Q,K)
"""

from __future__ import annotations


class CribbageError(ValueError):
    """Base class of the project's errors: the input is wrong, and the message says how."""


class InvalidCardError(CribbageError):
    """A token is not a card: unknown rank or suit."""


class DuplicateCardError(CribbageError):
    """The same card is given twice."""


class HandSizeError(CribbageError):
    """A hand, crib or deal has the wrong number of cards."""


class IllegalPlayError(CribbageError):
    """A play the rules forbid: passing 31, or not playing when able to."""


class UnknownRulesError(CribbageError):
    """A rule set that does not exist was asked for."""


class UnknownCribModelError(CribbageError):
    """A crib model that does not exist, or does not fit the game, was asked for."""


class InvalidAnswerError(CribbageError):
    """A drill answer that is missing, malformed or impossible."""


class InvalidJSONError(CribbageError):
    """A request body that is not plain JSON: nested too deeply, or with NaN or Infinity."""
