"""``toolhist.validate``, ``render``, ``curate`` and ``summarize`` on whatever the user holds.

In an application the history is a framework's live objects (``result.all_messages()``, a list of
LangChain messages), a dumped file or a Session. These take any of them: anything that is not a
`toolhist.model.Session` is read with `toolhist.load` first (`toolhist.live` for live objects).
The functions of `toolhist.providers` and `toolhist.curation` below take a Session only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolhist.curation import Curation
from toolhist.curation import curate as _curate
from toolhist.model import Message, Session
from toolhist.providers import IdMode, Payload, Violation
from toolhist.providers import render as _render
from toolhist.providers import validate as _validate
from toolhist.readers import load
from toolhist.summary import Summary
from toolhist.summary import summarize as _summarize


def as_session(history: Any) -> Session:
    """``history`` itself when it is a Session, else what `toolhist.load` reads from it."""
    return history if isinstance(history, Session) else load(history)


def validate(
    history: Any, provider: str, *, strategy: str = "none", ids: IdMode | None = None
) -> list[Violation]:
    """Violations ``provider`` would answer for ``history`` (`toolhist.providers.validate`)."""
    return _validate(as_session(history), provider, strategy=strategy, ids=ids)


def render(history: Any, provider: str, *, strategy: str = "none", ids: IdMode | None = None) -> Payload:
    """The request body ``provider`` would receive for ``history`` (`toolhist.providers.render`)."""
    return _render(as_session(history), provider, strategy=strategy, ids=ids)


def curate(
    history: Any, provider: str, *, strategy: str = "toolhist", tail: Sequence[Message] = ()
) -> Curation:
    """``history`` repaired for ``provider`` and every change made (`toolhist.curation.curate`)."""
    return _curate(as_session(history), provider, strategy=strategy, tail=tail)


def summarize(history: Any) -> Summary:
    """Counts of messages, calls and results of ``history`` (`toolhist.summary.summarize`)."""
    return _summarize(as_session(history))
