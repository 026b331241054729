"""Run the provider-independent passes of a pipeline once per session, not once per provider.

Most of the reference strategy's passes do not look at the target provider: given the same input
messages, ``map_ids`` … ``fill_empty_content``, ``move_results`` and ``close_orphans`` make the same
canonical ids, the same dedupes, moves and closes, and the same Changes. Checking a history against
all seven providers, or curating it for a provider and then rendering it for the same one, ran them
again each time, and on a long history they are most of the curation (every call and result gets
a new id, hence a new block and a Change). `shared` wraps such a run of passes as one pass that
remembers its result per session.

A result is reused only when it is certain to be the same: the same session object, the same key
(the passes and their arguments), the very same message objects reaching the segment, and the
same messages the curation started from (``session.messages`` plus ``tail``, which fix every
position a Change reports). Reuse replays the recorded ``Trace.derive`` calls, so provenance is
exactly as if the passes had run, and returns the same immutable blocks, messages and Changes.
Entries live as long as their session (dropped by a ``weakref.finalize``), a few per segment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import is_

from toolhist.curation.base import Book, Change, Pass, Trace, kept
from toolhist.curation.per_session import entries_for, keep_first
from toolhist.model import Message, Session

KEEP = 4
"""Entries kept per session and segment (inputs differ between providers only when an earlier,
provider-specific pass changed something)."""


@dataclass(frozen=True)
class _Entry:
    start: tuple[Message, ...]
    """What the curation started from (``Trace.input``)."""
    input: tuple[Message, ...]
    """The messages the passes ran on."""
    output: tuple[Message, ...]
    changes: tuple[Change, ...]
    derived: tuple[tuple[object, object], ...]
    """Every ``Trace.derive(new, old)`` the passes made, in order."""
    located: Book
    """`locate`'s book for ``changes`` (keyed by their ids): a provider whose later passes leave a
    Change's subject where the previous one did gets the located Change already made."""


_ENTRIES: dict[tuple[int, str], list[_Entry]] = {}


def _same(a: Sequence[Message], b: Sequence[Message]) -> bool:
    return a is b or (len(a) == len(b) and all(map(is_, a, b)))


def shared(session: Session, key: str, passes: Sequence[Pass]) -> Pass:
    """``passes`` as one pass whose result is remembered for ``session`` under ``key``.

    ``key`` must name the passes and every argument they were built with (beyond the session):
    two segments with the same key over the same input are taken to produce the same result.
    """
    slot = (id(session), key)

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        entries = entries_for(_ENTRIES, slot, session)
        for entry in entries:
            if _same(entry.input, messages) and _same(entry.start, trace.input):
                for new, old in entry.derived:
                    trace.derive(new, old)
                trace.located.append(entry.located)
                return entry.output, list(entry.changes)
        log: list[tuple[object, object]] = []
        outer, trace.log = trace.log, log
        try:
            changes: list[Change] = []
            output = messages
            for step in passes:
                made_output, made = step(output, trace)
                output = kept(made_output, output)
                changes.extend(made)
        finally:
            trace.log = outer
        if outer is not None:
            outer.extend(log)
        book: Book = {id(change): [] for change in changes}
        keep_first(entries, _Entry(trace.input, messages, output, tuple(changes), tuple(log), book), KEEP)
        trace.located.append(book)
        return output, changes

    return run
