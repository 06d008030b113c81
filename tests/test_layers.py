"""The packages' layers: ``trainer`` (rules) below ``records`` (storage) below ``web`` (HTTP).

``records`` imports no web framework, ``trainer`` neither storage nor web and does no I/O,
``vision`` (the card reader) none of ``web``, ``records`` or ``crib`` (its callers give it its
models folder), no package imports ``crib`` (the command, the roof), and no blueprint of ``web``
imports another: what two views share lives below them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

IMPORT_PACKAGE_WITHOUT = """
import importlib, pkgutil, sys

package, refused = sys.argv[1], set(sys.argv[2:])

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in refused:
            raise ImportError(f"{name} is imported by {package}")
        return None

sys.meta_path.insert(0, Refuse())
importlib.import_module(package)
for module in pkgutil.walk_packages(sys.modules[package].__path__, package + "."):
    if ".migrations" not in module.name:
        importlib.import_module(module.name)
print("imported")
"""


@pytest.mark.parametrize(
    ("package", "refused"),
    [
        ("records", ("flask", "werkzeug", "flask_limiter", "flask_wtf", "web", "vision")),
        ("trainer", ("flask", "werkzeug", "sqlalchemy", "records", "web", "vision")),
        ("vision", ("web", "records", "crib")),
    ],
)
@pytest.mark.slow
def test_a_package_imports_nothing_above_it(package: str, refused: tuple[str, ...]) -> None:
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_PACKAGE_WITHOUT, package, *refused],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "imported"


def _web_imports(path: Path) -> set[str]:
    """The ``web`` modules that the module at ``path`` imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level == 1:
                found.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("web."):
                found.add(node.module.split(".")[1])
    return found


def test_no_blueprint_imports_another() -> None:
    modules = {path.stem: path for path in (ROOT / "web").glob("*.py")}
    blueprints = {name for name, path in modules.items() if "Blueprint(" in path.read_text()}
    assert {"api", "auth", "pages", "photo", "practice"} <= blueprints
    crossings = {
        name: sorted(_web_imports(modules[name]) & (blueprints - {name})) for name in blueprints
    }
    assert {name: found for name, found in crossings.items() if found} == {}


IO_MODULES = {"argparse", "sys", "os", "io", "pathlib", "subprocess", "socket", "shutil", "getpass"}
"""Modules through which code reads or writes the world outside it."""
IO_CALLS = {"print", "open", "input"}


def _io_used(path: Path) -> set[str]:
    """The I/O modules ``path`` imports and the I/O builtins it calls."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(
                a.name.split(".")[0] for a in node.names if a.name.split(".")[0] in IO_MODULES
            )
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.update({node.module.split(".")[0]} & IO_MODULES)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            found.update({node.func.id} & IO_CALLS)
    return found


def test_the_rules_do_no_io() -> None:
    """``trainer`` reads and prints nothing: its commands and their terminal text are ``crib``'s."""
    used = {path.name: _io_used(path) for path in sorted((ROOT / "trainer").glob("*.py"))}
    assert {name: found for name, found in used.items() if found} == {}


def test_nothing_imports_the_command() -> None:
    """``crib`` is the roof: no package below it imports it."""
    importing = {
        str(path.relative_to(ROOT))
        for package in ("trainer", "records", "vision", "web")
        for path in (ROOT / package).rglob("*.py")
        if any(
            (
                isinstance(node, ast.ImportFrom)
                and node.level == 0
                and (node.module or "").split(".")[0] == "crib"
            )
            or (
                isinstance(node, ast.Import)
                and any(a.name.split(".")[0] == "crib" for a in node.names)
            )
            for node in ast.walk(ast.parse(path.read_text()))
        )
    }
    assert importing == set()
