"""Helpers for the llxprt strategy tests: icontent sessions, running one pass, compact message shapes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import JsonValue

from toolhist.curation.base import Change, Trace
from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    MessageMetadata,
    Session,
    SessionSource,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)
from toolhist.providers import validate

Step = Callable[[tuple[Message, ...], Trace], tuple[tuple[Message, ...], list[Change]]]


def icontent(*messages: Message) -> Session:
    """A history as llxprt stores it (read as ``icontent``: ingest does not touch its ids)."""
    return Session(messages=tuple(messages), source=SessionSource(format="icontent"))


def foreign(*messages: Message, fmt: str = "openai-chat", model: str | None = None) -> Session:
    """A history llxprt reads from provider-shaped content (ingest normalises its ids)."""
    request: dict[str, JsonValue] = {"model": model} if model else {}
    return Session(messages=tuple(messages), source=SessionSource(format=fmt), request=request)


def done(
    call_id: str, value: JsonValue = "ok", *, complete: JsonValue = True, error: str | None = None
) -> ToolResponseBlock:
    """A result with llxprt's ``isComplete`` field set (as the icontent reader keeps it)."""
    return ToolResponseBlock(
        call_id=call_id,
        tool_name="read_file",
        result=value,
        error=error,
        raw_call_id=call_id,
        provider_data={"isComplete": complete},
    )


def media(mime: str = "image/png", data: str = "iVBO") -> MediaBlock:
    return MediaBlock(mime_type=mime, data=data)


def thinking(text: str, **fields: Any) -> ThinkingBlock:
    return ThinkingBlock(text=text, **fields)


def said(speaker: str, *blocks: Block, **meta: Any) -> Message:
    """A message of any speaker with optional metadata fields."""
    return Message.model_validate({"speaker": speaker, "blocks": blocks, "metadata": MessageMetadata(**meta)})


def apply(step: Step, *messages: Message) -> tuple[tuple[Message, ...], list[Change]]:
    """Run one pass over ``messages`` with a fresh trace."""
    return step(tuple(messages), Trace.of(messages))


def short(block: Block) -> tuple[Any, ...]:
    """A block in one tuple: what the tests compare."""
    if isinstance(block, ToolCallBlock):
        return ("call", block.id, block.name)
    if isinstance(block, ToolResponseBlock):
        return ("result", block.call_id)
    if isinstance(block, TextBlock):
        return ("text", block.text)
    if isinstance(block, MediaBlock):
        return ("media", block.mime_type)
    if isinstance(block, ThinkingBlock):
        return ("thinking", block.text)
    return ("opaque",)


def shape(messages: tuple[Message, ...] | list[Message]) -> list[tuple[Any, ...]]:
    """Each message as (speaker, reason, [blocks]); ``reason`` is None for non-synthetic messages."""
    return [
        (m.speaker, m.metadata.reason if m.metadata.synthetic else None, [short(b) for b in m.blocks])
        for m in messages
    ]


def summary(changes: list[Change] | tuple[Change, ...]) -> list[tuple[str, str, str | None]]:
    """Each change as (action, reason, call_id)."""
    return [(c.action, c.reason, c.call_id) for c in changes]


def rules(session: Session, provider: str, strategy: str) -> list[tuple[str, tuple[str, ...]]]:
    """The error-level violations of ``session`` for ``provider`` under ``strategy``: (rule, call ids)."""
    return [
        (v.rule, tuple(v.call_ids))
        for v in validate(session, provider, strategy=strategy)
        if v.severity == "error"
    ]
