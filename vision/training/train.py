"""Train the reader's two models and export them to ONNX in ``models/``.

1. ``detect``: a one-class YOLOv8n detector of printed corner indices, trained from scratch with
   Ultralytics (imported lazily, only here), or fine-tuned from a checkpoint or from the
   shipped ONNX export (``--det-init models/index_detector.onnx``).
2. ``classify``: a small CNN (:func:`vision.training.classifier.index_net`) that names the card
   (52 classes + "none") from a 64x64 crop around each detected index.

Both are resumable from ``runs/<name>/.../last.pt`` and can run in the background with nohup.

Usage:
    python -m vision.training.synth.faces
    python -m vision.training.synth.generate --out datasets/cards --n 10000 --seed 0
    python -m vision.training.train all --data datasets/cards --device 0 --det-epochs 40 --imgsz 640
    python -m vision.training.train detect --data datasets/cards --resume  # after an interruption
    nohup python -m vision.training.train all --data datasets/cards > runs/train.log 2>&1 &  # CPU
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import time
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision import MODELS_DIR, REPO_ROOT
from vision.certainty import SERVING_CERTAINTY
from vision.crops import CROP_SCALE, CROP_SIZE, normalize_crops
from vision.detection import DET_ONNX
from vision.evidence import soften_sharp_crops
from vision.training.detector_init import (
    calibration_photos,
    detector_from_onnx,
    identity_batch_norm,
    save_checkpoint,
)

if TYPE_CHECKING:
    import torch

RUNS = REPO_ROOT / "runs"
CLS_ONNX = "card_classifier.onnx"


def _yolo_env() -> None:
    """Point Ultralytics at a project config dir, offline, with a local font for plots."""
    cfg = Path(os.environ.setdefault("YOLO_CONFIG_DIR", str(REPO_ROOT / ".yolo")))
    os.environ.setdefault("YOLO_OFFLINE", "1")
    font_dir = cfg / "Ultralytics"
    font_dir.mkdir(parents=True, exist_ok=True)
    src = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        if src.exists() and not (font_dir / name).exists():
            shutil.copy(src, font_dir / name)


def _polars_fallback() -> None:
    """Let Ultralytics training run without polars (only used to re-read results.csv)."""
    try:
        import polars  # noqa: F401
    except ImportError:
        import csv

        from ultralytics.engine.trainer import BaseTrainer

        def read_results_csv(self: BaseTrainer) -> dict:
            try:
                with open(self.csv, newline="") as f:
                    rows = list(csv.DictReader(f))
            except OSError:
                return {}
            return {k.strip(): [float(r[k]) for r in rows] for k in (rows[0] if rows else {})}

        BaseTrainer.read_results_csv = read_results_csv


def train_detector(
    data: Path,
    epochs: int = 40,
    imgsz: int = 640,
    batch: int = 16,
    device: str = "cpu",
    workers: int = 0,
    name: str = "det",
    resume: bool = False,
    hours: float | None = None,
    seed: int = 0,
    models_dir: Path = MODELS_DIR,
    project: Path = RUNS,
    cache: bool | str = False,
    init: Path | None = None,
    lr: float = 0.002,
) -> Path:
    """Train the one-class corner-index detector and export ONNX.

    Args:
        data (Path): Dataset folder holding ``cards.yaml`` (or the YAML itself).
        epochs (int): Epochs (``close_mosaic`` is set to the last 20%).
        imgsz (int): Training and export image size.
        batch (int): Batch size.
        device (str): ``"cpu"`` or a CUDA index such as ``"0"``.
        workers (int): Dataloader workers (0 on CPU).
        name (str): Run name under ``project``.
        resume (bool): Continue from ``project/name/weights/last.pt``.
        hours (float | None): Optional wall-clock budget; Ultralytics fits the epochs to it.
        seed (int): Training seed.
        models_dir (Path): Where the ONNX model is copied.
        project (Path): Runs folder.
        cache (bool | str): Ultralytics image cache (``"ram"`` on big machines).
        init (Path | None): Start from these detector weights (fine-tuning) instead of scratch:
            an Ultralytics checkpoint, or an exported ``index_detector.onnx``, rebuilt as a
            trainable model first (:mod:`vision.training.detector_init`, written to
            ``project/name/init.pt``).
        lr (float): Initial AdamW learning rate (lower to fine-tune).

    Returns:
        (Path): The exported ONNX file in ``models_dir``.

    Raises:
        RuntimeError: ``hours`` ended before the first epoch did (nothing was saved).
    """
    _yolo_env()
    from ultralytics import YOLO

    _polars_fallback()
    yaml = data / "cards.yaml" if data.is_dir() else data
    project = project.resolve()  # Ultralytics puts a relative project under its own runs folder
    last = project / name / "weights" / "last.pt"
    if resume and last.exists():
        model = YOLO(str(last))
        model.train(resume=True)
    else:
        if init and init.suffix == ".onnx":
            init = _rebuilt(init, yaml.parent, imgsz, project / name / "init.pt")
        model = YOLO(str(init)) if init else YOLO("yolov8n.yaml")
        args = dict(
            data=str(yaml.resolve()),
            epochs=epochs,
            imgsz=imgsz,
            batch=batch,
            device=device,
            workers=workers,
            project=str(project),
            name=name,
            exist_ok=True,
            seed=seed,
            optimizer="AdamW",
            lr0=lr,
            cos_lr=True,
            # warm-up steadies a start from random weights; from trained ones its bias rate
            # (0.1, Ultralytics' warmup_bias_lr) would throw away the biases of a short run
            warmup_epochs=0 if init else min(3, max(1, epochs // 10)),
            close_mosaic=max(1, epochs // 5),
            fliplr=0.0,
            degrees=0.0,
            mosaic=1.0,
            scale=0.5,
            plots=False,
            amp=False,
            patience=1000,
            verbose=False,
            cache=cache,
        )
        if hours:
            args["time"] = hours
        model.train(**args)
    best = project / name / "weights" / "best.pt"
    if not best.exists() and not last.exists():  # the time budget ended before an epoch did
        raise RuntimeError(f"no epoch of {name} finished within {hours} h: nothing to export")
    return export_detector(best if best.exists() else last, imgsz, models_dir)


def _rebuilt(onnx_path: Path, data: Path, imgsz: int, checkpoint: Path) -> Path:
    """The exported detector as a checkpoint to fine-tune, its batch norms set on ``data``."""
    photos = calibration_photos(data, imgsz)
    return save_checkpoint(detector_from_onnx(onnx_path, photos), checkpoint)


def export_detector(weights: Path, imgsz: int, models_dir: Path = MODELS_DIR) -> Path:
    """Export detector weights to ONNX (fixed input ``imgsz``) and copy into ``models_dir``."""
    _yolo_env()
    import torch
    from ultralytics import YOLO

    with warnings.catch_warnings():  # tracing the detection head's shape checks, as intended
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        exported = YOLO(str(weights)).export(format="onnx", imgsz=imgsz, simplify=False, opset=17)
    onnx = Path(exported)
    models_dir.mkdir(parents=True, exist_ok=True)
    dst = models_dir / DET_ONNX
    shutil.copy(onnx, dst)
    return dst


def _augment(x: torch.Tensor) -> torch.Tensor:
    """Photometric augmentation on a float batch in [0, 1] (on the training device)."""
    import torch

    n = x.shape[0]
    dev = x.device
    gain = 1 + 0.15 * torch.randn(n, 3, 1, 1, device=dev)
    con = 1 + 0.25 * (torch.rand(n, 1, 1, 1, device=dev) - 0.5) * 2
    bri = 0.15 * (torch.rand(n, 1, 1, 1, device=dev) - 0.5) * 2
    m = x.mean((1, 2, 3), keepdim=True)
    x = ((x - m) * con + m) * gain + bri
    x = x + 0.03 * torch.rand(n, 1, 1, 1, device=dev) * torch.randn_like(x)
    # random occluding band from one side (fingers / neighbouring cards), vectorised
    s = x.shape[-1]
    ar = torch.arange(s, device=dev).float()
    side = torch.randint(0, 4, (n, 1, 1), device=dev)
    depth = (torch.rand(n, 1, 1, device=dev) * 0.35 * s).where(
        torch.rand(n, 1, 1, device=dev) < 0.25, torch.zeros(1, device=dev)
    )
    yy, xx = ar[None, :, None], ar[None, None, :]
    coord = torch.where(
        side == 0, xx, torch.where(side == 1, s - 1 - xx, torch.where(side == 2, yy, s - 1 - yy))
    )
    occ = (coord < depth).unsqueeze(1)
    x = torch.where(occ, torch.rand(n, 3, 1, 1, device=dev), x)
    return x.clamp(0, 1)


def _hard_light(x: torch.Tensor, p: float) -> torch.Tensor:
    """Blur or overexpose a random share ``p`` of a float batch in [0, 1] (half each).

    The two conditions the shipped reader reads worst: a Gaussian blur of sigma 0.5-2.5 crop
    pixels, and clipped highlights (x1.3-1.9 + 15-60 grey levels), which pale red ink. The
    generator renders both in some scenes; this shows the classifier more of them per crop.
    """
    import torch
    import torch.nn.functional as F

    n, c, s, _ = x.shape
    dev = x.device
    u = torch.rand(n, device=dev)
    blur = torch.nonzero(u < p / 2).flatten()
    if len(blur):
        sigma = 0.5 + 2.0 * torch.rand(len(blur), 1, device=dev)
        r = torch.arange(-5, 6, device=dev).float()
        k = torch.exp(-(r**2) / (2 * sigma**2))
        k = (k / k.sum(1, keepdim=True)).repeat_interleave(c, 0)  # (len * c, 11)
        z = x[blur].reshape(1, len(blur) * c, s, s)
        z = F.conv2d(F.pad(z, (5, 5, 0, 0), mode="replicate"), k[:, None, None, :], groups=len(k))
        z = F.conv2d(F.pad(z, (0, 0, 5, 5), mode="replicate"), k[:, None, :, None], groups=len(k))
        x = x.index_copy(0, blur, z.reshape(len(blur), c, s, s))
    bright = torch.nonzero((u >= p / 2) & (u < p)).flatten()
    if len(bright):
        gain = 1.3 + 0.6 * torch.rand(len(bright), 1, 1, 1, device=dev)
        offset = (15 + 45 * torch.rand(len(bright), 1, 1, 1, device=dev)) / 255
        x = x.index_copy(0, bright, (x[bright] * gain + offset).clamp(0, 1))
    return x


def load_onnx_weights(model: torch.nn.Module, onnx_path: Path) -> None:
    """Load an exported classifier's weights into ``model`` (an ``index_net`` of its width).

    The export folds each batch norm into its convolution, so the convolutions take the folded
    weights and the batch norms become the identity (mean 0, variance 1 - eps, scale 1) with the
    folded bias as their shift: in eval mode ``model`` then computes what the ONNX file does.
    Fine-tuning keeps the batch norms in eval mode (see :func:`train_classifier`).

    Args:
        model (torch.nn.Module): The network to fill.
        onnx_path (Path): ``card_classifier.onnx`` as written by :func:`export_classifier`.

    Raises:
        ValueError: The file's layers do not match ``model``.
    """
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(str(onnx_path)).graph
    weights = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    gemm = [n for n in graph.node if n.op_type == "Gemm"]
    mods = list(model.modules())
    pairs = [
        (c, b)
        for c, b in itertools.pairwise(mods)
        if isinstance(c, torch.nn.Conv2d) and isinstance(b, torch.nn.BatchNorm2d)
    ]
    linear = [m for m in mods if isinstance(m, torch.nn.Linear)]
    if len(pairs) != len(convs) or len(gemm) != 1 or len(linear) != 1:
        raise ValueError(f"{onnx_path} does not match the network ({len(convs)} convolutions)")
    with torch.no_grad():
        for (conv, bn), node in zip(pairs, convs, strict=True):
            w, b = weights[node.input[1]], weights[node.input[2]]
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{onnx_path}: layer shape {w.shape} != {conv.weight.shape}")
            conv.weight.copy_(torch.from_numpy(w.copy()))
            identity_batch_norm(bn, torch.from_numpy(b.copy()))
        linear[0].weight.copy_(torch.from_numpy(weights[gemm[0].input[1]].copy()))
        linear[0].bias.copy_(torch.from_numpy(weights[gemm[0].input[2]].copy()))


def _normalized(x: torch.Tensor) -> torch.Tensor:
    """:func:`vision.crops.normalize_crops` on a float NCHW batch in [0, 1] (as uint8 crops)."""
    import torch

    crops = (x * 255).round().byte().permute(0, 2, 3, 1).cpu().numpy()
    out = torch.from_numpy(normalize_crops(crops)).permute(0, 3, 1, 2)
    return out.to(x.device).float() / 255


def scheduled(opt: torch.optim.Optimizer, lr: float, of_steps: float, of_time: float) -> float:
    """How much of a training run is done, its optimizer's rate set for it.

    Whichever runs out first counts: ``of_steps`` (the share of its steps taken) or ``of_time``
    (of its time budget). The rate warms up over the first 5 %, then decays as a cosine.
    """
    progress = min(1.0, max(of_steps, of_time))
    for group in opt.param_groups:
        group["lr"] = lr * min(1.0, progress / 0.05) * 0.5 * (1 + np.cos(np.pi * progress))
    return progress


def train_classifier(
    data: Path | list[Path],
    epochs: int = 20,
    batch: int = 256,
    device: str = "cpu",
    lr: float = 2e-3,
    name: str = "cls",
    resume: bool = False,
    minutes: float | None = None,
    seed: int = 0,
    models_dir: Path = MODELS_DIR,
    project: Path = RUNS,
    width: int = 24,
    init: Path | None = None,
    normalize: bool = False,
    hard_light: float = 0.0,
    crop_scale: float = CROP_SCALE,
    soften: float = 0.0,
) -> Path:
    """Train the crop classifier on ``data/crops/{train,val}.npz`` and export ONNX.

    Args:
        data (Path | list[Path]): Dataset folder from :mod:`vision.training.synth.generate`, or
            several (their crops are pooled).
        epochs (int): Epochs (warm-up + cosine schedule, compressed to fit ``minutes`` if given).
        batch (int): Batch size.
        device (str): ``"cpu"``, ``"cuda"`` or a CUDA index.
        lr (float): Peak AdamW learning rate.
        name (str): Run name under ``project`` (checkpoint ``last.pt`` each epoch).
        resume (bool): Continue from the checkpoint.
        minutes (float | None): Optional wall-clock budget; the schedule ends when it is spent.
        seed (int): Seed.
        models_dir (Path): Where the ONNX model is written.
        project (Path): Runs folder.
        width (int): Network width.
        init (Path | None): Fine-tune from this exported ``card_classifier.onnx`` (of the same
            width) instead of starting from scratch; its batch norms stay frozen.
        normalize (bool): Stretch every crop's contrast (:func:`vision.crops.normalize_crops`)
            after augmentation, as the reader then does before classifying (recorded in the
            exported JSON).
        hard_light (float): Share of training crops blurred or overexposed on top of the
            generator's own effects (:func:`_hard_light`), before the other augmentation.
        crop_scale (float): The scale the crops were cut at (recorded in the model's JSON,
            which the reader cuts by).
        soften (float): Soften the crops not blurred already by this Gaussian (crop pixels),
            by the reader's rule (:func:`vision.evidence.soften_sharp_crops` at the serving
            certainty's blurred bar), before training and validating; 0: as generated.

    Returns:
        (Path): The exported ONNX file.
    """
    import torch
    import torch.nn.functional as F

    from vision.training.classifier import index_net
    from vision.training.synth.generate import CLASS_NAMES

    if device.isdigit():
        device = f"cuda:{device}"
    torch.manual_seed(seed)
    np.random.seed(seed)
    folders = data if isinstance(data, list) else [data]
    tr, va = (
        {
            k: np.concatenate([np.load(d / "crops" / f"{split}.npz")[k] for d in folders])
            for k in ("x", "y")
        }
        for split in ("train", "val")
    )
    if soften > 0:
        bar = SERVING_CERTAINTY.blurred_below
        tr["x"], va["x"] = (soften_sharp_crops(d["x"], bar, soften) for d in (tr, va))
    to_t = lambda a: torch.from_numpy(a).permute(0, 3, 1, 2).contiguous()  # noqa: E731
    xtr, ytr = to_t(tr["x"]).to(device), torch.from_numpy(tr["y"].astype(np.int64)).to(device)
    xva, yva = to_t(va["x"]).to(device), torch.from_numpy(va["y"].astype(np.int64)).to(device)
    if normalize:
        xva = _normalized(xva.float() / 255).mul(255).round().byte()
    model = index_net(len(CLASS_NAMES), width)
    if init is not None:
        load_onnx_weights(model, init)
    model = model.to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    per_epoch = max(1, (len(xtr) + batch - 1) // batch)
    steps = epochs * per_epoch
    run = project / name
    run.mkdir(parents=True, exist_ok=True)
    ck = run / "last.pt"
    start, best, spent = 0, -1.0, 0.0
    if resume and ck.exists():
        st = torch.load(ck, map_location=device, weights_only=False)  # our own checkpoint
        model.load_state_dict(st["model"])
        opt.load_state_dict(st["opt"])
        start, best = st["epoch"] + 1, st["best"]
        spent = st.get("seconds", 0.0)  # the time budget goes on where it stopped
    t0 = time.time() - spent
    budget = minutes * 60 if minutes else float("inf")
    step = start * per_epoch
    progress = 0.0
    for ep in range(start, epochs):
        model.train()
        if init is not None:  # the loaded batch norms are folded constants: keep them so
            for m in model.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.eval()
        perm = torch.randperm(len(xtr), device=device)
        tot, n = 0.0, 0
        for i in range(0, len(xtr), batch):
            j = perm[i : i + batch]
            xb = xtr[j].float() / 255
            if hard_light:
                xb = _hard_light(xb, hard_light)
            xb = _augment(xb)
            if normalize:
                xb = _normalized(xb)
            with torch.autocast("cuda", torch.bfloat16, enabled=device.startswith("cuda")):
                loss = F.cross_entropy(model(xb).float(), ytr[j], label_smoothing=0.05)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            step += 1
            progress = scheduled(opt, lr, step / steps, (time.time() - t0) / budget)
            tot += float(loss.detach()) * len(j)
            n += len(j)
            if progress >= 1.0:  # the time budget is spent: end inside the epoch
                break
        acc = evaluate_classifier(model, xva, yva)
        msg = (
            f"epoch {ep + 1}/{epochs} loss {tot / max(n, 1):.4f} val_acc {acc:.4f} "
            f"{time.time() - t0:.0f}s, {step} steps, {n} crops this epoch"
        )
        print(msg, flush=True)
        with open(run / "log.txt", "a") as log:
            log.write(msg + "\n")
        if acc >= best:
            best = acc
            torch.save(model.state_dict(), run / "best.pt")
        checkpoint = {"model": model.state_dict(), "opt": opt.state_dict(), "epoch": ep}
        torch.save(checkpoint | {"best": best, "seconds": time.time() - t0}, ck)
        if progress >= 1.0:
            print("schedule finished (steps or time budget)", flush=True)
            break
    model.load_state_dict(torch.load(run / "best.pt", map_location=device))
    info = {"val_acc": best, "width": width, "normalize": normalize, "crop_scale": crop_scale}
    if soften > 0:
        info["trained_softened"] = soften
    return export_classifier(model.cpu(), models_dir, info)


@np.errstate(all="ignore")
def evaluate_classifier(model: torch.nn.Module, x: torch.Tensor, y: torch.Tensor) -> float:
    """Top-1 accuracy of ``model`` on uint8 NCHW crops ``x`` with labels ``y``."""
    import torch

    model.eval()
    ok = 0
    with torch.no_grad():
        for i in range(0, len(x), 1024):
            ok += int((model(x[i : i + 1024].float() / 255).argmax(1) == y[i : i + 1024]).sum())
    return ok / max(1, len(x))


def export_classifier(
    model: torch.nn.Module, models_dir: Path = MODELS_DIR, info: dict | None = None
) -> Path:
    """Export the classifier to ONNX (input ``images``: N x 3 x 64 x 64 BGR in [0, 1])."""
    import torch

    from vision.training.synth.generate import CLASS_NAMES

    models_dir.mkdir(parents=True, exist_ok=True)
    dst = models_dir / CLS_ONNX
    model.eval()
    torch.onnx.export(
        model,
        torch.zeros(1, 3, CROP_SIZE, CROP_SIZE),
        str(dst),
        input_names=["images"],
        output_names=["logits"],
        dynamic_axes={"images": {0: "n"}, "logits": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    (models_dir / "card_classifier.json").write_text(
        json.dumps(
            {
                "classes": list(CLASS_NAMES),
                "crop_size": CROP_SIZE,
                "crop_scale": CROP_SCALE,
                **(info or {}),
            },
            indent=1,
        )
    )
    return dst


def main() -> None:
    """CLI entry point."""
    ap = argparse.ArgumentParser(description="Train the corner-index detector and card classifier.")
    ap.add_argument("task", choices=["detect", "classify", "all"])
    ap.add_argument(
        "--data",
        type=Path,
        nargs="+",
        default=[Path("datasets/cards")],
        help="dataset folder (the classifier also takes several and pools their crops)",
    )
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--imgsz", type=int, default=640)
    ap.add_argument("--det-epochs", type=int, default=40)
    ap.add_argument("--det-batch", type=int, default=16)
    ap.add_argument("--det-hours", type=float, default=None)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument(
        "--det-init", type=Path, default=None,
        help="fine-tune from these weights (a checkpoint, or the exported index_detector.onnx)",
    )  # fmt: skip
    ap.add_argument("--det-lr", type=float, default=0.002)
    ap.add_argument("--det-cache", default=None, help="ram or disk: cache decoded training images")
    ap.add_argument("--cls-epochs", type=int, default=20)
    ap.add_argument("--cls-batch", type=int, default=256)
    ap.add_argument("--cls-minutes", type=float, default=None)
    ap.add_argument("--cls-lr", type=float, default=2e-3)
    ap.add_argument("--cls-init", type=Path, default=None, help="fine-tune from this ONNX file")
    ap.add_argument(
        "--cls-normalize", action="store_true", help="stretch crop contrast (vision.crops)"
    )
    ap.add_argument(
        "--cls-hard-light",
        type=float,
        default=0.0,
        help="share of crops blurred or overexposed on top of the generator's effects",
    )
    ap.add_argument(
        "--cls-crop-scale",
        type=float,
        default=CROP_SCALE,
        help="the scale the crops were cut at, recorded in the model's JSON (the context "
        "model's crops: 3.0, vision.training.context_crops)",
    )
    ap.add_argument(
        "--cls-soften",
        type=float,
        default=0.0,
        help="soften the crops not blurred already by this Gaussian, as the reader does "
        "(vision.crops.SOFTEN_SIGMA is the reader's)",
    )
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--models", type=Path, default=MODELS_DIR)
    ap.add_argument("--project", type=Path, default=RUNS)
    a = ap.parse_args()
    if a.task in ("detect", "all") and len(a.data) > 1:
        ap.error("the detector trains on one --data folder")
    if a.task in ("classify", "all"):
        p = train_classifier(
            a.data,
            a.cls_epochs,
            a.cls_batch,
            a.device,
            lr=a.cls_lr,
            resume=a.resume,
            minutes=a.cls_minutes,
            init=a.cls_init,
            normalize=a.cls_normalize,
            hard_light=a.cls_hard_light,
            crop_scale=a.cls_crop_scale,
            soften=a.cls_soften,
            models_dir=a.models,
            project=a.project,
        )
        print(f"classifier -> {p}")
    if a.task in ("detect", "all"):
        p = train_detector(
            a.data[0],
            a.det_epochs,
            a.imgsz,
            a.det_batch,
            a.device,
            a.workers,
            resume=a.resume,
            hours=a.det_hours,
            models_dir=a.models,
            project=a.project,
            cache=a.det_cache or False,
            init=a.det_init,
            lr=a.det_lr,
        )
        print(f"detector -> {p}")


if __name__ == "__main__":
    main()
