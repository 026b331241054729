"""llxprt-code ``IContent`` JSON: a list of ``{speaker, blocks, metadata}`` with camelCase block fields.

This is the history seed 000 is about, so it is read exactly as llxprt keeps it, including the
shapes that break providers (a ``tool`` speaker holding a ``tool_call`` next to its
``tool_response``: failure mode A). Nothing is repaired here; that is curation's job.
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
    Speaker,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

SPEAKERS: tuple[Speaker, ...] = ("human", "ai", "tool", "system")
BLOCK_TYPES = {"text", "tool_call", "tool_response", "thinking", "media", "code"}


def read_block(raw: Any, ptr: Pointer, fmt: str, notes: list[str]) -> Block:
    """One IContent block as a canonical block."""
    block = obj(raw, ptr)
    kind = block.get("type")
    if kind == "text":
        return TextBlock(
            text=text(block.get("text"), (*ptr, "text")), provider_data=rest(block, "type", "text")
        )
    if kind == "tool_call":
        call_id = text(block.get("id"), (*ptr, "id"))
        return ToolCallBlock(
            id=call_id,
            name=text(block.get("name", ""), (*ptr, "name")),
            parameters=block.get("parameters"),
            raw_id=call_id,
            provider_data=rest(block, "type", "id", "name", "parameters"),
        )
    if kind == "tool_response":
        call_id = text(block.get("callId"), (*ptr, "callId"))
        complete = block.get("isComplete")
        return ToolResponseBlock(
            call_id=call_id,
            tool_name=opt_text(block.get("toolName"), (*ptr, "toolName")),
            result=block.get("result"),
            error=opt_text(block.get("error"), (*ptr, "error")),
            is_complete=complete is not False,
            raw_call_id=call_id,
            provider_data=rest(block, "type", "callId", "toolName", "result", "error"),
        )
    if kind == "thinking":
        return ThinkingBlock(
            text=text(block.get("thought", ""), (*ptr, "thought")),
            signature=opt_text(block.get("signature"), (*ptr, "signature")),
            data=opt_text(block.get("encryptedContent"), (*ptr, "encryptedContent")),
            source_provider=fmt,
            provider_data=rest(block, "type", "thought", "signature", "encryptedContent"),
        )
    if kind == "media":
        encoding = block.get("encoding")
        data = opt_text(block.get("data"), (*ptr, "data"))
        return MediaBlock(
            mime_type=opt_text(block.get("mimeType"), (*ptr, "mimeType")),
            data=data if encoding != "url" else None,
            url=data if encoding == "url" else None,
            filename=opt_text(block.get("filename"), (*ptr, "filename")),
            provider_data=rest(block, "type", "mimeType", "data", "filename"),
        )
    if kind == "code":
        return TextBlock(
            text=text(block.get("code"), (*ptr, "code")),
            provider_data={"type": "code", **rest(block, "type", "code")},
        )
    if not isinstance(kind, str):
        raise ShapeError((*ptr, "type"), "block has no string 'type'")
    notes.append(f"{json_path(ptr)}: block of type {kind!r} kept verbatim (not modelled)")
    return OpaqueBlock(source_format=fmt, data=dict(block))


def read_metadata(raw: Any, ptr: Pointer, role: str) -> MessageMetadata:
    """IContent metadata: the fields toolhist models, the rest kept in ``extra``."""
    if raw is None:
        return MessageMetadata(source_role=role)
    meta = obj(raw, ptr)
    ts = meta.get("timestamp")
    return MessageMetadata(
        source_role=role,
        turn_id=opt_text(meta.get("turnId"), (*ptr, "turnId")),
        timestamp=ts / 1000 if isinstance(ts, int | float) and not isinstance(ts, bool) else None,
        provider=opt_text(meta.get("provider"), (*ptr, "provider")),
        model=opt_text(meta.get("model"), (*ptr, "model")),
        synthetic=meta.get("synthetic") is True,
        reason=opt_text(meta.get("reason"), (*ptr, "reason")),
        extra={
            **rest(meta, "turnId", "timestamp", "provider", "model", "synthetic", "reason"),
            **({"timestamp": ts} if ts is not None and not isinstance(ts, int | float) else {}),
            "_metadata": "present",
        },
    )


def _history(value: Any) -> Any:
    if isinstance(value, dict):
        return value.get("history")
    return value


class IContentReader(Reader):
    """``icontent``: llxprt-code history (a list of IContent, or ``{"history": [...]}``)."""

    id = "icontent"
    description = "llxprt-code IContent history JSON ({speaker, blocks, metadata} list)"

    def recognise(self, value: Any) -> int:
        """Certain when entries carry ``speaker`` and ``blocks``."""
        history = _history(value)
        if not isinstance(history, list) or not history:
            return 0
        ok = all(
            isinstance(c, dict) and c.get("speaker") in SPEAKERS and isinstance(c.get("blocks"), list)
            for c in history
        )
        return 2 if ok else 0

    def read(self, doc: Document) -> Session:
        """Read every IContent entry in order."""
        value = doc.value
        ptr: Pointer = ("history",) if isinstance(value, dict) else ()
        history = arr(_history(value), ptr)
        built = Built(doc)
        for i, raw in enumerate(history):
            cptr = (*ptr, i)
            content = obj(raw, cptr)
            speaker = content.get("speaker")
            if speaker not in SPEAKERS:
                raise ShapeError(
                    (*cptr, "speaker"), f"unknown speaker {speaker!r}; expected human, ai or tool"
                )
            blocks = [
                read_block(b, (*cptr, "blocks", j), self.id, built.notes)
                for j, b in enumerate(arr(content.get("blocks"), (*cptr, "blocks")))
            ]
            metadata = read_metadata(content.get("metadata"), (*cptr, "metadata"), speaker)
            built.add(Message(speaker=speaker, blocks=tuple(blocks), metadata=metadata), i, cptr)
        request: dict[str, JsonValue] = rest(value, "history") if isinstance(value, dict) else {}
        return built.session(
            self.id,
            tools=None,
            request=request,
            metadata={"shape": "object" if isinstance(value, dict) else "list"},
        )
