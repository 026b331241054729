"""Anthropic Messages: a request body ``{"model", "system", "messages", "tools", …}`` or a message list.

Also the base shape of Kilo/Roo/Cline's ``api_conversation_history.json``. A user message that
carries ``tool_result`` blocks reads as a ``tool`` message with its blocks in source order, text
included, because the order is itself a rule (`ant.result_first`: results first, text after).
"""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue

from toolhist._trusted import construct
from toolhist.formats.base import Built, Pointer, Reader, ShapeError, arr, obj, opt_text, rest, tag, text
from toolhist.formats.document import Document, json_path
from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    MessageMetadata,
    OpaqueBlock,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
    ToolSpec,
)

BLOCK_TYPES = {
    "text",
    "image",
    "document",
    "tool_use",
    "tool_result",
    "thinking",
    "redacted_thinking",
    "server_tool_use",
    "search_result",
    "container_upload",
}
MARKER_TYPES = {"tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use", "document"}


def _result_error(content: Any) -> str:
    """The text of an error result, for ``ToolResponseBlock.error``."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def read_block(raw: Any, ptr: Pointer, fmt: str, notes: list[str]) -> Block:
    """One content block as a canonical block."""
    block = obj(raw, ptr)
    kind = block.get("type")
    if kind == "text":
        return construct(
            TextBlock, text=text(block.get("text"), (*ptr, "text")), provider_data=rest(block, "type", "text")
        )
    if kind in ("tool_use", "server_tool_use"):
        call_id = text(block.get("id"), (*ptr, "id"))
        extra = rest(block, "type", "id", "name", "input")
        if kind == "server_tool_use":
            extra["type"] = kind
        if "input" not in block:
            extra["_input"] = "absent"
        elif not isinstance(block["input"], dict):
            # The Messages API types ``input`` as an object; anything else is not a body it sent.
            obj(block["input"], (*ptr, "input"))
        return construct(
            ToolCallBlock,
            id=call_id,
            name=text(block.get("name", ""), (*ptr, "name")),
            parameters=block.get("input"),
            raw_id=call_id,
            provider_data=extra,
        )
    if kind == "tool_result" or (isinstance(kind, str) and kind.endswith("_tool_result")):
        call_id = text(block.get("tool_use_id"), (*ptr, "tool_use_id"))
        content = block.get("content")
        extra = rest(block, "type", "tool_use_id", "content")
        if kind != "tool_result":
            extra["type"] = kind
        if "content" not in block:
            extra["_content"] = "absent"
        is_error = block.get("is_error") is True
        return construct(
            ToolResponseBlock,
            call_id=call_id,
            result=content,
            error=_result_error(content) if is_error else None,
            raw_call_id=call_id,
            provider_data=extra,
        )
    if kind == "thinking":
        return construct(
            ThinkingBlock,
            text=text(block.get("thinking", ""), (*ptr, "thinking")),
            signature=opt_text(block.get("signature"), (*ptr, "signature")),
            source_provider=fmt,
            provider_data=rest(block, "type", "thinking", "signature"),
        )
    if kind == "redacted_thinking":
        return construct(
            ThinkingBlock,
            redacted=True,
            data=opt_text(block.get("data"), (*ptr, "data")),
            source_provider=fmt,
            provider_data=rest(block, "type", "data"),
        )
    if kind in ("image", "document"):
        source = obj(block.get("source"), (*ptr, "source"))
        return construct(
            MediaBlock,
            mime_type=source.get("media_type") if isinstance(source.get("media_type"), str) else None,
            data=source.get("data") if isinstance(source.get("data"), str) else None,
            url=source.get("url")
            if isinstance(source.get("url"), str)
            else opt_text(source.get("file_id"), (*ptr, "source", "file_id")),
            filename=block.get("title") if isinstance(block.get("title"), str) else None,
            provider_data=dict(block),
        )
    if not isinstance(kind, str):
        raise ShapeError((*ptr, "type"), "content block has no string 'type'")
    notes.append(f"{json_path(ptr)}: block of type {kind!r} kept verbatim (not modelled)")
    return construct(OpaqueBlock, source_format=fmt, data=dict(block))


def read_content(content: Any, ptr: Pointer, fmt: str, notes: list[str]) -> list[Block]:
    """``content`` (a string or a list of blocks) as canonical blocks."""
    if isinstance(content, str):
        return [construct(TextBlock, text=content)]
    return [read_block(b, (*ptr, j), fmt, notes) for j, b in enumerate(arr(content, ptr))]


def read_message(raw: Any, ptr: Pointer, fmt: str, notes: list[str]) -> Message:
    """One message; ``role`` must be user or assistant."""
    msg = obj(raw, ptr)
    role = msg.get("role")
    if role not in ("user", "assistant"):
        raise ShapeError((*ptr, "role"), f"unknown role {role!r}; expected 'user' or 'assistant'")
    if "content" not in msg:
        raise ShapeError((*ptr, "content"), "required field 'content' is missing")
    blocks = read_content(msg["content"], (*ptr, "content"), fmt, notes)
    extra: dict[str, JsonValue] = rest(msg, "role", "content")
    extra["_content_form"] = "string" if isinstance(msg["content"], str) else "parts"
    if role == "assistant":
        speaker = "ai"
    else:
        speaker = "tool" if any(isinstance(b, ToolResponseBlock) for b in blocks) else "human"
    return Message(
        speaker=speaker, blocks=tuple(blocks), metadata=MessageMetadata(source_role=role, extra=extra)
    )


def read_tools(tools: Any, ptr: Pointer) -> tuple[ToolSpec, ...]:
    """Tool declarations (custom tools and server tools)."""
    specs = []
    for i, raw in enumerate(arr(tools, ptr)):
        tool = obj(raw, (*ptr, i))
        name = str(tool.get("name", tool.get("type", "?")))
        kind = str(tool.get("type", "custom"))
        specs.append(
            ToolSpec(
                name=name,
                description=tool.get("description") if isinstance(tool.get("description"), str) else None,
                parameters=tool.get("input_schema"),
                kind="function" if kind == "custom" else kind,
            )
        )
    return tuple(specs)


def looks_anthropic(messages: Any) -> int:
    """0/1/2 score for a list of Anthropic-shaped messages."""
    if not isinstance(messages, list) or not messages:
        return 0
    marker = False
    for m in messages:
        if not isinstance(m, dict) or m.get("role") not in ("user", "assistant") or "content" not in m:
            return 0
        content = m["content"]
        if isinstance(content, list):
            for b in content:
                if not isinstance(b, dict) or (
                    tag(b.get("type")) not in BLOCK_TYPES and not str(b.get("type")).endswith("_tool_result")
                ):
                    return 0
                marker = (
                    marker
                    or tag(b.get("type")) in MARKER_TYPES
                    or (b.get("type") == "image" and "source" in b)
                    or "cache_control" in b
                )
        elif not isinstance(content, str):
            return 0
    return 2 if marker else 1


class AnthropicReader(Reader):
    """``anthropic``: Messages API request bodies and message lists."""

    id = "anthropic"
    description = "Anthropic Messages request body or message list"
    judgement = "as-sent"

    def recognise(self, value: Any) -> int:
        """Certain on tool_use/tool_result/thinking blocks or a top-level ``system`` + ``max_tokens``."""
        if isinstance(value, dict):
            score = looks_anthropic(value.get("messages"))
            if score == 1 and ("anthropic_version" in value or ("system" in value and "max_tokens" in value)):
                return 2
            return score
        return looks_anthropic(value)

    def read(self, doc: Document) -> Session:
        """Read a body or list; ``system`` becomes the first (system) message."""
        value = doc.value
        built = Built(doc)
        request: dict[str, JsonValue] = {}
        tools = None
        if isinstance(value, dict):
            ptr: Pointer = ("messages",)
            messages = arr(value.get("messages"), ptr)
            request = rest(value, "messages", "system")
            if "tools" in value:
                tools = read_tools(value["tools"], ("tools",))
            if "system" in value:
                system = value["system"]
                blocks = read_content(system, ("system",), self.id, built.notes)
                extra: dict[str, JsonValue] = {
                    "_request_field": "system",
                    "_content_form": "string" if isinstance(system, str) else "parts",
                }
                built.add(
                    Message(
                        speaker="system",
                        blocks=tuple(blocks),
                        metadata=MessageMetadata(source_role="system", extra=extra),
                    ),
                    None,
                    ("system",),
                )
        else:
            ptr = ()
            messages = arr(value, ptr)
        for i, raw in enumerate(messages):
            built.add(read_message(raw, (*ptr, i), self.id, built.notes), i, (*ptr, i))
        return built.session(
            self.id,
            tools=tools,
            request=request,
            metadata={"shape": "body" if isinstance(value, dict) else "list"},
        )
