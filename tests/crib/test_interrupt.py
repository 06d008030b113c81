"""crib.interrupt: Ctrl-C held back from the threads native libraries start."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator

import pytest

from crib.interrupt import held


def blocked() -> set[signal.Signals]:
    """The signals this thread blocks."""
    return set(signal.pthread_sigmask(signal.SIG_BLOCK, []))


def test_a_thread_started_while_ctrl_c_is_held_never_takes_it() -> None:
    """A thread takes the mask of the thread that starts it: one started inside blocks SIGINT
    for good, while the thread that held it blocks it no longer."""
    seen: list[set[signal.Signals]] = []
    with held():
        thread = threading.Thread(target=lambda: seen.append(blocked()))
        thread.start()
        thread.join()
    assert signal.SIGINT in seen[0]
    assert signal.SIGINT not in blocked()


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """Python's own SIGINT handler during the test, even where the suite runs as a shell's
    background job (which ignores SIGINT)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.usefixtures("ctrl_c_raises")
def test_a_ctrl_c_while_held_is_heard_as_the_block_ends() -> None:
    """SIGINT sent to this thread inside the block waits, then raises KeyboardInterrupt as it
    ends."""
    reached_the_end = False
    with pytest.raises(KeyboardInterrupt), held():
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        reached_the_end = True
    assert reached_the_end
    assert signal.SIGINT not in blocked()


def test_holding_twice_keeps_the_outer_hold() -> None:
    with held():
        with held():
            pass
        assert signal.SIGINT in blocked()
    assert signal.SIGINT not in blocked()
