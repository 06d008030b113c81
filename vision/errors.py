"""Errors about photos: each an :class:`ImageError`, a :class:`~trainer.errors.CribbageError`.

Like the engine's errors, they mean bad input, and their message is for the player.
"""

from __future__ import annotations

from trainer.errors import CribbageError


class ImageError(CribbageError):
    """The upload is not a usable photo: not an image, empty, truncated, or too many pixels."""


class NoCardsError(ImageError):
    """The photo decoded fine but no card could be read in it."""


class TooManyCardsError(ImageError):
    """More cards were read than the caller allows (e.g. a whole deck spread out)."""

    def __init__(self, message: str, count: int, limit: int) -> None:
        super().__init__(message)
        self.count = count
        self.limit = limit
