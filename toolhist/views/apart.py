"""A page's independent pieces of work on the machine's second core, and how the page takes them back.

`toolhist.views.forked` forks a child that computes beside the page (its safety rules: Linux, a
second core, a session of a bounded size, locks made anew in the child, the page computing the piece
itself when no sound answer comes). This module says which pieces go there for the Payloads page
(`bodies`: some providers' bodies, as that page keeps them) and the Curation page (`repaired`: the
repaired history's verdict), and holds what a child sent until the page's cached function keeps it
(`hand`, `take`), as `toolhist.views.state.made_elsewhere` does for Home's verdicts.

Measured at 100,000 messages (the generated OpenAI Chat history, ``benchmarks/generate.py``):
rendering one provider's body is 0.7 to 0.8 s of CPU and the Payloads page renders three; the
Curation page's repaired verdict (its body rendered and checked) is independent of the diff the
page draws from the same curation.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import partial
from typing import Any

from toolhist._gc import paused
from toolhist.curation import Curation
from toolhist.model import Session
from toolhist.providers import provider_for, render, render_curation
from toolhist.providers.base import violations as violations_of
from toolhist.providers.chat_shared import CHAT_SHAPED
from toolhist.views import forked
from toolhist.views.forked import _FILL, Job, _states
from toolhist.views.packed import Parts, pack, parts

_lock = threading.Lock()
_HANDED: dict[tuple[Any, ...], Any] = {}


def hand(where: tuple[Any, ...], made: Any) -> None:
    """Keep ``made`` (a child's answer) until the cached function for ``where`` takes it."""
    with _lock:
        _HANDED[where] = made


def take(where: tuple[Any, ...]) -> Any:
    """What a child made for ``where`` (taken: once), else None: compute it here."""
    with _lock:
        return _HANDED.pop(where, None)


def drop(where: tuple[Any, ...]) -> None:
    """Forget ``where``'s answer if no cached function took it (another run cached it first)."""
    take(where)


class Made:
    """Stands for a page's cached function in `toolhist.views.kept.record`, the same object every run.

    A page script defines its cached functions anew on each run, so ``recorded(key, fn, …)`` with
    this run's function never finds what an earlier run's made: the page records its entries under
    a `Made` too, to know which it need not compute. Stale when the cache evicts the entry itself:
    then the page computes it in its own process, as without a second one.
    """

    def clear(self, *args: Any) -> None:
        """Nothing to clear (`toolhist.views.kept.keep_recent` calls it with the session's entries)."""


BODIES = Made()
"""The Payloads page's packed bodies (its ``packed``), per session key, provider and strategy."""


def split(todo: Sequence[str]) -> list[str]:
    """Which of the bodies ``todo`` go to a second process: fewer than stay, none of the chat trio.

    The chat-shaped providers share one rendered body in a process (`toolhist.providers.chat_shared`),
    so they stay together here; of the others, the last ones go, no more than stay, the first never
    (it is what the page shows first).
    """
    apart = [p for p in todo[1:] if p not in CHAT_SHAPED]
    while len(apart) > len(todo) - len(apart):
        apart.pop(0)
    return apart


def bodies(session: Session, providers: Sequence[str], hot: range | None) -> dict[str, Parts]:
    """In the child: each provider's body as sent, packed as the Payloads page keeps it (`parts`).

    With ``hot``, only the chunks of the first screen's messages are packed (as the page packs its
    own); the page packs the others from its own render when first read.
    """
    return {
        p: parts(pack(paused(render)(session, p), hot=hot, again=None if hot is None else _unrendered))
        for p in providers
    }


def _unrendered() -> Any:  # pragma: no cover - never called: the page gives its own ``again``
    raise RuntimeError("a packed body's chunks are filled by the page, not by the child")


def repaired(curation: Curation) -> list[dict[str, Any]]:
    """In the child: the repaired history's verdict (`toolhist.views.derived.violations`), as fields."""
    sent = paused(render_curation)(curation)
    return _states(violations_of(provider_for(curation.provider), sent.body, sent.source_map))


def repair_started(curation: Curation, session: Session) -> Job | None:
    """A child checking ``curation``'s repaired history (`repaired`), when that is sound and pays; else None.

    Not for a peer library's curation (its body is the one the library sent: made here, as it was).
    The caller asks only when neither the diff nor the verdict of this curation is cached (both are
    then computed, one beside the other).
    """
    if curation.library is not None or not forked.usable(session):
        return None
    return forked.launch(partial(repaired, curation))


def repair_taken(job: Job, where: tuple[Any, ...], patience: float) -> None:
    """Wait for ``job`` (at most ``patience`` seconds) and `hand` its verdict to ``where``, if sound."""
    complete, states = forked.outcome(job, patience)
    if complete and isinstance(states, list):
        hand(where, paused(_filled)(states))


def _filled(states: list[Any]) -> list[Any]:
    """The child's violations made again here (under the collector's pause, as `forked.outcome`'s)."""
    return [_FILL(state) for state in states]
