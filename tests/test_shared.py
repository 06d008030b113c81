"""The shared-data helper: a test that needs ../shared fails, naming what is missing."""

from __future__ import annotations

import pytest

from tests.shared import SHARED, shared_path


def test_missing_shared_data_fails_the_test() -> None:
    """A missing file is a failure (not a skip) whose message names the path."""
    with pytest.raises(pytest.fail.Exception, match=r"no-such-file\.txt is missing"):
        shared_path("seeds/no-such-file.txt")


def test_present_shared_data_is_its_path() -> None:
    """A file that is there comes back as its path under ../shared."""
    assert shared_path("seeds/README.md") == SHARED / "seeds" / "README.md"
