"""Small helpers the passes share: synthetic messages, block grouping, one-for-one block rewrites."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from toolhist.model import Block, Message, MessageMetadata, Speaker, ToolCallBlock, ToolResponseBlock

if TYPE_CHECKING:  # pragma: no cover - typing only
    from toolhist.curation.base import Change, Trace


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


def rewrite_blocks(
    messages: tuple[Message, ...], trace: Trace, rewrite: Callable[[Block], tuple[Block, Change] | None]
) -> tuple[tuple[Message, ...], list[Change]]:
    """Replace blocks one for one: ``rewrite(block)`` gives the new block and its Change, or None to keep it.

    Each new block and each rebuilt message is derived from the old one in ``trace``, so later passes
    and the pipeline still locate them; a message with nothing rewritten is kept as the same object.
    """
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        blocks: list[Block] = []
        for block in message.blocks:
            done = rewrite(block)
            if done is None:
                blocks.append(block)
                continue
            new, change = done
            trace.derive(new, block)
            blocks.append(new)
            changes.append(change)
        if all(a is b for a, b in zip(blocks, message.blocks, strict=True)):
            out.append(message)
            continue
        rebuilt = message.model_copy(update={"blocks": tuple(blocks)})
        trace.derive(rebuilt, message)
        out.append(rebuilt)
    return tuple(out), changes
