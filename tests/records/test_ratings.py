"""The counting rating in the records (issue players3, item 15): moved by every answer taken by
records.drills.answer, stored on both databases, its days and trend read back, a guest's kept."""

from __future__ import annotations

import random

from sqlalchemy import Connection, insert, select

from records import drills, players, ratings
from records.database import writing
from records.models import Answer, PlayerRating
from trainer import counting_rating
from trainer.dealing import Deal, Difficulty
from trainer.grading import grade
from trainer.rating import Rating

from .conftest import NOW


def _answer(db: Connection, player_id: int, *, right: bool, day: str, at: float) -> drills.Answered:
    drill = drills.deal_next(
        db, player_id, "hand", Difficulty.STANDARD, rng=random.Random(at), now=at, per_minute=0
    )
    total = grade(Deal.from_json(drill.deal), {"points": 0}).total
    given = {"points": total if right else total + 1, "seconds": 5}
    return drills.answer(db, drill.id, player_id, given, day=day, now=at + 5)


def test_an_answer_moves_the_players_ratings_and_the_deals(db: Connection, guest: int) -> None:
    taken = _answer(db, guest, right=True, day="2027-01-15", at=NOW)
    assert taken.rated is not None
    mine = ratings.of_player(db, guest)
    assert set(mine) == {"hand", "overall"} and mine["hand"].rating > 1500
    assert mine["hand"] == taken.rated.kind and mine["overall"] == taken.rated.overall
    name = counting_rating.deal_class(Deal.from_json(taken.drill.deal))
    difficulty = ratings.difficulties(db, [name])[name]
    assert difficulty == taken.rated.deal
    assert difficulty.rating < counting_rating.seed(name).rating  # answered right: easier
    stored = db.execute(select(Answer.kind_rating, Answer.overall_rating)).one()
    assert stored == (taken.rated.kind.rating, taken.rated.overall.rating)


def test_a_miss_lowers_the_rating_and_the_trend_reads_day_by_day(
    db: Connection, guest: int
) -> None:
    _answer(db, guest, right=True, day="2027-01-01", at=NOW)
    _answer(db, guest, right=False, day="2027-01-14", at=NOW + 100)
    last = _answer(db, guest, right=False, day="2027-01-15", at=NOW + 200)
    assert last.rated is not None
    standing = ratings.standing(db, guest, "2027-01-15")
    assert [day for day, _ in standing.by_day] == ["2027-01-01", "2027-01-14", "2027-01-15"]
    first_day = standing.by_day[0][1]
    assert standing.overall == last.rated.overall and standing.overall.rating < first_day
    assert standing.trend == standing.overall.rating - first_day
    assert list(standing.by_kind) == ["hand"] and standing.rated


def test_a_newcomer_is_unrated(db: Connection, guest: int) -> None:
    standing = ratings.standing(db, guest, "2027-01-15")
    assert not standing.rated and standing.overall == Rating() and standing.trend == 0.0


def test_a_merged_guest_gives_its_ratings_in_kinds_the_account_lacks(
    db: Connection, guest: int
) -> None:
    account = int(players.register(db, "alice", "hash", NOW).id)
    _answer(db, account, right=False, day="2027-01-15", at=NOW)
    before = ratings.of_player(db, account)
    drill = drills.deal_next(
        db, guest, "crib", Difficulty.STANDARD, rng=random.Random(1), now=NOW, per_minute=0
    )
    total = grade(Deal.from_json(drill.deal), {"points": 0}).total
    drills.answer(db, drill.id, guest, {"points": total}, day="2027-01-15", now=NOW + 9)
    crib = ratings.of_player(db, guest)["crib"]
    players.merge_guest(db, guest, account)
    after = ratings.of_player(db, account)
    assert after == {"hand": before["hand"], "overall": before["overall"], "crib": crib}


def test_practice_deals_near_the_players_rating(db: Connection) -> None:
    """Of the same few hands, a player rated far above them is dealt a harder one than a
    player rated far below them."""

    def dealt(rating: float, seed: int) -> int:
        player = int(players.new_guest(db, NOW).id)
        held = {"rating": rating, "deviation": 50.0, "volatility": 0.06, "answers": 40}
        with writing(db) as connection:
            connection.execute(insert(PlayerRating), {"player_id": player, "kind": "hand"} | held)
        drill = drills.deal_next(
            db, player, "hand", Difficulty.STANDARD, rng=random.Random(seed), now=NOW, per_minute=0
        )
        return counting_rating.hardness(Deal.from_json(drill.deal))

    strong = [dealt(2600.0, seed) for seed in range(8)]
    weak = [dealt(600.0, seed) for seed in range(8)]
    assert all(s >= w for s, w in zip(strong, weak, strict=True)) and sum(strong) > sum(weak)
