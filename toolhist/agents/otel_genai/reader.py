"""OpenTelemetry GenAI spans exported as JSON: the history one model call was sent, and its reply.

The GenAI semantic conventions (``anchors.md`` §3.2; open-telemetry/semantic-conventions
``docs/gen-ai``) put the conversation on the inference span (``chat {model}``) as attributes:

- ``gen_ai.system_instructions``: parts of the system prompt;
- ``gen_ai.input.messages``: ``[{"role", "parts": [{"type": "text", "content"} |
  {"type": "tool_call", "id", "name", "arguments"} | {"type": "tool_call_response", "id",
  "response"} | {"type": "reasoning", "content"} | blob / uri / file …]}]``;
- ``gen_ai.output.messages``: the reply, same shape plus ``finish_reason``;
- ``gen_ai.tool.definitions``: the declared tools.

On a span they are JSON strings; on the ``gen_ai.client.inference.operation.details`` event they
may be structured. The older per-message events (``gen_ai.user.message``,
``gen_ai.assistant.message``, ``gen_ai.tool.message``, ``gen_ai.choice``) are read too.

Accepted files: an OTLP/JSON export (``resourceSpans`` → ``scopeSpans`` → ``spans``, attributes as
``[{key, value: {stringValue…}}]``), or spans with plain ``attributes`` objects (the Python console
exporter, span JSONL), one span or a list. Every inference span carries the whole history up to
its call, so the last one is read; how many others there were is said in a note. ``execute_tool``
spans add the calls and results the chat spans' messages lack (`toolhist.agents.otel_genai.tools`).

Conventions followed: open-telemetry/semantic-conventions ``docs/gen-ai/gen-ai-spans.md`` (commit
a064dcca28053f4406d5dc65895e89c523171ca4: inference and execute_tool spans). Traces seen: the
shapes in tests/by_agent/test_otel_genai.py only; the real-log corpus has no OTel trace yet.
"""

from __future__ import annotations

from typing import Any

import orjson
from pydantic import JsonValue

from toolhist.agents.otel_genai.tools import is_tool_span, join
from toolhist.formats.base import Built, Pointer, Reader, ShapeError, arr, obj, parse_arguments, rest
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
    ToolSpec,
)

INPUT = "gen_ai.input.messages"
OUTPUT = "gen_ai.output.messages"
SYSTEM = "gen_ai.system_instructions"
TOOLS = "gen_ai.tool.definitions"
DETAILS_EVENT = "gen_ai.client.inference.operation.details"
LEGACY_EVENTS = {
    "gen_ai.system.message": "system",
    "gen_ai.user.message": "user",
    "gen_ai.assistant.message": "assistant",
    "gen_ai.tool.message": "tool",
    "gen_ai.choice": "assistant",
}
ROLES: dict[str, Speaker] = {"system": "system", "user": "human", "assistant": "ai", "tool": "tool"}


class _Span:
    """A span reduced to what the reader needs, whatever the export's spelling."""

    def __init__(
        self,
        name: str,
        attrs: dict[str, Any],
        events: list[tuple[str, dict[str, Any]]],
        ptr: Pointer,
        start: int | None = None,
    ):
        self.name = name
        self.attrs = attrs
        self.events = events
        self.ptr = ptr
        self.start = start
        """Start time in nanoseconds when the export has one (OTLP ``startTimeUnixNano``)."""

    def inference(self) -> dict[str, Any] | None:
        """The attributes that hold the conversation (the span's, or its details event's)."""
        if INPUT in self.attrs or OUTPUT in self.attrs:
            return self.attrs
        for name, attrs in self.events:
            if name == DETAILS_EVENT and (INPUT in attrs or OUTPUT in attrs):
                return {**self.attrs, **attrs}
        return None

    def legacy(self) -> list[tuple[str, dict[str, Any]]]:
        return [(n, a) for n, a in self.events if n in LEGACY_EVENTS]


def _any_value(value: Any) -> Any:
    """An OTLP/JSON ``AnyValue`` as plain JSON."""
    if not isinstance(value, dict):
        return value
    for key in ("stringValue", "boolValue", "doubleValue", "bytesValue"):
        if key in value:
            return value[key]
    if "intValue" in value:
        raw = value["intValue"]
        return int(raw) if isinstance(raw, str) and raw.lstrip("-").isdigit() else raw
    if "arrayValue" in value:
        return [_any_value(v) for v in (value["arrayValue"] or {}).get("values", [])]
    if "kvlistValue" in value:
        return _kv((value["kvlistValue"] or {}).get("values", []))
    return None


def _kv(items: Any) -> dict[str, Any]:
    """OTLP ``[{key, value}]`` attributes, or an already plain object."""
    if isinstance(items, dict):
        return items
    out: dict[str, Any] = {}
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("key"), str):
            out[item["key"]] = _any_value(item.get("value"))
    return out


def _spans(value: Any) -> list[_Span]:
    """Every span in the export, in file order."""
    spans: list[_Span] = []
    if isinstance(value, dict) and "resourceSpans" in value:
        for r, res in enumerate(value["resourceSpans"] or []):
            for s, scope in enumerate((res or {}).get("scopeSpans", []) or []):
                for k, span in enumerate((scope or {}).get("spans", []) or []):
                    ptr: Pointer = ("resourceSpans", r, "scopeSpans", s, "spans", k)
                    spans.append(_one(span, ptr))
        return spans
    items = value if isinstance(value, list) else [value]
    for k, span in enumerate(items):
        spans.append(_one(span, (k,) if isinstance(value, list) else ()))
    return spans


def _one(span: Any, ptr: Pointer) -> _Span:
    span = obj(span, ptr)
    events = [
        (str(e.get("name", "")), _kv(e.get("attributes", [])))
        for e in span.get("events", []) or []
        if isinstance(e, dict)
    ]
    start = span.get("startTimeUnixNano", span.get("start_time_unix_nano"))
    if isinstance(start, str) and start.isdigit():
        start = int(start)
    return _Span(
        str(span.get("name", "")),
        _kv(span.get("attributes", [])),
        events,
        ptr,
        start if isinstance(start, int) and not isinstance(start, bool) else None,
    )


def _timeline(spans: list[_Span]) -> list[_Span]:
    """The chat and tool spans in start order (file order without times), for `tools.join`."""
    order = sorted(range(len(spans)), key=lambda i: (spans[i].start is None, spans[i].start or 0, i))
    return [
        spans[i]
        for i in order
        if is_tool_span(spans[i].name, spans[i].attrs)
        or spans[i].inference() is not None
        or spans[i].legacy()
    ]


def _has_gen_ai(span: _Span) -> bool:
    return any(k.startswith("gen_ai.") for k in span.attrs) or any(
        n.startswith("gen_ai.") for n, _ in span.events
    )


def _json(value: Any, ptr: Pointer) -> Any:
    """A structured attribute: JSON text on spans, already structured on events."""
    if isinstance(value, str):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError as exc:
            raise ShapeError(ptr, f"attribute is not valid JSON: {exc.msg}") from None
    return value


def _maybe_json(value: Any) -> Any:
    """Legacy event content: plain text, or JSON text of parts; text that is not JSON stays text."""
    if isinstance(value, str) and value.lstrip()[:1] in ("[", "{"):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value
    return value


class OtelGenAIReader(Reader):
    """``otel-genai``: OpenTelemetry GenAI semantic-convention spans."""

    id = "otel-genai"
    description = "OpenTelemetry GenAI spans (OTLP/JSON or span objects): gen_ai.input/output.messages"

    def recognise(self, value: Any) -> int:
        """Certain when a span carries ``gen_ai.*`` attributes or events."""
        if isinstance(value, dict) and "resourceSpans" not in value and "attributes" not in value:
            return 0
        if isinstance(value, list) and not all(isinstance(v, dict) and "attributes" in v for v in value):
            return 0
        try:
            spans = _spans(value)
        except (ShapeError, AttributeError, TypeError):
            return 0
        return 2 if any(_has_gen_ai(s) for s in spans) else 0

    def read(self, doc: Document) -> Session:
        """Read the last inference span's system instructions, input and output messages."""
        spans = _spans(doc.value)
        built = Built(doc)
        chats = [s for s in spans if s.inference() is not None]
        legacy = [s for s in spans if s.legacy()]
        tools = [s for s in spans if is_tool_span(s.name, s.attrs)]
        if not chats and not legacy and not tools:
            raise ShapeError((), f"no span carries {INPUT}, {OUTPUT}, gen_ai message events or execute_tool")
        metadata: dict[str, JsonValue] = {"spans": len(spans)}
        attrs: dict[str, Any] = {}
        span: _Span | None = None
        timeline = _timeline(spans)
        if chats:
            span = chats[-1]
            attrs = span.inference() or {}
            if len(chats) > 1:
                built.notes.append(
                    f"{len(chats)} inference spans: read the last ({span.name!r} at {json_path(span.ptr)}); "
                    "each earlier one holds a prefix of its history"
                )
            if SYSTEM in attrs:
                parts = arr(_json(attrs[SYSTEM], (*span.ptr, SYSTEM)), (*span.ptr, SYSTEM))
                blocks = [self._part(p, (*span.ptr, SYSTEM, j), 0, built) for j, p in enumerate(parts)]
                built.add(
                    Message(
                        speaker="system", blocks=tuple(blocks), metadata=MessageMetadata(source_role="system")
                    ),
                    None,
                    (*span.ptr, SYSTEM),
                )
            for key in (INPUT, OUTPUT):
                if key in attrs:
                    kptr = (*span.ptr, key)
                    for i, raw in enumerate(arr(_json(attrs[key], kptr), kptr)):
                        self._message(raw, (*kptr, i), i, built)
                if key == INPUT and tools:  # tools run before this call belong to its input
                    join(timeline[: timeline.index(span)], built)
                    timeline = timeline[timeline.index(span) :]
        elif legacy:
            span = legacy[-1]
            for e, (name, event) in enumerate(span.legacy()):
                self._legacy(name, event, (*span.ptr, "events", e), e, built)
            attrs = span.attrs
        if tools:
            join(timeline, built)
        declared = None
        if span is not None and TOOLS in attrs:
            declared = self._tools(_json(attrs[TOOLS], (*span.ptr, TOOLS)), (*span.ptr, TOOLS))
        request: dict[str, JsonValue] = {}
        if isinstance(attrs.get("gen_ai.request.model"), str):
            request["model"] = attrs["gen_ai.request.model"]
        for key in (
            "gen_ai.provider.name",
            "gen_ai.system",
            "gen_ai.operation.name",
            "gen_ai.response.model",
        ):
            if key in attrs:
                metadata[key] = attrs[key]
        return built.session(self.id, tools=declared, request=request, metadata=metadata)

    def _message(self, raw: Any, ptr: Pointer, index: int, built: Built) -> None:
        msg = obj(raw, ptr)
        role = msg.get("role")
        if role not in ROLES:
            raise ShapeError(
                (*ptr, "role"), f"unknown role {role!r}; expected system, user, assistant or tool"
            )
        parts = arr(msg.get("parts", []), (*ptr, "parts"))
        blocks = [self._part(p, (*ptr, "parts", j), len(built.messages), built) for j, p in enumerate(parts)]
        speaker = ROLES[role]
        if speaker == "human" and any(isinstance(b, ToolResponseBlock) for b in blocks):
            speaker = "tool"
        built.add(
            Message(
                speaker=speaker,
                blocks=tuple(blocks),
                metadata=MessageMetadata(source_role=role, extra=rest(msg, "role", "parts")),
            ),
            index,
            ptr,
        )

    def _part(self, raw: Any, ptr: Pointer, msg_index: int, built: Built) -> Block:
        part = obj(raw, ptr)
        kind = part.get("type")
        if kind == "text":
            content = part.get("content")
            return TextBlock(
                text=content if isinstance(content, str) else "", provider_data=rest(part, "type", "content")
            )
        if kind == "tool_call":
            raw_id = part.get("id") if isinstance(part.get("id"), str) else None
            arguments = part.get("arguments")
            params, error, raw_args = arguments, None, None
            if isinstance(arguments, str):
                params, error = parse_arguments(arguments)
                raw_args = arguments
            return ToolCallBlock(
                id=raw_id or f"otel-{msg_index}-{ptr[-1]}",
                name=str(part.get("name") or ""),
                parameters=params,
                raw_id=raw_id,
                raw_arguments=raw_args,
                arguments_error=error,
                provider_data=rest(part, "type", "id", "name", "arguments"),
            )
        if kind == "tool_call_response":
            raw_id = part.get("id") if isinstance(part.get("id"), str) else None
            return ToolResponseBlock(
                call_id=raw_id or "",
                result=part.get("response", part.get("result")),
                raw_call_id=raw_id,
                provider_data=rest(part, "type", "id", "response", "result"),
            )
        if kind == "reasoning":
            content = part.get("content")
            return ThinkingBlock(
                text=content if isinstance(content, str) else "",
                source_provider=self.id,
                provider_data=rest(part, "type", "content"),
            )
        if kind in ("blob", "uri", "file"):
            mime = part.get("mime_type")
            return MediaBlock(
                mime_type=mime if isinstance(mime, str) else None,
                data=part.get("content") if kind == "blob" and isinstance(part.get("content"), str) else None,
                url=part.get("uri") if isinstance(part.get("uri"), str) else part.get("file_id"),
                provider_data=dict(part),
            )
        built.notes.append(f"{json_path(ptr)}: part of type {kind!r} kept verbatim (not modelled)")
        return OpaqueBlock(source_format=self.id, data=dict(part))

    def _legacy(self, name: str, attrs: dict[str, Any], ptr: Pointer, index: int, built: Built) -> None:
        """One of the older per-message events, as a message."""
        body = _json(attrs.get("message"), (*ptr, "message")) if name == "gen_ai.choice" else attrs
        body = body if isinstance(body, dict) else {}
        role = LEGACY_EVENTS[name] if name != "gen_ai.choice" else str(body.get("role", "assistant"))
        blocks: list[Block] = []
        content = _maybe_json(body.get("content"))
        if role == "tool":
            result_id = str(body.get("id", ""))
            blocks.append(ToolResponseBlock(call_id=result_id, result=content, raw_call_id=result_id or None))
        elif isinstance(content, str) and content:
            blocks.append(TextBlock(text=content))
        for k, call in enumerate(_json(body.get("tool_calls"), (*ptr, "tool_calls")) or []):
            fn = call.get("function", {}) if isinstance(call, dict) else {}
            arguments = fn.get("arguments")
            params, error = parse_arguments(arguments) if isinstance(arguments, str) else (arguments, None)
            raw_id = call.get("id") if isinstance(call, dict) else None
            call_id = raw_id if isinstance(raw_id, str) else None
            blocks.append(
                ToolCallBlock(
                    id=call_id or f"otel-{index}-{k}",
                    name=str(fn.get("name", "")),
                    parameters=params,
                    raw_id=call_id,
                    raw_arguments=arguments if isinstance(arguments, str) else None,
                    arguments_error=error,
                )
            )
        speaker: Speaker = ROLES.get(role, "human")
        built.add(
            Message(speaker=speaker, blocks=tuple(blocks), metadata=MessageMetadata(source_role=name)),
            index,
            ptr,
        )

    def _tools(self, value: Any, ptr: Pointer) -> tuple[ToolSpec, ...]:
        specs: list[ToolSpec] = []
        for i, raw in enumerate(arr(value, ptr)):
            tool = obj(raw, (*ptr, i))
            inner = tool.get("function")
            fn: dict[str, Any] = inner if isinstance(inner, dict) else tool
            specs.append(
                ToolSpec(
                    name=str(fn.get("name", "")),
                    description=fn.get("description") if isinstance(fn.get("description"), str) else None,
                    parameters=fn.get("parameters"),
                    kind="function" if tool.get("type", "function") == "function" else str(tool.get("type")),
                )
            )
        return tuple(specs)
