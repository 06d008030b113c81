"""Exceptions raised by :func:`vision.reader.read_image_bytes` (all ``ValueError`` subclasses)."""

from __future__ import annotations


class ImageError(ValueError):
    """The upload is not a usable photo: not an image, empty, truncated, or too many pixels."""


class NoCardsError(ImageError):
    """The photo decoded fine but no card could be read in it."""


class TooManyCardsError(ImageError):
    """More cards were read than the caller allows (e.g. a whole deck spread out)."""

    def __init__(self, message: str, count: int, limit: int) -> None:
        super().__init__(message)
        self.count = count
        self.limit = limit
