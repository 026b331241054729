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
"""

from __future__ import annotations

from dataclasses import dataclass

from toolhist.curation.per_session import entries_for
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


def facts_of(messages: tuple[Message, ...]) -> Facts:
    """`Facts` of ``messages``, by one scan."""
    kinds: set[type] = set()
    names: set[str] = set()
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
                if block.tool_name is not None:  # type: ignore[union-attr]  # the type was just checked
                    names.add(block.tool_name)  # type: ignore[union-attr]
                if speaker != "tool":
                    misplaced = True
                continue
            if speaker == "tool":
                misplaced = mixed = True
            if kind is ToolCallBlock:
                names.add(block.name)  # type: ignore[union-attr]
                if speaker != "ai":
                    misplaced = True
            elif kind is TextBlock and not block.text.strip():  # type: ignore[union-attr]
                blank = True
    return Facts(frozenset(kinds), blank, empty, misplaced, mixed, frozenset(names))


_MEMO: dict[int, list[tuple[tuple[Message, ...], Facts]]] = {}


def remembered(session: Session) -> list[tuple[tuple[Message, ...], Facts]]:
    """The facts remembered for ``session`` (a list `Trace.facts` reads and adds to)."""
    return entries_for(_MEMO, id(session), session)
