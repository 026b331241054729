"""What the index keeps of a session read whole: each message's searchable text, its tool calls and ids.

The same text the Conversation page's search looks in (`toolhist.views.transcript`, ``_texts``):
text and thinking, a call's tool name and arguments, a result's text and error, a media block's
file name, address and type, an opaque block's JSON, and the text of each record the agent keeps
but never sends (at the message it stands before). One entry per message, its blocks' texts joined
by newlines and cut at `TEXT_CAP` characters, so the index holds what search needs and never a
whole session (a 2 MB tool output is kept as its first 4,096 characters).

Tool calls and results are kept apart from the text, with both ids (toolhist's ``id`` and the
source's ``raw_id``), so ``--call-id`` finds the call and every result that answers it; a result
that does not name its tool takes the name of the call it answers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from toolhist.model import (
    Block,
    MediaBlock,
    OpaqueBlock,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

TEXT_CAP: Final = 4096
"""Characters of each message's text the index keeps (the first ones)."""


@dataclass(frozen=True)
class Entry:
    """One message's searchable text (or an unsent record's)."""

    msg: int
    """The message index (``?msg=`` in the app); an unsent record's is the message it stands before."""
    kind: str
    """``message``, or ``unsent <kind>`` for a record the agent keeps but never sends."""
    speaker: str
    text: str
    """At most `TEXT_CAP` characters."""
    truncated: bool


@dataclass(frozen=True)
class Call:
    """A tool call or a result answering one."""

    msg: int
    role: str
    """``call`` or ``result``."""
    name: str
    """The tool's name ('' when neither the result nor a call it answers names one)."""
    id: str
    """toolhist's id (the call's ``id``, the result's ``call_id``)."""
    raw_id: str
    """The id as the source wrote it (the same as ``id`` when the source had none of its own)."""


def _result_text(result: object) -> str:
    if isinstance(result, str):
        return result
    if isinstance(result, list):
        parts = []
        for part in result:
            text = part.get("text") if isinstance(part, dict) else None
            parts.append(text if isinstance(text, str) else json.dumps(part, ensure_ascii=False))
        return "\n".join(parts)
    return "" if result is None else json.dumps(result, ensure_ascii=False)


def _arguments(call: ToolCallBlock) -> str:
    if call.freeform_input is not None:
        return call.freeform_input
    if call.parameters is None and call.raw_arguments is not None:
        return call.raw_arguments
    return json.dumps(call.parameters, ensure_ascii=False)


def _texts(block: Block) -> Iterator[str]:
    if isinstance(block, TextBlock | ThinkingBlock):
        yield block.text
    elif isinstance(block, ToolCallBlock):
        yield block.name
        yield _arguments(block)
    elif isinstance(block, ToolResponseBlock):
        yield _result_text(block.result)
        if block.error:
            yield block.error
    elif isinstance(block, MediaBlock):
        yield " ".join(x for x in (block.filename, block.url, block.mime_type) if x)
    elif isinstance(block, OpaqueBlock):
        yield json.dumps(block.data, ensure_ascii=False)


def _capped(msg: int, kind: str, speaker: str, pieces: Iterator[str]) -> Entry | None:
    """The entry of ``pieces`` joined by newlines, cut at `TEXT_CAP` (None when there is no text)."""
    text = "\n".join(piece for piece in pieces if piece)
    if not text:
        return None
    return Entry(msg, kind, speaker, text[:TEXT_CAP], len(text) > TEXT_CAP)


def entries(session: Session) -> Iterator[Entry]:
    """Each message's entry (messages without text have none), then each unsent record's."""
    for m, message in enumerate(session.messages):
        found = _capped(m, "message", message.speaker, (t for b in message.blocks for t in _texts(b)))
        if found is not None:
            yield found
    for record in session.unsent:
        found = _capped(record.before, f"unsent {record.kind}", "unsent", iter((record.text,)))
        if found is not None:
            yield found


def calls(session: Session) -> Iterator[Call]:
    """Every tool call and result, in order."""
    names: dict[str, str] = {}
    for m, message in enumerate(session.messages):
        for block in message.blocks:
            if isinstance(block, ToolCallBlock):
                names.setdefault(block.id, block.name)
                yield Call(m, "call", block.name, block.id, block.raw_id or block.id)
            elif isinstance(block, ToolResponseBlock):
                name = block.tool_name or names.get(block.call_id, "")
                yield Call(m, "result", name, block.call_id, block.raw_call_id or block.call_id)
