"""Qwen Code's chat recording replayed into the Gemini ``Content[]`` history it resumes with.

Qwen Code (a Gemini CLI fork) records a session as JSONL ``ChatRecord`` lines, not as Gemini CLI's
``MessageRecord`` upsert log: each line has ``uuid`` / ``parentUuid`` (a tree, like Claude Code's),
``type`` ``user`` | ``assistant`` | ``tool_result`` | ``system`` (``subtype`` for the system ones),
and ``message``, the Gemini API ``Content`` exactly as sent or received (QwenLM/qwen-code
``packages/core/src/services/chatRecordingService.ts`` at 011f3d232086f2cb8727f573698a843eb37983be,
v0.8.0). Resuming (``packages/core/src/services/sessionService.ts``, same commit):

- ``reconstructHistory``: from the last record, follow ``parentUuid`` to the root; records sharing
  a ``uuid`` are one message, their parts concatenated (``aggregateRecords``). Records off that
  chain (a rewound branch) are not sent.
- ``buildApiHistoryFromConversation`` (today ``SessionApiHistoryAccumulator`` in
  ``packages/core/src/services/session-api-history.ts``, as the search index holds it, id
  70597103663): a ``system`` / ``chat_compression`` record with ``compressedHistory`` replaces
  everything before it; ``system`` records add nothing else; a ``realtime_message`` or a
  ``code_mode_tool_result`` is not history; a ``mid_turn_user_message`` joins the user turn before
  it. Thought parts are kept (the default since ``stripThoughtsFromHistory`` became ``false``, so
  reasoning models get their ``reasoning_content`` back; v0.8.0 stripped them).
- ``GeminiChat`` sends ``getHistory(true)``: ``extractCuratedHistory``
  (``packages/core/src/core/geminiChat.ts``, same commit) drops a run of model turns when one of
  them has no parts or an empty text part that is neither a thought nor a call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from toolhist.formats.base import ShapeError, Skips, arr, obj, opt_text, tag
from toolhist.formats.jsonl_stream import at_line, shape_on_line
from toolhist.formats.records import MAX_SKIPPED, skipped_note, skipping

RECORD_TYPES: Final = frozenset({"user", "assistant", "tool_result", "system"})
WHY_BRANCH: Final = (
    "off the chain from the last record: reconstructHistory follows parentUuid from the last record and "
    "sends only that chain (qwen-code packages/core/src/services/sessionService.ts)"
)
WHY_COMPRESSED: Final = (
    "before a chat_compression checkpoint: Qwen Code resumes from its compressedHistory instead "
    "(buildApiHistoryFromConversation)"
)
WHY_CURATED: Final = (
    "a model turn with no parts or an empty text part: GeminiChat's extractCuratedHistory drops that run of "
    "model turns (qwen-code packages/core/src/core/geminiChat.ts)"
)
WHY_NOT_HISTORY: Final = (
    "a {subtype} record: Qwen Code keeps it out of the model history (session-api-history.ts)"
)


@dataclass
class Turn:
    """One ``Content`` of the history, with where it came from."""

    content: dict[str, Any]
    line: int | None
    uuid: str | None
    model: str | None = None
    timestamp: str | None = None
    record_type: str | None = None


@dataclass
class Dropped:
    """A record Qwen Code keeps but does not send, before history turn ``before``."""

    kind: str
    reason: str
    before: int
    line: int | None
    data: dict[str, Any]


@dataclass
class Replayed:
    """The history Qwen Code resumes with, and what it left out."""

    turns: list[Turn] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    skips: Skips = field(default_factory=Skips)
    system: dict[str, int] = field(default_factory=dict)
    """System record subtypes on the chain, counted."""
    auth_type: str | None = None
    """The latest ``session_model`` record's ``authType`` (newer Qwen Code writes one)."""
    meta: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    """One per record whose message could not be read (left out, the record kept in the tree)."""


def replay(lines: list[tuple[int | None, Any]]) -> Replayed:
    """The three steps above, on a recording's ``(line, record)`` pairs."""
    out = Replayed()
    records: list[tuple[int | None, dict[str, Any]]] = []
    for line, value in lines:
        if not isinstance(value, dict):
            raise at_line(line, (), "a chat record is a JSON object")
        kind = tag(value.get("type"))  # a list or object type is no kind Qwen Code writes (never unhashable)
        if kind not in RECORD_TYPES:
            out.skips.add(
                f"record type {kind!r}" if isinstance(kind, str) else "record without a string 'type'", line
            )
            continue
        if not isinstance(value.get("uuid"), str):
            raise at_line(line, ("uuid",), "expected a string record uuid")
        try:
            _check_message(value)
        except ShapeError as exc:
            if not skipping() or out.skips.unreadable() >= MAX_SKIPPED:
                raise shape_on_line(line, exc) from None
            # its message is left out and named; the record stays in the tree, so the chain holds
            out.notes.append(skipped_note(f"line {line}", kind, value, exc.pointer, exc.reason))
            out.skips.add_unreadable(kind, line)
            records.append((line, {k: v for k, v in value.items() if k != "message"}))
            continue
        records.append((line, value))
    if not records:
        raise at_line(
            None, (), "no Qwen Code chat record (type user, assistant, tool_result or system) in this file"
        )
    first = records[0][1]
    out.meta = {k: first[k] for k in ("sessionId", "cwd", "version", "gitBranch") if k in first}
    chain = _chain(records, out)
    _accumulate(chain, out)
    _curate(out)
    return out


def _check_message(record: dict[str, Any]) -> None:
    """A record's ``message`` is a Gemini ``Content``: an object whose ``parts`` are objects.

    Checked when the record is first read, so a damaged message is named on its own line and left
    out (`replay`; Qwen Code's own loader skips a line it cannot parse, or one that is not an
    object, too: ``read`` / ``parseLineTolerant`` in ``packages/core/src/utils/jsonl-utils.ts`` at
    240a1967cf5955639a0acb82d7df6804c097379e) instead of vanishing from the history or failing
    later where no line is known. The call and response ids are checked too: they pair calls
    with results (`openai_wire`).
    """
    if "message" not in record:  # a system record has none
        return
    message = obj(record["message"], ("message",))
    if "parts" not in message:
        return
    for j, raw in enumerate(arr(message["parts"], ("message", "parts"))):
        part = obj(raw, ("message", "parts", j))
        for key in ("functionCall", "functionResponse"):
            if part.get(key) is not None:
                opt_text(
                    obj(part[key], ("message", "parts", j, key)).get("id"), ("message", "parts", j, key, "id")
                )


def _chain(
    records: list[tuple[int | None, dict[str, Any]]], out: Replayed
) -> list[tuple[int | None, dict[str, Any]]]:
    """``reconstructHistory``: the chain from the last record, same-uuid records aggregated."""
    by_uuid: dict[str, list[tuple[int | None, dict[str, Any]]]] = {}
    for line, record in records:
        by_uuid.setdefault(record["uuid"], []).append((line, record))
    chain: list[str] = []
    seen: set[str] = set()
    current: str | None = records[-1][1]["uuid"]
    while current is not None and current not in seen and current in by_uuid:
        seen.add(current)
        chain.append(current)
        parent = by_uuid[current][0][1].get("parentUuid")
        current = parent if isinstance(parent, str) else None
    chain.reverse()
    for line, record in records:
        if record["uuid"] not in seen and isinstance(record.get("message"), dict):
            out.dropped.append(Dropped(f"other branch {record['type']}", WHY_BRANCH, 0, line, _data(record)))
    return [_aggregate(by_uuid[u]) for u in chain]


def _aggregate(group: list[tuple[int | None, dict[str, Any]]]) -> tuple[int | None, dict[str, Any]]:
    """``aggregateRecords``: parts concatenated, the first model and tool result kept, the last usage."""
    line, base = group[0]
    merged = dict(base)
    for _, record in group[1:]:
        message = record.get("message")
        if isinstance(message, dict):
            old = merged.get("message")
            if isinstance(old, dict):
                parts = list(old.get("parts") or []) + list(message.get("parts") or [])
                merged["message"] = {"role": old.get("role"), "parts": parts}
            else:
                merged["message"] = message
        if record.get("usageMetadata"):
            merged["usageMetadata"] = record["usageMetadata"]
        if record.get("toolCallResult") and not merged.get("toolCallResult"):
            merged["toolCallResult"] = record["toolCallResult"]
        if record.get("model") and not merged.get("model"):
            merged["model"] = record["model"]
    return line, merged


def _accumulate(chain: list[tuple[int | None, dict[str, Any]]], out: Replayed) -> None:
    """``SessionApiHistoryAccumulator.add`` for each record of the chain, in order."""
    for line, record in chain:
        kind, subtype = record["type"], record.get("subtype")
        payload = record.get("systemPayload")
        if kind == "system":
            out.system[str(subtype)] = out.system.get(str(subtype), 0) + 1
            if (
                subtype == "session_model"
                and isinstance(payload, dict)
                and isinstance(payload.get("authType"), str)
            ):
                out.auth_type = payload["authType"]
            compressed = payload.get("compressedHistory") if isinstance(payload, dict) else None
            if subtype == "chat_compression" and isinstance(compressed, list):
                for turn in out.turns:
                    out.dropped.append(
                        Dropped(f"compressed {turn.record_type}", WHY_COMPRESSED, 0, turn.line, {})
                    )
                out.turns = [
                    Turn(c, line, None, record_type="compressed") for c in compressed if isinstance(c, dict)
                ]
            continue
        message = record.get("message")
        if subtype in ("realtime_message", "code_mode_tool_result"):
            out.dropped.append(
                Dropped(
                    f"{subtype}", WHY_NOT_HISTORY.format(subtype=subtype), len(out.turns), line, _data(record)
                )
            )
            continue
        if not isinstance(message, dict):
            continue
        turn = Turn(
            dict(message),
            line,
            record["uuid"],
            record.get("model") if isinstance(record.get("model"), str) else None,
            record.get("timestamp") if isinstance(record.get("timestamp"), str) else None,
            str(kind),
        )
        previous = out.turns[-1] if out.turns else None
        if (
            subtype == "mid_turn_user_message"
            and previous is not None
            and previous.content.get("role") == "user"
        ):
            parts = list(previous.content.get("parts") or []) + list(message.get("parts") or [])
            previous.content = {**previous.content, "parts": parts}
            continue
        out.turns.append(turn)


def _valid_part(part: Any) -> bool:
    if not isinstance(part, dict) or not part:
        return False
    return not (
        not part.get("thought")
        and not part.get("thoughtSignature")
        and part.get("text") == ""
        and part.get("functionCall") is None
    )


def _curate(out: Replayed) -> None:
    """``extractCuratedHistory``: a run of model turns with an invalid one is dropped whole."""
    kept: list[Turn] = []
    i = 0
    turns = out.turns
    while i < len(turns):
        if turns[i].content.get("role") != "model":
            kept.append(turns[i])
            i += 1
            continue
        run: list[Turn] = []
        while i < len(turns) and turns[i].content.get("role") == "model":
            run.append(turns[i])
            i += 1
        parts_ok = all(
            t.content.get("parts") and all(_valid_part(p) for p in t.content["parts"]) for t in run
        )
        if parts_ok:
            kept += run
        else:
            out.dropped += [
                Dropped("invalid model turn", WHY_CURATED, len(kept), t.line, {"message": t.content})
                for t in run
            ]
    out.turns = kept


def _data(record: dict[str, Any]) -> dict[str, Any]:
    return {
        k: v
        for k, v in record.items()
        if k in ("uuid", "parentUuid", "type", "subtype", "timestamp", "message")
    }
