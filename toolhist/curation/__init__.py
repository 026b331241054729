"""Curation: repair a history for a provider, one pure pass at a time, every change recorded.

`curate` is the entry point (DESIGN §5); strategies are in `toolhist.curation.strategies`.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolhist._gc import paused
from toolhist.curation.base import Change, Curation, Position
from toolhist.curation.strategies import STRATEGIES, strategy_for
from toolhist.model import Message, Session


@paused
def curate(
    session: Session, provider: str, *, strategy: str = "toolhist", tail: Sequence[Message] = ()
) -> Curation:
    """The history ``strategy`` would send to ``provider``, and every change it made to get there.

    ``tail`` is the new input about to be sent (the next user message, or the tool results being
    returned). It takes part in curation like the stored history; a call that nothing follows, not
    even the tail, is *pending* (still running) rather than orphaned.
    """
    from toolhist.providers import provider_for

    provider_for(provider)  # a clear UsageError for an unknown name
    return strategy_for(strategy).curate(session, provider, tuple(tail))


__all__ = ["STRATEGIES", "Change", "Curation", "Position", "curate"]
