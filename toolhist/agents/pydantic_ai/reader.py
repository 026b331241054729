"""pydantic-ai message histories: ``ModelMessagesTypeAdapter`` JSON and ``all_messages_json()``.

A history is a list of ``ModelRequest`` (``kind: "request"``) and ``ModelResponse``
(``kind: "response"``) objects, each with ``parts`` tagged by ``part_kind`` (pydantic/pydantic-ai
``pydantic_ai_slim/pydantic_ai/messages.py``, commit 25ca1394b6c3c045370dae0e30d7bba7555ac1a7, and the
pydantic-ai-slim 2.66 release's own file; the tags are one discriminated union, ``ModelMessagesTypeAdapter``):

- a request's ``system-prompt`` and ``instruction`` parts are system text (every provider
  mapping sends them as the system prompt); ``user-prompt`` is a human turn (its ``content`` a
  string or a list of strings, ``image-url``/``binary``/… items); ``tool-return`` answers a
  call by ``tool_call_id``; ``retry-prompt`` with a ``tool_name`` answers that call with an error
  (the model is asked to retry), without one it is user text, as ``retry-feedback`` is;
- a request's ``instructions`` field is the system prompt the model gets with that request:
  pydantic-ai sends the newest request's, so it is read as the first message;
- a response's ``text``, ``tool-call`` (``args`` a JSON string, an object or null),
  ``thinking`` (``signature``, ``provider_name`` the provider that made it) and ``file`` parts
  are the model's turn; ``builtin-tool-call``/``-return`` are tools the provider ran itself,
  kept as opaque blocks (they are replayed to that provider only);
- parts that record changes to the agent rather than conversation (tool availability, capability
  loads, settings and instruction deltas, digests) are not sent as messages: each is skipped and
  counted by kind in the notes, never dropped silently. A part kind this reader does not know is
  skipped the same way.

Why a reader of its own: before it, this JSON (``parts`` lists, no ``role``) was detected as a
Gemini contents list and read as text with no tool calls (`toolhist.formats.gemini.looks_gemini`
now leaves lists with ``kind``/``part_kind`` to this reader).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

import orjson
from pydantic import JsonValue

from toolhist.formats.base import Built, Pointer, Reader, ShapeError, arr, obj, parse_arguments, rest
from toolhist.formats.document import Document
from toolhist.model import (
    Block,
    Location,
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

FORMAT: Final = "pydantic-ai"
MESSAGE_KINDS: Final = frozenset({"request", "response"})
NOT_SENT: Final = frozenset(
    {
        "tool-availability-delta",
        "capability-load-delta",
        "model-settings-delta",
        "instruction-delta",
        "instruction-digest",
        "instruction-baseline",
    }
)
"""Request parts that record a change to the agent, not something said: no provider mapping sends them."""
SYSTEM_PARTS: Final = frozenset({"system-prompt", "instruction"})
RESULT_PARTS: Final = frozenset({"tool-return", "tool-search-return", "capability-load-return"})
CALL_PARTS: Final = frozenset({"tool-call", "tool-search-call", "capability-load-call"})
BUILTIN_PARTS: Final = frozenset(
    {"builtin-tool-call", "builtin-tool-return", "builtin-tool-search-call", "builtin-tool-search-return"}
)


def looks_pydantic_ai(value: Any) -> bool:
    """Whether ``value`` is a list of ``ModelRequest``/``ModelResponse`` objects (tagged ``kind``)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            isinstance(m, dict) and m.get("kind") in MESSAGE_KINDS and isinstance(m.get("parts"), list)
            for m in value
        )
    )


def _epoch(value: Any) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _user_item(item: Any, ptr: Pointer) -> Block:
    """One item of a ``user-prompt`` content list."""
    if isinstance(item, str):
        return TextBlock(text=item)
    part = obj(item, ptr)
    kind = part.get("kind")
    if kind in ("text-content", "structured-content") and isinstance(part.get("content"), str):
        return TextBlock(text=part["content"], provider_data=rest(part, "content"))
    if kind in ("image-url", "audio-url", "video-url", "document-url") and isinstance(part.get("url"), str):
        return MediaBlock(
            url=part["url"], mime_type=part.get("media_type"), provider_data=rest(part, "url", "media_type")
        )
    if kind == "binary" and isinstance(part.get("data"), str):
        mime = part.get("media_type")
        return MediaBlock(
            data=part["data"],
            mime_type=mime if isinstance(mime, str) else None,
            provider_data=rest(part, "data", "media_type"),
        )
    return OpaqueBlock(source_format=FORMAT, data=dict(part))


def _result_text(content: Any) -> JsonValue:
    """A retry's content: its text, or its validation errors as JSON text."""
    if isinstance(content, str):
        return content
    return orjson.dumps(content).decode()


def _call(part: dict[str, Any], ptr: Pointer) -> ToolCallBlock:
    call_id = part.get("tool_call_id")
    name = part.get("tool_name")
    if not isinstance(call_id, str) or not isinstance(name, str):
        raise ShapeError(ptr, "a tool-call part needs string 'tool_name' and 'tool_call_id'")
    args = part.get("args")
    extra = rest(part, "tool_name", "tool_call_id", "args", "part_kind")
    extra["part_kind"] = part["part_kind"]
    if isinstance(args, str):
        parsed, error = parse_arguments(args) if args.strip() else ({}, None)
        if error is not None:
            return ToolCallBlock(
                id=call_id, name=name, raw_arguments=args, arguments_error=error, provider_data=extra
            )
        return ToolCallBlock(
            id=call_id, name=name, parameters=parsed, raw_arguments=args, provider_data=extra
        )
    return ToolCallBlock(id=call_id, name=name, parameters={} if args is None else args, provider_data=extra)


class PydanticAIReader(Reader):
    """``pydantic-ai``: a list of pydantic-ai ``ModelMessage`` objects as JSON."""

    id = FORMAT
    description = "pydantic-ai message history (ModelMessagesTypeAdapter / all_messages_json() JSON)"

    def recognise(self, value: Any) -> int:
        """Certain on a list whose every entry is a request or response with ``parts``."""
        return 2 if looks_pydantic_ai(value) else 0

    def read(self, doc: Document) -> Session:
        """Read the requests and responses in order (see the module docstring)."""
        built = Built(doc)
        messages = arr(doc.value, ())
        instructions: tuple[str, int] | None = None
        for i, raw in enumerate(messages):
            message = obj(raw, (i,))
            if "parts" not in message:  # first: another format's `kind` field is no pydantic-ai message
                raise ShapeError((i, "parts"), "a pydantic-ai request or response holds its parts")
            kind = message.get("kind")
            if kind not in MESSAGE_KINDS:
                raise ShapeError((i, "kind"), f"expected 'request' or 'response', got {kind!r}")
            parts = arr(message.get("parts"), (i, "parts"))
            if kind == "request":
                said = message.get("instructions")
                if isinstance(said, str) and said:
                    instructions = (said, i)
                self._request(parts, message, i, built)
            else:
                self._response(parts, message, i, built)
        if instructions is not None:
            said, at = instructions
            system = Message(
                speaker="system",
                blocks=(TextBlock(text=said),),
                metadata=MessageMetadata(
                    source_role="instructions", extra={"_request_field": "instructions"}
                ),
            )
            built.messages.insert(0, system)
            built.locations.insert(0, Location(index=at, json_path=f"[{at}].instructions"))
        built.notes += built.skips.note("they change the agent, not the conversation: pydantic-ai sends none")
        return built.session(self.id, tools=None, request={})

    def _request(self, parts: list[Any], message: dict[str, Any], i: int, built: Built) -> None:
        """A request's parts, as consecutive messages of one speaker each."""
        stamp = _epoch(message.get("timestamp"))
        run: list[tuple[Speaker, Block, int]] = []
        for j, raw in enumerate(parts):
            ptr: Pointer = (i, "parts", j)
            part = obj(raw, ptr)
            kind = part.get("part_kind")
            said = (
                self._request_part(part, kind, ptr)
                if isinstance(kind, str) and kind not in NOT_SENT
                else None
            )
            if said is None:
                built.skips.add(f"part_kind {kind!r}")
                continue
            speaker, blocks = said
            run += [(speaker, block, j) for block in blocks]
        self._flush(run, message, i, stamp, built)

    def _request_part(
        self, part: dict[str, Any], kind: str, ptr: Pointer
    ) -> tuple[Speaker, list[Block]] | None:
        """The speaker and blocks of one request part; None for a part this reader does not know."""
        content = part.get("content")
        if kind in SYSTEM_PARTS:
            return ("system", [TextBlock(text=content)]) if isinstance(content, str) else None
        if kind == "user-prompt":
            if isinstance(content, str):
                return "human", [TextBlock(text=content)]
            items = arr(content, (*ptr, "content"))
            return "human", [_user_item(item, (*ptr, "content", k)) for k, item in enumerate(items)]
        if kind in RESULT_PARTS or (kind == "retry-prompt" and isinstance(part.get("tool_name"), str)):
            call_id = part.get("tool_call_id")
            if not isinstance(call_id, str):
                raise ShapeError((*ptr, "tool_call_id"), "expected the id of the call this part answers")
            retry = kind == "retry-prompt" or part.get("outcome") in ("retried", "failed")
            name = part.get("tool_name")
            result = _result_text(content) if kind == "retry-prompt" else content
            block = ToolResponseBlock(
                call_id=call_id,
                tool_name=name if isinstance(name, str) else None,
                result=result,
                error=result if retry and isinstance(result, str) else None,
                provider_data=rest(part, "content", "tool_call_id", "tool_name"),
            )
            return "tool", [block]
        if kind in ("retry-prompt", "retry-feedback"):
            return "human", [TextBlock(text=str(_result_text(content)), provider_data={"part_kind": kind})]
        return None

    def _flush(
        self,
        run: list[tuple[Speaker, Block, int]],
        message: dict[str, Any],
        i: int,
        stamp: float | None,
        built: Built,
    ) -> None:
        """Consecutive parts of one speaker become one message."""
        start = 0
        while start < len(run):
            speaker = run[start][0]
            end = start
            while end < len(run) and run[end][0] == speaker:
                end += 1
            items = tuple(j for _, _, j in run[start:end])
            meta = MessageMetadata(source_role=f"request.{speaker}", timestamp=stamp)
            blocks = tuple(b for _, b, _ in run[start:end])
            built.add(Message(speaker=speaker, blocks=blocks, metadata=meta), i, (i,), block_items=items)
            start = end

    def _response(self, parts: list[Any], message: dict[str, Any], i: int, built: Built) -> None:
        blocks: list[Block] = []
        items: list[int] = []
        for j, raw in enumerate(parts):
            ptr: Pointer = (i, "parts", j)
            part = obj(raw, ptr)
            kind = part.get("part_kind")
            block = self._response_part(part, kind, ptr)
            if block is None:
                built.skips.add(f"part_kind {kind!r}")
                continue
            blocks.append(block)
            items.append(j)
        model = message.get("model_name")
        provider = message.get("provider_name")
        meta = MessageMetadata(
            source_role="response",
            timestamp=_epoch(message.get("timestamp")),
            model=model if isinstance(model, str) else None,
            provider=provider if isinstance(provider, str) else None,
            extra={k: v for k, v in rest(message, "parts", "kind", "timestamp").items() if v is not None},
        )
        built.add(
            Message(speaker="ai", blocks=tuple(blocks), metadata=meta), i, (i,), block_items=tuple(items)
        )

    def _response_part(self, part: dict[str, Any], kind: Any, ptr: Pointer) -> Block | None:
        if kind == "text":
            content = part.get("content")
            return TextBlock(text=content) if isinstance(content, str) else None
        if kind in CALL_PARTS:
            return _call(part, ptr)
        if kind == "thinking":
            content = part.get("content")
            signature = part.get("signature")
            provider = part.get("provider_name")
            return ThinkingBlock(
                text=content if isinstance(content, str) else "",
                signature=signature if isinstance(signature, str) else None,
                source_provider=provider if isinstance(provider, str) else None,
                provider_data=rest(part, "content", "signature"),
            )
        if kind == "file":
            content = part.get("content")
            if isinstance(content, dict):
                return _user_item(content, (*ptr, "content"))
        if kind in BUILTIN_PARTS or kind in {"compaction", "file"}:
            return OpaqueBlock(source_format=FORMAT, data=dict(part))
        return None
