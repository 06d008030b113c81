"""The photo page: read the cards in a photo of a hand (``vision``), then score it.

``vision`` is imported when a photo arrives, so the trainer runs (and every other page works)
on a machine without the card model; the reader then answers 503.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request

from trainer import score_show

bp = Blueprint("photo", __name__)


@bp.get("/photo")
def page() -> str:
    """Upload or take a photo, see the cards read on it, correct them, and score."""
    return render_template("photo/photo.html")


@bp.post("/api/read")
def read() -> dict[str, Any]:
    """Read the cards in ``image`` (multipart); score them when exactly four and a starter."""
    upload = request.files.get("image")
    if upload is None:
        abort(400, "send the photo as the multipart field 'image'")
    try:
        from vision.reader import read_image_bytes
    except ImportError:
        abort(503, "the card reader is not installed on this server")
    try:
        reading = read_image_bytes(upload.read())  # an ImageError is a ValueError: a 400
    except (OSError, RuntimeError) as error:  # no model file, or the model failed to load
        abort(503, f"the card reader is not available: {error}")
    cards = [
        {
            "card": c.card,
            "confidence": round(c.confidence, 3),
            "box": [round(v, 1) for v in c.box],
            "uncertain": c.uncertain,
            "starter": i == reading.starter_index,
        }
        for i, c in enumerate(reading.cards)
    ]
    result: dict[str, Any] = {
        "cards": cards,
        "starter": reading.starter.card if reading.starter else None,
        "image_size": list(reading.image_size),
        "seconds": round(reading.seconds, 3),
        "score": None,
    }
    hand = [c.card for c in reading.hand() if not c.uncertain]
    starter = reading.starter
    if starter is not None and not starter.uncertain and len(hand) == 4 == len(reading.hand()):
        crib = request.form.get("crib", "") not in ("", "0", "false")
        result["score"] = score_show(hand, starter.card, crib=crib).to_json()
    return result
