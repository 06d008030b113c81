"""Every module imports without the train extra (torch, torchvision, Ultralytics, onnx).

``--doctest-modules`` imports each module of the packages: the training code keeps those
packages inside its functions, so a machine without the extra still collects the suite.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TRAIN_ONLY = ("torch", "torchvision", "ultralytics", "onnx")

IMPORT_ALL_WITHOUT_TRAINING = f"""
import importlib, pkgutil, sys

class NoTraining:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {TRAIN_ONLY!r}:
            raise ImportError(f"{{name}} is in the train extra only")
        return None

sys.meta_path.insert(0, NoTraining())
for package in ("crib", "records", "trainer", "vision", "web"):
    importlib.import_module(package)
    for module in pkgutil.walk_packages(sys.modules[package].__path__, package + "."):
        # migrations run inside Alembic; __main__ runs the command
        if ".migrations" not in module.name and not module.name.endswith("__main__"):
            importlib.import_module(module.name)
print("imported")
"""


@pytest.mark.slow
def test_every_module_imports_without_the_train_extra() -> None:
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL_WITHOUT_TRAINING],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "imported"
