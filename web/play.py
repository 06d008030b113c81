"""A game against the computer: ``/play``, its JSON under ``/api/play``, the review at the end.

The rules are :mod:`trainer.versus`'s, the games stored by :mod:`records.versus`. ``/play``
resumes the player's game in progress or sets one up (``POST /api/play``); each move (``POST
/api/play/<id>/moves``) carries the version its page saw, and one made on a game that moved on
since (another tab) is refused (409) with the game as it is. The computer's cards never reach
the page before they are shown: only how many it holds, and the cards it played.
``/play/<id>/review`` sets every discard against the best one and lists what was overlooked.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, abort, render_template, request, url_for

from records import games, versus
from records.versus import StoredGame
from trainer.cards import Card
from trainer.dealing import Difficulty
from trainer.game import LURCH_LINES
from trainer.grading import MOST_PEG, MOST_SHOW
from trainer.versus import COMPUTER, PLAYER, RULES, Said, Setup, VersusGame

from . import clock, limits
from .db import get_db
from .players import as_player, current_player, session_player_id
from .request_data import cap_body, flag, json_body

bp = Blueprint("play", __name__)
bp.before_request(cap_body)

LEVELS = {
    Difficulty.BEGINNER: "the count of the play is told as each card is played",
    Difficulty.STANDARD: "you keep the count; the cards of the count are shown",
    Difficulty.DENSE: "you keep the count; only the last card played is shown",
}
"""What each level means in a game, in players' words."""
STALE = (
    "This game moved on in another tab or window: here it is as it is now."
    " Make the move again if it is still to be made."
)
SIDES = ("You", "The computer")

_GAMES: games.Kept[VersusGame] = games.Kept(games.VIEWS_KEPT)
"""The game each stored version holds, so that a move does not replay the game's moves."""


@bp.get("/play")
def page() -> str:
    """The player's game in progress, or the set-up of a new one (``?new=1`` for it anyway)."""
    player = current_player()
    stored = None if player is None else versus.in_progress(get_db(), player.id)
    if stored is None or request.args.get("new") == "1":
        return render_template(
            "play/setup.html", rules=RULES, levels=LEVELS, resume=stored is not None
        )
    state = _state(stored, _game(stored))
    return render_template("play/game.html", state=state, most_peg=MOST_PEG, most_show=MOST_SHOW)


@bp.get("/play/<int:game_id>/review")
def review(game_id: int) -> str:
    """A finished game's review: each discard against the best, each count overlooked."""
    stored = versus.get(get_db(), session_player_id() or 0, game_id)
    game = _game(stored)
    if game.match.winner is None:
        abort(409, "This game is not over yet: finish it at /play, then see its review.")
    return render_template(
        "play/review.html", stored=stored, game=game, review=game.review(), result=_result(game)
    )


@bp.post("/api/play")
@limits.new_computer_games
def start() -> tuple[dict[str, Any], int]:
    """Set up a game: ``{"rules": "six-card", "game": 121, "level": "standard", "muggins": true}``.

    Every field may be left out (the six-card game to 121, standard, muggins on).
    """
    data = json_body()
    levels = tuple(d.value for d in Difficulty)
    level = data.get("level", Difficulty.STANDARD.value)
    if level not in levels:
        abort(400, f"the level is one of {', '.join(levels)}")
    rules, length = data.get("rules", "six-card"), data.get("game")
    if not isinstance(rules, str):
        abort(400, "the rules are six-card or five-card")
    if length is not None and (not isinstance(length, int) or isinstance(length, bool)):
        abort(400, "a game is 61 or 121 points")
    muggins = flag(data, "muggins") if "muggins" in data else True
    setup = Setup(secrets.randbits(48), rules, length, Difficulty(level), muggins)
    game = VersusGame(setup)
    stored = as_player(lambda db, player: versus.start(db, player, game, now=clock.now()))
    _GAMES.keep(_key(stored), game)
    return _state(stored, game), 201


@bp.post("/api/play/<int:game_id>/moves")
@limits.game_moves
def move(game_id: int) -> Any:
    """The player's move on the version seen, and the computer's answer to it.

    The body: ``{"version": 3, "do": "throw", "cards": ["5H", "KD"]}``, ``{"version": 4, "do":
    "play", "card": "7C", "claim": 2}`` or ``{"version": 9, "do": "count", "claim": 8}``.
    """
    data = json_body()
    stored = versus.get(get_db(), session_player_id() or 0, game_id)
    seen = data.get("version")
    if not isinstance(seen, int) or isinstance(seen, bool):
        abort(400, "send the game's 'version' this page saw with each move")
    if seen != stored.version:
        return {"error": STALE, "game": _state(stored, _game(stored))}, 409
    game = _GAMES.take(_key(stored)) or stored.game()  # a move refused leaves it out
    before = len(game.claims)
    _apply(game, data)
    saved = versus.save(
        get_db(),
        stored,
        game,
        game.claims[before:],
        day=clock.players_today(),
        now=clock.now(),
    )
    if saved is None:
        current = versus.get(get_db(), stored.player_id, game_id)
        return {"error": STALE, "game": _state(current, _game(current))}, 409
    _GAMES.keep(_key(saved), game)
    return _state(saved, game)


def _apply(game: VersusGame, data: dict[str, Any]) -> None:
    """The player's move ``data`` on ``game``; a 400 naming what is wrong with it.

    Raises:
        trainer.errors.CribbageError: for a move the game refuses (the claim checked there).
    """
    do, claim = data.get("do"), data.get("claim", -1)  # none: out of range, refused
    if do == "throw":
        cards = data.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            abort(400, "give 'cards' as a list of the cards thrown, like 5H and KD")
        game.throw(cards)
        return
    if do == "play":
        card = data.get("card")
        if not isinstance(card, str):
            abort(400, "give the 'card' played, like \"7C\"")
        game.play(card, claim)  # the claim is checked there
        return
    if do == "count":
        game.count(claim)
        return
    abort(400, "'do' is throw, play or count")


def _key(stored: StoredGame) -> tuple[str, int]:
    return f"computer:{stored.id}", stored.version


def _game(stored: StoredGame) -> VersusGame:
    """The game ``stored`` holds, kept a version (the kept one is not to be moved)."""
    game = _GAMES.get(_key(stored))
    return game if game is not None else _GAMES.keep(_key(stored), stored.game())


def _tokens(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [str(card) for card in cards]


def _line(said: Said) -> dict[str, Any]:
    """A line of the log, with what it tells: a muggins, a claim refused, a count missed."""
    text = said.text
    kind = ""
    if said.seat == COMPUTER and text.startswith("Muggins"):
        kind = "muggins"
    elif said.seat == PLAYER and text.endswith("refused; count again"):
        kind = "refused"
    elif said.seat == PLAYER and text.startswith("You missed"):
        kind = "missed"
    return {"deal": said.deal, "seat": said.seat, "text": text, "points": said.points, "kind": kind}


def _shown_log(game: VersusGame) -> list[Said]:
    """The log as the level shows it.

    At dense, while the play is on, only the last of this deal's cards played is told: the
    player keeps the count, as the pile shows only that card.
    """
    log = game.log
    if game.setup.level is not Difficulty.DENSE or game.match.phase != "play":
        return log
    plays = [n for n, said in enumerate(log) if said.deal == game.deal_number and said.played]
    hidden = set(plays[:-1])
    return [said for n, said in enumerate(log) if n not in hidden]


def _sides(game: VersusGame) -> list[dict[str, Any]]:
    """Each side's pegs: the front one the score, the back one the score before its last peg."""
    back = [0, 0]
    front = [0, 0]
    for said in game.log:
        if said.points and said.seat is not None:
            back[said.seat], front[said.seat] = front[said.seat], front[said.seat] + said.points
    scores = game.match.scores
    return [{"name": SIDES[s], "front": scores[s], "back": back[s]} for s in (PLAYER, COMPUTER)]


def _result(game: VersusGame) -> dict[str, Any] | None:
    """The game's end, once it is over."""
    winner = game.match.winner
    if winner is None:
        return None
    scores = game.match.scores
    if winner == PLAYER:
        text = f"You win {scores[PLAYER]}–{scores[COMPUTER]}"
    else:
        text = f"The computer wins {scores[COMPUTER]}–{scores[PLAYER]}"
    if game.lurched:
        text += ": a lurch, two games"
    return {"won": winner == PLAYER, "lurch": game.lurched, "text": text}


def _state(stored: StoredGame, game: VersusGame) -> dict[str, Any]:
    """What the page draws: the board, the player's cards, the play, the log.

    None of the computer's cards it has not shown: only how many it holds.
    """
    match, setup = game.match, game.setup
    play = game.waiting == "play"
    pile = list(match.pile) if match.phase == "play" else []
    if setup.level is Difficulty.DENSE:
        pile = pile[-1:]
    counting = game.counting
    result = _result(game)
    return {
        "id": stored.id,
        "version": stored.version,
        "rules": setup.rules,
        "length": game.rules.game,
        "level": setup.level.value,
        "muggins": setup.muggins,
        "waiting": game.waiting,
        "deal": game.deal_number,
        "dealer": match.dealer,
        "scores": list(match.scores),
        "sides": _sides(game),
        "lurch_line": LURCH_LINES[game.rules.game],
        "double_skunk_line": None,
        "hand": _tokens(game.hand) if result is None else [],
        "throw": len(match.dealt[PLAYER]) - game.rules.hand_size,
        "playable": [str(c) for c in match.held[PLAYER] if match.count + c.value <= 31]
        if play
        else [],
        "starter": None if match.starter is None else str(match.starter),
        "count": match.count if setup.level is Difficulty.BEGINNER and play else None,
        "pile": _tokens(pile),
        "computer_holds": len(match.held[COMPUTER]) if match.phase == "play" else 0,
        "counting": None
        if counting is None
        else {"what": counting[0], "cards": _tokens(counting[1])},
        "log": [_line(said) for said in _shown_log(game)],
        "result": None
        if result is None
        else result | {"review": url_for("play.review", game_id=stored.id)},
    }
