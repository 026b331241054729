"""llxprt-code debug logs (``~/.llxprt/debug/llxprt-debug-*.jsonl``): the history, and every captured request.

Each line is ``{"timestamp", "namespace", "level", "message", "args"?}`` (research/llxprt.md §7).
Two kinds of line matter:

- ``llxprt:history:service`` "Adding content to history:" lines describe each history entry as it
  was added: speaker, block types, tool call ids and tool response ids with tool names, never the
  text. The Session is rebuilt from them, so pairing, order and ids are exact; text, reasoning and
  arguments are placeholders marked ``_not_logged`` (the session notes say so).
- "Chat payload snapshot" lines (``[OpenAIVercelProvider]``, ``[OpenAIProvider]``) describe the
  messages of one provider request. Each becomes a `CapturedRequest`: an OpenAI Chat body rebuilt
  from the snapshot, to check with ``validate_payload(body, "openai-chat")``. Snapshots hold
  previews (200 characters, arguments 500), so a request whose previews were cut is marked
  ``complete=False`` with the cut paths listed: it is never passed off as the full body.

Everything else is counted by namespace; error-level lines (where a provider's 400 text lands) are
kept in ``Session.metadata["errors"]`` for ``toolhist explain``. The file is read as a stream: a
200 MB log holds only the rebuilt history and a small index of requests in memory; `requests`
streams the bodies on demand.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any, NamedTuple

from pydantic import JsonValue

from toolhist.formats.document import read_input
from toolhist.formats.jsonl_stream import (
    Collector,
    Lines,
    Progress,
    StreamReader,
    at_line,
    iso_seconds,
    lines_of_document,
    lines_of_path,
)
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

HISTORY_NAMESPACE = "llxprt:history:service"
ADD_MESSAGE = "Adding content to history"
SNAPSHOT_MESSAGE = "Chat payload snapshot"
SPEAKERS: tuple[Speaker, ...] = ("human", "ai", "tool")
PREVIEW_LIMIT = 200
"""``contentPreview`` keeps this many characters and appends ``…`` (U+2026)."""
ARGUMENTS_LIMIT = 500
"""``argumentsPreview`` (OpenAIProvider) keeps this many characters and appends ``…``."""
ELLIPSIS = "\u2026"
NOT_LOGGED = "[not recorded in the debug log]"
"""The text of a placeholder block: the debug log records a block's type, not its content."""
MAX_ERRORS = 200
"""Error-level lines kept verbatim in the metadata; the rest are only counted."""
SNAPSHOT_SOURCES = {"OpenAIVercelProvider": "openai-chat", "OpenAIProvider": "openai-chat"}
"""The providers whose snapshots are understood, and the request format they rebuild to."""
_PROVIDER_TAG = re.compile(r"^\[(\w+)\]")
_PART_START = re.compile(r'\{"type":"(tool-call|tool-result|reasoning|image|file)"')
_NAMED_CALL = re.compile(r'\{"type":"tool-call","toolCallId":"([^"]+)","toolName":"([^"]+)"')
_PART_PREFIX = '{"type":"'
"""How every embedded part starts (``JSON.stringify`` of a Vercel part, ``type`` first)."""


class CapturedRequest(NamedTuple):
    """One provider request as a debug log captured it."""

    provider: str
    """The toolhist provider whose wire format ``body`` is in (``openai-chat``)."""
    body: dict[str, Any]
    """The request body rebuilt from the snapshot (``{"messages": [...]}``)."""
    line: int | None
    """The 1-based line of the snapshot in the log."""
    complete: bool
    """False when a preview was cut short: the body then lacks what the log did not keep."""
    truncated: tuple[str, ...]
    """Where the snapshot line cut a preview short (``args[0].messages[4].contentPreview``…)."""
    source: str
    """The llxprt provider class that logged it (``OpenAIVercelProvider``…)."""


def _is_line(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(value.get(k), str) for k in ("timestamp", "namespace", "level", "message")
    )


def looks_llxprt_debug(value: Any) -> int:
    """2 when an entry is a full ``llxprt:…`` log line and every entry at least looks like one.

    Lenient on the others on purpose: a log with one broken line is still a debug log, and the
    reader then names that line and field instead of "unknown format".
    """
    if not isinstance(value, list) or not value:
        return 0
    if not all(isinstance(v, dict) and ("namespace" in v or "timestamp" in v) for v in value):
        return 0
    return 2 if any(_is_line(v) and v["namespace"].startswith("llxprt:") for v in value) else 0


def _cut(preview: str, limit: int) -> bool:
    return len(preview) > limit and preview.endswith(ELLIPSIS)


def _vercel_parts(preview: str, cut: bool = False) -> tuple[str, list[dict[str, Any]], bool]:
    r"""Split a Vercel preview into its text and the JSON parts it embeds; True when a part was cut.

    In a preview cut at 200 characters, a trailing ``\\n{"type":"…`` is the start of a part the cut
    removed, not text: it is left out (the request is marked incomplete for it).
    """
    decoder = json.JSONDecoder()
    texts: list[str] = []
    parts: list[dict[str, Any]] = []
    pos = 0
    broken = False
    for match in _PART_START.finditer(preview):
        if match.start() < pos:
            continue
        texts.append(preview[pos : match.start()])
        try:
            part, end = decoder.raw_decode(preview, match.start())
        except json.JSONDecodeError:
            if not cut:  # not a part after all, just text that looks like one
                texts.pop()
                continue
            broken = True
            pos = len(preview)
            break
        parts.append(part)
        pos = end
    tail = preview[pos:]
    start = tail.rfind("\n{")
    if (
        cut
        and not broken
        and start >= 0
        and _PART_PREFIX.startswith(tail[start + 1 : start + 1 + len(_PART_PREFIX)])
    ):
        tail, broken = tail[:start], True
    texts.append(tail)
    text = "\n".join(t.strip("\n") for t in texts if t.strip("\n"))
    return text, parts, broken


def _output_text(output: Any) -> str:
    if isinstance(output, dict) and "value" in output:
        value = output["value"]
        return value if isinstance(value, str) else json.dumps(value)
    return output if isinstance(output, str) else json.dumps(output)


def _vercel_messages(raw: list[Any], line: int | None) -> tuple[list[dict[str, Any]], list[str]]:
    """OpenAI Chat messages from a ``[OpenAIVercelProvider]`` snapshot, and the paths that were cut."""
    out: list[dict[str, Any]] = []
    truncated: list[str] = []
    for i, m in enumerate(raw):
        if not isinstance(m, dict) or not isinstance(m.get("role"), str):
            raise at_line(line, ("args", 0, "messages", i, "role"), "snapshot message has no string 'role'")
        preview = m.get("contentPreview", "")
        if not isinstance(preview, str):
            preview = json.dumps(preview)
        cut = _cut(preview, PREVIEW_LIMIT)
        if cut:
            preview = preview[: -len(ELLIPSIS)]
        text, parts, part_cut = _vercel_parts(preview, cut)
        role = m["role"]
        if role == "tool":
            results = [p for p in parts if p.get("type") == "tool-result"]
            for p in results:
                out.append(
                    {
                        "role": "tool",
                        "tool_call_id": p.get("toolCallId"),
                        "content": _output_text(p.get("output")),
                    }
                )
            if cut or part_cut:
                truncated.append(f"args[0].messages[{i}].contentPreview")
            continue
        message: dict[str, Any] = {"role": role, "content": text or (None if role == "assistant" else "")}
        calls = [
            {
                "id": p.get("toolCallId"),
                "type": "function",
                "function": {"name": p.get("toolName", ""), "arguments": json.dumps(p.get("input", {}))},
            }
            for p in parts
            if p.get("type") == "tool-call"
        ]
        if calls:
            message["tool_calls"] = calls
        out.append(message)
        if cut or part_cut:
            truncated.append(f"args[0].messages[{i}].contentPreview")
    return out, truncated


def _openai_messages(raw: list[Any], line: int | None) -> tuple[list[dict[str, Any]], list[str]]:
    """OpenAI Chat messages from a ``[OpenAIProvider]`` snapshot, and the paths that were cut."""
    out: list[dict[str, Any]] = []
    truncated: list[str] = []
    for i, m in enumerate(raw):
        if not isinstance(m, dict) or not isinstance(m.get("role"), str):
            raise at_line(line, ("args", 0, "messages", i, "role"), "snapshot message has no string 'role'")
        message: dict[str, Any] = {"role": m["role"]}
        if "rawContent" in m:
            message["content"] = m["rawContent"]
        else:
            preview = m.get("contentPreview")
            length = m.get("contentLength")
            if isinstance(preview, str) and (
                _cut(preview, PREVIEW_LIMIT) or (isinstance(length, int) and length > len(preview))
            ):
                truncated.append(f"args[0].messages[{i}].contentPreview")
                preview = preview.removesuffix(ELLIPSIS)
            message["content"] = preview
        calls = m.get("toolCalls")
        if isinstance(calls, list) and calls:
            message["tool_calls"] = []
            for j, raw_call in enumerate(calls):
                c = raw_call if isinstance(raw_call, dict) else {}
                args = c.get("argumentsPreview", "")
                if isinstance(args, str) and _cut(args, ARGUMENTS_LIMIT):
                    truncated.append(f"args[0].messages[{i}].toolCalls[{j}].argumentsPreview")
                message["tool_calls"].append(
                    {
                        "id": c.get("id"),
                        "type": "function",
                        "function": {"name": c.get("name", ""), "arguments": args},
                    }
                )
        count = m.get("toolCallCount")
        if isinstance(count, int) and count > len(calls if isinstance(calls, list) else []):
            truncated.append(f"args[0].messages[{i}].toolCalls")
        if isinstance(m.get("toolCallId"), str):
            message["tool_call_id"] = m["toolCallId"]
        out.append(message)
    return out, truncated


def snapshot_request(entry: dict[str, Any], line: int | None) -> CapturedRequest | None:
    """The request a "Chat payload snapshot" line describes, or None for a snapshot of another provider."""
    tag = _PROVIDER_TAG.match(entry["message"])
    source = tag.group(1) if tag else ""
    provider = SNAPSHOT_SOURCES.get(source)
    if provider is None:
        return None
    args = entry.get("args")
    first = args[0] if isinstance(args, list) and args else None
    if not isinstance(first, dict):
        raise at_line(line, ("args", 0), "a payload snapshot needs an object as its first argument")
    raw = first.get("messages")
    if not isinstance(raw, list):
        raise at_line(line, ("args", 0, "messages"), "a payload snapshot needs a 'messages' array")
    convert = _vercel_messages if source == "OpenAIVercelProvider" else _openai_messages
    messages, truncated = convert(raw, line)
    return CapturedRequest(
        provider=provider,
        body={"messages": messages},
        line=line,
        complete=not truncated,
        truncated=tuple(truncated),
        source=source,
    )


def snapshot_index(entry: dict[str, Any], line: int | None, names: dict[str, str]) -> JsonValue | None:
    """What the Session keeps of a snapshot: where it is, its size, whether it is complete.

    Cheap on purpose (a 200 MB log holds thousands of snapshots, each repeating the history): the
    Vercel previews are only checked for cuts and scanned for call names, never rebuilt; the
    flags agree with `snapshot_request`, which `requests` uses to rebuild a body on demand.
    """
    tag = _PROVIDER_TAG.match(entry["message"])
    source = tag.group(1) if tag else ""
    if source != "OpenAIVercelProvider":
        request = snapshot_request(entry, line)
        if request is None:
            return None
        for m in request.body["messages"]:
            for c in m.get("tool_calls", ()):
                if isinstance(c.get("id"), str) and c["function"].get("name"):
                    names[c["id"]] = c["function"]["name"]
        count, truncated = len(request.body["messages"]), list(request.truncated)
    else:
        args = entry.get("args")
        first = args[0] if isinstance(args, list) and args else None
        raw = first.get("messages") if isinstance(first, dict) else None
        if not isinstance(raw, list):
            raise at_line(line, ("args", 0, "messages"), "a payload snapshot needs a 'messages' array")
        truncated = []
        for i, m in enumerate(raw):
            if not isinstance(m, dict) or not isinstance(m.get("role"), str):
                raise at_line(
                    line, ("args", 0, "messages", i, "role"), "snapshot message has no string 'role'"
                )
            preview = m.get("contentPreview")
            if not isinstance(preview, str):
                continue
            if _cut(preview, PREVIEW_LIMIT):
                truncated.append(f"args[0].messages[{i}].contentPreview")
            if '"tool-call"' in preview:
                names.update(_NAMED_CALL.findall(preview))
        count = len(raw)
    return {
        "line": line,
        "provider": SNAPSHOT_SOURCES[source],
        "source": source,
        "messages": count,
        "complete": not truncated,
        "truncated": list[JsonValue](truncated[:20]),
    }


def requests(source: Any, *, progress: Progress | None = None) -> Iterator[CapturedRequest]:
    """Every understood payload snapshot of a debug log (a path, bytes or text), streamed in order.

    ``for r in requests(path): validate_payload(r.body, r.provider)`` checks each request as it was
    sent, as far as the log kept it; ``r.complete`` says whether it kept all of it.
    """
    if isinstance(source, str) and "\n" not in source and not source.lstrip().startswith(("{", "[")):
        lines: Lines = lines_of_path(source, progress=progress)
    elif hasattr(source, "__fspath__"):
        lines = lines_of_path(str(source), progress=progress)
    else:
        lines = lines_of_document(read_input(source))
    for line, entry in lines:
        if _is_line(entry) and SNAPSHOT_MESSAGE in entry["message"]:
            found = snapshot_request(entry, line)
            if found is not None:
                yield found


def _history_message(entry: dict[str, Any], line: int | None) -> Message:
    """A history entry from its "Adding content to history:" description."""
    args = entry.get("args")
    info = args[0] if isinstance(args, list) and args else None
    if not isinstance(info, dict):
        raise at_line(line, ("args", 0), "expected the history entry description (an object)")
    speaker = info.get("speaker")
    if speaker not in SPEAKERS:
        raise at_line(
            line, ("args", 0, "speaker"), f"unknown speaker {speaker!r}; expected human, ai or tool"
        )
    types = info.get("blockTypes")
    if not isinstance(types, list) or not all(isinstance(t, str) for t in types):
        raise at_line(line, ("args", 0, "blockTypes"), "expected an array of block type names")
    call_ids = info.get("toolCallIds") or []
    if not isinstance(call_ids, list) or not all(isinstance(c, str) for c in call_ids):
        raise at_line(line, ("args", 0, "toolCallIds"), "expected an array of tool call ids")
    responses = info.get("toolResponseIds") or []
    if not isinstance(responses, list) or not all(
        isinstance(r, dict) and isinstance(r.get("callId"), str) for r in responses
    ):
        raise at_line(line, ("args", 0, "toolResponseIds"), "expected an array of {callId, toolName}")
    if types.count("tool_call") != len(call_ids):
        raise at_line(
            line,
            ("args", 0, "toolCallIds"),
            f"{types.count('tool_call')} tool_call blocks but {len(call_ids)} tool call ids",
        )
    if types.count("tool_response") != len(responses):
        raise at_line(
            line,
            ("args", 0, "toolResponseIds"),
            f"{types.count('tool_response')} tool_response blocks but {len(responses)} response ids",
        )
    calls = iter(call_ids)
    answers = iter(responses)
    mark: dict[str, JsonValue] = {"_not_logged": True}
    blocks: list[Block] = []
    for kind in types:
        if kind == "tool_call":
            call_id = next(calls)
            blocks.append(
                ToolCallBlock(id=call_id, name="", parameters={}, raw_id=call_id, provider_data=mark)
            )
        elif kind == "tool_response":
            r = next(answers)
            name = r.get("toolName")
            blocks.append(
                ToolResponseBlock(
                    call_id=r["callId"],
                    tool_name=name if isinstance(name, str) else None,
                    result=NOT_LOGGED,
                    raw_call_id=r["callId"],
                    provider_data=mark,
                )
            )
        elif kind in ("text", "code"):
            blocks.append(TextBlock(text=NOT_LOGGED, provider_data={**mark, "type": kind}))
        elif kind == "thinking":
            blocks.append(ThinkingBlock(source_provider="llxprt-debug", provider_data=mark))
        elif kind == "media":
            blocks.append(MediaBlock(provider_data=mark))
        else:
            blocks.append(OpaqueBlock(source_format="llxprt-debug", data={"type": kind}))
    extra: dict[str, JsonValue] = {}
    if isinstance(info.get("contentId"), str):
        extra["contentId"] = info["contentId"]
    if isinstance(args, list) and len(args) > 1 and isinstance(args[1], dict):
        extra.update(dict(args[1]))  # HEAD: chronology {seq, userTurn, step, recordedAt}
    model = info.get("modelName")
    return Message(
        speaker=speaker,
        blocks=tuple(blocks),
        metadata=MessageMetadata(
            source_role=speaker,
            timestamp=iso_seconds(entry.get("timestamp")),
            model=model if isinstance(model, str) else None,
            extra=extra,
        ),
    )


def _name_calls(messages: list[Message], names: dict[str, str]) -> list[Message]:
    """Give each rebuilt call the tool name its response or a snapshot recorded for its id."""
    out = []
    for message in messages:
        if not any(isinstance(b, ToolCallBlock) for b in message.blocks):
            out.append(message)
            continue
        blocks = tuple(
            b.model_copy(update={"name": names.get(b.id, "unknown")}) if isinstance(b, ToolCallBlock) else b
            for b in message.blocks
        )
        out.append(message.model_copy(update={"blocks": blocks}))
    return out


class LlxprtDebugReader(StreamReader):
    """``llxprt-debug``: llxprt-code debug JSONL, history from HistoryService lines plus captured requests."""

    id = "llxprt-debug"
    description = "llxprt-code debug log JSONL (~/.llxprt/debug/llxprt-debug-*.jsonl)"

    def recognise(self, value: Any) -> int:
        """Certain on lines with timestamp/namespace/level/message and an ``llxprt:`` namespace."""
        return looks_llxprt_debug(value)

    def read_lines(self, lines: Lines, *, name: str, path: str | None, notes: list[str]) -> Session:
        """Rebuild the history; index the snapshots; keep error lines; count everything else."""
        built = Collector(notes)
        names: dict[str, str] = {}
        namespaces: Counter[str] = Counter()
        index: list[JsonValue] = []
        errors: list[JsonValue] = []
        error_count = 0
        total = 0
        for number, (line, entry) in enumerate(lines):
            total += 1
            if not isinstance(entry, dict):
                raise at_line(line, (), "expected a log entry object")
            for key in ("namespace", "message"):
                if not isinstance(entry.get(key), str):
                    raise at_line(line, (key,), f"log entry has no string {key!r}")
            namespace, message = entry["namespace"], entry["message"]
            namespaces[namespace] += 1
            if namespace == HISTORY_NAMESPACE and message.startswith(ADD_MESSAGE):
                built.add(_history_message(entry, line), line, number, f"[{number}].args[0]")
                for m in built.messages[-1].tool_responses():
                    if m.tool_name:
                        names.setdefault(m.call_id, m.tool_name)
            elif SNAPSHOT_MESSAGE in message:
                found = snapshot_index(entry, line, names)
                if found is not None:
                    index.append(found)
            if entry.get("level") == "error":
                error_count += 1
                if len(errors) < MAX_ERRORS:
                    errors.append({"line": line, "namespace": namespace, "message": message[:4000]})
        built.messages = _name_calls(built.messages, names)
        if built.messages:
            built.notes.append(
                "llxprt debug logs record each history entry's speaker, block types and tool ids, not its "
                f"content: text, reasoning, arguments and results read {NOT_LOGGED!r}"
            )
        else:
            built.notes.append(
                f"no '{ADD_MESSAGE}' lines (namespace {HISTORY_NAMESPACE}): the history is empty; "
                f"enable that namespace to record it"
            )
        cut = sum(1 for r in index if isinstance(r, dict) and r.get("complete") is False)
        if index:
            built.notes.append(
                f"{len(index)} provider request snapshot(s) captured ({cut} with previews cut short); "
                "toolhist.agents.llxprt.debug.requests(path) yields their bodies"
            )
        if error_count > len(errors):
            built.notes.append(
                f"{error_count} error-level lines; the first {len(errors)} are kept in metadata"
            )
        return built.session(
            self.id,
            path=path,
            metadata={
                "lines": total,
                "namespaces": dict(namespaces),
                "requests": index,
                "errors": errors,
                "error_count": error_count,
            },
        )
