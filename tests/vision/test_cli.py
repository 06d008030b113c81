"""``crib read`` / ``crib eval-vision`` and the summary shared with ``POST /api/read``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
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
