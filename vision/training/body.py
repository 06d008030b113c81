"""The body model: a card's suit and rank from its face, corner indices painted over.

Training data (:func:`make_faces`): a face of any deck of the face cache (the command line
renders all 30 first) and the styled decks (:func:`vision.training.synth.webcam.webcam_decks`)
but :data:`HELD_OUT_DECKS`, named in the set's ``recipe.json``, laid at a random
angle and size (its height 45 to 320 px, half the samples at a webcam's 45 to 130) on a table
or a desk, seen by the generator's phone camera (:func:`vision.training.synth.effects.apply_camera`)
or by a webcam (:func:`vision.training.synth.webcam.webcam_camera`); its outline found as the
reader finds it (:func:`vision.bodies.with_bodies` on its corner indices) or, where that finds
none, the true rectangle moved and resized a little; cut out by the reader's own
:func:`vision.evidence.face_crop`. A tenth of the faces have a finger across them, and 15 % lie
on another card (whose face then joins theirs in one body, and its outline with it).

The network is :func:`vision.training.classifier.index_net` (width 16) reading the
paper-balanced face (:func:`vision.evidence.paper_balanced`) into 17 logits: the 4 suits, then
the 13 ranks. Exported as ``card_body.onnx`` with two outputs, ``suits`` and ``ranks``.

Usage (the shipped model: the first run, then fine-tuned on faces of all 30 decks):
    python -m vision.training.body faces --out datasets/body --n 60000 --seed 500 --workers 2
    OMP_NUM_THREADS=2 python -m vision.training.body train --data datasets/body \
        --minutes 70 --epochs 12 --models runs/body/models
    python -m vision.training.body faces --out datasets/body30 --n 60000 --seed 501 --workers 2
    OMP_NUM_THREADS=2 python -m vision.training.body train --data datasets/body30 --epochs 8 \
        --minutes 36 --init runs/body/models/best.pt --models runs/body30/models
"""

from __future__ import annotations

import argparse
import json
import time
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision import CACHE_DIR, MODELS_DIR, RANKS, SUITS
from vision.evidence import BODY_ONNX, FACE_SIZE, INDEX_CORNER, face_crop, paper_balanced

if TYPE_CHECKING:
    import torch

    from vision.detection import Outline
    from vision.training.synth.faces import Deck

HELD_OUT_DECKS = ("svg-standard", "proc17")
"""Decks the body model never trains on: its accuracy on them is its accuracy on a deck design
it has not seen."""
WIDTH = 16
"""The network's first-stage channels."""

_DECKS: list[Deck] = []


def _init(face_root: Path) -> None:
    global _DECKS
    from vision.training.synth.webcam import webcam_decks

    cv2.setNumThreads(1)
    _DECKS = [d for d in webcam_decks(face_root) if d.name not in HELD_OUT_DECKS]


def face_sample(
    rng: np.random.Generator, deck: Deck, card: str
) -> tuple[np.ndarray, Outline | None]:
    """One training face of ``card``: laid on a table, photographed, found and cut out.

    Returns:
        (tuple[np.ndarray, Outline | None]): The uint8 BGR face (:data:`FACE_SIZE`) and the
        outline the reader found (None when the true one was used).
    """
    from vision.bodies import with_bodies
    from vision.detection import DetectedCard
    from vision.training.synth.backgrounds import background
    from vision.training.synth.effects import apply_camera
    from vision.training.synth.negatives import brand_print
    from vision.training.synth.scene import _finger, _rounded_mask, index_quads
    from vision.training.synth.webcam import blanket, desk, webcam_camera

    webcam = rng.random() < 0.5
    ch = float(np.exp(rng.uniform(np.log(45), np.log(130 if webcam else 320))))
    side = int(ch * rng.uniform(1.7, 2.4))
    table = (desk if rng.random() < 0.5 else blanket) if webcam else background
    canvas = np.clip(table(rng, side, side), 0, 255).astype(np.float32)
    face = deck.faces[card].copy()
    if rng.random() < (0.4 if card[0] == "A" else 0.05):
        brand_print(rng, face, deck.index_box)
    s = ch / face.shape[0]  # shrunk by area first: a warp alone would alias the print
    face = cv2.resize(face, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    fh, fw = face.shape[:2]
    angle = rng.uniform(0, 2 * np.pi)
    c, si = np.cos(angle), np.sin(angle)
    centre = side / 2 + rng.normal(0, side * 0.05, 2)
    m = np.array([[c, -si, 0], [si, c, 0], [0, 0, 1]], np.float64)
    m[:2, 2] = centre - m[:2, :2] @ np.array([fw / 2, fh / 2])
    corners = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
    placed = cv2.perspectiveTransform(corners[None], m)[0]
    tilted = placed + rng.normal(0, ch * 0.025, (4, 2)).astype(np.float32)
    h = cv2.getPerspectiveTransform(corners, tilted).astype(np.float64)
    rounded = _rounded_mask(fh, fw, 0.06 * fw)
    if rng.random() < 0.15:  # another card under this one: their faces may make one body
        other = deck.faces[str(rng.choice(list(deck.faces)))]
        other = cv2.resize(other, (fw, fh), interpolation=cv2.INTER_AREA)
        shift = rng.normal(0, 1, 2)
        shift *= rng.uniform(0.4, 0.9) * fw / max(float(np.hypot(*shift)), 1e-6)
        under = np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1]]) @ h
        under_mask = cv2.warpPerspective(rounded, under, (side, side))[..., None] / 255.0
        under_art = cv2.warpPerspective(other, under, (side, side), flags=cv2.INTER_LINEAR)
        canvas = canvas * (1 - under_mask) + under_art * under_mask
    mask = cv2.warpPerspective(rounded, h, (side, side)) / 255.0
    if rng.random() < 0.3:  # a soft shadow under the card
        shade = cv2.GaussianBlur(mask, (0, 0), ch * 0.03 + 1)
        canvas *= (1 - 0.35 * np.roll(shade, (2, 2), (0, 1)))[..., None]
    art = cv2.warpPerspective(face, h, (side, side), flags=cv2.INTER_LINEAR)
    canvas = canvas * (1 - mask[..., None]) + art * mask[..., None]
    if rng.random() < 0.1:  # a finger across the face
        img, mk = _finger(rng, ch * rng.uniform(0.4, 0.8), ch * rng.uniform(0.1, 0.16))
        a = rng.uniform(0, 2 * np.pi)
        fm = np.array(
            [
                [np.cos(a), -np.sin(a), rng.uniform(0, side)],
                [np.sin(a), np.cos(a), rng.uniform(0, side)],
            ]
        )
        fmask = cv2.warpAffine(mk, fm, (side, side)) / 255.0
        fimg = cv2.warpAffine(img, fm, (side, side))
        canvas = canvas * (1 - fmask[..., None]) + fimg * fmask[..., None]
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    image = webcam_camera(image, rng) if webcam else apply_camera(image, rng)
    boxes = []
    for q in index_quads(deck):
        p = cv2.perspectiveTransform(q[None] * s, h)[0]
        boxes.append((*p.min(0).tolist(), *p.max(0).tolist()))
    found = with_bodies(image, [DetectedCard(card, 1.0, boxes[0], corners=tuple(boxes))])
    outline = found[0].outline if found else None
    if outline is None:
        (x, y), (w, hh), ang = cv2.minAreaRect(tilted)
        x, y = x + rng.normal(0, 0.03 * w), y + rng.normal(0, 0.03 * hh)
        w, hh = w * rng.normal(1, 0.04), hh * rng.normal(1, 0.04)
        truth: Outline = ((x, y), (w, hh), ang + rng.normal(0, 2))
        return face_crop(image, truth), None
    return face_crop(image, outline), outline


def _one(args: tuple[int, int]) -> tuple[np.ndarray, int, int, int]:
    from vision import CARDS

    seed, i = args
    rng = np.random.default_rng([seed, i])
    deck = _DECKS[int(rng.integers(len(_DECKS)))]
    card = str(CARDS[int(rng.integers(len(CARDS)))])
    face, outline = face_sample(rng, deck, card)
    return face, SUITS.index(card[-1]), RANKS.index(card[:-1]), int(outline is not None)


def make_faces(
    out: Path,
    n: int,
    seed: int,
    workers: int = 2,
    val_frac: float = 0.05,
    face_root: Path = CACHE_DIR / "faces",
) -> list[str]:
    """Write ``n`` training faces (:func:`face_sample`) to ``out/{train,val}.npz``.

    Each holds ``x`` (N, H, W, 3) uint8 BGR faces, ``suit`` and ``rank`` (indices into
    :data:`vision.SUITS` and :data:`vision.RANKS`) and ``found`` (1 where
    the reader's own outline was used). Face ``i`` depends only on ``(seed, i)``, given the
    decks: those of the face cache ``face_root`` and the styled ones, but
    :data:`HELD_OUT_DECKS`, named in ``out/recipe.json`` and returned.
    """
    out.mkdir(parents=True, exist_ok=True)
    from vision.training.synth.faces import rendered_deck_names
    from vision.training.synth.webcam import styled_decks

    styled = [deck.name for deck in styled_decks()]  # drawn once here, not by every worker
    cached = rendered_deck_names(face_root)
    decks = [name for name in cached + styled if name not in HELD_OUT_DECKS]
    with get_context("spawn").Pool(workers, initializer=_init, initargs=(face_root,)) as pool:
        rows = pool.map(_one, [(seed, i) for i in range(n)], chunksize=64)
    n_val = max(1, round(n * val_frac))
    for split, part in (("train", rows[: n - n_val]), ("val", rows[n - n_val :])):
        x, suit, rank, found = zip(*part, strict=True)
        np.savez(
            out / f"{split}.npz",
            x=np.stack(x),
            suit=np.array(suit, np.int8),
            rank=np.array(rank, np.int8),
            found=np.array(found, np.int8),
        )
    recipe = {"n": n, "seed": seed, "held_out_decks": HELD_OUT_DECKS, "decks": decks}
    (out / "recipe.json").write_text(json.dumps(recipe, indent=1))
    return decks


def _inputs(x: np.ndarray) -> torch.Tensor:
    """The network's input from uint8 BGR faces: paper-balanced, clipped, NCHW float."""
    import torch

    return torch.from_numpy(np.clip(paper_balanced(x), 0, 1.5).transpose(0, 3, 1, 2).copy())


def _augment(x: torch.Tensor) -> torch.Tensor:
    """Light photometric jitter and mirroring of a balanced batch (paper near 1)."""
    import torch

    n = x.shape[0]
    gain = 1 + 0.08 * torch.randn(n, 3, 1, 1)
    x = (x - 1) * (1 + 0.2 * torch.randn(n, 1, 1, 1)).clamp(0.5, 1.6) + 1
    x = x * gain + 0.03 * torch.rand(n, 1, 1, 1) * torch.randn_like(x)
    flip = torch.rand(n) < 0.5
    x[flip] = x[flip].flip(-1)
    turn = torch.rand(n) < 0.5
    x[turn] = x[turn].flip(-1).flip(-2)
    return x.clamp(0, 1.5)


def train(
    data: Path | list[Path],
    models_dir: Path,
    minutes: float = 60.0,
    epochs: int = 12,
    batch: int = 128,
    lr: float = 2e-3,
    seed: int = 0,
    init: Path | None = None,
) -> Path:
    """Train the body model on ``data/{train,val}.npz`` and export it to ``models_dir``.

    AdamW with warm-up and cosine decay over ``epochs`` or ``minutes``, whichever ends first;
    the epoch with the best validation suit accuracy is exported. A checkpoint is written
    after every epoch (``models_dir/last.pt``), and a rerun resumes from it. Several ``data``
    folders are pooled; ``init`` (a ``best.pt`` of an earlier run) is fine-tuned from.
    """
    import torch
    import torch.nn.functional as F

    from vision.training.classifier import index_net
    from vision.training.train import scheduled

    torch.manual_seed(seed)
    folders = data if isinstance(data, list) else [data]
    tr, va = (
        {
            k: np.concatenate([np.load(d / f"{split}.npz")[k] for d in folders])
            for k in ("x", "suit", "rank")
        }
        for split in ("train", "val")
    )
    xtr, xva = _inputs(tr["x"]), _inputs(va["x"])
    str_, rtr = (torch.from_numpy(tr[k].astype(np.int64)) for k in ("suit", "rank"))
    sva, rva = (torch.from_numpy(va[k].astype(np.int64)) for k in ("suit", "rank"))
    model = index_net(len(SUITS) + len(RANKS), WIDTH)
    if init is not None:
        model.load_state_dict(torch.load(init))
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    models_dir.mkdir(parents=True, exist_ok=True)
    ck = models_dir / "last.pt"
    start, best, spent = 0, -1.0, 0.0
    if ck.exists():
        st = torch.load(ck, weights_only=False)  # our own checkpoint
        model.load_state_dict(st["model"])
        opt.load_state_dict(st["opt"])
        start, best, spent = st["epoch"] + 1, st["best"], st["seconds"]
    per_epoch = (len(xtr) + batch - 1) // batch
    steps, step = epochs * per_epoch, start * per_epoch
    t0, budget = time.time() - spent, minutes * 60
    progress = 0.0
    for ep in range(start, epochs):
        model.train()
        perm = torch.randperm(len(xtr))
        for i in range(0, len(xtr), batch):
            j = perm[i : i + batch]
            out = model(_augment(xtr[j].clone()))
            loss = F.cross_entropy(out[:, :4], str_[j], label_smoothing=0.05) + F.cross_entropy(
                out[:, 4:], rtr[j], label_smoothing=0.05
            )
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            step += 1
            progress = scheduled(opt, lr, step / steps, (time.time() - t0) / budget)
            if progress >= 1.0:
                break
        suit_acc, rank_acc = evaluate(model, xva, sva, rva)
        print(
            f"epoch {ep + 1}/{epochs} loss {float(loss.detach()):.3f} val suit {suit_acc:.4f} "
            f"rank {rank_acc:.4f} {time.time() - t0:.0f}s {step} steps",
            flush=True,
        )
        if suit_acc >= best:
            best = suit_acc
            torch.save(model.state_dict(), models_dir / "best.pt")
        state = {"model": model.state_dict(), "opt": opt.state_dict(), "epoch": ep}
        torch.save(state | {"best": best, "seconds": time.time() - t0}, ck)
        if progress >= 1.0:
            break
    model.load_state_dict(torch.load(models_dir / "best.pt"))
    suit_acc, rank_acc = evaluate(model, xva, sva, rva)
    info = {"val_suit": round(suit_acc, 4), "val_rank": round(rank_acc, 4), "steps": step}
    return export(model, models_dir, info)


def evaluate(
    model: torch.nn.Module, x: torch.Tensor, suit: torch.Tensor, rank: torch.Tensor
) -> tuple[float, float]:
    """Suit and rank accuracy of ``model`` on balanced faces ``x``."""
    import torch

    model.eval()
    with torch.no_grad():
        out = torch.cat([model(x[i : i + 512]) for i in range(0, len(x), 512)])
    s = float((out[:, :4].argmax(1) == suit).float().mean())
    r = float((out[:, 4:].argmax(1) == rank).float().mean())
    return s, r


def export(model: torch.nn.Module, models_dir: Path, info: dict[str, object]) -> Path:
    """Write ``card_body.onnx`` (input ``faces``: N x 3 x H x W, outputs ``suits``, ``ranks``)."""
    import torch

    class TwoHeads(torch.nn.Module):
        def __init__(self, net: torch.nn.Module) -> None:
            super().__init__()
            self.net = net

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            out = self.net(x)
            return out[:, :4], out[:, 4:]

    model.eval()
    dst = models_dir / BODY_ONNX
    fw, fh = FACE_SIZE
    torch.onnx.export(
        TwoHeads(model),
        torch.ones(1, 3, fh, fw),
        str(dst),
        input_names=["faces"],
        output_names=["suits", "ranks"],
        dynamic_axes={"faces": {0: "n"}, "suits": {0: "n"}, "ranks": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    meta = {"face_size": list(FACE_SIZE), "suits": list(SUITS), "ranks": list(RANKS)}
    meta |= {"index_corner": list(INDEX_CORNER), "width": WIDTH}
    dst.with_suffix(".json").write_text(json.dumps(meta | info, indent=1))
    return dst


def main(argv: list[str] | None = None) -> None:
    """Make faces, or train and export the body model (``argv``: the command line's words)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    f = sub.add_parser("faces", help="write training faces")
    f.add_argument("--out", type=Path, required=True)
    f.add_argument("--n", type=int, default=60000)
    f.add_argument("--seed", type=int, default=500)
    f.add_argument("--workers", type=int, default=2)
    t = sub.add_parser("train", help="train and export card_body.onnx")
    t.add_argument("--data", type=Path, nargs="+", required=True)
    t.add_argument("--models", type=Path, default=MODELS_DIR)
    t.add_argument("--minutes", type=float, default=60.0)
    t.add_argument("--epochs", type=int, default=12)
    t.add_argument("--lr", type=float, default=2e-3)
    t.add_argument("--init", type=Path, default=None, help="a best.pt to fine-tune from")
    a = ap.parse_args(argv)
    if a.command == "faces":
        if a.n < 2 or a.workers < 1:
            ap.error("--n must be at least 2 (a face to train on, one to validate), --workers 1")
        from vision.training.synth.faces import build_all

        build_all()  # every deck: those missing from the face cache are rendered first
        decks = make_faces(a.out, a.n, a.seed, a.workers)
        print(f"wrote {a.n} faces from {len(decks)} decks to {a.out}")
    else:
        missing = [d for d in a.data if not (d / "train.npz").exists()]
        if missing:
            ap.error(f"{missing[0]} holds no faces (train.npz): make them with the faces command")
        print(train(a.data, a.models, a.minutes, a.epochs, lr=a.lr, init=a.init))


if __name__ == "__main__":
    main()
