"""Shared set-up for the engine tests."""

from __future__ import annotations

import pytest

from trainer.score_tables import rank_points_array


@pytest.fixture(autouse=True, scope="session")
def score_tables() -> None:
    """Build the score tables once, so no timed Hypothesis example pays for the build."""
    rank_points_array(4)
    rank_points_array(5)
