"""Which cached results were made from which session, and the rule that only the last few stay.

Memory: a 100,000-message session holds about 1.1 GB once parsed and 2.3 GB with every page's
work on it (``benchmarks/bench_app.py``). Every cached result made from a session is recorded under
its content key (`record`), and only the `SESSIONS_KEPT` sessions read last keep theirs: reading
another one clears the oldest one's entries in every cache (`keep_recent`). Without that, a cached
curation (which holds its original session) would keep a session alive long after its parse was
evicted.

Process-wide (Streamlit's caches are): one lock guards the record.
"""

from __future__ import annotations

import functools
import gc
import threading
from collections.abc import Callable
from typing import Any, Final, ParamSpec, TypeVar

from toolhist._gc import paused

P = ParamSpec("P")
R = TypeVar("R")

SESSIONS_KEPT: Final = 2
"""Sessions whose parse and derived results stay cached (the ones read last, process-wide)."""

_lock = threading.Lock()
_recent: list[str] = []  # content keys, the one read last at the end
_entries: dict[str, set[tuple[Any, tuple[Any, ...]]]] = {}  # content key -> (cached function, its args)


def record(key: str, cache: Any, *args: Any) -> None:
    """Note that the cached function ``cache`` now holds an entry for ``args``, made from session ``key``.

    Called in a cached function's body (a miss); unhashed arguments (``_…``) are passed as None:
    the entry's cache key ignores them.
    """
    with _lock:
        _entries.setdefault(key, set()).add((cache, args))


def recorded(key: str, cache: Any, *args: Any) -> bool:
    """Whether ``cache`` holds the entry for ``args`` made from session ``key`` (nothing to compute)."""
    with _lock:
        return (cache, args) in _entries.get(key, set())


def keep_recent(key: str) -> list[str]:
    """Mark ``key`` read last; clear every cached entry of sessions beyond `SESSIONS_KEPT`.

    Returns the content keys whose entries were cleared.
    """
    with _lock:
        if key in _recent:
            _recent.remove(key)
        _recent.append(key)
        dropped = _recent[:-SESSIONS_KEPT]
        del _recent[:-SESSIONS_KEPT]
        entries = [entry for old in dropped for entry in _entries.pop(old, set())]
    for cache, args in entries:
        cache.clear(*args)
    if dropped:  # what the dropped session held may sit in cycles: one full collection, then freeze
        gc.unfreeze()
        gc.collect()
        gc.freeze()
    return dropped


def built(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` with the cyclic collector paused while it runs, and what is alive afterwards frozen.

    For the work a page caches on a session (a payload, the timeline's frame, a compaction): at
    100,000 messages each is hundreds of thousands of new objects, and the collector's full passes
    over them, and over every earlier result not yet frozen, were most of the time (cutting one
    payload at its message list: 1.4 s with the collector, 0.3 s without; the timeline's frame
    2.0 s and 1.1 s). The result is kept in a cache for the session's life, so freezing it (as
    `toolhist.views.state.settle` does after a read) takes it out of every later pass;
    `keep_recent` unfreezes and collects once when the session's entries go.
    """

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return paused(fn)(*args, **kwargs)
        finally:
            gc.freeze()

    return wrapper
