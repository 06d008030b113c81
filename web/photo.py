"""The photo page, and ``POST /api/read``: the cards in a photo, grouped and scored.

``POST /api/read`` reads the cards (``vision``), groups them into the table's hands, crib and
starter, and scores each group. Scripts use it without a page's token, as they use the rest
of the API under ``/api``. ``vision`` is imported when a photo
arrives, so the trainer runs (and every other page works) on a machine without the card model;
the reader then answers 503.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, render_template, request

from trainer.rules import RULESETS, get_rules

from . import limits
from .request_data import checked, takes_upload

bp = Blueprint("photo", __name__)


@bp.get("/photo")
def page() -> str:
    """Upload or take a photo, see the groups read on it, correct them, and score each."""
    return render_template("photo/photo.html", rulesets=RULESETS)


@bp.post("/api/read")
@takes_upload
@limits.reads_per_client
def read() -> dict[str, Any]:
    """Read the cards in ``image`` (multipart): the cards, the groups with scores, questions.

    The groups are the table's hands, crib and starter (or one hand and its starter), each
    scored as soon as its starter is known (:func:`vision.answer.answer_photo`).

    Optional form fields: ``crib`` (a lone hand is the crib), ``starter`` (the starter card,
    when the card set apart is not it, or it is not in the photo), ``players`` (2 to 4) and
    ``rules`` (a rule set's name; by default from the players or the number of cards) and
    ``strict`` (the page's "Dim light" box: a card on small soft indices is certain only where
    its face agrees, as ``crib read --strict``).
    """
    upload = request.files.get("image")
    if upload is None:
        abort(400, "send the photo as the multipart field 'image'")
    players = request.form.get("players") or None
    if players not in (None, "2", "3", "4"):
        abort(400, f"players must be 2, 3 or 4, not {players[:20]!r}")
    try:
        from vision.upload import check_upload
    except ImportError:
        abort(503, "the card reader is not installed on this server")
    photo = upload.read()
    check_upload(photo)  # an image bomb is a 400 here, before it takes the reader's turn
    return limits.READING.run(_read, photo, players, checked(request.form, "strict"))


def _read(photo: bytes, players: str | None, strict: bool) -> dict[str, Any]:
    """Read ``photo`` and answer it (on the reading thread, :data:`web.limits.READING`)."""
    try:
        from vision import timebox
        from vision.answer import answer_photo
        from vision.certainty import STRICT_CORROBORATION
        from vision.reader import read_image_bytes
    except ImportError:
        abort(503, "the card reader is not installed on this server")
    try:
        # decoded in a process of its own, stopped past 2 CPU-seconds; an ImageError: a 400
        rule = STRICT_CORROBORATION if strict else None
        models = current_app.config["VISION_MODELS"]
        reading = read_image_bytes(
            photo, models_dir=models, decode=timebox.decode, corroboration=rule
        )
    except (OSError, RuntimeError) as error:  # no model file, the model or decoder failed
        abort(503, f"the card reader is not available: {error}")
    answer = answer_photo(
        reading,
        players=int(players) if players else None,
        rules=get_rules(request.form["rules"]) if request.form.get("rules") else None,
        starter=request.form.get("starter") or None,
        crib=checked(request.form, "crib"),
    )  # a bad starter or players: a 400
    return answer.to_json()
