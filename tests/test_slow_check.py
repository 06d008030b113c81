"""``--unmarked-slow``: the fast lane's check finds a slow test not marked slow, and only it."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

ALONE = ("-p", "no:xdist", "-p", "no:cacheprovider", "-p", "no:benchmark")
"""The inner run's plugins off: one process, no cache, no pytest-benchmark (it warns beside
xdist, and a warning is an error here)."""

TESTS = """
import time
import pytest

def test_quick():
    pass

def test_sleepy():
    time.sleep(1.0)

@pytest.mark.slow
def test_sleepy_and_marked():
    time.sleep(1.0)
"""


@pytest.mark.slow
def test_a_slow_test_not_marked_slow_fails_the_run(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        "from tests.conftest import SlowCheck, pytest_addoption, pytest_configure"
    )
    pytester.makeini("[pytest]\nmarkers = slow: slow")
    pytester.makepyfile(test_lane=TESTS)
    checked = pytester.runpytest(*ALONE, "--unmarked-slow", "0.3")
    assert checked.ret == pytest.ExitCode.TESTS_FAILED
    summary = checked.stdout.str().split("not marked slow")[-1]
    assert "test_sleepy" in summary
    assert "test_quick" not in summary and "test_sleepy_and_marked" not in summary
    unchecked = pytester.runpytest(*ALONE)
    assert unchecked.ret == pytest.ExitCode.OK
