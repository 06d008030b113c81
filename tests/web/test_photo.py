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

FLUSH = ["2H", "4H", "6H", "8H"]
"""A flush of four: 4 more in a hand than in the crib (with a starter of another suit)."""
OTHER = ["AC", "2C", "3C", "4D"]

pytestmark = pytest.mark.any_database  # reading a photo stores nothing (its limits: test_limits)


@dataclasses.dataclass
class FakeCard:
    card: str
    confidence: float = 0.99
    box: tuple[float, float, float, float] = (10.0, 20.0, 30.0, 50.0)
    uncertain: bool = False
    corners: tuple[tuple[float, float, float, float], ...] = ()
    body: int | None = None
    choices: tuple[str, ...] = ()
    outline: None = None

    @property
    def position(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)


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


def install_reader(monkeypatch: pytest.MonkeyPatch, read: Any) -> dict[str, Any]:
    """Put a stand-in ``vision.reader`` in place, ``read`` reading each photo's bytes; returns
    the options (``decode``, ``corroboration``) of the last read, filled in as it is asked."""
    options_seen: dict[str, Any] = {}

    def read_image_bytes(data: bytes, **options: Any) -> Any:
        options_seen.clear()
        options_seen.update(options)
        return read(data)

    module = types.ModuleType("vision.reader")
    module.read_image_bytes = read_image_bytes  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "vision.reader", module)
    return options_seen


TINY_PHOTO = (
    b"GIF89a\x01\x00\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)
"""A 1x1 GIF: the upload's checks pass it to the (stand-in) reader."""


def upload(
    client: FlaskClient, crib: bool = False, data: bytes = TINY_PHOTO, starter: str = ""
) -> Any:
    """POST a photo to /api/read (with the starter typed, when given)."""
    form: dict[str, Any] = {"image": (io.BytesIO(data), "hand.png")}
    if crib:
        form["crib"] = "1"
    if starter:
        form["starter"] = starter
    return client.post("/api/read", data=form, content_type="multipart/form-data")


def test_photo_page(client: FlaskClient) -> None:
    """The page offers the camera and the hand/crib switch."""
    page = client.get("/photo").get_data(as_text=True)
    assert 'capture="environment"' in page and 'id="crib"' in page


@pytest.mark.parametrize("crib", [False, True])
def test_four_and_a_starter_are_scored(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, crib: bool
) -> None:
    """Exactly four cards and a starter: one answer, the cards with their boxes and the
    groups with the engine's score (no second analysis beside it)."""
    codes = ["2H", "4H", "6H", "8H", "KS"]
    read = [FakeCard(c, choices=(c,)) for c in codes]
    read[1] = FakeCard("4H", 0.85, choices=("4H", "4D"))
    install_reader(monkeypatch, lambda data: FakeReading(read, 4))
    result = upload(client, crib=crib).json
    assert sorted(result) == [
        *("cards", "groups", "image_size", "left_out", "note", "question", "rules", "seconds")
    ]
    assert [c["card"] for c in result["cards"]] == codes
    assert result["cards"][0] == {
        "card": "2H",
        "confidence": 0.99,
        "box": [10.0, 20.0, 30.0, 50.0],
        "uncertain": False,
        "choices": ["2H"],
    }
    assert result["cards"][1]["choices"] == ["4H", "4D"]
    hand, starter = result["groups"]
    assert hand["role"] == ("crib" if crib else "hand") and hand["cards"] == [0, 1, 2, 3]
    assert hand["score"] == score_show(codes[:4], "KS", crib=crib).to_json()
    assert starter == {
        "role": "starter",
        "name": "the starter",
        "cards": [4],
        "box": [10.0, 20.0, 30.0, 50.0],
        "score": None,
        "crib_score": None,
    }
    assert result["question"] is None and result["note"].endswith(
        f"scores {hand['score']['total']}"
    )


def test_uncertain_or_missing_starter_is_not_scored(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An uncertain card, or no starter found, leaves the score to the player's corrections."""
    unsure = [FakeCard("5H"), FakeCard("5D", 0.4, uncertain=True), FakeCard("5C"), FakeCard("JS")]
    install_reader(monkeypatch, lambda data: FakeReading([*unsure, FakeCard("5S")], 4))
    result = upload(client).json
    assert result["groups"][0]["score"] is None and result["cards"][1]["uncertain"] is True
    assert "check 5D: read with low confidence" in result["note"]
    install_reader(monkeypatch, lambda data: FakeReading(fanned("5H 5D 5C JS", 100, 100), None))
    alone = upload(client).json
    assert alone["question"]["kind"] == "starter" and alone["groups"][0]["score"] is None


def test_reader_errors(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unreadable photo is a 400 with the reader's message; no file is a 400."""

    def refuse(data: bytes) -> None:
        raise ImageError("The file is not an image that can be read")

    install_reader(monkeypatch, refuse)
    response = upload(client, data=b"not an image")
    assert response.status_code == 400 and "not an image" in response.json["error"]
    missing = client.post("/api/read", data={}, content_type="multipart/form-data")
    assert missing.status_code == 400 and "'image'" in missing.json["error"]


def test_photos_are_decoded_in_the_time_box(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader decodes each upload in the decoding process, stopped past its CPU time
    (:mod:`vision.timebox`; attack round 3: a progressive JPEG of repeated scans held a reading
    slot for 16 s)."""
    from vision import timebox

    def read(data: bytes) -> None:
        raise ImageError("The image takes too long to decode")

    seen = install_reader(monkeypatch, read)
    response = upload(client)
    assert response.status_code == 400 and "too long" in response.json["error"]
    models = client.application.config["VISION_MODELS"]  # the setting, given to the reader
    assert seen == {"models_dir": models, "decode": timebox.decode, "corroboration": None}


@pytest.mark.parametrize(("strict", "rule"), [("1", "strict"), ("", "default"), ("0", "default")])
def test_strict_reads_under_the_strict_rule(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, strict: str, rule: str
) -> None:
    """``strict`` (the page's "Dim light" box) reads under ``STRICT_CORROBORATION``, as ``crib
    read --strict`` does; a photo without it under the reader's default."""
    from vision.certainty import STRICT_CORROBORATION

    reading = FakeReading([FakeCard(c) for c in ("2H", "4H", "6H", "8H", "KS")], 4)
    seen = install_reader(monkeypatch, lambda data: reading)
    form = {"image": (io.BytesIO(TINY_PHOTO), "frame.jpg"), "strict": strict}
    response = client.post("/api/read", data=form, content_type="multipart/form-data")
    assert response.status_code == 200
    expected = STRICT_CORROBORATION if rule == "strict" else None
    assert seen["corroboration"] == expected


@pytest.mark.parametrize("players", ["²", "9" * 5000, "1", "5", "two"])
def test_players_other_than_two_to_four_are_a_400(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, players: str
) -> None:
    """``players`` is 2, 3 or 4: a superscript two or a 5,000-digit number was a 500 (attack
    round 3); each is a 400 naming the field, before the photo is read."""
    read: list[bytes] = []
    install_reader(monkeypatch, read.append)
    form = {"image": (io.BytesIO(b"\x89PNG fake"), "hand.png"), "players": players}
    response = client.post("/api/read", data=form, content_type="multipart/form-data")
    assert response.status_code == 400 and "players must be 2, 3 or 4" in response.json["error"]
    assert len(response.json["error"]) < 100 and read == []


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


def fanned(codes: str, x: float, y: float) -> list[FakeCard]:
    """A fanned hand: indices 25 px apart from (x, y)."""
    return [
        FakeCard(code, box=(x + 25 * k - 10, y - 15, x + 25 * k + 10, y + 15))
        for k, code in enumerate(codes.split())
    ]


def test_a_whole_table_comes_back_grouped_and_scored(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two hands, the crib beside the starter: four groups with roles, boxes and scores."""
    cards = [
        *fanned("5H 5D 5C JS", 100, 100),
        *fanned("2H 4H 6H 8H", 100, 700),
        *fanned("AC 2C 3C 4D", 420, 420),
        *fanned("5S", 360, 420),
    ]
    install_reader(monkeypatch, lambda data: FakeReading(cards, None))
    result = upload(client).json
    assert len(result["cards"]) == 13 and result["rules"] == "six-card"
    groups = result["groups"]
    assert [g["role"] for g in groups] == ["hand", "hand", "crib", "starter"]
    assert [g["name"] for g in groups] == ["hand 1", "hand 2", "the crib", "the starter"]
    assert groups[0]["cards"] == [0, 1, 2, 3] and groups[3]["cards"] == [12]
    assert groups[0]["score"] == score_show(["5H", "5D", "5C", "JS"], "5S").to_json()
    assert groups[2]["score"] == score_show(["AC", "2C", "3C", "4D"], "5S", crib=True).to_json()
    assert groups[0]["box"] == [90.0, 85.0, 185.0, 115.0] and result["question"] is None


def test_a_card_read_unsure_on_the_table_comes_with_the_readers_guesses(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board's photo of the table, K♦ read unsure: it is in its hand, the reader's guess
    first among its choices, for the board to offer; that hand alone is not scored."""
    cards = [
        *fanned("5H 5D 5C KD", 100, 100),
        *fanned("2H 4H 6H 8H", 100, 700),
        *fanned("AC 2C 3C 4D", 420, 420),
        *fanned("5S", 360, 420),
    ]
    cards[3] = dataclasses.replace(cards[3], confidence=0.4, uncertain=True, choices=("KD", "KH"))
    install_reader(monkeypatch, lambda data: FakeReading(cards, None))
    form = {"image": (io.BytesIO(TINY_PHOTO), "table.jpg"), "players": "2", "rules": "six-card"}
    result = client.post("/api/read", data=form, content_type="multipart/form-data").json
    assert result["cards"][3] | {"box": None} == {
        "card": "KD",
        "confidence": 0.4,
        "box": None,
        "uncertain": True,
        "choices": ["KD", "KH"],
    }
    groups = result["groups"]
    assert [g["role"] for g in groups] == ["hand", "hand", "crib", "starter"]
    assert groups[0]["cards"] == [0, 1, 2, 3] and groups[0]["score"] is None
    assert groups[1]["score"]["total"] == score_show(["2H", "4H", "6H", "8H"], "5S").total
    assert result["question"] is None and "check KD" in result["note"]


def test_twenty_one_cards_are_not_refused(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A four-hand table is 21 cards (more with spurious readings): never refused."""
    codes = [f"{r}{s}" for s in "SHD" for r in ("A", "2", "3", "4", "5", "6", "7")]
    cards = [FakeCard(c, box=(60.0 * i, 0, 60.0 * i + 20, 30)) for i, c in enumerate(codes)]
    install_reader(
        monkeypatch, lambda data: FakeReading([*cards, FakeCard("KC", 0.3, uncertain=True)], None)
    )
    result = upload(client).json
    assert len(result["cards"]) == 22 and result["cards"][-1]["uncertain"] is True
    assert result["question"]["kind"] in ("starter", "groups") and result["note"]


def test_hand_alone_with_a_typed_starter(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four cards read, the starter typed: the hand scored with it."""
    install_reader(monkeypatch, lambda data: FakeReading(fanned("5H 5D 5C JS", 100, 100), None))
    alone = upload(client).json
    assert alone["question"]["kind"] == "starter" and alone["groups"][0]["role"] == "hand"
    typed = upload(client, starter="5s").json
    assert typed["groups"][0]["score"]["total"] == 29 and typed["groups"][1]["cards"] == [4]
    assert typed["cards"][4] == {
        "card": "5S",
        "confidence": 1.0,
        "box": None,
        "uncertain": False,
        "choices": ["5S"],
    }


def test_before_the_crib_is_named_every_group_is_scored(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The crib equally near the starter as a hand: the question, and each group's score at
    once, as a hand and (where a crib flush makes them differ) as the crib."""
    cards = [
        *fanned("5H 5D 5C JS", 100, 100),
        *fanned("2H 4H 6H 8H", 700, 400),
        *fanned("AC 2C 3C 4D", 100, 400),
        *fanned("KS", 400, 400),
    ]
    install_reader(monkeypatch, lambda data: FakeReading(cards, None))
    result = upload(client).json
    assert result["question"]["kind"] == "crib"
    groups = {tuple(result["cards"][i]["card"] for i in g["cards"]): g for g in result["groups"]}
    flush = groups[("2H", "4H", "6H", "8H")]
    assert flush["role"] is None and flush["score"] == score_show(FLUSH, "KS").to_json()
    assert flush["crib_score"] == score_show(FLUSH, "KS", crib=True).to_json()
    other = groups[("AC", "2C", "3C", "4D")]
    assert other["score"]["total"] == score_show(OTHER, "KS").total
    assert other["crib_score"] is None
    total = score_show(FLUSH, "KS").total
    assert f"scores {total} ({total - 4} if it is the crib)" in result["note"]


def test_table_not_yet_named_is_rescored(client: FlaskClient) -> None:
    """POST /api/table takes a group not yet named (role null) and scores it both ways."""
    body = {
        "groups": [
            {"role": None, "cards": FLUSH},
            {"role": "hand", "cards": OTHER},
            {"role": "starter", "cards": ["KC"]},
        ]
    }
    groups = client.post("/api/table", json=body).json["groups"]
    assert groups[0]["score"] == score_show(FLUSH, "KC").to_json()
    assert groups[0]["crib_score"] == score_show(FLUSH, "KC", crib=True).to_json()
    assert groups[1]["crib_score"] is None


def test_table_rescored(client: FlaskClient) -> None:
    """POST /api/table: the player's groups, each scored by its rule."""
    body = {
        "rules": "six-card",
        "groups": [
            {"role": "hand", "cards": ["2H", "4H", "6H", "8H"]},
            {"role": "crib", "cards": ["2S", "4S", "6S", "8S"]},
            {"role": "starter", "cards": ["KC"]},
        ],
    }
    groups = client.post("/api/table", json=body).json["groups"]
    assert groups[0]["score"] == score_show(["2H", "4H", "6H", "8H"], "KC").to_json()
    assert groups[1]["score"] == score_show(["2S", "4S", "6S", "8S"], "KC", crib=True).to_json()
    assert groups[0]["score"]["total"] == groups[1]["score"]["total"] + 4
    assert groups[2] == {"role": "starter", "cards": ["KC"], "score": None, "crib_score": None}


@pytest.mark.parametrize(
    "body, message",
    [
        (
            {"groups": [{"role": "hand", "cards": ["2H", "4H", "6H", "8H"]}]},
            "mark one card as the starter",
        ),
        (
            {
                "groups": [
                    {"role": "hand", "cards": ["2H", "4H", "6H"]},
                    {"role": "starter", "cards": ["KC"]},
                ]
            },
            "the hand has 3 cards (2H 4H 6H); a hand has 4",
        ),
        (
            {"groups": [{"role": "starter", "cards": ["KC"]}], "rules": "seven-card"},
            "unknown rule set",
        ),
        ({"groups": "2H 4H"}, "'groups'"),
    ],
)
def test_table_errors(client: FlaskClient, body: dict[str, Any], message: str) -> None:
    """A table that is not a show: a 400 saying what is wrong."""
    response = client.post("/api/table", json=body)
    assert response.status_code == 400 and message in response.json["error"]


def test_only_the_read_view_takes_an_upload(client: FlaskClient) -> None:
    """The upload mark is the read view's alone: a multipart body to a JSON view is still
    refused for not being JSON (before its size is weighed against the API's cap)."""
    form = {"image": (io.BytesIO(b"x" * 20_000), "hand.png")}
    response = client.post("/api/score", data=form, content_type="multipart/form-data")
    assert response.status_code == 415 and "application/json" in response.json["error"]
