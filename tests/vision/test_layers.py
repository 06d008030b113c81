"""Serving reads photos without the code that makes the models.

Every module of ``vision`` outside ``vision.training``, ``crib``'s command and the web app's
photo routes are imported in a fresh interpreter, which then reads the sample photo as
``crib read`` (with ``--annotate`` and ``--json``), ``crib read --show`` and ``/api/read`` do;
after that no module of ``vision.training`` and none of the train extra's packages may be loaded.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TRAINING = ("vision.training", "torch", "torchvision", "ultralytics", "onnx")
"""Packages serving never imports: the training code and the train extra."""

SERVE_AND_READ = f"""
import importlib, io, pkgutil, sys, tempfile
import vision

for module in pkgutil.iter_modules(vision.__path__, "vision."):
    if module.name != "vision.training":
        importlib.import_module(module.name)
import crib.cli
import web.photo
from vision import MODELS_DIR
from vision.answer import answer_photo
from vision.reader import read_image_bytes

photo = "docs/sample-hand.jpg"
with tempfile.TemporaryDirectory() as folder:
    read = ["read", photo, "--annotate", folder + "/annotated.jpg", "--json"]
    assert crib.cli.main(read, io.StringIO()) == 0
assert crib.cli.main(["read", "--show", photo], io.StringIO()) == 0
with open(photo, "rb") as f:
    answer_photo(read_image_bytes(f.read(), MODELS_DIR)).to_json()
loaded = [
    name for name in sys.modules
    if any(name == p or name.startswith(p + ".") for p in {TRAINING!r})
]
print(" ".join(sorted(loaded)) or "none")
"""


@pytest.mark.slow
def test_serving_and_reading_a_photo_import_no_training_code() -> None:
    result = subprocess.run(
        [sys.executable, "-c", SERVE_AND_READ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "none"
