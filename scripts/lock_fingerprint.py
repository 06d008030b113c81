"""Print the line that ties constraints.txt to the dependencies in pyproject.toml.

scripts/lock appends it to constraints.txt; tests/test_lock.py recomputes it and fails when
pyproject.toml's dependencies changed after the lock was made.
"""

import hashlib
import json
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
PREFIX = "# pyproject.toml dependencies sha256: "


def fingerprint(pyproject: Path = PYPROJECT) -> str:
    """The SHA-256 of the project's dependencies and extras, as written in pyproject.toml."""
    with pyproject.open("rb") as f:
        project = tomllib.load(f)["project"]
    wanted = {
        "requires-python": project.get("requires-python"),
        "dependencies": project.get("dependencies", []),
        "optional-dependencies": project.get("optional-dependencies", {}),
    }
    return hashlib.sha256(json.dumps(wanted, sort_keys=True).encode()).hexdigest()


if __name__ == "__main__":
    print(PREFIX + fingerprint())
