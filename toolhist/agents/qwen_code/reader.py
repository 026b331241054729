"""Qwen Code chat recordings (``~/.qwen/projects/<cwd>/chats/<session>.jsonl``), read as Qwen Code sends them.

The recording is replayed into the Gemini ``Content[]`` history Qwen Code resumes with
(`toolhist.agents.qwen_code.history`); then the content generator the session ran with decides the
wire (QwenLM/qwen-code ``packages/core/src/core/contentGenerator.ts`` ``createContentGenerator`` at
011f3d232086f2cb8727f573698a843eb37983be):

- ``openai`` and ``qwen-oauth`` (Qwen Code's default) send Chat Completions, converted as
  `toolhist.agents.qwen_code.openai_wire` says; the messages here are those Chat Completions
  messages, read as ``openai-chat`` reads them;
- ``gemini`` and ``vertex-ai`` send the Gemini history as it is, read as ``gemini`` reads it;
- ``anthropic`` converts the history with ``anthropicContentGenerator/converter.ts``, not reproduced:
  the Gemini history is read as it is, and a note says so.

The session names its ``authType`` in a ``system`` / ``session_model`` record in newer Qwen Code; an
older one names only the model, and the generator is then inferred (`infer_auth`).

Where the format is Gemini CLI's and where it is not: a ``/chat save`` checkpoint
(``~/.qwen/tmp/<sha256 of the project>/checkpoint-<tag>.json``, ``packages/core/src/core/logger.ts``
``saveCheckpoint``) is a bare Gemini ``Content[]``, read by the ``gemini`` reader as Gemini CLI's
older checkpoints are; the session recording is not Gemini CLI's ``MessageRecord`` log (no
``gemini`` / ``info`` records, no ``$set`` or ``$rewindTo``: a ``uuid`` / ``parentUuid`` tree of
API ``Content``), so it has this reader of its own.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from pydantic import JsonValue

from toolhist.agents.qwen_code.history import Dropped, Replayed, Turn, replay
from toolhist.agents.qwen_code.openai_wire import Wire, clean_orphans, convert, merge_assistants
from toolhist.formats.base import Built, ShapeError
from toolhist.formats.document import Document
from toolhist.formats.gemini import read_contents
from toolhist.formats.jsonl_stream import Collector, Lines, StreamReader, iso_seconds, shape_on_line
from toolhist.formats.openai_chat import read_message
from toolhist.model import Message, Session, Unsent

OPENAI_AUTH: Final = frozenset({"openai", "qwen-oauth"})
GEMINI_AUTH: Final = frozenset({"gemini", "vertex-ai"})
EMPTY: Final = "content sent as nothing"
WHY_EMPTY: Final = (
    "Qwen Code's OpenAI converter makes no message of a content without text, media, a call or a "
    "response: processContent (qwen-code packages/core/src/core/openaiContentGenerator/converter.ts)"
)
WHY_ORPHAN: Final = (
    "Qwen Code's OpenAI converter removes it before sending: cleanOrphanedToolCalls "
    "(qwen-code packages/core/src/core/openaiContentGenerator/converter.ts)"
)


def looks_qwen(value: Any) -> int:
    """2 on ``ChatRecord`` lines whose messages are Gemini ``Content`` (``parts``), never ``content``."""
    if not isinstance(value, list) or not value:
        return 0
    if not all(isinstance(v, dict) and isinstance(v.get("uuid"), str) and "type" in v for v in value):
        return 0
    messages = [v["message"] for v in value if isinstance(v.get("message"), dict)]
    if not messages or any("content" in m for m in messages):
        return 0
    first = value[0]
    return 2 if "sessionId" in first and all(isinstance(m.get("parts"), list) for m in messages) else 0


def infer_auth(replayed: Replayed) -> tuple[str, bool]:
    """The session's ``authType``, and whether it was inferred (from the model names), not recorded."""
    if replayed.auth_type is not None:
        return replayed.auth_type, False
    models = [t.model for t in replayed.turns if t.model]
    if models and models[-1].lower().startswith("gemini"):
        return "gemini", True
    return "qwen-oauth", True


class QwenCodeReader(StreamReader):
    """``qwen-code``: a Qwen Code chat recording read as the request its content generator sends."""

    id = "qwen-code"
    description = "Qwen Code chat recording JSONL (~/.qwen/projects/<cwd>/chats/<session>.jsonl)"

    def recognise(self, value: Any) -> int:
        """Certain on uuid-linked records carrying Gemini ``Content`` messages."""
        return looks_qwen(value)

    def read_lines(self, lines: Lines, *, name: str, path: str | None, notes: list[str]) -> Session:
        """Replay the tree, then read the history as the session's content generator sends it."""
        replayed = replay(list(lines))
        auth, inferred = infer_auth(replayed)
        out = Collector(notes)
        out.skips = replayed.skips
        out.notes += replayed.notes
        if auth in GEMINI_AUTH or auth == "anthropic":
            removed = _gemini(replayed.turns, name, out)
            if auth == "anthropic":
                out.notes.append(
                    "authType anthropic: Qwen Code's Anthropic converter is not reproduced; the Gemini "
                    "history is read as it is"
                )
        else:
            removed = _openai(replayed.turns, out)
        out.unsent = _unsent(replayed.dropped, removed, out)
        out.notes += _notes(replayed, auth, inferred, removed)
        out.notes += out.skips.note("Qwen Code's own readers flag record kinds they do not know too")
        models = [t.model for t in replayed.turns if t.model]
        metadata: dict[str, JsonValue] = {f"session.{k}": v for k, v in replayed.meta.items()}
        metadata |= {"auth_type": auth, "auth_inferred": inferred, "system_records": dict(replayed.system)}
        return out.session(
            self.id, path=path, request={"model": models[-1]} if models else {}, metadata=metadata
        )


def _meta(message: Message, turn: Turn) -> Message:
    meta = message.metadata.model_copy(
        update={"turn_id": turn.uuid, "model": turn.model, "timestamp": iso_seconds(turn.timestamp)}
    )
    return message.model_copy(update={"metadata": meta})


def _openai(turns: list[Turn], out: Collector) -> list[tuple[str, Turn]]:
    """Convert, clean and merge as the OpenAI generator does, then read each chat message."""
    wire: Wire = []
    empty: list[tuple[str, Turn]] = []
    for turn in turns:
        made = convert(turn)
        wire += [(m, turn) for m in made]
        empty += [] if made else [(EMPTY, turn)]
    wire, removed = clean_orphans(wire)
    removed = empty + removed
    wire, merged = merge_assistants(wire)
    if merged:
        out.notes.append(
            f"{merged} adjacent assistant message(s) merged, as Qwen Code's OpenAI converter does"
        )
    for message, turn in wire:
        try:
            read = read_message(message, (), "openai-chat", out.notes)
        except ShapeError as exc:
            raise shape_on_line(turn.line, exc) from None
        out.add(_meta(read, turn), turn.line, None, "message")
    return removed


def _gemini(turns: list[Turn], name: str, out: Collector) -> list[tuple[str, Turn]]:
    """The Gemini history read as ``gemini`` reads a contents list, each message on its record's line."""
    built = Built(Document(value=[t.content for t in turns], name=name, path=None, jsonl_lines=None))
    try:
        read_contents([t.content for t in turns], (), built, "gemini")
    except ShapeError as exc:
        first = exc.pointer[0] if exc.pointer and isinstance(exc.pointer[0], int) else None
        line = turns[first].line if first is not None else None
        raise shape_on_line(line, ShapeError(("message", *exc.pointer[1:]), exc.reason)) from None
    out.notes += built.notes
    for message, location in zip(built.messages, built.locations, strict=True):
        turn = turns[location.index or 0]
        out.add(_meta(message, turn), turn.line, None, "message")
    return []


def _unsent(dropped: list[Dropped], removed: list[tuple[str, Turn]], out: Collector) -> list[Unsent]:
    """What Qwen Code keeps but does not send, each before the first message read from a later line."""
    lines = [loc.line or 0 for loc in out.locations]

    def before(line: int | None) -> int:
        return sum(1 for sent in lines if line is not None and sent < line) if line is not None else 0

    kept = [
        Unsent(
            kind=d.kind, reason=d.reason, before=before(d.line), line=d.line, json_path="message", data=d.data
        )
        for d in dropped
    ]
    kept += [
        Unsent(
            kind=kind,
            reason=WHY_EMPTY if kind == EMPTY else WHY_ORPHAN,
            before=before(t.line) + (kind != EMPTY),
            line=t.line,
            json_path="message",
        )
        for kind, t in removed
    ]
    return sorted(kept, key=lambda u: (u.before, u.line or 0))


def _notes(replayed: Replayed, auth: str, inferred: bool, removed: list[tuple[str, Turn]]) -> list[str]:
    notes: list[str] = []
    wire = (
        "Chat Completions (openai-chat)"
        if auth in OPENAI_AUTH
        else "Gemini (gemini)"
        if auth in GEMINI_AUTH
        else auth
    )
    said = (
        "inferred from the model names: the recording names no authType"
        if inferred
        else "system/session_model"
    )
    notes.append(f"content generator: authType {auth} ({said}), so the history is read as {wire}")
    if removed:
        kinds = Counter(kind for kind, _ in removed)
        notes.append(
            "removed by Qwen Code's OpenAI converter (session.unsent): "
            + ", ".join(f"{k} x{n}" for k, n in sorted(kinds.items()))
        )
    if replayed.system:
        notes.append(
            "system records on the chain (not messages): "
            + ", ".join(f"{k} x{n}" for k, n in sorted(replayed.system.items()))
        )
    return notes


__all__ = ["QwenCodeReader", "infer_auth", "looks_qwen"]
