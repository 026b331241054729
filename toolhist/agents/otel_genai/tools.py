"""OpenTelemetry ``execute_tool`` spans: tool calls and results recorded beside the chat spans.

The GenAI semantic conventions (open-telemetry/semantic-conventions ``docs/gen-ai/gen-ai-spans.md``,
"Execute tool span", read at commit a064dcca28053f4406d5dc65895e89c523171ca4) record each tool run
as its own INTERNAL span named ``execute_tool {gen_ai.tool.name}`` with
``gen_ai.operation.name = execute_tool`` and ``gen_ai.tool.name``, ``gen_ai.tool.call.id``
(recommended), ``gen_ai.tool.call.arguments`` and ``gen_ai.tool.call.result`` (opt-in, JSON text
or structured). Many instrumentations capture tools there and not in the chat spans' messages, so
a trace can hold every call only in these spans.

`join` adds what the chat spans' history lacks, in span start order:

- a call whose id (or, without an id, whose name and arguments) is already in the history is not
  added again; its result is added when the history has none (the pending result the agent sends
  next);
- calls of consecutive tool spans with no chat span between them form one ai message, their
  results one tool message, after the history;
- a tool span with no id, arguments or result adds nothing and is counted in a note.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import orjson
from pydantic import JsonValue

from toolhist.formats.base import Built, parse_arguments
from toolhist.formats.document import json_path
from toolhist.model import Message, MessageMetadata, ToolCallBlock, ToolResponseBlock

OPERATION = "gen_ai.operation.name"
TOOL_NAME = "gen_ai.tool.name"
CALL_ID = "gen_ai.tool.call.id"
ARGUMENTS = "gen_ai.tool.call.arguments"
RESULT = "gen_ai.tool.call.result"


def is_tool_span(name: str, attrs: dict[str, Any]) -> bool:
    """An ``execute_tool`` span, by its operation name or (older exporters) its span name."""
    return attrs.get(OPERATION) == "execute_tool" or name.startswith("execute_tool")


def _result(value: Any) -> JsonValue:
    """The result as recorded: JSON text decoded when it is JSON, else the text."""
    if isinstance(value, str):
        try:
            decoded: JsonValue = orjson.loads(value)
        except orjson.JSONDecodeError:
            return value
        return decoded
    return value  # type: ignore[no-any-return]


def _call(name: str, attrs: dict[str, Any], ptr: str) -> ToolCallBlock:
    raw_id = attrs.get(CALL_ID) if isinstance(attrs.get(CALL_ID), str) else None
    arguments = attrs.get(ARGUMENTS)
    params, error, raw_args = arguments, None, None
    if isinstance(arguments, str):
        params, error = parse_arguments(arguments)
        raw_args = arguments
    tool = attrs.get(TOOL_NAME)
    return ToolCallBlock(
        id=raw_id or f"otel-{ptr}",  # no id recorded: the span's place names the call
        name=tool if isinstance(tool, str) else name.removeprefix("execute_tool").strip(),
        parameters=params,
        raw_id=raw_id,
        raw_arguments=raw_args,
        arguments_error=error,
        provider_data={"span": ptr},
    )


def _response(call: ToolCallBlock, attrs: dict[str, Any], ptr: str) -> ToolResponseBlock:
    error = attrs.get("error.type")
    return ToolResponseBlock(
        call_id=call.id,
        tool_name=call.name,
        result=_result(attrs.get(RESULT)),
        error=error if isinstance(error, str) else None,
        raw_call_id=call.raw_id,
        provider_data={"span": ptr},
    )


class SpanLike(Protocol):
    """What `join` reads of a span."""

    name: str
    attrs: dict[str, Any]
    ptr: tuple[str | int, ...]


def join(spans: Sequence[SpanLike], built: Built) -> None:
    """Add the calls and results of the tool spans in ``spans`` that the history lacks.

    ``spans`` are chat and tool spans in start order; a chat span closes the batch of tool calls
    before it.
    """
    calls: dict[str, ToolCallBlock] = {}
    answered: set[str] = set()
    for message in built.messages:
        for block in message.blocks:
            if isinstance(block, ToolCallBlock):
                calls[block.id] = block
                calls.setdefault(
                    f"{block.name}\0{block.raw_arguments or orjson.dumps(block.parameters)!r}", block
                )
            elif isinstance(block, ToolResponseBlock):
                answered.add(block.call_id)
    batch: list[tuple[ToolCallBlock, ToolResponseBlock | None]] = []
    added = empty = 0

    def flush() -> None:
        nonlocal batch
        new_calls = tuple(c for c, _ in batch if c.id not in calls)
        results = tuple(r for _, r in batch if r is not None)
        if new_calls:
            built.add(Message(speaker="ai", blocks=new_calls, metadata=_meta()), None, ("execute_tool",))
            calls.update({c.id: c for c in new_calls})
        if results:
            built.add(Message(speaker="tool", blocks=results, metadata=_meta()), None, ("execute_tool",))
            answered.update(r.call_id for r in results)
        batch = []

    for one in spans:
        name, attrs, ptr = one.name, one.attrs, one.ptr
        if not is_tool_span(name, attrs):
            flush()
            continue
        if not any(key in attrs for key in (CALL_ID, ARGUMENTS, RESULT)):
            empty += 1
            continue
        path = json_path(ptr)
        call = _call(name, attrs, path)
        if call.raw_id is None:
            call = calls.get(_key(call)) or call
        known_call = calls.get(call.id)
        if known_call is not None and call.id in answered:
            continue
        result = (
            _response(known_call or call, attrs, path) if RESULT in attrs or "error.type" in attrs else None
        )
        batch.append((known_call or call, result))
        added += 1
    flush()
    if added:
        built.notes.append(
            f"{added} tool call(s) or result(s) read from execute_tool spans (not in the chat spans)"
        )
    if empty:
        built.notes.append(
            f"{empty} execute_tool span(s) with no call id, arguments or result: nothing to add"
        )


def _key(call: ToolCallBlock) -> str:
    """A call without an id is matched by its name and arguments."""
    return f"{call.name}\0" + (orjson.dumps(call.parameters, option=orjson.OPT_SORT_KEYS).decode())


def _meta() -> MessageMetadata:
    return MessageMetadata(source_role="execute_tool", extra={"_from": "execute_tool spans"})
