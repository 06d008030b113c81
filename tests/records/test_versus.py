"""Games against the computer in the records, on both databases, without Flask."""

from __future__ import annotations

import pytest
from sqlalchemy import Connection, func, select

from records import progress, versus
from records.errors import GameNotFound
from records.models import Answer, Drill
from trainer.versus import Setup, VersusGame

from .conftest import NOW

DAY = "2027-01-15"


@pytest.mark.slow
def test_a_game_is_resumed_where_it_was_left(db: Connection, guest: int) -> None:
    game = VersusGame(Setup(seed=21))
    stored = versus.start(db, guest, game, now=NOW)
    game.throw(game.hand[:2])
    saved = versus.save(db, stored, game, game.claims, day=DAY, now=NOW + 5)
    assert saved is not None and saved.version == 1
    resumed = versus.in_progress(db, guest)
    assert resumed is not None and resumed.id == stored.id
    again = resumed.game()
    assert again.log == game.log and again.waiting == game.waiting


def test_a_move_onto_a_version_moved_on_saves_nothing(db: Connection, guest: int) -> None:
    game = VersusGame(Setup(seed=22))
    stored = versus.start(db, guest, game, now=NOW)
    game.throw(game.hand[:2])
    assert versus.save(db, stored, game, [], day=DAY, now=NOW + 1) is not None
    other = VersusGame.from_json(stored.data)
    other.throw(other.hand[2:4])
    assert versus.save(db, stored, other, other.claims, day=DAY, now=NOW + 2) is None
    assert versus.get(db, guest, stored.id).game().log == game.log


def test_another_players_game_is_not_found(db: Connection, guest: int) -> None:
    from records import players

    stored = versus.start(db, guest, VersusGame(Setup(seed=23)), now=NOW)
    other = int(players.new_guest(db, NOW).id)
    with pytest.raises(GameNotFound):
        versus.get(db, other, stored.id)
    with pytest.raises(GameNotFound):
        versus.get(db, guest, stored.id + 1)
    for beyond in (0, -1, 2**31, 2**53):  # ids no key holds: not found, on PostgreSQL too
        with pytest.raises(GameNotFound):
            versus.get(db, guest, beyond)


def finish(game: VersusGame) -> None:
    """Play out carelessly: the first cards, nothing claimed."""
    while game.waiting != "over":
        if game.waiting == "discard":
            game.throw(game.hand[:2])
        elif game.waiting == "play":
            game.play(next(c for c in game.hand if game.match.count + c.value <= 31), 0)
        else:
            game.count(0)


@pytest.mark.slow
def test_a_finished_game_keeps_its_result_and_its_counts_are_answers(
    db: Connection, guest: int
) -> None:
    game = VersusGame(Setup(seed=24, game=61))
    stored = versus.start(db, guest, game, now=NOW)
    finish(game)
    saved = versus.save(db, stored, game, game.claims, day=DAY, now=NOW + 30)
    assert saved is not None and saved.finished_at == NOW + 30
    assert saved.won is False and saved.scores == tuple(game.match.scores)
    review = game.review()
    assert saved.gave_away == pytest.approx(review.discard_points + review.overlooked_points)
    assert versus.in_progress(db, guest) is None
    assert [g.id for g in versus.finished(db, guest)] == [stored.id]
    answers = db.execute(
        select(func.count(Answer.id))
        .join(Drill, Drill.id == Answer.drill_id)
        .where(Drill.mode == versus.GAME_MODE, Answer.player_id == guest)
    ).scalar_one()
    assert answers == len(game.claims) > 0
    wrong = db.execute(
        select(func.count(Answer.id)).where(Answer.player_id == guest, ~Answer.correct)
    ).scalar_one()
    assert wrong == sum(
        c.claimed
        != (
            c.drill.breakdown().total
            if c.drill.kind != "pegging"
            else sum(i.points for i in c.drill.peg_items())
        )
        for c in game.claims
    )
    assert progress.days(db, guest)[-1].day == DAY
