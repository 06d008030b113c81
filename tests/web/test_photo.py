"""The photo page and ``POST /api/read``, with the card reader replaced by a stand-in.

The stand-in honours the reader's documented API (``vision.reader.read_image_bytes`` →
``Reading``); the reader itself is tested under tests/vision.
"""

from __future__ import annotations

import dataclasses
import io
import sys
import types
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer import score_show
from vision.errors import ImageError


@dataclasses.dataclass
class FakeCard:
    card: str
    confidence: float = 0.99
    box: tuple[float, float, float, float] = (10.0, 20.0, 30.0, 50.0)
    uncertain: bool = False


@dataclasses.dataclass
class FakeReading:
    cards: list[FakeCard]
    starter_index: int | None
    image_size: tuple[int, int] = (640, 480)
    seconds: float = 0.05

    @property
    def starter(self) -> FakeCard | None:
        return None if self.starter_index is None else self.cards[self.starter_index]

    def hand(self) -> list[FakeCard]:
        return [c for i, c in enumerate(self.cards) if i != self.starter_index]


def install_reader(monkeypatch: pytest.MonkeyPatch, read: Any) -> None:
    """Put a stand-in ``vision.reader`` in place."""
    module = types.ModuleType("vision.reader")
    module.read_image_bytes = read  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "vision.reader", module)


def upload(client: FlaskClient, crib: bool = False, data: bytes = b"\x89PNG fake") -> Any:
    """POST a photo to /api/read."""
    form: dict[str, Any] = {"image": (io.BytesIO(data), "hand.png")}
    if crib:
        form["crib"] = "1"
    return client.post("/api/read", data=form, content_type="multipart/form-data")


def test_photo_page(client: FlaskClient) -> None:
    """The page offers the camera and the hand/crib switch."""
    page = client.get("/photo").get_data(as_text=True)
    assert 'capture="environment"' in page and 'id="crib"' in page


@pytest.mark.parametrize("crib", [False, True])
def test_four_and_a_starter_are_scored(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, crib: bool
) -> None:
    """Exactly four cards and a starter: the cards with boxes, and the engine's score."""
    codes = ["2H", "4H", "6H", "8H", "KS"]
    install_reader(monkeypatch, lambda data: FakeReading([FakeCard(c) for c in codes], 4))
    result = upload(client, crib=crib).json
    assert [c["card"] for c in result["cards"]] == codes
    assert result["cards"][4]["starter"] and result["starter"] == "KS"
    assert result["cards"][0]["box"] == [10.0, 20.0, 30.0, 50.0]
    assert result["score"] == score_show(codes[:4], "KS", crib=crib).to_json()


def test_uncertain_or_missing_starter_is_not_scored(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An uncertain card, or no starter found, leaves the score to the player's corrections."""
    unsure = [FakeCard("5H"), FakeCard("5D", 0.4, uncertain=True), FakeCard("5C"), FakeCard("JS")]
    install_reader(monkeypatch, lambda data: FakeReading([*unsure, FakeCard("5S")], 4))
    result = upload(client).json
    assert result["score"] is None and result["cards"][1]["uncertain"] is True
    install_reader(monkeypatch, lambda data: FakeReading([FakeCard("5H"), FakeCard("5D")], None))
    assert upload(client).json["starter"] is None


def test_reader_errors(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unreadable photo is a 400 with the reader's message; no file is a 400."""

    def refuse(data: bytes) -> None:
        raise ImageError("The file is not an image that can be read")

    install_reader(monkeypatch, refuse)
    response = upload(client, data=b"not an image")
    assert response.status_code == 400 and "not an image" in response.json["error"]
    missing = client.post("/api/read", data={}, content_type="multipart/form-data")
    assert missing.status_code == 400 and "'image'" in missing.json["error"]


def test_reader_unavailable(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the reader (or its model) the API says 503, and the rest of the app works."""
    monkeypatch.setitem(sys.modules, "vision.reader", None)
    response = upload(client)
    assert response.status_code == 503 and "not installed" in response.json["error"]

    def no_model(data: bytes) -> None:
        raise FileNotFoundError("models/index_detector.onnx")

    install_reader(monkeypatch, no_model)
    response = upload(client)
    assert response.status_code == 503 and "index_detector.onnx" in response.json["error"]


def test_photo_too_large(app: Flask, client: FlaskClient) -> None:
    """Uploads past MAX_CONTENT_LENGTH (10 MB) are a JSON 413."""
    assert app.config["MAX_CONTENT_LENGTH"] == 10 * 1024 * 1024
    app.config["MAX_CONTENT_LENGTH"] = 1024
    response = upload(client, data=b"x" * 4096)
    assert response.status_code == 413 and "error" in response.json
