"""A newcomer can find what README's examples read: the shared photos ``photo.jpg`` and
``photo2.jpg`` stand for, and how to make a table photo (issue players2, 3.8)."""

from __future__ import annotations

from pathlib import Path

from tests.test_readme import PHOTOS, README


def test_the_photos_the_examples_read_are_named() -> None:
    text = README.read_text(encoding="utf-8")
    for name, photo in PHOTOS.items():
        assert Path(photo).name in text, f"README never says which photo {name} is ({photo})"
    assert "../shared/data/real-cards/images/" in text


def test_the_table_example_says_how_to_make_a_table_photo() -> None:
    assert "python -m vision.training.synth.table" in README.read_text(encoding="utf-8")
