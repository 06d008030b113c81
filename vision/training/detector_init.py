"""A trainable detector rebuilt from its ONNX export, so that a run can fine-tune the shipped one.

Only ``index_detector.onnx`` ships; the Ultralytics checkpoints of the runs that made it did not
outlive their machines. The export keeps every layer's name and folds each batch norm into the
convolution before it, so the rebuilt YOLOv8n (one class) takes the folded weights, and each
batch norm gets the mean and variance of its convolution's output over a few training photos as
running statistics, with the scale and shift that undo them. In eval mode the model then
computes what the ONNX file does; in training mode, where a batch's own statistics normalise,
each layer starts close to it too, instead of from the identity.

Usage (what ``python -m vision.training.train detect --det-init models/index_detector.onnx`` does)::

    photos = calibration_photos(Path("datasets/cards"), 640)
    save_checkpoint(detector_from_onnx(MODELS_DIR / "index_detector.onnx", photos), out)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

if TYPE_CHECKING:
    import torch

CALIBRATION_PHOTOS = 32
"""Training photos whose activations set the batch norms' statistics."""


def calibration_photos(data: Path, imgsz: int, count: int = CALIBRATION_PHOTOS) -> np.ndarray:
    """The first ``count`` training photos of a generated set, as the detector's input.

    Args:
        data (Path): A set written by :mod:`vision.training.synth.generate` (``images/train``).
        imgsz (int): The detector's input size: each photo is resized to ``imgsz`` square.
        count (int): How many photos.

    Returns:
        (np.ndarray): ``count x 3 x imgsz x imgsz`` float32 RGB in 0..1.

    Raises:
        FileNotFoundError: The set has no training photos.
    """
    files = sorted((data / "images" / "train").glob("*.jpg"))[:count]
    if not files:
        raise FileNotFoundError(f"{data / 'images' / 'train'} holds no photos")
    photos = [cv2.resize(cv2.imread(str(f)), (imgsz, imgsz))[:, :, ::-1] for f in files]
    return np.stack(photos).transpose(0, 3, 1, 2).astype(np.float32) / 255.0


def detector_from_onnx(onnx_path: Path, photos: np.ndarray) -> torch.nn.Module:
    """Rebuild the exported one-class YOLOv8n as a trainable Ultralytics ``DetectionModel``.

    Args:
        onnx_path (Path): ``index_detector.onnx`` as
            :func:`vision.training.train.export_detector` wrote it.
        photos (np.ndarray): Photos for the batch norms' statistics (:func:`calibration_photos`).

    Returns:
        (torch.nn.Module): The model, in eval mode.

    Raises:
        ValueError: The file's layers are not those of a one-class YOLOv8n.
    """
    import onnx
    import torch
    from onnx import numpy_helper
    from ultralytics.nn.modules import Conv
    from ultralytics.nn.tasks import DetectionModel

    weights = {
        t.name: torch.from_numpy(numpy_helper.to_array(t).copy())
        for t in onnx.load(str(onnx_path)).graph.initializer
    }
    model = DetectionModel("yolov8n.yaml", nc=1, verbose=False).eval()
    model.names = {0: "index"}
    blocks = {name: m for name, m in model.named_modules() if isinstance(m, Conv)}
    in_blocks = {f"{n}.conv.{p}" for n in blocks for p in ("weight", "bias")}
    outside = {n for n, _ in model.named_parameters() if n.rsplit(".", 2)[0] not in blocks}
    expected = in_blocks | outside
    if set(weights) != expected:
        missing = sorted(expected - set(weights))[:3] or sorted(set(weights) - expected)[:3]
        raise ValueError(f"{onnx_path} is not a one-class YOLOv8n export (layers {missing} ...)")
    with torch.no_grad():
        plain = dict(model.named_parameters())
        for name, tensor in weights.items():
            block = name.removesuffix(".conv.weight").removesuffix(".conv.bias")
            if block not in blocks:  # a convolution of the head without a batch norm, or the DFL's
                _fill(plain[name], tensor, onnx_path)
            elif name.endswith("weight"):
                _fill(blocks[block].conv.weight, tensor, onnx_path)
        for name, block in blocks.items():
            identity_batch_norm(block.bn, weights[f"{name}.conv.bias"])
        means, variances = _conv_statistics(model, list(blocks.values()), photos)
        for (name, block), mean, variance in zip(blocks.items(), means, variances, strict=True):
            bias = weights[f"{name}.conv.bias"]
            block.bn.running_mean.copy_(mean)
            block.bn.running_var.copy_(variance)
            block.bn.weight.copy_(torch.sqrt(variance + block.bn.eps))
            block.bn.bias.copy_(bias + mean)
    return model


def identity_batch_norm(bn: torch.nn.BatchNorm2d, bias: torch.Tensor) -> None:
    """Make ``bn`` add ``bias`` and nothing else in eval mode (call under ``torch.no_grad``).

    That is what an ONNX export left of a batch norm it folded into the convolution before it,
    ``bias`` being the folded bias.
    """
    bn.running_mean.zero_()
    bn.running_var.fill_(1.0 - bn.eps)
    bn.weight.fill_(1.0)
    bn.bias.copy_(bias)


def _fill(target: torch.Tensor, tensor: torch.Tensor, onnx_path: Path) -> None:
    if target.shape != tensor.shape:
        raise ValueError(f"{onnx_path}: a layer of shape {tuple(tensor.shape)}, not {target.shape}")
    target.copy_(tensor)


def _conv_statistics(
    model: torch.nn.Module, blocks: list[Any], photos: np.ndarray
) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    """Each block's convolution output, per channel: its mean and variance over ``photos``.

    Kept as running sums in double precision, one photo at a time.
    """
    import torch

    counts = [0] * len(blocks)
    totals: list[Any] = [0.0] * len(blocks)
    squares: list[Any] = [0.0] * len(blocks)

    def keep(i: int) -> Any:
        def hook(_module: Any, _inputs: Any, output: torch.Tensor) -> None:
            values = output.transpose(0, 1).flatten(1).double()
            counts[i] += values.shape[1]
            totals[i] = totals[i] + values.sum(1)
            squares[i] = squares[i] + (values * values).sum(1)

        return hook

    handles = [block.conv.register_forward_hook(keep(i)) for i, block in enumerate(blocks)]
    try:
        for photo in photos:
            model(torch.from_numpy(photo[None]))
    finally:
        for handle in handles:
            handle.remove()
    means = [total / n for total, n in zip(totals, counts, strict=True)]
    variances = [
        (square - n * mean * mean) / (n - 1)
        for square, n, mean in zip(squares, counts, means, strict=True)
    ]
    return [m.float() for m in means], [v.float() for v in variances]


def save_checkpoint(model: torch.nn.Module, path: Path) -> Path:
    """Write ``model`` as an Ultralytics checkpoint that ``YOLO(path)`` loads and trains on."""
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "train_args": {}, "epoch": -1}, path)
    return path
