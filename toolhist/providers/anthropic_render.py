"""Rendering a Session as an Anthropic Messages body.

The inverse of `toolhist.formats.anthropic`: a body read from Anthropic renders back to the same
JSON value (``system`` string or blocks, string or block content, ``server_tool_use`` and server
result types, ``tool_result`` without ``content``, ``cache_control``, opaque blocks).

From another format, one canonical message becomes one Anthropic message (the API itself folds
consecutive user messages, so the results of parallel calls may stay in separate messages), and
ids go out as the history has them: a Kimi ``functions.read:0`` id stays and shows ant.id_pattern.
What Anthropic cannot take (thinking it did not sign, other formats' opaque blocks, audio) is left
out and said in ``Payload.omitted``; so are the fields toolhist had to supply (``max_tokens``,
tool declarations derived from the calls).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import JsonValue

from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
    ToolSpec,
)
from toolhist.providers.base import Payload, new_payload
from toolhist.providers.block_render import BlockRenderer
from toolhist.providers.session_memo import once_per_session

NAME = "anthropic"
DEFAULT_MAX_TOKENS = 4096
DERIVED = "derived by toolhist from the calls in the history"
EMPTY_SCHEMA: dict[str, JsonValue] = {"type": "object", "properties": {}}
SIGNATURE_KEYS = ("thoughtSignature", "thought_signature")


def tool_declarations(session: Session) -> tuple[list[ToolSpec], list[str]]:
    """The function tools to declare, and notes: the session's own, or derived from its calls.

    Anthropic and Bedrock reject tool blocks without declarations; a source that declared none
    (a bare message list) still needs some, so minimal ones are made from the calls and say so.
    """
    notes: list[str] = []
    if session.tools:
        for spec in session.tools:
            if spec.kind != "function":
                notes.append(f"tools: built-in tool {spec.name!r} ({spec.kind}) has no declaration here")
        return [t for t in session.tools if t.kind == "function"], notes
    names = _called_names(session)
    if not names:
        return [], notes
    notes.append(
        f"tools: the source declared none; {len(names)} declaration(s) derived from the calls "
        f"({', '.join(names)}) with an empty parameter schema"
    )
    return [ToolSpec(name=n, description=DERIVED, parameters=EMPTY_SCHEMA) for n in names], notes


@once_per_session
def _called_names(session: Session) -> tuple[str, ...]:
    """The names of the session's calls (not Anthropic server tool calls), each once, first seen first.

    Walked once per session object (`toolhist.providers.session_memo`), in one loop over the blocks:
    Anthropic and Bedrock both derive declarations from it when a source declared none (every Claude
    Code log), and the walk was a generator per message and per call, a fifth of rendering a
    100,000-line Claude Code log for Bedrock.
    """
    names: dict[str, None] = {}
    for message in session.messages:
        for block in message.blocks:
            if type(block) is ToolCallBlock and block.provider_data.get("type") != "server_tool_use":
                names[block.name] = None
    return tuple(names)


def max_tokens_of(request: dict[str, JsonValue]) -> int | None:
    """The output token limit another format's request carried, under any of its spellings."""
    for key in ("max_tokens", "max_completion_tokens", "max_output_tokens"):
        value = request.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    for outer, inner in (("inferenceConfig", "maxTokens"), ("generationConfig", "maxOutputTokens")):
        config = request.get(outer)
        value = config.get(inner) if isinstance(config, dict) else None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def call_input(call: ToolCallBlock, mi: int, bi: int, omitted: list[str], fmt: str) -> dict[str, JsonValue]:
    """A call's arguments as the JSON object Anthropic and Bedrock require (``{}`` otherwise, said)."""
    if isinstance(call.parameters, dict):
        return call.parameters
    if call.parameters is not None or call.raw_arguments not in (None, ""):
        why = call.arguments_error or "not a JSON object"
        omitted.append(f"message {mi} block {bi}: arguments of {call.name!r} ({why}) sent to {fmt} as {{}}")
    return {}


def data_url(url: str) -> tuple[str, str] | None:
    """``(mime, base64 data)`` of a ``data:…;base64,…`` URL."""
    head, sep, data = url.partition(",")
    if not (url.startswith("data:") and sep and head.endswith(";base64")):
        return None
    return head[5:-7] or "application/octet-stream", data


def json_text(value: JsonValue) -> str:
    """Compact JSON text of a structured result, for formats that want text."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _result_part(part: Any) -> JsonValue:
    """One foreign result part as an Anthropic tool_result content block, or None when it has none."""
    if not isinstance(part, dict):
        return None
    if part.get("type") in ("text", "image", "document", "search_result"):
        return dict(part)
    if set(part) == {"text"} and isinstance(part["text"], str):
        return {"type": "text", "text": part["text"]}
    if set(part) == {"json"}:
        return {"type": "text", "text": json_text(part["json"])}
    return None


def result_content(block: ToolResponseBlock) -> JsonValue:
    """A foreign result as ``tool_result.content``: text, Anthropic blocks, or JSON as text."""
    result = block.result
    if result is None:
        return block.error
    if isinstance(result, str):
        return result
    if isinstance(result, list):
        parts = [_result_part(p) for p in result]
        if all(p is not None for p in parts):
            return parts
    return json_text(result)


def signature_note(provider_data: dict[str, JsonValue], mi: int, bi: int, fmt: str) -> str | None:
    """A plain note when a foreign block carries a thought signature the target cannot take."""
    for key in SIGNATURE_KEYS:  # a loop, not a comprehension: once per call rendered
        if key in provider_data:
            return (
                f"message {mi} block {bi}: {key} (bound to the provider that made it) cannot be sent to {fmt}"
            )
    return None


def plain_text(part: dict[str, JsonValue]) -> bool:
    """A text block with nothing but its text."""
    return len(part) == 2 and part.get("type") == "text" and "text" in part  # keys exactly type and text


class _Renderer(BlockRenderer):
    """Walks canonical messages, emits Anthropic messages and the system prompt, records the map."""

    name = NAME
    system_place = "top-level system prompt"

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.messages: list[JsonValue] = []
        self.system: list[tuple[int, int, dict[str, JsonValue]]] = []
        self.system_form: JsonValue = None

    def system_message(self, mi: int, message: Message) -> None:
        if self.system_owner is None:
            self.system_owner = mi
            self.system_form = message.metadata.extra.get("_content_form") if self.same else None
        for bi, block in enumerate(message.blocks):
            part = self.block(mi, bi, block)
            if part is None:
                continue
            if part.get("type") != "text":
                self.omitted.append(f"message {mi} block {bi}: the system prompt takes text only")
                continue
            self.system.append((mi, bi, part))

    def system_value(self, owner: int) -> JsonValue:
        """The ``system`` field: a string where the source had one (or one plain text), else blocks."""
        parts = [p for _, _, p in self.system]
        self.map.add(("system",), owner)
        as_string = self.system_form == "string" or (
            self.system_form is None and not self.same and len(parts) == 1 and plain_text(parts[0])
        )
        if as_string and len(parts) == 1:
            return parts[0]["text"]
        for k, (mi, bi, _) in enumerate(self.system):
            self.map.add(("system", k), mi, bi)
        return list(parts)

    def emit(self, mi: int, message: Message, role: str, pairs: Sequence[tuple[int, Block]]) -> None:
        messages = self.messages
        k = len(messages)
        out: dict[str, JsonValue] = {"role": role}
        messages.append(out)
        self.put_message(k, mi, None)
        if len(pairs) > 1:
            pairs = self.sendable(mi, pairs)
        put = self.put_part
        parts: list[JsonValue] = []
        part: dict[str, JsonValue] | None
        for bi, block in pairs:
            kind = type(block)  # `block`'s dispatch, inline: once per block
            if kind is ToolResponseBlock:
                part = self.response(mi, bi, block)  # type: ignore[arg-type]  # its class, tested
            elif kind is ToolCallBlock:
                part = self.call(mi, bi, block)  # type: ignore[arg-type]
            elif kind is TextBlock:
                part = self.text(block)  # type: ignore[arg-type]
            else:
                part = self.block(mi, bi, block)
            if part is not None:
                put(k, len(parts), mi, bi)
                parts.append(part)
        same = self.same
        out["content"] = parts  # a list made here: sent as it is, not copied
        if len(parts) == 1 and (not same or message.metadata.extra.get("_content_form") == "string"):
            first = parts[0]
            # `plain_text`, inline: once per message
            if type(first) is dict and len(first) == 2 and first.get("type") == "text" and "text" in first:
                out["content"] = first["text"]
        if same:
            out.update({key: v for key, v in message.metadata.extra.items() if not key.startswith("_")})

    def text(self, block: TextBlock) -> dict[str, JsonValue]:
        if self.same and block.provider_data:
            return {"type": "text", "text": block.text, **block.provider_data}
        return {"type": "text", "text": block.text}  # a literal: no unpacking of an empty dict

    def call(self, mi: int, bi: int, call: ToolCallBlock) -> dict[str, JsonValue]:
        if self.same:
            data = dict(call.provider_data)
            out: dict[str, JsonValue] = {
                "type": data.pop("type", "tool_use"),
                "id": call.id,
                "name": call.name,
            }
            if data.pop("_input", None) != "absent":
                out["input"] = call.parameters
            out.update({k: v for k, v in data.items() if not k.startswith("_")})
            return out
        data = call.provider_data
        if data and ("thoughtSignature" in data or "thought_signature" in data):  # SIGNATURE_KEYS
            self.omitted.append(str(signature_note(data, mi, bi, NAME)))
        parameters = call.parameters
        return {
            "type": "tool_use",
            "id": call.id,
            "name": call.name,
            "input": parameters
            if isinstance(parameters, dict)
            else call_input(call, mi, bi, self.omitted, NAME),
        }

    def response(self, mi: int, bi: int, block: ToolResponseBlock) -> dict[str, JsonValue]:
        if self.same:
            data = dict(block.provider_data)
            out: dict[str, JsonValue] = {
                "type": data.pop("type", "tool_result"),
                "tool_use_id": block.call_id,
            }
            if data.pop("_content", None) != "absent":
                out["content"] = block.result
            out.update({k: v for k, v in data.items() if not k.startswith("_")})
            return out
        out = {"type": "tool_result", "tool_use_id": block.call_id}
        result = block.result
        content = result if type(result) is str else result_content(block)
        if content is not None:
            out["content"] = content
        if block.error is not None:
            out["is_error"] = True
        return out

    def thinking(self, mi: int, bi: int, block: ThinkingBlock) -> dict[str, JsonValue] | None:
        if block.source_provider != NAME:
            self.omitted.append(
                f"message {mi} block {bi}: thinking from {block.source_provider or 'an unknown source'} left out "
                f"({NAME} takes back only thinking it signed)"
            )
            return None
        extra = {k: v for k, v in block.provider_data.items() if not k.startswith("_")}
        out: dict[str, JsonValue]
        if block.redacted:
            out = {"type": "redacted_thinking"}
            if block.data is not None:
                out["data"] = block.data
            return {**out, **extra}
        out = {"type": "thinking", "thinking": block.text}
        if block.signature is not None:
            out["signature"] = block.signature
        return {**out, **extra}

    def media(self, mi: int, bi: int, block: MediaBlock) -> dict[str, JsonValue] | None:
        data = block.provider_data
        if data.get("type") in ("image", "document") and isinstance(data.get("source"), dict):
            return dict(data)
        mime, payload = block.mime_type, block.data
        parsed = data_url(block.url) if block.url else None
        if parsed and not payload:
            mime, payload = mime or parsed[0], parsed[1]
        source: dict[str, JsonValue] | None = None
        if payload:
            source = {"type": "base64", "media_type": mime or "application/octet-stream", "data": payload}
        elif block.url and block.url.startswith(("http://", "https://")):
            source = {"type": "url", "url": block.url}
        kind = "document" if mime == "application/pdf" else "image"
        if source is None or (kind == "image" and not (mime or "image/").startswith("image/")):
            self.omitted.append(f"message {mi} block {bi}: {mime or 'media'} in a form {NAME} cannot take")
            return None
        return {"type": kind, "source": source}


def _tools(specs: list[ToolSpec]) -> list[JsonValue]:
    return [
        {
            "name": t.name,
            **({"description": t.description} if t.description else {}),
            "input_schema": t.parameters if t.parameters is not None else EMPTY_SCHEMA,
        }
        for t in specs
    ]


def render(session: Session) -> Payload:
    """The Messages body for ``session``, ids as the session has them."""
    renderer = _Renderer(session)
    renderer.run()
    body: dict[str, JsonValue] = {}
    omitted: list[str] = []
    if renderer.same:
        body.update(session.request)
    else:
        model = session.request.get("model")
        if isinstance(model, str):
            body["model"] = model
        else:
            omitted.append("model: the source named none; set one before sending")
        max_tokens = max_tokens_of(session.request)
        if max_tokens is None:
            max_tokens = DEFAULT_MAX_TOKENS
            omitted.append(
                f"max_tokens set to {DEFAULT_MAX_TOKENS} (required by Anthropic, absent in the source)"
            )
        body["max_tokens"] = max_tokens
    if renderer.system_owner is not None:
        body["system"] = renderer.system_value(renderer.system_owner)
    if not renderer.same:
        specs, notes = tool_declarations(session)
        omitted.extend(notes)
        if specs:
            body["tools"] = _tools(specs)
    body["messages"] = renderer.messages
    if renderer.same and session.metadata.get("shape") == "list":
        body = {"messages": renderer.messages}
    return new_payload(NAME, body, renderer.map, (*omitted, *renderer.omitted))
