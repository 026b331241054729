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

A record the ReplayEngine would skip is skipped here too and named in a note: it skips a malformed
``content``, ``compressed`` or ``rewind`` event with a warning ("Line N: malformed content event,
skipping") and fails only on a bad ``session_start`` (vybestack/llxprt-code
``packages/core/src/recording/ReplayEngine.ts`` at 017f1ee5f51e502efbd852edc79c5537790dc91d), so
``session_start`` is this reader's one header (`LlxprtCheckpointReader.record_kind`), and a record
type it does not know is skipped and counted (`toolhist.formats.records`).
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
from toolhist.formats.records import kind_of
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
    """2 for ``{history, context}`` (llxprt's own pair of keys); 1 for a bare ``{history: Gemini contents}``.

    With ``context`` the file is llxprt's whatever its history holds: a damaged history is then
    this reader's to name, with its place, not an unknown format.
    """
    if not isinstance(value, dict) or "history" not in value:
        return 0
    if "context" in value:
        return 2
    return 1 if looks_gemini(value.get("history")) else 0


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

    def record_kind(self, value: Any) -> str | None:
        """A record's type; None for ``session_start``, the header the ReplayEngine cannot do without."""
        kind = kind_of(value)
        return None if kind == "session_start" else kind

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
            kind = record.get("type") if isinstance(record, dict) else None
            if not isinstance(kind, str) or kind not in RECORD_TYPES:
                built.skips.add(
                    f"record type {kind!r}" if isinstance(kind, str) else "record without a string 'type'",
                    line,
                )
                continue
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
        if not start and not built.messages and not others and not switches and built.skips.counts:
            raise at_line(None, (), "no llxprt session record ({v, seq, type, payload}) in this file")
        if others:
            built.notes.append(
                "records not in the history: " + ", ".join(f"{k} x{v}" for k, v in sorted(others.items()))
            )
        built.notes += built.skips.note()
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
