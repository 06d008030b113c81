"""constraints.txt, the locked toolchain, agrees with pyproject.toml and with what is installed.

scripts/lock makes constraints.txt from pyproject.toml; scripts/install-test-deps and README's
install commands install with ``-c constraints.txt``. When a dependency changes in
pyproject.toml, these tests fail until the lock is made again.
"""

import importlib.util
import re
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "constraints.txt"


def _fingerprint_module():  # scripts/ is not a package: load the script's module by path
    path = ROOT / "scripts" / "lock_fingerprint.py"
    spec = importlib.util.spec_from_file_location("lock_fingerprint", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pins() -> dict[str, Version]:
    """The version the lock gives each package on this Python and platform."""
    pins = {}
    for line in LOCK.read_text().splitlines():
        match = re.match(r"([A-Za-z0-9_.\-]+)==([^\s;]+)(?:\s*;\s*(.+))?$", line)
        if match and (match[3] is None or Marker(match[3]).evaluate()):
            pins[canonicalize_name(match[1])] = Version(match[2])
    return pins


def _project_requirements() -> list[Requirement]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        project = tomllib.load(f)["project"]
    extras = project["optional-dependencies"].values()
    return [Requirement(r) for r in [*project["dependencies"], *(r for e in extras for r in e)]]


def test_the_lock_was_made_from_todays_pyproject() -> None:
    fingerprint = _fingerprint_module()
    lines = LOCK.read_text().splitlines()
    written = [line for line in lines if line.startswith(fingerprint.PREFIX)]
    assert written == [fingerprint.PREFIX + fingerprint.fingerprint()], (
        "pyproject.toml's dependencies changed since constraints.txt was made: run scripts/lock"
    )


def test_every_dependency_is_pinned_within_its_range() -> None:
    pins = _pins()
    for requirement in _project_requirements():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not in constraints.txt: run scripts/lock"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"constraints.txt pins {name}=={pins[name]}, outside {requirement}: run scripts/lock"
        )


def test_the_installed_dependencies_are_the_locked_ones() -> None:
    pins = _pins()
    for requirement in _project_requirements():
        name = canonicalize_name(requirement.name)
        try:
            installed = Version(version(name))
        except PackageNotFoundError:
            continue  # an extra this machine did not install
        # a local build label (torch's +cpu) is the same release
        assert Version(installed.base_version) == pins[name], (
            f"{name} {installed} is installed, constraints.txt locks {pins[name]}: "
            "install with scripts/install-test-deps (pip -c constraints.txt)"
        )


def test_the_install_script_installs_with_the_lock() -> None:
    script = (ROOT / "scripts" / "install-test-deps").read_text()
    installs = [line for line in script.splitlines() if "-m pip install" in line]
    assert installs
    for line in installs:
        assert "-c constraints.txt" in line, line
