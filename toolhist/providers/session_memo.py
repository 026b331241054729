"""A walk of a whole session done once per session object, for the renderers that all ask it.

Rendering one history for every provider asks some of the same questions of it several times (its
freeform calls, the names of its calls); each walk reads every block, whose attributes are a cache
miss away at 100,000 messages. A session is frozen, so an answer holds while the object is alive:
kept by ``id`` under a weak reference, and dropped when the session goes.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import TypeVar

from toolhist.model import Session

T = TypeVar("T")


def once_per_session(walk: Callable[[Session], T]) -> Callable[[Session], T]:
    """``walk``, computed once per live session object."""
    kept: dict[int, tuple[weakref.ref[Session], T]] = {}

    def forget(key: int, dead: weakref.ref[Session]) -> None:
        held = kept.get(key)
        if held is not None and held[0] is dead:  # not a later session given the same id
            del kept[key]

    @functools.wraps(walk)
    def wrapper(session: Session) -> T:
        key = id(session)
        held = kept.get(key)
        if held is not None and held[0]() is session:
            return held[1]
        found = walk(session)
        kept[key] = (weakref.ref(session, functools.partial(forget, key)), found)
        return found

    return wrapper
