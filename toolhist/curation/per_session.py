"""Entries remembered for a session object while it lives, newest first and bounded.

Curation remembers work per session in three places (the verdict as given, `toolhist.curation.given`;
the provider-independent segments, `toolhist.curation.shared`; what a message tuple holds,
`toolhist.curation.facts`). Each keys its entries by the session's identity, so they must go when
the session does (a ``weakref.finalize``), or a later session at the same address would find them.
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
E = TypeVar("E")


def entries_for(store: dict[K, list[E]], slot: K, session: object) -> list[E]:
    """The entries ``store`` holds under ``slot`` (the session's identity, with more).

    Made when first asked for, and dropped from ``store`` when ``session`` is.
    """
    found = store.get(slot)
    if found is None:
        found = store[slot] = []
        weakref.finalize(session, store.pop, slot, None)
    return found


def keep_first(entries: list[E], entry: E, keep: int) -> None:
    """Put ``entry`` first in ``entries`` and keep the ``keep`` newest."""
    entries.insert(0, entry)
    del entries[keep:]
