"""Stand-in readers for ``crib read`` tests: a given reading from any file."""

from __future__ import annotations

import numpy as np
import pytest

from vision.reader import Reading


def reads_as(monkeypatch: pytest.MonkeyPatch, read: Reading) -> None:
    """``crib read`` reads ``read`` from any file (whatever rule it is asked to read under)."""
    monkeypatch.setattr("vision.reader.read_cards", lambda data, models, **options: read)


def fake_reader(monkeypatch: pytest.MonkeyPatch, read: Reading) -> None:
    """:func:`reads_as`, and the file decodes as a blank 1000x800 photo."""
    reads_as(monkeypatch, read)
    monkeypatch.setattr(
        "vision.upload.decode_image", lambda data: np.full((800, 1000, 3), 255, np.uint8)
    )
