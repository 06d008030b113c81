"""``crib read`` / ``crib eval-vision`` and the summary shared with ``POST /api/read``."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from crib.cli import main
from tests.vision.fakes import fake_reader, reads_as
from trainer import InvalidCardError, score_show
from vision.reader import DetectedCard, Reading
from vision.report import summarize
from vision.training.evaluate import evaluate


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
    """A file that is not an image, missing, or a folder: a clear line each in words (no
    ``[Errno 2]``), exit status 2."""
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    missing = tmp_path / "missing.jpg"
    assert main(["read", str(text), str(missing), str(tmp_path)], io.StringIO()) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3
    assert "not an image" in err[0]
    assert err[1] == f"crib read: no such file: {missing}"
    assert err[2] == f"crib read: {tmp_path} is a folder, not a photo"
    assert main(["read", "--json", str(missing)], out := io.StringIO()) == 2
    assert json.loads(out.getvalue()) == {
        "image": str(missing),
        "error": f"no such file: {missing}",
    }


def test_read_shows_a_typed_starter_and_says_crib(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--starter 5S`` not in the photo is on the card line; ``--crib`` says crib."""
    fake_reader(monkeypatch, reading(["5H", "5D", "5C", "JS"], None))
    out = io.StringIO()
    assert main(["read", "--starter", "5s", __file__], out) == 0
    first, *_, total, _ = out.getvalue().splitlines()
    assert first.endswith("  5S (starter, typed)")
    assert total == "total 29 (hand, six-card)"
    out = io.StringIO()
    assert main(["read", "--crib", "--starter", "5S", __file__], out) == 0
    assert "total 29 (crib, six-card)" in out.getvalue().splitlines()


def test_read_strict_asks_about_a_webcams_small_indices(tmp_path: Path) -> None:
    """``--strict``: on the README's sample hand shrunk and seen by a dim webcam, a card read on
    small, soft indices is certain only where its body agrees, so fewer cards are certain."""
    from vision.training.synth.webcam import webcam_camera

    hand = cv2.imread(str(Path(__file__).parents[2] / "docs" / "sample-hand.jpg"))
    small = cv2.resize(hand, None, fx=0.7, fy=0.7, interpolation=cv2.INTER_AREA)
    photo = tmp_path / "webcam.png"
    cv2.imwrite(str(photo), webcam_camera(small, np.random.default_rng(1)))

    def certain(*options: str) -> set[str]:
        out = io.StringIO()
        assert main(["read", "--json", *options, str(photo)], out) == 0
        return {c["card"] for c in json.loads(out.getvalue())["cards"] if not c["uncertain"]}

    default, strict = certain(), certain("--strict")
    assert strict < default


def test_read_rules_help_names_the_real_default(capsys: pytest.CaptureFixture[str]) -> None:
    """``crib read --help``: the rule set's default is six-card (or the table's, with --show)."""
    with pytest.raises(SystemExit):
        main(["read", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "(default: None)" not in help_text
    assert "default: six-card" in help_text


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
    reads_as(monkeypatch, reading(["5H", "5S"], None))
    monkeypatch.setattr("vision.upload.decode_image", lambda data: np.zeros((40, 60, 3), np.uint8))
    assert main(["read", __file__, "--annotate", "/proc/hand-read.jpg"], io.StringIO()) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "could not write" in err[0]


def test_a_whole_table_is_not_refused_for_its_count(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """21 cards (a four-hand table), some of them uncertain: every card is reported, uncertain
    ones marked, and the note says why there is no score."""
    codes = [f"{r}{s}" for s in "SHD" for r in ("A", "2", "3", "4", "5", "6", "7")]
    table = reading(codes, None, uncertain=3)
    reads_as(monkeypatch, table)
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
    read = table_reading([*TWO_HANDS, ("5S", 360, 420)])
    reads_as(monkeypatch, read)
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
    read = table_reading(TWO_HANDS[:1])
    reads_as(monkeypatch, read)
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
    read = table_reading([*TWO_HANDS[:2], ("AC 2C 3C 4D", 900, 400), ("5S", 137, 400)])
    reads_as(monkeypatch, read)
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


def test_read_show_prints_the_crib_question_with_its_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The question, each group it may be with its cards, and the option that answers it."""
    fake_reader(
        monkeypatch,
        table_reading([*TWO_HANDS[:2], ("AC 2C 3C 4D", 900, 400), ("5S", 137, 400)]),
    )
    out = io.StringIO()
    assert main(["read", "--show", __file__], out) == 0
    lines = out.getvalue().splitlines()
    at = lines.index("question: Which group is the crib?")
    assert lines[at + 1 : at + 5] == [
        "  1. 5H 5D 5C JS",
        "  2. 2H 4H 6H 8H",
        "  3. AC 2C 3C 4D",
        "answer with --crib-card CARD: a card of the crib (e.g. --crib-card 5H for group 1)",
    ]


def test_read_show_prints_the_starter_question_with_its_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Which card is the starter: the cards it may be, and --starter to say it."""
    fake_reader(monkeypatch, table_reading(TWO_HANDS[:1]))
    out = io.StringIO()
    assert main(["read", "--show", __file__], out) == 0
    text = out.getvalue()
    assert "question: The starter is not in the photo: what is it?" in text
    assert "answer with --starter CARD" in text


UNGROUPED = [("5H 5D 5C JS 2H 4H", 100, 100), ("6H 8H", 300, 300), ("AC 2C 3C 4D", 700, 700)]
"""Twelve cards that do not fall into a two-player table's groups."""


def test_read_show_cannot_group_says_how_to_name_the_groups(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The cards do not make the table's groups: the question, and --groups with the groups
    found, ready to be edited."""
    fake_reader(monkeypatch, table_reading(UNGROUPED))
    out = io.StringIO()
    assert main(["read", "--show", __file__], out) == 0
    text = out.getvalue()
    assert "question: Read 12 cards" in text
    assert (
        'answer with --groups "CARDS / CARDS / ...": the hands, then the crib, then the '
        'starter; here as found: --groups "5H 5D 5C JS 2H 4H / 6H 8H / AC 2C 3C 4D"'
    ) in text


def test_read_show_groups_named_on_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--groups``: the hands, then the crib, then the starter, each group's cards separated
    by ``/``; every group is scored by its role."""
    fake_reader(monkeypatch, table_reading(UNGROUPED))
    out = io.StringIO()
    groups = "5h 5d 5c js / 2h 4h 6h 8h / ac 2c 3c 4d"
    assert (
        main(["read", "--show", "--json", "--groups", groups, "--starter", "KS", __file__], out)
        == 0
    )
    answer = json.loads(out.getvalue())
    assert answer["question"] is None
    assert [(g["role"], g["cards"]) for g in answer["groups"]] == [
        ("hand", ["5H", "5D", "5C", "JS"]),
        ("hand", ["2H", "4H", "6H", "8H"]),
        ("crib", ["AC", "2C", "3C", "4D"]),
        ("starter", ["KS"]),
    ]
    assert (
        answer["groups"][2]["score"]
        == score_show(["AC", "2C", "3C", "4D"], "KS", crib=True).to_json()
    )
    out = io.StringIO()
    groups = "5H 5D 5C JS / 2H 4H 6H 8H / AC 2C 3C / 4D"
    assert main(["read", "--show", "--json", "--groups", groups, __file__], out) == 0
    answer = json.loads(out.getvalue())
    assert answer["note"].startswith("no score: the crib has 3 cards")


def test_read_show_groups_takes_a_named_card_as_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card read unsure and named in ``--groups`` counts: its group is scored."""
    read = table_reading(UNGROUPED)
    read.cards[0] = dataclasses.replace(read.cards[0], confidence=0.5, uncertain=True)
    fake_reader(monkeypatch, read)
    out = io.StringIO()
    groups = "5H 5D 5C JS / 2H 4H 6H 8H / AC 2C 3C 4D / KS"
    assert main(["read", "--show", "--json", "--groups", groups, __file__], out) == 0
    hand = json.loads(out.getvalue())["groups"][0]
    assert hand["score"] == score_show(["5H", "5D", "5C", "JS"], "KS").to_json()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--groups", "5H 5D 5C JS / 2H 4H 6H 9H / AC 2C 3C 4D / 5S"], "9H was not read"),
        (["--groups", "5H 5D 5C JS / / AC 2C 3C 4D / 5S"], "group 2 has no cards"),
        (["--groups", "5H 5D 5C JS / 5H 4H 6H 8H / AC 2C 3C 4D / 5S"], "card given twice: '5H'"),
        (["--groups", "5H 5D 5C JS / 2H 4H 6H 8H / AC 2C 3C 4D"], "the starter"),
        (["--groups", "5H 5D 5C JS / 2H 4H 6H 8H / AC 2C 3C 4D / 5X"], "unknown suit 'X'"),
    ],
)
def test_read_show_groups_refused_in_words(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    """A card named that was not read, an empty group, a card twice, no starter: one line."""
    fake_reader(monkeypatch, table_reading(UNGROUPED))
    assert main(["read", "--show", *args, __file__], io.StringIO()) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and message in err[0], err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--groups", "5H / 5S"], "--groups goes with --show"),
        (["--show", "--groups", "5H / 5S", "--crib-card", "5H"], "--groups names the crib"),
    ],
)
def test_read_groups_is_checked_before_reading(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A misplaced ``--groups``: one line, exit 2, no photo read."""
    assert main(["read", *args, "no-such-photo.jpg"]) == 2
    err = capsys.readouterr().err
    assert message in err and "no-such-photo" not in err


def test_annotate_show_draws_each_group_with_its_role_and_score(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--show --annotate``: each group's outline drawn, labelled with its role and score, and
    no two labels overlap (the indices of a fan are closer than a label is wide)."""
    from vision.annotate import label_layout

    read = table_reading([*TWO_HANDS, ("5S", 360, 420)])
    fake_reader(monkeypatch, read)
    target = tmp_path / "table.png"
    out = io.StringIO()
    assert main(["read", "--show", "--json", "--annotate", str(target), __file__], out) == 0
    summary = json.loads(out.getvalue())
    drawn = cv2.imread(str(target))
    for group in summary["groups"]:
        x1, y1, x2, y2 = (round(v) for v in group["box"])
        for strip in (drawn[y1:y2, x1 - 15 : x1 - 2], drawn[y1:y2, x2 + 3 : x2 + 16]):
            inked = strip.astype(int).sum(axis=-1) < 3 * 200  # not the white paper
            assert inked.any(axis=1).all(), group["cards"]  # a line beside every row
    labels = label_layout(drawn.shape, summary["cards"], summary["groups"])
    texts = [label.text for label in labels]
    hand_2 = score_show(["2H", "4H", "6H", "8H"], "5S").total
    crib = score_show(["AC", "2C", "3C", "4D"], "5S", crib=True).total
    assert texts[:4] == ["hand 1: 29", f"hand 2: {hand_2}", f"crib: {crib}", "starter"]
    for k, a in enumerate(labels):
        for b in labels[k + 1 :]:
            assert not a.overlaps(b), (a, b)
