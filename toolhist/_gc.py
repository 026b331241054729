"""Pause Python's cyclic garbage collector while toolhist builds a large object graph.

Loading, curating and rendering a long history creates hundreds of thousands of small pydantic
objects and no reference cycles. Each allocation burst triggers generation-2 collections that
re-scan every live object, which makes the cost grow faster than the history (measured by
``benchmarks/bench_scale.py``: curate at 20k messages took 4.8 s with the collector on, 1.2 s off).
Reference counting still frees everything; the collector is re-enabled (if it was enabled) when the
outermost call returns, so the pause never outlives the call.
"""

from __future__ import annotations

import functools
import gc
import os
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

_lock = threading.Lock()
_depth = 0
_was_enabled = False


def paused(fn: Callable[P, R]) -> Callable[P, R]:
    """Run ``fn`` with the cyclic collector paused (nested and concurrent calls share one pause)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        _pause()
        try:
            return fn(*args, **kwargs)
        finally:
            _resume()

    return wrapper


class pausing:  # (lower case: used as a function, like contextlib's context managers)
    """`paused` for a block: a caller that makes several paused calls in a row holds one pause over all.

    Between two paused calls the collector runs again, and what the first left alive (a rendered
    body kept for the next provider, 180,000 Violations at 100,000 messages) is scanned by young
    collections, promoted, and counted towards a full collection, which then re-scans the whole
    session: in Home's seven verdicts at 100,000 messages that was about 2 s of 8 (one full
    collection of 2 s, dozens of younger ones), for objects that were mostly freed by the next call.
    A class, not a generator: resuming the collector is the last thing it does, so no allocation
    of its own (a generator's StopIteration) sets off a collection inside the caller's call.
    """

    def __enter__(self) -> None:
        _pause()

    def __exit__(self, *exc: object) -> None:
        _resume()


def _pause() -> None:
    global _depth, _was_enabled  # noqa: PLW0603 - one process-wide pause, by design
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1


def _unlocked() -> None:
    """In a forked child: a lock another thread held at the fork stays held there for good; make it anew.

    `toolhist.views.forked` forks the app's server, whose other sessions' threads pause too.
    """
    global _lock  # noqa: PLW0603 - the process-wide lock, replaced in the child only
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_unlocked)


def _resume() -> None:
    global _depth  # noqa: PLW0603 - one process-wide pause, by design
    with _lock:
        _depth -= 1
        if _depth == 0 and _was_enabled:
            gc.enable()
