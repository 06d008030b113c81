"""The corner-index detector's serving copy in 8-bit integers: twice as fast on a CPU.

``index_detector.onnx`` (float32) stays the master: training fine-tunes from it (``--det-init``)
and this copy, ``index_detector.int8.onnx``, is made from it by static quantization
(onnxruntime's QDQ format, weights per output channel, activations calibrated by their range on
synthetic scenes letterboxed as the reader letterboxes a photo). The detection head's box
decoding and the convolutions that write its box distances and scores stay in float
(:func:`kept_in_float`): on held-out show-mode tables that kept every table the float detector
grouped without a question right, where quantizing those convolutions too let two more through
(model card, "Speed"). On this CPU (AVX-512 VNNI) a pass costs 43 ms against 88 to 94 ms.
The weights stay 8-bit: an x86 CPU without VNNI would saturate multiplying them
(:func:`vision.detection.load_detector` has it compute exactly instead), and 7-bit weights
(``reduce_range``) cost show-mode tables (model card, "Speed: the detector in 8-bit integers").

The copy records the SHA-256 of the float model it was made from
(:data:`vision.detection.SOURCE_KEY` in its metadata); :func:`vision.detection.load_detector`
serves it only while that matches, so a folder given a new detector but not a new copy reads in
float, never with a stale copy.

Usage (the calibration scenes' seed is used by nothing else):
    python -m vision.training.synth.generate --out datasets/calib90 --n 64 --seed 90 --val-frac 1
    python -m vision.training.quantize models --data datasets/calib90
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from vision.detection import DET_ONNX, INT8_ONNX, SOURCE_KEY, file_sha256, letterbox

CALIBRATION_SCENES = 64
"""Scenes whose activations set the int8 ranges."""
CALIBRATION_SEED = 90
"""Seed of the calibration scenes (no training, choosing or benchmark set uses it)."""


def calibration_inputs(data: Path, size: int, limit: int = CALIBRATION_SCENES) -> list[np.ndarray]:
    """The detector's inputs for the first ``limit`` validation scenes of a generated set."""
    from vision.training.synth.generate import scene_image

    scenes = (data / "meta" / "val.jsonl").read_text().splitlines()[:limit]
    return [letterbox(scene_image(data, json.loads(line)), size)[0] for line in scenes]


def kept_in_float(model: Any) -> list[str]:
    """Names of the nodes of the detection head (the last layer, ``/model.N/``) kept in float.

    That is its box decoding (every node but its convolutions) and the last convolution of each
    branch (``cv2.K.2``, ``cv3.K.2``), which writes the box distances and the index's score.
    """
    layer = re.compile(r"^/model\.(\d+)/")
    numbers = [int(m.group(1)) for n in model.graph.node if (m := layer.match(n.name))]
    last = f"/model.{max(numbers)}/"
    branch_output = re.compile(r"/cv[23]\.\d+\.2/Conv$")
    return [
        n.name
        for n in model.graph.node
        if n.name.startswith(last)
        and (n.op_type != "Conv" or "/dfl/" in n.name or branch_output.search(n.name))
    ]


def quantize_detector(models_dir: Path, data: Path, limit: int = CALIBRATION_SCENES) -> Path:
    """Write ``models_dir / INT8_ONNX`` from its float detector, calibrated on ``data``.

    Args:
        models_dir (Path): Folder holding :data:`DET_ONNX`.
        data (Path): A set written by :mod:`vision.training.synth.generate` (its validation scenes).
        limit (int): Calibration scenes.

    Returns:
        (Path): The int8 copy.
    """
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    source = models_dir / DET_ONNX
    model = onnx.load(str(source))
    name = model.graph.input[0].name
    size = model.graph.input[0].type.tensor_type.shape.dim[2].dim_value or 640
    inputs = iter(calibration_inputs(data, size, limit))

    class Scenes(CalibrationDataReader):  # type: ignore[misc]
        def get_next(self) -> dict[str, np.ndarray] | None:
            x = next(inputs, None)
            return None if x is None else {name: x}

    out = models_dir / INT8_ONNX
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared))
        quantize_static(
            str(prepared),
            str(out),
            Scenes(),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            nodes_to_exclude=kept_in_float(onnx.load(str(prepared))),
            calibrate_method=CalibrationMethod.MinMax,
        )
    quantized = onnx.load(str(out))
    onnx.helper.set_model_props(quantized, {SOURCE_KEY: file_sha256(source)})
    onnx.save(quantized, str(out))
    return out


def main() -> None:
    """CLI entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", type=Path, help=f"folder holding {DET_ONNX}")
    ap.add_argument("--data", type=Path, required=True, help="calibration scenes (generated)")
    ap.add_argument("--limit", type=int, default=CALIBRATION_SCENES)
    a = ap.parse_args()
    if not (a.models / DET_ONNX).is_file():
        ap.error(f"{a.models} holds no {DET_ONNX}")
    if not (a.data / "meta" / "val.jsonl").is_file():
        ap.error(f"{a.data} holds no generated validation scenes (meta/val.jsonl)")
    out = quantize_detector(a.models, a.data, a.limit)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
