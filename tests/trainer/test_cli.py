"""The ``crib`` command: output, JSON shapes, standard-input mode and bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from crib.cli import main
from trainer import score_show
from trainer.discard import analyze_discards
from trainer.grading import HEELS_NOTE
from trainer.pegging import score_sequence
from trainer.rules import FIVE_CARD
from trainer.stats import score_distribution


def run(
    argv: list[str], stdin: str = "", monkeypatch: pytest.MonkeyPatch | None = None
) -> tuple[int, str]:
    """Run ``crib`` in-process; returns the exit status and standard output."""
    if monkeypatch is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    out = io.StringIO()
    return main(argv, out), out.getvalue()


@pytest.mark.parametrize(
    "argv, hand, starter, crib",
    [
        (["score", "5H", "5D", "5C", "JS", "5S"], "5H 5D 5C JS", "5S", False),
        (["score", "5H 5D 5C JS | 5S"], "5H 5D 5C JS", "5S", False),
        (["score", "5H", "5D", "5C", "JS", "--starter", "5S"], "5H 5D 5C JS", "5S", False),
        (["score", "--crib", "2H 3H 4H 5H | 6D"], "2H 3H 4H 5H", "6D", True),
        (["score", "4h,4d,5c,5s,6h"], "4H 4D 5C 5S", "6H", False),
    ],
)
def test_score_json_matches_engine(argv: list[str], hand: str, starter: str, crib: bool) -> None:
    """``crib score --json`` prints the engine's breakdown, however the cards are typed."""
    status, out = run([*argv, "--json"])
    assert status == 0
    expected = score_show(hand.split(), starter, crib=crib)
    assert json.loads(out) == json.loads(json.dumps(expected.to_json()))


def test_score_text_ends_with_spoken_count() -> None:
    """The text output lists items, the total and the count said aloud."""
    status, out = run(["score", "5H", "5D", "5C", "JS", "5S"])
    assert status == 0
    lines = out.splitlines()
    assert "total 29" in lines
    assert lines[-1].endswith("and one for his nobs is 29")


def test_rank_only_notation() -> None:
    """Ranks without suits give what is certain and what the suits could add."""
    assert run(["score", "5-5-5-J", "5"])[1].strip() == "28; 29 if the jack is the starter's suit"


def test_score_stdin_keeps_going_after_a_bad_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """In ``-`` mode each line gets a JSON object; a bad line an error with its line number, the
    rest still scored, and the exit status says some line was bad."""
    lines = "5H 5D 5C JS 5S\n5H 5H 5C JS 5S\n# a comment\n\nZZ 1 2\n4H 4D 5C 5S 6H\n"
    status, out = run(["score", "--json", "-"], lines, monkeypatch)
    answers = [json.loads(line) for line in out.splitlines()]
    assert status == 2
    assert [a.get("total") for a in answers] == [29, None, None, 24]
    assert "twice" in answers[1]["error"] and answers[1]["line"] == 2
    assert "unknown rank 'Z'" in answers[2]["error"] and answers[2]["line"] == 5


def test_score_stdin_text_names_each_bad_line_on_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Text mode: the good lines scored on standard output, each bad one on standard error with
    its line number, exit status 2."""
    lines = "5H 5D 5C JS 5S\n5H 5H 5C JS 5S\n5 5 5\n"
    status, out = run(["score", "-"], lines, monkeypatch)
    assert status == 2
    assert "total 29" in out and "error" not in out
    assert capsys.readouterr().err.splitlines() == [
        "crib score: line 2: card given twice: '5H'",
        "crib score: line 3: a hand is 4 cards and a starter: got 3 cards",
    ]


def test_score_stdin_all_good_exits_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line scored: exit status 0."""
    assert run(["score", "-"], "5H 5D 5C JS 5S\n", monkeypatch)[0] == 0


@pytest.mark.parametrize(
    "argv, text",
    [
        (
            ["score", "5", "5", "5", "J", "--starter", "5S"],
            "28; 29 if the jack is the starter's suit",
        ),
        (["score", "5 5 5 J | 5S"], "28; 29 if the jack is the starter's suit"),
        (["score", "5", "5", "5", "JS", "5S"], "29"),
        (["score", "2H", "4", "6", "8", "KH"], "0; 5 if all five cards are one suit"),
    ],
)
def test_ranks_with_suited_cards(argv: list[str], text: str) -> None:
    """Ranks beside suited cards (a suited starter, say): each suit typed is known."""
    assert run(argv) == (0, text + "\n")


def test_score_says_his_heels_after_a_jack_starter() -> None:
    """A jack starter: after the count, a note that the dealer pegs 2 for his heels."""
    status, out = run(["score", "5H 5D 5C 4S | JD"])
    assert status == 0
    assert out.splitlines()[-1] == HEELS_NOTE  # the words the drills and the score page use
    assert out.splitlines()[-1] in run(["score", "--crib", "5 5 5 4 J"])[1]
    assert "heels" not in run(["score", "5H 5D 5C JS | 5S"])[1]
    assert "heels" not in run(["score", "--json", "5H 5D 5C 4S | JD"])[1]


def test_discard_json_matches_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """``crib discard --json -`` answers one deal per line, best option first."""
    deals = ["5H 5D JS QC 7H 8C", "AS 2S 3S 4S 5S 6S"]
    status, out = run(["discard", "--json", "--pone", "-"], "\n".join(deals), monkeypatch)
    assert status == 0
    for deal, line in zip(deals, out.splitlines(), strict=True):
        expected = [o.to_json() for o in analyze_discards(deal, dealer=False)]
        assert json.loads(line)["options"] == expected


@pytest.mark.parametrize("role", ["--dealer", "--pone"])
def test_discard_crib_model(role: str) -> None:
    """``--crib-model weighted`` ranks by the weighted crib; the text shows both cribs."""
    deal = "5H 5D JS QC 7H 8C"
    dealer = role == "--dealer"
    status, out = run(["discard", "--json", role, "--crib-model", "weighted", deal])
    assert status == 0
    expected = analyze_discards(deal, dealer=dealer, crib_model="weighted")
    assert json.loads(out)["options"] == [o.to_json() for o in expected]
    status, out = run(["discard", role, "--crib-model", "weighted", deal])
    header, first, *_ = out.splitlines()
    assert header.split()[:6] == ["discard", "keep", "hand", "uniform", "weighted", "net"]
    assert header.endswith("net by the weighted crib)")
    best = expected[0]
    assert first.split()[-3:] == [
        f"{best.crib_ev_uniform:.3f}",
        f"{best.crib_ev_weighted:.3f}",
        f"{best.net_ev:.3f}",
    ]


def test_peg_json_matches_engine() -> None:
    """``crib peg --json`` gives each card with the count and what it pegs."""
    tokens = ["3H", "6D", "4C", "5S", "2H"]
    status, out = run(["peg", "--json", *tokens])
    assert status == 0
    pegs = json.loads(out)["pegs"]
    assert pegs == [p.to_json() for p in score_sequence(tokens)]
    assert [p["points"] for p in pegs] == [0, 0, 0, 4, 5]


def test_peg_text_labels_goes_and_plays_on() -> None:
    """Under a header, a go row says who pegs it; after ``go`` the same player lays every card
    that fits."""
    status, out = run(["peg", "10H", "KD", "5C", "go", "4S", "AD", "6H", "--end"])
    assert status == 0
    header, *rows = out.splitlines()
    assert header.split() == ["player", "card", "count", "pegs", "for"]
    assert [r.split()[:2] for r in rows[:6]] == [
        ["P1", "10♥"],
        ["P2", "K♦"],
        ["P1", "5♣"],
        ["P1", "4♠"],
        ["P1", "A♦"],
        ["P1", "go"],
    ]
    assert rows[5].split()[2:] == ["30", "1", "go", "1"]
    assert rows[6].split() == ["P2", "6♥", "6", "1", "last", "card", "1"]
    assert rows[-1] == "pegged: P1 1, P2 1"


def test_peg_text_with_hands_says_pone_and_dealer() -> None:
    """With both hands the rows and the totals say pone and dealer, not P1 and P2."""
    hands = ["--pone-hand", "10H 9C 5D 2S", "--dealer-hand", "JD 6C 4H AS"]
    status, out = run(["peg", *hands, "10H", "JD", "9C", "AS", "5D", "4H", "2S", "6C"])
    assert status == 0
    header, *rows = out.splitlines()
    assert header.split()[0] == "player"
    assert [r.split()[0] for r in rows[:3]] == ["pone", "dealer", "pone"]
    assert rows[-1] == "pegged: pone 3, dealer 2"
    assert "P1" not in out and "P2" not in out


def test_peg_with_hands_checks_typed_goes() -> None:
    """With both hands a typed go that is right is accepted (and changes nothing)."""
    hands = ["--pone-hand", "10H 9C 5D 2S", "--dealer-hand", "JD 6C 4H AS"]
    plain = run(["peg", "--json", *hands, "10H", "JD", "9C", "AS", "5D", "4H", "2S", "6C"])
    typed = run(["peg", "--json", *hands, "10H", "JD", "9C", "AS", "go", "5D", "4H", "2S", "6C"])
    assert plain == typed and plain[0] == 0


def test_peg_with_hands_finds_the_go() -> None:
    """With both hands, goes are found and out-of-turn plays refused."""
    hands = ["--pone-hand", "10H 9C 5D 2S", "--dealer-hand", "JD 6C 4H AS"]
    status, out = run(["peg", "--json", *hands, "10H", "JD", "9C", "AS", "5D", "4H", "2S", "6C"])
    assert status == 0
    assert json.loads(out)["totals"] == [3, 2]
    assert run(["peg", *hands, "10H", "JD", "9C", "2S"])[0] == 2


@pytest.mark.parametrize(
    "argv, message",
    [
        (["score", "5H", "5D", "1C", "JS", "5S"], "unknown rank '1'"),
        (["score", "foo"], "unknown rank 'fo' in 'foo'"),
        (["score", "5H", "5D", "5C", "jx", "5S"], "unknown suit 'x' in 'jx'"),
        (["score", "5h", "5d", "5c", "zh", "5s"], "unknown rank 'z' in 'zh'"),
        (["score", "5H", "5D", "5C", "JS", "5H"], "card given twice"),
        (["score", "5H", "5D", "5C"], "a hand is 4 cards and a starter: got 3 cards"),
        (
            ["score", "5♥", "5♦", "5♣", "J♠"],
            "the starter is missing: a hand is 4 cards and a starter, got 4 cards",
        ),
        (["score", "5", "5", "5", "J"], "the starter is missing"),
        (
            ["score", "--crib", "5H 5D 5C JS"],
            "the starter is missing: a crib is 4 cards and a starter",
        ),
        (
            ["score", "5H", "5D", "5C", "JS", "5S", "--starter", "6S"],
            "the starter is given twice: 5S last and 6S with --starter",
        ),
        (["score", "5H 5D 5C JS | 5S", "--starter", "6S"], "the starter is given twice"),
        (["discard", "5H", "5D"], "has 6 cards, got 2"),
        (
            ["discard", "--rules", "three-hand", "--crib-model", "weighted", "5H 5D JS QC 7H"],
            "the weighted crib model is for two-player games",
        ),
        (["peg", "10H", "KD", "9C", "5S"], "past 31"),
        (["peg", "go"], "no cards played"),
        (["peg", "-"], "no cards played"),
        (["peg", ","], "no cards played"),
        (["peg", "10H", "go", "go", "go"], "a go needs a card played"),
        (
            ["peg", "--pone-hand=5H 5D AH 2C", "--dealer-hand=10S 5C 3D 4D", "5H 10S 5D 5C go AH"],
            "no go after 5♣: the pone can play A♥",
        ),
        (["peg", "--pone-hand", "5H 5D AH 2C", "5H"], "give both hands"),
    ],
)
def test_bad_input_is_one_line_on_stderr(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad input: exit status 2 and one clear line on standard error, no traceback."""
    status, out = run(argv)
    err = capsys.readouterr().err
    assert status == 2
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_stats_five_card_lists_only_possible_totals() -> None:
    """``crib stats --rules five-card`` lists the totals a three-card hand can score, each with
    its count, and names the gaps below the highest; nothing it cannot score appears."""
    status, out = run(["stats", "--rules", "five-card"])
    assert status == 0
    header, *rows, never = out.splitlines()
    assert header.startswith("hand scores, five-card:")
    dist = score_distribution(rules=FIVE_CARD)
    listed = [(int(r.split()[0]), int(r.split()[1].replace(",", ""))) for r in rows]
    assert listed == list(dist.possible)
    assert all(count > 0 for _, count in listed)
    assert never == f"never: {', '.join(map(str, dist.never))}"
    assert dist.never and max(n for n, _ in listed) < 29


@pytest.mark.slow
def test_installed_console_script() -> None:
    """The ``crib`` entry point runs as a program and prints the stats JSON shape."""
    result = subprocess.run(
        [sys.executable, "-m", "crib", "stats", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    stats = json.loads(result.stdout)
    assert stats["total"] == 12_994_800
    assert stats["counts"]["29"] == 4
    assert stats["mean"] == 4.769152
