"""The packages' layers: ``trainer`` (rules) below ``records`` (storage) below ``web`` (HTTP).

``records`` imports no web framework, ``trainer`` neither storage nor web, ``vision`` (the card
reader) none of ``web``, ``records`` or ``crib`` (its callers give it its models folder), and no
blueprint of ``web`` imports another: what two views share lives below them.
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
