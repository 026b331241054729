"""The violations of a history as given, remembered per session: what strategy ``toolhist`` repairs.

Strategy ``toolhist`` changes nothing a provider accepts, and says which violation each Change
repairs (`toolhist.curation.fixes`), so it needs the history's own violations for the provider
(`toolhist.providers.validate`, strategy ``none``). A session is frozen, so those are the same every
time it is curated again for the same provider and tail: checking every provider, rendering after
curating, the CLI's ``curate`` (which validates the curated payload after) and the app's reruns ask
again, and `toolhist.providers.validate` itself answers strategy ``none`` from here, so a check
followed by a curation for the same provider judges the history once. They are kept per session object, as `toolhist.curation.shared` keeps its passes' results,
and dropped with the session (a ``weakref.finalize``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolhist.curation.per_session import entries_for, keep_first
from toolhist.model import Message, Session
from toolhist.providers.base import Violation

KEEP = 16
"""Entries kept per session (one per provider and tail)."""


@dataclass(frozen=True)
class _Entry:
    provider: str
    tail: tuple[Message, ...]
    found: tuple[Violation, ...]


_ENTRIES: dict[int, list[_Entry]] = {}


def as_given(session: Session, provider: str, tail: tuple[Message, ...] = ()) -> tuple[Violation, ...]:
    """The violations of ``session`` + ``tail`` sent to ``provider`` as they are (strategy ``none``)."""
    from toolhist.providers import checked  # providers build on the curation registry

    entries = entries_for(_ENTRIES, id(session), session)
    for entry in entries:
        if (
            entry.provider == provider
            and len(entry.tail) == len(tail)
            and all(a is b for a, b in zip(entry.tail, tail, strict=True))
        ):
            return entry.found
    joined = session.model_copy(update={"messages": (*session.messages, *tail)}) if tail else session
    found = tuple(checked(joined, provider))
    keep_first(entries, _Entry(provider, tail, found), KEEP)
    return found


def remember(session: Session, provider: str, found: Sequence[Violation]) -> None:
    """Record ``found`` as ``session``'s violations as given for ``provider`` (no tail).

    For a caller that has just judged the very body `as_given` would render and check: a captured
    request body in the provider's own format, checked as it was sent (`toolhist.check.verdict`),
    when toolhist's rendering of the session is that same body. The app's first Curation of such
    a history then checks it no second time (0.9 s of CPU at 100,000 messages).
    """
    entries = entries_for(_ENTRIES, id(session), session)
    if not any(entry.provider == provider and not entry.tail for entry in entries):
        keep_first(entries, _Entry(provider, (), tuple(found)), KEEP)
