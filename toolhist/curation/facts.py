"""What a history holds, looked at once: the passes that can have nothing to do return at once.

Strategy ``toolhist`` runs about fifteen passes per provider, and on a history a provider accepts
most of them look at every message and block to find nothing (issue 26: curating a 10k-message
history for seven providers was 30 times the dict-native sketch, the repair passes most of it).
Several of them act only on a few shapes: a block in a speaker that cannot carry it
(``split_tool_calls``), blank text, reasoning or another format's items, an empty message
(``fill_empty_content``), reasoning (``drop_foreign_thinking``), a tool message holding more than
results (``split_tool_text``), a tool name the provider's pattern refuses (``sanitize_tool_names``).
One scan of a message tuple tells them all (`Facts`), and the passes that change nothing hand the
next the same tuple (`toolhist.curation.shared` hands every provider the same one), so a session
curated for seven providers is scanned about three times, not some thirty-five.

The facts are remembered per session object and message tuple (the tuple held, so its identity is
never reused), and dropped with the session (a ``weakref.finalize``), as `toolhist.curation.shared`
keeps its results.

A pass that changes something hands the next a new tuple, but one that shares nearly every message
object with the tuple before it (a curation of 100,000 messages for OpenAI Chat rewrote ~2,600). So
a new tuple's facts are worked out from the last tuple's (`facts_from`): only the messages it adds
and those it drops are looked at. Scanning each tuple whole was three scans of the 100,000 messages
per curation, 1.0 s of its 6.8 s (issue 24 §7, measured on a loaded box).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from toolhist.curation.per_session import entries_for
from toolhist.curation.tool_ids import ToolIds
from toolhist.model import Message, Session, TextBlock, ToolCallBlock, ToolResponseBlock

KEEP = 8
"""Tuples remembered per session (the input, and the outputs of the shared segments)."""


@dataclass(frozen=True)
class Facts:
    """What a tuple of messages holds, as the passes that return at once ask it."""

    kinds: frozenset[type]
    """The block types it holds."""
    blank_text: bool
    """Some text block is empty or whitespace."""
    empty_message: bool
    """Some message has no block."""
    misplaced: bool
    """A result in an assistant message, anything but results in a tool message, or a call or a
    result in another speaker's message (what ``split_tool_calls`` moves)."""
    mixed_tool: bool
    """Some tool message holds a block other than a result (what ``split_tool_text`` looks at)."""
    names: frozenset[str]
    """The tool names of every call, and of every result that names one."""
    ids: ToolIds | None = field(default=None, compare=False, repr=False)
    """The ids of the calls and results (`Trace.tool_ids`), when the tuple was scanned whole: the
    scan of the history given lists them for ``map_ids`` and the passes after it."""


def facts_of(messages: tuple[Message, ...]) -> Facts:
    """`Facts` of ``messages``, by one scan."""
    kinds: set[type] = set()
    names: set[str] = set()
    calls: list[str] = []
    results: list[str] = []
    blank = empty = misplaced = mixed = False
    for message in messages:
        blocks = message.blocks
        if not blocks:
            empty = True
            continue
        speaker = message.speaker
        for block in blocks:
            kind = type(block)
            kinds.add(kind)
            if kind is ToolResponseBlock:
                results.append(block.call_id)  # type: ignore[union-attr]
                if block.tool_name is not None:  # type: ignore[union-attr]  # the type was just checked
                    names.add(block.tool_name)  # type: ignore[union-attr]
                if speaker != "tool":
                    misplaced = True
                continue
            if speaker == "tool":
                misplaced = mixed = True
            if kind is ToolCallBlock:
                names.add(block.name)  # type: ignore[union-attr]
                calls.append(block.id)  # type: ignore[union-attr]
                if speaker != "ai":
                    misplaced = True
            elif kind is TextBlock and not block.text.strip():  # type: ignore[union-attr]
                blank = True
    return Facts(frozenset(kinds), blank, empty, misplaced, mixed, frozenset(names), ToolIds(calls, results))


CHUNK = 512
"""Messages looked at between two checks of whether what a dropped message held is still held."""


def facts_from(messages: tuple[Message, ...], seen: tuple[Message, ...], known: Facts) -> Facts:
    """`Facts` of ``messages``, given ``known``, the facts of ``seen`` (a tuple sharing most of its messages).

    Messages are frozen, so a message object in both tuples holds the same there. With ``kept``
    the objects in both, ``added`` those only in ``messages`` and ``gone`` those only in ``seen``,
    ``known`` is ``kept | gone`` and the answer ``kept | added``: ``known | added``, but for what
    only ``gone`` held (a deduplicated call's name, a moved result's kind), which ``messages`` may
    no longer hold. Those few are looked for in ``messages`` a chunk at a time, and usually found
    in the first (every call's kind and name recur); a scan that finds one missing went through
    every message, so its facts are the answer. Tuples that share too little are scanned whole.
    """
    had = set(map(id, seen))
    added = tuple(m for m in messages if id(m) not in had)
    if 2 * len(added) > len(messages):
        return facts_of(messages)
    now = set(map(id, messages))
    gone = tuple(m for m in seen if id(m) not in now)
    fresh, lost = facts_of(added), facts_of(gone)
    new = _union(known, fresh)
    if _within(lost, fresh):  # everything a dropped message held, an added one holds
        return new
    found = facts_of(messages[:CHUNK])
    for at in range(CHUNK, len(messages), CHUNK):
        if _within(lost, found):
            return new
        found = _union(found, facts_of(messages[at : at + CHUNK]))
    return found  # every message looked at


def _union(a: Facts, b: Facts) -> Facts:
    return Facts(
        a.kinds | b.kinds,
        a.blank_text or b.blank_text,
        a.empty_message or b.empty_message,
        a.misplaced or b.misplaced,
        a.mixed_tool or b.mixed_tool,
        a.names | b.names,
    )


def _within(lost: Facts, held: Facts) -> bool:
    """Whether every fact ``lost`` holds is one ``held`` holds too."""
    return (
        lost.kinds <= held.kinds
        and lost.names <= held.names
        and (held.blank_text or not lost.blank_text)
        and (held.empty_message or not lost.empty_message)
        and (held.misplaced or not lost.misplaced)
        and (held.mixed_tool or not lost.mixed_tool)
    )


_MEMO: dict[int, list[tuple[tuple[Message, ...], Facts]]] = {}


def remembered(session: Session) -> list[tuple[tuple[Message, ...], Facts]]:
    """The facts remembered for ``session`` (a list `Trace.facts` reads and adds to)."""
    return entries_for(_MEMO, id(session), session)
