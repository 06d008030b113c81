"""The suite's shared fixtures (the databases, :mod:`tests.databases`) and the slow-mark check.

``python -m pytest -m "not slow" --unmarked-slow 1`` fails the run when a test not marked
``slow`` ran over a second: the fast lane's promise, checked on demand (on a quiet machine:
the figure is wall time, so a busy one finds tests that are only slow there).
"""

from __future__ import annotations

import pytest

pytest_plugins = ["tests.databases"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--unmarked-slow",
        type=float,
        metavar="SECONDS",
        help="fail the run when a test not marked slow runs longer than SECONDS (its call:"
        " a fixture shared by many is paid once, by whichever test comes first)",
    )


def pytest_configure(config: pytest.Config) -> None:
    limit = config.getoption("--unmarked-slow")
    if limit is not None and not hasattr(config, "workerinput"):  # xdist's workers report here
        config.pluginmanager.register(SlowCheck(limit), "unmarked-slow")


class SlowCheck:
    """The tests not marked slow that took longer than ``limit`` seconds."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.over: list[tuple[str, float]] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        slow = report.when == "call" and report.duration > self.limit
        if slow and "slow" not in report.keywords:
            self.over.append((report.nodeid, report.duration))

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.over:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.over:
            return
        terminalreporter.section(f"tests over {self.limit:g} s not marked slow")
        for nodeid, seconds in sorted(self.over, key=lambda over: -over[1]):
            terminalreporter.line(f"{seconds:6.2f} s  {nodeid}")
