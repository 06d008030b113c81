"""Certain cards with the wrong identity on held-out synthetic webcam frames.

Reads every frame of generated webcam series (``python -m vision.training.synth.generate
--webcam --out DIR --n N --seed S --val-frac 1``: 1280x720 frames of 3-13 cards on a desk in dim
light, indices 12-20 px) once, then decides certainty under each corroboration rule
(:class:`vision.certainty.Corroboration`; ``index alone`` trusts every index) and prints,
per rule: the cards read with certainty, those whose identity is on no card of the frame
("wrong", and of them "wrong suit": a card of that rank lies there in another suit), their share
of the certain cards, precision and recall against the labelled visible cards, and the cards
asked about; split by whether the reader found the card's face (its body) or not.

Every rule decides on one reading of each frame, whose cards read on one card's face get that
face as ``--faces-of`` hands them out (:attr:`vision.certainty.Corroboration.shared_faces`;
default: the strict rule's); a rule's own figures are those of ``--faces-of`` itself. Each rule's
cards are then held to one deck (:func:`vision.certainty.one_deck`), as the reader holds them.

Usage:
    python benchmarks/webcam.py datasets/webcam71 [datasets/webcam72 ...] [--limit N]
        [--models models] [--json out.json] [--sweep | --ink] [--faces-of default]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import MODELS_DIR  # noqa: E402
from vision.certainty import (  # noqa: E402
    DEFAULT_CORROBORATION,
    NO_CORROBORATION,
    STRICT_CORROBORATION,
    Corroboration,
    one_deck,
)
from vision.detection import DetectedCard  # noqa: E402
from vision.evidence import BodyModel, BodyReading  # noqa: E402
from vision.reader import CardReader, ReaderOptions  # noqa: E402
from vision.training.synth.generate import scene_image  # noqa: E402


@dataclass
class Tally:
    """Cards of one rule (and kind: with a body or without)."""

    certain: int = 0
    wrong: int = 0
    wrong_suit: int = 0
    right_visible: int = 0
    asked: int = 0

    def add(self, card: DetectedCard, placed: set[str], visible: Counter[str]) -> None:
        if card.uncertain:
            self.asked += 1
            return
        self.certain += 1
        if card.card not in placed:
            self.wrong += 1
            self.wrong_suit += any(p[:-1] == card.card[:-1] for p in placed)

    @property
    def wrong_rate(self) -> float:
        return self.wrong / max(1, self.certain)


RULES: dict[str, Corroboration] = {
    "index alone": NO_CORROBORATION,
    "default": DEFAULT_CORROBORATION,
    "strict": STRICT_CORROBORATION,
}


def sweep_rules() -> dict[str, Corroboration]:
    """Rules around the strict one, for choosing it (on a series never used to confirm)."""
    out = dict(RULES)
    base = STRICT_CORROBORATION
    for suit in (0.5, 0.7, 0.85, 0.95):
        for rank in (0.0, 0.3, 0.5):
            out[f"s{suit} r{rank}"] = dataclasses.replace(base, body_suit=suit, body_rank=rank)
    for small in (0.0, 18.0, 26.0, 30.0):
        out[f"small index {small:.0f}"] = dataclasses.replace(base, small_index=small)
    for soft in (0.05, 0.07, 0.1, float("inf")):
        out[f"soft below {soft}"] = dataclasses.replace(base, soft_below=soft)
    for court in (0.0, 0.95, 0.999):
        out[f"court suit {court}"] = dataclasses.replace(base, court_suit=court)
    for refute in (0.6, 0.75, 0.9, 0.97, 1.1):
        out[f"refute {refute}"] = dataclasses.replace(base, refute=refute)
    for washed, black in ((0.0, 255.0), (20.0, 50.0), (40.0, 50.0), (30.0, 40.0), (30.0, 60.0)):
        out[f"washed below {washed} black {black}"] = dataclasses.replace(
            base, washed_below=washed, washed_black=black
        )
    for middle in (170.0, 230.0, 256.0):
        out[f"washed middle {middle}"] = dataclasses.replace(base, washed_middle=middle)
    for suit, rank, least in ((1.1, 1.1, 0.0), (0.85, 0.5, 0.3), (0.95, 0.5, 0.3), (0.9, 0.3, 0.3),
                              (0.9, 0.9, 0.3), (0.9, 0.5, 0.0), (0.9, 0.5, 0.5)):  # fmt: skip
        out[f"promote s{suit} r{rank} from {least}"] = dataclasses.replace(
            base, promote_suit=suit, promote_rank=rank, promote_from=least
        )
    return out | ink_rules()


def ink_rules() -> dict[str, Corroboration]:
    """The default and strict rules with the ink's colour at other thresholds."""
    out = {}
    for name, base in (("default", DEFAULT_CORROBORATION), ("strict", STRICT_CORROBORATION)):
        for red in (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, float("inf")):
            out[f"{name} ink red {red}"] = dataclasses.replace(base, red_above=red)
    return out


class _Memo:
    """A body model that reads each set of faces once (every rule reads the same frame)."""

    def __init__(self, body: BodyModel) -> None:
        self.body, self.memo = body, {}  # type: ignore[var-annotated]
        self.corner = body.corner

    def read(self, faces: np.ndarray) -> list[BodyReading]:
        key = hashlib.blake2b(faces.tobytes(), digest_size=16).digest()
        if key not in self.memo:
            self.memo[key] = self.body.read(faces)
        return self.memo[key]  # type: ignore[no-any-return]


def run(
    folders: list[Path],
    reader: CardReader,
    rules: dict[str, Corroboration],
    limit: int | None = None,
    faces_of: Corroboration = STRICT_CORROBORATION,
) -> tuple[dict[str, dict[str, Tally]], dict[str, int], list[float]]:
    """Tallies by rule and kind (``all``, ``body``, ``no body``), visible cards, seconds a frame.

    Every rule decides on one reading of each frame, whose faces are handed out as ``faces_of``
    hands them (:attr:`Corroboration.shared_faces`).
    """
    tallies = {name: {k: Tally() for k in ("all", "body", "no body")} for name in rules}
    seen: dict[str, int] = {"visible": 0}
    seconds: list[float] = []
    corroborated = reader.corroborated
    captured: dict[str, tuple[Any, ...]] = {}

    def capture(*args: Any) -> list[DetectedCard]:
        captured["args"] = args[:-1]  # what every rule decides on: all but the reader's rule
        cards: list[DetectedCard] = args[1]
        return cards

    reader.corroborated = capture  # type: ignore[method-assign]
    if reader.body is not None:
        reader.body = _Memo(reader.body)  # type: ignore[assignment]
    try:
        for folder in folders:
            rows = [json.loads(line) for line in (folder / "meta" / "val.jsonl").open()][:limit]
            for row in rows:
                img = scene_image(folder, row)
                t0 = time.perf_counter()
                reader.read(img, corroboration=faces_of)
                seconds.append(time.perf_counter() - t0)
                placed, visible = set(row["placed"]), Counter(row["cards"])
                seen["visible"] += sum(visible.values())
                args = captured["args"]
                if isinstance(reader.body, _Memo):
                    reader.body.memo.clear()
                for name, rule in rules.items():
                    decided = args[1] if rule == NO_CORROBORATION else corroborated(*args, rule)
                    cards = one_deck(decided)
                    certain = Counter(c.card for c in cards if not c.uncertain)
                    tallies[name]["all"].right_visible += sum((certain & visible).values())
                    for card in cards:
                        for kind in ("all", "body" if card.outline is not None else "no body"):
                            tallies[name][kind].add(card, placed, visible)
    finally:
        reader.corroborated = corroborated  # type: ignore[method-assign]
    return tallies, seen, seconds


def format_table(tallies: dict[str, dict[str, Tally]], visible: int) -> str:
    lines = [
        f"{'rule':<24} {'cards':<8} {'certain':>7} {'wrong':>5} {'suit':>4} {'wrong %':>8} "
        f"{'recall':>7} {'asked':>6}"
    ]
    for name, kinds in tallies.items():
        for kind, t in kinds.items():
            recall = f"{t.right_visible / max(1, visible):.2%}" if kind == "all" else ""
            lines.append(
                f"{name:<24} {kind:<8} {t.certain:>7} {t.wrong:>5} {t.wrong_suit:>4} "
                f"{t.wrong_rate:>8.2%} {recall:>7} {t.asked:>6}"
            )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", type=Path, nargs="+")
    ap.add_argument("--models", type=Path, default=MODELS_DIR)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--sweep", action="store_true", help="also rules around the strict one")
    ap.add_argument("--ink", action="store_true", help="also the rules' ink-colour thresholds")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument(
        "--faces-of", choices=sorted(set(RULES) - {"index alone"}), default="strict",
        help="the rule whose shared faces the one reading of each frame hands out",
    )  # fmt: skip
    a = ap.parse_args()
    cv2.setNumThreads(1)
    options = ReaderOptions(corroboration=STRICT_CORROBORATION)
    reader = CardReader(a.models, options, threads=a.threads)
    rules = sweep_rules() if a.sweep else RULES | (ink_rules() if a.ink else {})
    tallies, seen, seconds = run(a.folders, reader, rules, a.limit, RULES[a.faces_of])
    print(format_table(tallies, seen["visible"]))
    median = 1000 * float(np.median(seconds))
    print(f"{len(seconds)} frames, {seen['visible']} visible cards, median read {median:.0f} ms")
    if a.json:
        doc = {
            name: {
                kind: dataclasses.asdict(t) | {"wrong_rate": t.wrong_rate} for kind, t in k.items()
            }
            for name, k in tallies.items()
        }
        a.json.write_text(json.dumps(doc | {"visible": seen["visible"]}, indent=1))


if __name__ == "__main__":
    main()
