"""Rendering a Session as a Bedrock Converse body.

The inverse of `toolhist.formats.bedrock`: a Converse body renders back to the same JSON value
(``system`` blocks with ``cachePoint``, ``toolConfig`` and ``inferenceConfig`` verbatim, media
and unknown blocks as they were, ``toolResult`` fields such as ``status``).

From another format: ``modelId`` comes from the request (``modelId`` or ``model``), the system
prompt from the system message(s) as ``[{"text": …}]``, ``toolConfig`` from the declared tools
(or ones derived from the calls). Converse does not fold turns, so consecutive canonical messages
that map to the same role are sent as one message (the results of parallel OpenAI calls arrive as
separate tool messages) and the notes say which; every other boundary stays, and ids go out as
the history has them. What Converse cannot take is left out and said in ``Payload.omitted``.
"""

from __future__ import annotations

import re
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
from toolhist.providers.anthropic_render import (
    EMPTY_SCHEMA,
    call_input,
    data_url,
    json_text,
    signature_note,
    tool_declarations,
)
from toolhist.providers.base import Payload, new_payload
from toolhist.providers.block_render import BlockRenderer

NAME = "bedrock"
IMAGE_FORMATS = ("png", "jpeg", "gif", "webp")
DOCUMENT_FORMATS = {
    "application/pdf": "pdf",
    "text/csv": "csv",
    "text/plain": "txt",
    "text/html": "html",
    "text/markdown": "md",
    "application/msword": "doc",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.ms-excel": "xls",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
}
RESULT_KEYS = ("text", "json", "image", "document", "video")


def _media(
    mime: str | None, payload: str | None, url: str | None, name: str | None
) -> dict[str, JsonValue] | None:
    """A Converse image or document block from inline base64 data or an S3 URI, or None."""
    if payload:
        source: dict[str, JsonValue] = {"bytes": payload}
    elif url and url.startswith("s3://"):
        source = {"s3Location": {"uri": url}}
    else:
        return None
    main, _, sub = (mime or "").partition("/")
    if main == "image" and sub in IMAGE_FORMATS:
        return {"image": {"format": sub, "source": source}}
    if mime in DOCUMENT_FORMATS:
        # Document names allow letters, digits, spaces, hyphens, parentheses and brackets only.
        clean = re.sub(r"[^A-Za-z0-9 ()\[\]-]+", "-", name or "document").strip("- ") or "document"
        return {"document": {"format": DOCUMENT_FORMATS[mime], "name": clean, "source": source}}
    return None


def _result_part(part: Any) -> JsonValue:
    """One foreign result part as a Converse tool result content block, or None when it has none."""
    if not isinstance(part, dict):
        return None
    if len(part) == 1 and next(iter(part)) in RESULT_KEYS:
        return dict(part)
    if part.get("type") == "text" and isinstance(part.get("text"), str):
        return {"text": part["text"]}
    source = part.get("source")
    if (
        part.get("type") in ("image", "document")
        and isinstance(source, dict)
        and source.get("type") == "base64"
    ):
        mime, data = source.get("media_type"), source.get("data")
        return _media(
            mime if isinstance(mime, str) else None, data if isinstance(data, str) else None, None, None
        )
    return None


def result_content(block: ToolResponseBlock) -> list[JsonValue]:
    """A foreign result as ``toolResult.content``: text, a JSON document, or Converse blocks."""
    result = block.result
    if result is None:
        return [{"text": block.error}] if block.error else []
    if isinstance(result, str):
        return [{"text": result}]
    if isinstance(result, dict):
        return [{"json": result}]
    if isinstance(result, list):
        parts = [_result_part(p) for p in result]
        if all(p is not None for p in parts):
            return parts
    return [{"text": json_text(result)}]


class _Renderer(BlockRenderer):
    """Walks canonical messages, emits Converse messages and the system blocks, records the map."""

    name = NAME
    system_place = "top-level system blocks"

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.messages: list[dict[str, Any]] = []
        self.system: list[JsonValue] = []

    def system_message(self, mi: int, message: Message) -> None:
        if self.system_owner is None:
            self.system_owner = mi
        for bi, block in enumerate(message.blocks):
            part = self.block(mi, bi, block)
            if part is None:
                continue
            if not self.same and "text" not in part:
                self.omitted.append(f"message {mi} block {bi}: the system prompt takes text only")
                continue
            self.map.add(("system", len(self.system)), mi, bi)
            self.system.append(part)

    def emit(self, mi: int, message: Message, role: str, pairs: Sequence[tuple[int, Block]]) -> None:
        messages = self.messages
        same = self.same
        if not same and messages and messages[-1]["role"] == role:
            k = len(messages) - 1
            out = messages[k]
            self.omitted.append(
                f"message {mi} sent inside Bedrock message {k} (Converse needs user and assistant turns to alternate)"
            )
        else:
            k = len(messages)
            out = {"role": role, "content": []}
            messages.append(out)
            self.put_message(k, mi, None)
        content: list[JsonValue] = out["content"]
        if len(pairs) > 1:
            pairs = self.sendable(mi, pairs)
        put = self.put_part
        part: dict[str, JsonValue] | None
        for bi, block in pairs:
            kind = type(block)  # `block`'s dispatch, inline: once per block
            if kind is ToolResponseBlock:
                part = self.response(mi, bi, block)  # type: ignore[arg-type]  # its class, tested
            elif kind is ToolCallBlock:
                part = self.call(mi, bi, block)  # type: ignore[arg-type]
            elif kind is TextBlock:
                part = {"text": block.text}  # type: ignore[union-attr]  # `text`, inline
            else:
                part = self.block(mi, bi, block)
            if part is not None:
                put(k, len(content), mi, bi)
                content.append(part)
        if same:
            out.update({key: v for key, v in message.metadata.extra.items() if not key.startswith("_")})

    def text(self, block: TextBlock) -> dict[str, JsonValue]:
        return {"text": block.text}

    def call(self, mi: int, bi: int, call: ToolCallBlock) -> dict[str, JsonValue] | None:
        if self.same:
            use: dict[str, JsonValue] = {"toolUseId": call.id, "name": call.name}
            if call.parameters is not None:
                use["input"] = call.parameters
            use.update({k: v for k, v in call.provider_data.items() if not k.startswith("_")})
            return {"toolUse": use}
        if call.provider_data.get("type") == "server_tool_use":
            self.omitted.append(
                f"message {mi} block {bi}: Anthropic server tool call {call.name!r} cannot run on {NAME}"
            )
            return None
        data = call.provider_data
        if data and ("thoughtSignature" in data or "thought_signature" in data):  # SIGNATURE_KEYS
            self.omitted.append(str(signature_note(data, mi, bi, NAME)))
        parameters = call.parameters
        return {
            "toolUse": {
                "toolUseId": call.id,
                "name": call.name,
                "input": parameters
                if isinstance(parameters, dict)
                else call_input(call, mi, bi, self.omitted, NAME),
            }
        }

    def response(self, mi: int, bi: int, block: ToolResponseBlock) -> dict[str, JsonValue] | None:
        if self.same:
            result: dict[str, JsonValue] = {"toolUseId": block.call_id}
            if block.result is not None:
                result["content"] = block.result
            result.update({k: v for k, v in block.provider_data.items() if not k.startswith("_")})
            return {"toolResult": result}
        kind = block.provider_data.get("type") if block.provider_data else None
        if isinstance(kind, str) and kind.endswith("_tool_result") and kind != "tool_result":
            self.omitted.append(f"message {mi} block {bi}: Anthropic {kind} block cannot be sent to {NAME}")
            return None
        status = "error" if block.error is not None else "success"
        value = block.result
        content: list[JsonValue] = [{"text": value}] if type(value) is str else result_content(block)
        return {"toolResult": {"toolUseId": block.call_id, "content": content, "status": status}}

    def thinking(self, mi: int, bi: int, block: ThinkingBlock) -> dict[str, JsonValue] | None:
        if block.source_provider != NAME:
            self.omitted.append(
                f"message {mi} block {bi}: thinking from {block.source_provider or 'an unknown source'} left out "
                f"(its signature, if any, is bound to the provider that made it)"
            )
            return None
        if block.redacted:
            return {"reasoningContent": {"redactedContent": block.data}}
        text: dict[str, JsonValue] = {"text": block.text}
        if block.signature is not None:
            text["signature"] = block.signature
        return {"reasoningContent": {"reasoningText": text}}

    def media(self, mi: int, bi: int, block: MediaBlock) -> dict[str, JsonValue] | None:
        original = block.provider_data.get("block")
        if isinstance(original, dict):
            return dict(original)
        mime, payload = block.mime_type, block.data
        parsed = data_url(block.url) if block.url else None
        if parsed and not payload:
            mime, payload = mime or parsed[0], parsed[1]
        part = _media(mime, payload, block.url, block.filename)
        if part is None:
            self.omitted.append(f"message {mi} block {bi}: {mime or 'media'} in a form {NAME} cannot take")
        return part


def _tool_config(specs: list[ToolSpec]) -> dict[str, JsonValue]:
    return {
        "tools": [
            {
                "toolSpec": {
                    "name": t.name,
                    **({"description": t.description} if t.description else {}),
                    "inputSchema": {"json": t.parameters if t.parameters is not None else EMPTY_SCHEMA},
                }
            }
            for t in specs
        ]
    }


def render(session: Session) -> Payload:
    """The Converse body for ``session``, ids as the session has them."""
    renderer = _Renderer(session)
    renderer.run()
    messages: list[JsonValue] = list(renderer.messages)
    body: dict[str, JsonValue] = {}
    omitted: list[str] = []
    if renderer.same:
        body.update(session.request)
    else:
        model = session.request.get("modelId", session.request.get("model"))
        if isinstance(model, str):
            body["modelId"] = model
        else:
            omitted.append("modelId: the source named no model; set one before sending")
    if renderer.system_owner is not None:
        renderer.map.add(("system",), renderer.system_owner)
        body["system"] = renderer.system
    body["messages"] = messages
    if not renderer.same:
        specs, notes = tool_declarations(session)
        omitted.extend(notes)
        if specs:
            body["toolConfig"] = _tool_config(specs)
    if renderer.same and session.metadata.get("shape") == "list":
        body = {"messages": messages}
    return new_payload(NAME, body, renderer.map, (*omitted, *renderer.omitted))
