"""``crib read`` / ``crib eval-vision`` and the summary shared with ``POST /api/read``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from crib.cli import main
from trainer import InvalidCardError, score_show
from vision.evaluate import evaluate
from vision.reader import DetectedCard, Reading
from vision.report import summarize


def reading(codes: list[str], starter_index: int | None, uncertain: int | None = None) -> Reading:
    """A reading of ``codes``, the one at ``uncertain`` read with low confidence."""
    cards = [
        DetectedCard(
            code, 0.5 if i == uncertain else 0.97, (10.0 * i, 5, 10.0 * i + 8, 20), i == uncertain
        )
        for i, code in enumerate(codes)
    ]
    return Reading(cards=cards, starter_index=starter_index)


@pytest.mark.parametrize("crib", [False, True])
def test_four_and_a_starter_are_scored_by_the_engine(crib: bool) -> None:
    """Exactly four cards and a starter set apart: the engine's breakdown comes back."""
    summary = summarize(reading(["5H", "5D", "5C", "JS", "5S"], 4), crib=crib)
    assert summary["starter"] == "5S"
    assert summary["score"] == score_show(["5H", "5D", "5C", "JS"], "5S", crib=crib).to_json()
    assert [c["starter"] for c in summary["cards"]] == [False] * 4 + [True]


def test_caller_names_the_starter() -> None:
    """A starter among the cards read is taken from them; one not in the photo is added."""
    among = summarize(reading(["5H", "5D", "5C", "JS", "5S"], 4), starter="5h")
    assert among["starter"] == "5H"
    assert among["score"]["total"] == score_show(["5D", "5C", "JS", "5S"], "5H").total
    outside = summarize(reading(["5H", "5D", "5C", "JS"], None), starter="5S")
    assert outside["score"]["total"] == 29
    with pytest.raises(InvalidCardError, match="unknown rank"):
        summarize(reading(["5H"], None), starter="1S")


@pytest.mark.parametrize(
    "codes, starter_index, uncertain, note",
    [
        (["5H", "5D", "5C", "JS", "5S"], None, None, "no card is set apart"),
        (["5H", "5D", "5C", "JS", "5S"], 4, 2, "low confidence"),
        (["5H", "5D", "JS", "5S"], 3, None, "read 3 besides the starter; a hand has 4"),
        (["JC"], None, None, "read 1 card; a hand and its starter are 5"),
        (["5H", "5D", "5C", "JS", "5S", "6S"], None, 2, "read 6 cards; a hand and its starter"),
    ],
)
def test_not_scored_when_the_count_does_not_fit(
    codes: list[str], starter_index: int | None, uncertain: int | None, note: str
) -> None:
    """No guess: a missing starter, an uncertain card or a wrong count gives a note, no score."""
    summary = summarize(reading(codes, starter_index, uncertain))
    assert summary["score"] is None
    assert note in summary["note"]


def test_crib_read_json_on_real_photos(real_dir: Path, tmp_path: Path) -> None:
    """One JSON object per photo with the labelled cards; --annotate writes each photo."""
    labels = json.loads((real_dir / "labels.json").read_text())
    names = sorted(n for n in labels if labels[n]["source"] == "edje_tfod")[:3]
    photos = [str(real_dir / "images" / n) for n in names]
    out = io.StringIO()
    assert main(["read", "--json", "--annotate", str(tmp_path), *photos], out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["image"] for a in answers] == photos
    found = sum(
        len({c["card"] for c in a["cards"]} & set(labels[n]["cards"]))
        for a, n in zip(answers, names, strict=True)
    )
    assert found >= len(names)
    for name in names:
        drawn = cv2.imread(str(tmp_path / f"{Path(name).stem}-read.jpg"))
        assert (
            drawn is not None
            and drawn.shape[:2] == cv2.imread(str(real_dir / "images" / name)).shape[:2]
        )


def test_crib_read_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that is not an image, or is missing: a clear line each, exit status 2."""
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    assert main(["read", str(text), str(tmp_path / "missing.jpg")], io.StringIO()) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert "not an image" in err[0] and "No such file" in err[1]


def test_eval_vision_json(real_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``crib eval-vision --json`` prints precision and recall per subset of a labelled folder."""
    labels = json.loads((real_dir / "labels.json").read_text())
    subset = dict(sorted(labels.items())[-2:])
    (tmp_path / "images").mkdir()
    for name in subset:
        (tmp_path / "images" / name).symlink_to(real_dir / "images" / name)
    (tmp_path / "labels.json").write_text(json.dumps(subset))
    out = io.StringIO()
    assert main(["eval-vision", "--json", str(tmp_path)], out) == 0
    figures = json.loads(out.getvalue())
    assert figures["all"]["images"] == figures["all"]["hands"] == 2
    expected = {name: score.to_json() for name, score in evaluate(tmp_path).items()}
    for figure in (*figures.values(), *expected.values()):
        del figure["median_seconds"]  # a measured time: differs from run to run
    assert figures == expected


@pytest.mark.parametrize(
    "name, message",
    [
        ("out.txt", "ending in .jpg or .png"),
        ("out", "ending in .jpg or .png"),
        ("no-such-folder/out.jpg", "there is no folder"),
    ],
)
def test_annotate_bad_target_is_one_line_before_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, message: str
) -> None:
    """``--annotate`` with a name that cannot take a picture: one clear line, exit status 2,
    and no photo is read first (the photo here is not even an image)."""
    photo = tmp_path / "hand.jpg"
    photo.write_text("not a photo")
    target = tmp_path / name
    assert main(["read", str(photo), "--annotate", str(target)], io.StringIO()) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and message in err[0] and "Traceback" not in err[0]
    assert not target.exists()


def test_annotate_unwritable_file_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A picture that cannot be written (here under /proc) is one line and exit status 2."""
    import vision.reader

    monkeypatch.setattr(
        vision.reader, "read_cards", lambda data, models: reading(["5H", "5S"], None)
    )
    monkeypatch.setattr("vision.upload.decode_image", lambda data: np.zeros((40, 60, 3), np.uint8))
    assert main(["read", __file__, "--annotate", "/proc/hand-read.jpg"], io.StringIO()) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "could not write" in err[0]


def test_a_whole_table_is_not_refused_for_its_count(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """21 cards (a four-hand table), some of them uncertain: every card is reported, uncertain
    ones marked, and the note says why there is no score."""
    import vision.reader

    codes = [f"{r}{s}" for s in "SHD" for r in ("A", "2", "3", "4", "5", "6", "7")]
    table = reading(codes, None, uncertain=3)
    monkeypatch.setattr(vision.reader, "read_cards", lambda data, models: table)
    out = io.StringIO()
    assert main(["read", "--json", __file__], out) == 0
    answer = json.loads(out.getvalue())
    assert [c["card"] for c in answer["cards"]] == codes
    assert [c["uncertain"] for c in answer["cards"]].count(True) == 1
    assert answer["score"] is None and "21 cards" in answer["note"]


def table_reading(groups: list[tuple[str, float, float]]) -> Reading:
    """A reading of fanned groups: (cards, x, y) each, indices 25 px apart."""
    cards = [
        DetectedCard(code, 0.97, (x + 25 * k - 10, y - 15, x + 25 * k + 10, y + 15))
        for codes, x, y in groups
        for k, code in enumerate(codes.split())
    ]
    return Reading(cards=cards, starter_index=None)


TWO_HANDS = [("5H 5D 5C JS", 100, 100), ("2H 4H 6H 8H", 100, 700), ("AC 2C 3C 4D", 420, 420)]


def test_read_show_scores_every_group(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``crib read --show``: each hand, the crib (nearest the starter) and the starter, each
    hand and the crib with its breakdown from the engine; --json adds the groups."""
    import vision.reader

    read = table_reading([*TWO_HANDS, ("5S", 360, 420)])
    monkeypatch.setattr(vision.reader, "read_cards", lambda data, models: read)
    out = io.StringIO()
    assert main(["read", "--show", __file__], out) == 0
    text = out.getvalue()
    assert "hand 1: 5H 5D 5C JS  29" in text and "starter: 5S" in text
    crib = score_show(["AC", "2C", "3C", "4D"], "5S", crib=True)
    assert f"crib: AC 2C 3C 4D  {crib.total}" in text and crib.say() in text
    out = io.StringIO()
    assert main(["read", "--show", "--json", __file__], out) == 0
    groups = json.loads(out.getvalue())["groups"]
    assert [g["role"] for g in groups] == ["hand", "hand", "crib", "starter"]
    assert groups[1]["score"] == score_show(["2H", "4H", "6H", "8H"], "5S").to_json()
    assert groups[2]["score"] == crib.to_json() and groups[3]["score"] is None
    assert groups[3]["box"] == [350.0, 405.0, 370.0, 435.0]


def test_read_show_asks_for_the_missing_starter(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hand alone: no dead end, the question and how to answer it; --starter answers."""
    import vision.reader

    read = table_reading(TWO_HANDS[:1])
    monkeypatch.setattr(vision.reader, "read_cards", lambda data, models: read)
    out = io.StringIO()
    assert main(["read", "--show", __file__], out) == 0
    assert "starter is not in the photo" in out.getvalue() and "--starter" in out.getvalue()
    out = io.StringIO()
    assert main(["read", "--show", "--starter", "5S", "--json", __file__], out) == 0
    groups = json.loads(out.getvalue())["groups"]
    assert groups[0]["score"]["total"] == 29 and groups[1]["cards"] == ["5S"]


def test_read_show_players_must_fit_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    """``--players 3 --rules six-card``: one line, exit status 2."""
    assert main(["read", "--show", "--players", "3", "--rules", "six-card", __file__]) == 2
    assert "is for 2 players, not 3" in capsys.readouterr().err


def test_read_show_crib_card_answers_which_group_is_the_crib(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two hands as near the starter: the crib is asked, with how to answer; ``--crib-card``
    names one of its cards and every group is scored, the crib by the crib rule."""
    import vision.reader

    read = table_reading([*TWO_HANDS[:2], ("AC 2C 3C 4D", 900, 400), ("5S", 137, 400)])
    monkeypatch.setattr(vision.reader, "read_cards", lambda data, models: read)
    out = io.StringIO()
    assert main(["read", "--show", __file__], out) == 0
    assert "Which group is the crib?" in out.getvalue() and "--crib-card" in out.getvalue()
    out = io.StringIO()
    assert main(["read", "--show", "--crib-card", "6h", "--json", __file__], out) == 0
    answer = json.loads(out.getvalue())
    assert answer["question"] is None
    roles = [(g["role"], g["cards"]) for g in answer["groups"]]
    assert roles == [
        ("hand", ["5H", "5D", "5C", "JS"]),
        ("hand", ["AC", "2C", "3C", "4D"]),
        ("crib", ["2H", "4H", "6H", "8H"]),
        ("starter", ["5S"]),
    ]
    crib = score_show(["2H", "4H", "6H", "8H"], "5S", crib=True)
    assert answer["groups"][2]["score"] == crib.to_json()
    assert crib.total != score_show(["2H", "4H", "6H", "8H"], "5S").total  # no four-card flush
    assert main(["read", "--show", "--crib-card", "5S", __file__]) == 2
    assert "5S was not read in a hand or the crib" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--crib-card", "2H"], "--crib-card goes with --show"),
        (["--show", "--crib-card", "1H"], "unknown rank"),
    ],
)
def test_read_crib_card_is_checked_before_reading(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A misplaced or mistyped ``--crib-card``: one line, exit 2, no photo read."""
    assert main(["read", *args, "no-such-photo.jpg"]) == 2
    err = capsys.readouterr().err
    assert message in err and "no-such-photo" not in err
