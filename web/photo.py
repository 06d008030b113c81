"""The photo page: read the cards in a photo of a hand (``vision``), then score it.

``vision`` is imported when a photo arrives, so the trainer runs (and every other page works)
on a machine without the card model; the reader then answers 503.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request

from trainer.rules import RULESETS, SIX_CARD, get_rules

from .pages import checked

bp = Blueprint("photo", __name__)


@bp.get("/photo")
def page() -> str:
    """Upload or take a photo, see the groups read on it, correct them, and score each."""
    return render_template("photo/photo.html", rulesets=RULESETS)


@bp.post("/api/read")
def read() -> dict[str, Any]:
    """Read the cards in ``image`` (multipart), group them and score each settled group.

    The groups are the table's hands, crib and starter (or one hand and its starter).

    Optional form fields: ``crib`` (a lone hand is the crib), ``starter`` (the starter card,
    when the card set apart is not it, or it is not in the photo), ``players`` (2 to 4) and
    ``rules`` (a rule set's name; by default from the players or the number of cards).
    """
    upload = request.files.get("image")
    if upload is None:
        abort(400, "send the photo as the multipart field 'image'")
    try:
        from vision.reader import read_image_bytes
        from vision.report import read_table, summarize
    except ImportError:
        abort(503, "the card reader is not installed on this server")
    try:
        reading = read_image_bytes(upload.read())  # an ImageError: a 400
    except (OSError, RuntimeError) as error:  # no model file, or the model failed to load
        abort(503, f"the card reader is not available: {error}")
    crib = checked(request.form, "crib")
    starter = request.form.get("starter") or None
    rules = get_rules(request.form["rules"]) if request.form.get("rules") else None
    players = request.form.get("players") or None
    if players is not None and not players.isdigit():
        abort(400, f"players must be 2, 3 or 4, not {players!r}")
    result: dict[str, Any] = summarize(reading, starter, crib=crib, rules=rules or SIX_CARD)
    table = read_table(
        reading, players=players and int(players), rules=rules, starter=starter, crib=crib
    )  # a bad starter or players: a 400
    result.update(table)
    result["image_size"] = list(reading.image_size)
    result["seconds"] = round(reading.seconds, 3)
    return result
