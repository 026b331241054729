"""llxprt-code saved chats: ``/chat save`` checkpoints and session recordings (research/llxprt.md §7.6).

Two files, one reader:

- ``checkpoint-<tag>.json`` (``/chat save <tag>``): ``{"history": Content[], "context": {...}}``,
  ``Content`` being Gemini's ``{role, parts}``; read with the Gemini part reader (ids, or name and
  position pairing for id-less parts). The legacy bare ``Content[]`` is a plain Gemini list and
  reads as ``gemini``.
- ``chats/session-*.jsonl`` (recording, llxprt HEAD): lines ``{v, seq, ts, type, payload}``,
  replayed as llxprt's ReplayEngine does: ``content`` appends an IContent, ``compressed`` resets the
  history to its summary, ``rewind`` removes the last items. What a replay removes is said in the
  notes. Recordings stream line by line.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import JsonValue

from toolhist.agents.llxprt.icontent import SPEAKERS, read_block, read_metadata
from toolhist.formats.base import Built, ShapeError, rest
from toolhist.formats.document import Document
from toolhist.formats.gemini import looks_gemini, read_contents
from toolhist.formats.jsonl_stream import Collector, Lines, StreamReader, at_line, shape_on_line
from toolhist.model import Message, Session

RECORD_TYPES = {
    "session_start",
    "content",
    "compressed",
    "rewind",
    "provider_switch",
    "session_event",
    "session_metadata",
    "directories_changed",
    "checkpoint_created",
    "checkpoint_renamed",
    "checkpoint_deleted",
    "session_forked",
    "session_named",
}


def looks_recording(value: Any) -> int:
    """2 when an entry is a ``{v, seq, type, payload}`` record and every entry looks like one."""
    if not isinstance(value, list) or not value:
        return 0
    if not all(isinstance(v, dict) and "seq" in v for v in value):
        return 0
    ok = any("v" in v and v.get("type") in RECORD_TYPES and "payload" in v for v in value)
    return 2 if ok else 0


def looks_checkpoint(value: Any) -> int:
    """2 for ``{history: Gemini contents, context}``; 1 for a bare ``{history: Gemini contents}``."""
    if not isinstance(value, dict) or looks_gemini(value.get("history")) == 0:
        return 0
    return 2 if "context" in value else 1


def _content(payload: Any, line: int | None, key: str, notes: list[str]) -> Message:
    """One IContent from a record payload (``payload[key]``)."""
    ptr = ("payload", key)
    content = payload.get(key) if isinstance(payload, dict) else None
    if not isinstance(content, dict):
        raise at_line(line, ptr, "expected an IContent object")
    speaker = content.get("speaker")
    if speaker not in SPEAKERS:
        raise at_line(line, (*ptr, "speaker"), f"unknown speaker {speaker!r}; expected human, ai or tool")
    blocks = content.get("blocks")
    if not isinstance(blocks, list):
        raise at_line(line, (*ptr, "blocks"), "expected an array of blocks")
    try:
        return Message(
            speaker=speaker,
            blocks=tuple(
                read_block(b, (*ptr, "blocks", j), "llxprt-checkpoint", notes) for j, b in enumerate(blocks)
            ),
            metadata=read_metadata(content.get("metadata"), (*ptr, "metadata"), speaker),
        )
    except ShapeError as exc:
        raise shape_on_line(line, exc) from None


class LlxprtCheckpointReader(StreamReader):
    """``llxprt-checkpoint``: an llxprt ``/chat save`` checkpoint or a session recording JSONL."""

    id = "llxprt-checkpoint"
    description = "llxprt-code chat checkpoint JSON ({history, context}) or session recording JSONL"

    def recognise(self, value: Any) -> int:
        """Certain on a checkpoint with ``context`` or recording records; plausible on ``{history}``."""
        return max(looks_checkpoint(value), looks_recording(value))

    def read(self, doc: Document) -> Session:
        """A checkpoint JSON directly; a recording through the line reader."""
        if isinstance(doc.value, dict) and "history" in doc.value:
            return self._checkpoint(doc)
        return super().read(doc)

    def _checkpoint(self, doc: Document) -> Session:
        value = doc.value
        built = Built(doc)
        history = value["history"]
        if not isinstance(history, list):
            raise ShapeError(("history",), "expected an array of Gemini contents")
        read_contents(history, ("history",), built, self.id)
        context = value.get("context")
        return built.session(
            self.id,
            tools=None,
            request={},
            metadata={"kind": "checkpoint", "context": context, **rest(value, "history", "context")},
        )

    def read_lines(self, lines: Lines, *, name: str, path: str | None, notes: list[str]) -> Session:
        """Replay a recording: content appends, compressed resets, rewind removes."""
        built = Collector(notes)
        others: Counter[str] = Counter()
        switches: list[JsonValue] = []
        start: dict[str, JsonValue] = {}
        for index, (line, record) in enumerate(lines):
            if not isinstance(record, dict):
                raise at_line(line, (), "expected a record object")
            kind = record.get("type")
            if kind not in RECORD_TYPES:
                raise at_line(line, ("type",), f"unknown record type {kind!r}")
            payload = record.get("payload")
            if kind == "content":
                built.add(
                    _content(payload, line, "content", built.notes), line, index, f"[{index}].payload.content"
                )
            elif kind == "compressed":
                dropped = len(built.messages)
                built.messages.clear()
                built.locations.clear()
                built.add(
                    _content(payload, line, "summary", built.notes), line, index, f"[{index}].payload.summary"
                )
                built.notes.append(f"line {line}: compression replaced {dropped} messages with its summary")
            elif kind == "rewind":
                removed = payload.get("itemsRemoved") if isinstance(payload, dict) else None
                if not isinstance(removed, int) or isinstance(removed, bool) or removed < 0:
                    raise at_line(line, ("payload", "itemsRemoved"), "expected a non-negative integer")
                removed = min(removed, len(built.messages))
                if removed:
                    del built.messages[-removed:]
                    del built.locations[-removed:]
                built.notes.append(f"line {line}: rewind removed the last {removed} messages")
            elif kind == "provider_switch":
                switches.append({"line": line, **(payload if isinstance(payload, dict) else {})})
            elif kind == "session_start" and isinstance(payload, dict):
                start = dict(payload)
            else:
                others[str(kind)] += 1
        if others:
            built.notes.append(
                "records not in the history: " + ", ".join(f"{k} x{v}" for k, v in sorted(others.items()))
            )
        request: dict[str, JsonValue] = {}
        last = switches[-1] if switches else start
        model = last.get("model") if isinstance(last, dict) else None
        if isinstance(model, str):
            request["model"] = model
        return built.session(
            self.id,
            path=path,
            request=request,
            metadata={"kind": "recording", "session_start": start, "provider_switches": switches},
        )
