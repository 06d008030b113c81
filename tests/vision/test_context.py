"""The card face around each index weighed in (``vision.context``), and its training crops
(``vision.training.context_crops``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision import CARDS, MODELS_DIR
from vision.certainty import Certainty
from vision.context import CONTEXT_JSON, CONTEXT_ONNX
from vision.evidence import CropEvidence
from vision.reader import CardReader, ReaderOptions
from vision.training.chunks import reader_files, share_context
from vision.training.context_crops import write_context_crops
from vision.training.synth.faces import rendered_deck
from vision.training.synth.generate import generate
from vision.training.synth.table import RULES_BY_PLAYERS, make_table

NONE = 52


def _settle(
    probs: np.ndarray, sure: np.ndarray, context: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`Certainty.settle` at 0.9 of readings ``sure`` of alone, weighed with ``context``."""
    n = len(probs)
    evidence = CropEvidence(np.zeros(n), np.full(n, 0.2), np.zeros(n), context)
    point = Certainty(0.9)
    assert point.sure(probs, evidence).tolist() == sure.tolist()
    return point.settle(probs, evidence, NONE)


def _probs(*rows: dict[int, float]) -> np.ndarray:
    out = np.zeros((len(rows), 53))
    for k, row in enumerate(rows):
        for cls, p in row.items():
            out[k, cls] = p
    return out


def test_the_context_settles_a_same_colour_doubt_and_vetoes_a_contradicted_reading() -> None:
    seven_clubs, seven_spades, four_spades = CARDS.index("7C"), CARDS.index("7S"), CARDS.index("4S")
    probs = _probs(
        {seven_spades: 0.51, seven_clubs: 0.44, NONE: 0.05},  # torn between the two sevens
        {seven_spades: 0.95, seven_clubs: 0.05},  # sure of the spade
        {seven_spades: 0.5, seven_clubs: 0.3, four_spades: 0.2},  # the 4S only third likeliest
        {seven_spades: 0.55, seven_clubs: 0.45},
    )
    context = _probs(
        {seven_clubs: 0.999, seven_spades: 0.001},
        {seven_clubs: 0.99, seven_spades: 0.01},  # contradicts a sure reading
        {four_spades: 0.9999, seven_spades: 0.0001},
        {seven_clubs: 0.6, seven_spades: 0.4},  # leans, not sure enough
    )
    sure = np.array([False, True, False, False])
    both, certain = _settle(probs, sure, context)
    assert np.allclose(both.sum(1), 1.0) and (both[:, NONE] == 0).all()
    assert both.argmax(1).tolist() == [seven_clubs, seven_clubs, four_spades, seven_clubs]
    assert certain.tolist() == [True, False, False, False]
    # a sure reading the context agrees with stays sure
    _, kept = _settle(probs[1:2], sure[1:2], probs[1:2])
    assert kept.tolist() == [True]


def test_a_models_folder_without_a_context_model_reads_without_one(tmp_path: Path) -> None:
    for name in ("card_classifier.onnx", "card_classifier.json", "index_detector.onnx"):
        shutil.copyfile(MODELS_DIR / name, tmp_path / name)
    assert CardReader(tmp_path).context is None
    assert CardReader(MODELS_DIR).context is not None
    assert CardReader(MODELS_DIR, ReaderOptions(context=False)).context is None
    assert [p.name for p in reader_files(tmp_path)] == [
        "card_classifier.onnx", "card_classifier.json", "index_detector.onnx"
    ]  # fmt: skip
    share_context(MODELS_DIR, tmp_path)
    assert (tmp_path / CONTEXT_ONNX).read_bytes() == (MODELS_DIR / CONTEXT_ONNX).read_bytes()
    assert {p.name for p in reader_files(tmp_path)} >= {CONTEXT_ONNX, CONTEXT_JSON}


@pytest.mark.slow
@pytest.mark.parametrize("deck", ["tango", "ornamental"])
def test_the_context_reads_more_table_cards_with_certainty_and_none_wrongly(deck: str) -> None:
    """On generated four-hand tables of small cards (a whole table in one photo) of two decks
    whose suits the index alone often leaves in doubt (the others' tables here are read whole
    without the context), more cards are read right with certainty with the context than
    without it, and no more wrongly."""
    plain = CardReader(MODELS_DIR, ReaderOptions(context=False))
    weighed = CardReader(MODELS_DIR)
    counts = {"plain": [0, 0], "weighed": [0, 0]}
    for seed in range(3):
        rng = np.random.default_rng([5, 4, seed])
        scene = make_table(rng, [rendered_deck(deck)], RULES_BY_PLAYERS[4])
        on_table = {card for _, cards in scene.groups for card in cards}
        for name, reader in (("plain", plain), ("weighed", weighed)):
            for card in reader.read(scene.image).cards:
                if not card.uncertain:
                    counts[name][card.card not in on_table] += 1
    assert counts["weighed"][0] > counts["plain"][0]
    assert counts["weighed"][1] <= counts["plain"][1]


@pytest.fixture(scope="module")
def scenes(tmp_path_factory: pytest.TempPathFactory, proc_faces: Path) -> Path:
    data = tmp_path_factory.mktemp("context-scenes")
    generate(data, n=4, seed=5, val_frac=0.25, workers=1, face_root=proc_faces)
    return data


@pytest.mark.slow
def test_context_crops_are_the_generators_form_twice_a_label_and_the_same_each_run(
    scenes: Path, tmp_path: Path
) -> None:
    written = write_context_crops(tmp_path / "a", [scenes], workers=1)
    write_context_crops(tmp_path / "b", [scenes], workers=2)
    for split, copies in (("train", 2), ("val", 1)):
        lines = (scenes / "meta" / f"{split}.jsonl").read_text().splitlines()
        rows = [json.loads(line) for line in lines]
        labels = [CARDS.index(lab["card"]) for row in rows for lab in row["labels"]]
        assert labels and written[split] == copies * len(labels)
        with (
            np.load(scenes / "crops" / f"{split}.npz") as made,
            np.load(tmp_path / "a" / "crops" / f"{split}.npz") as a,
            np.load(tmp_path / "b" / "crops" / f"{split}.npz") as b,
        ):
            assert a["x"].shape[1:] == made["x"].shape[1:] and a["x"].dtype == made["x"].dtype
            assert a["y"].dtype == made["y"].dtype
            assert a["y"].tolist() == np.repeat(labels, copies).tolist()
            assert np.array_equal(a["x"], b["x"])
