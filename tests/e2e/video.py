"""Videos for Chromium's fake camera (``--use-file-for-fake-video-capture``): a generated table
held still, then panned a little, written as YUV4MPEG2 (the format Chromium plays in a loop)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from trainer.rules import RuleSet
from vision.training.synth.faces import rendered_deck
from vision.training.synth.table import RULES_BY_PLAYERS, TableScene, make_table

FPS = 10
"""Frames a second of the videos (the header's ``F10:1``)."""
SIZE = (960, 720)
"""Width and height of the videos: the long side a live frame is sent at."""
DECK = "anglo"


def table_scene(
    seed: int = 3, rules: RuleSet = RULES_BY_PLAYERS[2], layout: str = "spread/seats"
) -> TableScene:
    """A whole table at the show (two hands, the crib, the starter) the reader reads exactly.

    The layout is fixed, so that the scene stays the same when the generator draws layouts
    differently (what the reader makes of every layout is ``benchmarks/show_mode.py``'s)."""
    return make_table(
        np.random.default_rng([5, rules.players, seed]), [rendered_deck(DECK)], rules, layout=layout
    )


def still_then_pan(image: np.ndarray, still_s: float = 3.0, pan_s: float = 2.0) -> list[np.ndarray]:
    """``image`` scaled to :data:`SIZE`, shown still for ``still_s`` seconds, then moved by up to
    24 pixels right and down over ``pan_s`` seconds (edges filled by their last pixels)."""
    frame = cv2.resize(image, SIZE, interpolation=cv2.INTER_AREA)
    pad = 24
    padded = cv2.copyMakeBorder(frame, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    width, height = SIZE
    frames = [frame] * round(still_s * FPS)
    steps = round(pan_s * FPS)
    for step in range(1, steps + 1):
        shift = pad - round(pad * step / steps)
        frames.append(padded[shift : shift + height, shift : shift + width])
    return frames


def write_y4m(path: Path, frames: list[np.ndarray]) -> Path:
    """Write BGR ``frames`` (all of one size, even sides) as a 4:2:0 YUV4MPEG2 video."""
    height, width = frames[0].shape[:2]
    with path.open("wb") as out:
        out.write(f"YUV4MPEG2 W{width} H{height} F{FPS}:1 Ip A1:1 C420jpeg\n".encode())
        for frame in frames:
            out.write(b"FRAME\n")
            # OpenCV's I420 is the Y plane, then U and V at half size each way, as y4m wants
            out.write(cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420).tobytes())
    return path
