"""One-line builders for canonical histories, so a test reads like the conversation it checks."""

from __future__ import annotations

from pydantic import JsonValue

from toolhist.model import (
    Block,
    Message,
    MessageMetadata,
    Session,
    SessionSource,
    TextBlock,
    ToolCallBlock,
    ToolResponseBlock,
)


def human(text: str) -> Message:
    return Message(speaker="human", blocks=(TextBlock(text=text),))


def ai(*blocks: Block | str) -> Message:
    return Message(speaker="ai", blocks=tuple(TextBlock(text=b) if isinstance(b, str) else b for b in blocks))


def call(call_id: str, name: str = "read_file", **params: JsonValue) -> ToolCallBlock:
    return ToolCallBlock(id=call_id, name=name, parameters=dict(params), raw_id=call_id)


def result(call_id: str, value: JsonValue = "ok", name: str | None = "read_file") -> ToolResponseBlock:
    return ToolResponseBlock(call_id=call_id, tool_name=name, result=value, raw_call_id=call_id)


def tool(*blocks: Block) -> Message:
    return Message(speaker="tool", blocks=tuple(blocks), metadata=MessageMetadata(source_role="tool"))


def session(*messages: Message) -> Session:
    return Session(messages=tuple(messages), source=SessionSource(format="toolhist"))
