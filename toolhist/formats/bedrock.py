"""AWS Bedrock Converse: ``{"modelId", "system", "messages", "toolConfig", "inferenceConfig", …}``.

Content blocks are single-key objects (``{"text": …}``, ``{"toolUse": {…}}``, ``{"toolResult": {…}}``)
rather than ``type``-tagged, which is also how the reader recognises the format.
"""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue

from toolhist.formats.base import Built, Pointer, Reader, ShapeError, arr, obj, opt_text, rest, text
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

KNOWN_KEYS = {
    "text",
    "toolUse",
    "toolResult",
    "reasoningContent",
    "image",
    "document",
    "video",
    "cachePoint",
    "guardContent",
    "citationsContent",
}


def _result_error(content: Any) -> str:
    if isinstance(content, list):
        return "\n".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def read_block(raw: Any, ptr: Pointer, fmt: str, notes: list[str]) -> Block:
    """One single-key content block as a canonical block."""
    block = obj(raw, ptr)
    keys = [k for k in block if k in KNOWN_KEYS]
    key = keys[0] if len(keys) == 1 and len(block) == 1 else None
    if key == "text":
        return TextBlock(text=text(block["text"], (*ptr, "text")))
    if key == "toolUse":
        use = obj(block["toolUse"], (*ptr, "toolUse"))
        call_id = text(use.get("toolUseId"), (*ptr, "toolUse", "toolUseId"))
        return ToolCallBlock(
            id=call_id,
            name=text(use.get("name", ""), (*ptr, "toolUse", "name")),
            parameters=use.get("input"),
            raw_id=call_id,
            provider_data=rest(use, "toolUseId", "name", "input"),
        )
    if key == "toolResult":
        res = obj(block["toolResult"], (*ptr, "toolResult"))
        call_id = text(res.get("toolUseId"), (*ptr, "toolResult", "toolUseId"))
        content = res.get("content")
        return ToolResponseBlock(
            call_id=call_id,
            result=content,
            error=_result_error(content) if res.get("status") == "error" else None,
            raw_call_id=call_id,
            provider_data=rest(res, "toolUseId", "content"),
        )
    if key == "reasoningContent":
        reasoning = obj(block["reasoningContent"], (*ptr, "reasoningContent"))
        if "redactedContent" in reasoning:
            return ThinkingBlock(
                redacted=True,
                data=opt_text(reasoning["redactedContent"], (*ptr, "reasoningContent", "redactedContent")),
                source_provider=fmt,
            )
        rt = obj(reasoning.get("reasoningText"), (*ptr, "reasoningContent", "reasoningText"))
        return ThinkingBlock(
            text=text(rt.get("text", ""), (*ptr, "reasoningContent", "reasoningText", "text")),
            signature=opt_text(rt.get("signature"), (*ptr, "reasoningContent", "reasoningText", "signature")),
            source_provider=fmt,
        )
    if key in ("image", "document", "video"):
        media = obj(block[key], (*ptr, key))
        fmt_name = media.get("format")
        source: dict[str, Any] = media["source"] if isinstance(media.get("source"), dict) else {}
        return MediaBlock(
            mime_type=f"{'application' if key == 'document' else key}/{fmt_name}"
            if isinstance(fmt_name, str)
            else None,
            data=source.get("bytes") if isinstance(source.get("bytes"), str) else None,
            url=(source.get("s3Location") or {}).get("uri")
            if isinstance(source.get("s3Location"), dict)
            else None,
            filename=media.get("name") if isinstance(media.get("name"), str) else None,
            provider_data={"block": block},
        )
    if not block:
        raise ShapeError(ptr, "content block is an empty object")
    if key is None and not keys:
        notes.append(f"{json_path(ptr)}: block with keys {sorted(block)} kept verbatim (not modelled)")
    return OpaqueBlock(source_format=fmt, data=dict(block))


def looks_bedrock(messages: Any) -> int:
    """0/1/2 score for a list of Converse messages."""
    if not isinstance(messages, list) or not messages:
        return 0
    for m in messages:
        if not isinstance(m, dict) or m.get("role") not in ("user", "assistant"):
            return 0
        content = m.get("content")
        if not isinstance(content, list):
            return 0
        for b in content:
            if not isinstance(b, dict) or "type" in b or not (set(b) & KNOWN_KEYS):
                return 0
    return 2


class BedrockReader(Reader):
    """``bedrock``: Converse request bodies and message lists."""

    id = "bedrock"
    description = "AWS Bedrock Converse request body or message list"
    judgement = "as-sent"

    def recognise(self, value: Any) -> int:
        """Certain when content blocks are untagged single-key objects."""
        if isinstance(value, dict):
            return looks_bedrock(value.get("messages"))
        return looks_bedrock(value)

    def read(self, doc: Document) -> Session:
        """Read a body or list; ``system`` becomes the first message, ``toolConfig.tools`` the tools."""
        value = doc.value
        built = Built(doc)
        request: dict[str, JsonValue] = {}
        tools = None
        if isinstance(value, dict):
            ptr: Pointer = ("messages",)
            messages = arr(value.get("messages"), ptr)
            request = rest(value, "messages", "system")
            if "system" in value:
                blocks = [
                    read_block(b, ("system", j), self.id, built.notes)
                    for j, b in enumerate(arr(value["system"], ("system",)))
                ]
                built.add(
                    Message(
                        speaker="system",
                        blocks=tuple(blocks),
                        metadata=MessageMetadata(source_role="system", extra={"_request_field": "system"}),
                    ),
                    None,
                    ("system",),
                )
            if "toolConfig" in value:
                config = obj(value["toolConfig"], ("toolConfig",))
                tools = tuple(
                    _tool_spec(t, ("toolConfig", "tools", i))
                    for i, t in enumerate(arr(config.get("tools", []), ("toolConfig", "tools")))
                )
        else:
            ptr = ()
            messages = arr(value, ptr)
        for i, raw in enumerate(messages):
            mptr = (*ptr, i)
            msg = obj(raw, mptr)
            role = msg.get("role")
            if role not in ("user", "assistant"):
                raise ShapeError((*mptr, "role"), f"unknown role {role!r}; expected 'user' or 'assistant'")
            content = arr(msg.get("content"), (*mptr, "content"))
            blocks = [
                read_block(b, (*mptr, "content", j), self.id, built.notes) for j, b in enumerate(content)
            ]
            speaker = (
                "ai"
                if role == "assistant"
                else ("tool" if any(isinstance(b, ToolResponseBlock) for b in blocks) else "human")
            )
            built.add(
                Message(
                    speaker=speaker,
                    blocks=tuple(blocks),
                    metadata=MessageMetadata(source_role=role, extra=rest(msg, "role", "content")),
                ),
                i,
                mptr,
            )
        return built.session(
            self.id,
            tools=tools,
            request=request,
            metadata={"shape": "body" if isinstance(value, dict) else "list"},
        )


def _tool_spec(raw: Any, ptr: Pointer) -> ToolSpec:
    tool = obj(raw, ptr)
    spec = tool.get("toolSpec")
    if not isinstance(spec, dict):
        return ToolSpec(name=str(next(iter(tool), "?")), kind=str(next(iter(tool), "?")))
    schema = spec.get("inputSchema")
    return ToolSpec(
        name=text(spec.get("name"), (*ptr, "toolSpec", "name")),
        description=spec.get("description") if isinstance(spec.get("description"), str) else None,
        parameters=schema.get("json") if isinstance(schema, dict) else None,
    )
