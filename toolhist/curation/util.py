"""Small helpers the passes share: synthetic messages and block grouping."""

from __future__ import annotations

from collections.abc import Iterable

from toolhist.model import Block, Message, MessageMetadata, Speaker, ToolCallBlock, ToolResponseBlock


def synthetic(speaker: Speaker, blocks: Iterable[Block], reason: str) -> Message:
    """A message a pass made, marked so every view can tell it from what the user or model said."""
    return Message(
        speaker=speaker, blocks=tuple(blocks), metadata=MessageMetadata(synthetic=True, reason=reason)
    )


def calls_of(messages: Iterable[Message]) -> Iterable[ToolCallBlock]:
    """Every tool call, in order."""
    for message in messages:
        yield from message.tool_calls()


def results_of(messages: Iterable[Message]) -> Iterable[ToolResponseBlock]:
    """Every tool result, in order."""
    for message in messages:
        yield from message.tool_responses()


def same_result(a: ToolResponseBlock, b: ToolResponseBlock) -> bool:
    """Whether two results say the same thing (content and error), ignoring ids and provenance."""
    return a.result == b.result and a.error == b.error
