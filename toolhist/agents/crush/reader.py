"""Crush's ``crush.db``: its sessions read as Crush sends them.

Tables (charmbracelet/crush ``internal/db/migrations/``, at 37f36e93824e5c4f892e4a817f7f628e2682fe14):
``sessions`` (``id``, ``parent_session_id``, ``title``, ``summary_message_id``, ``updated_at``…) and
``messages`` (``id``, ``session_id``, ``role``, ``parts``, ``model``, ``provider``, ``created_at``…).
``parts`` is a JSON list of ``{"type", "data"}`` (``internal/message/message.go`` ``marshalParts``):
``text``, ``reasoning``, ``image_url``, ``binary``, ``tool_call`` (``input`` is the JSON argument
string), ``tool_result``, ``finish``, ``shell_command``.

What Crush sends (``internal/agent/agent.go``, ``getSessionMessages`` and ``preparePrompt``, and
``internal/message/content.go`` ``ToAIMessage``):

- messages in ``created_at`` order; with a ``summary_message_id`` the history starts at that
  summary, sent as a user message (what lies before is kept in ``Session.unsent``);
- a top-level session starts with Crush's todo reminder as a user message
  (``<system_reminder>…</system_reminder>``); a subagent's session (``parent_session_id``) does not;
- a message without parts, and an assistant message with no text, reasoning or call (cancelled
  before it answered), are not sent;
- a user message sends its trimmed text, with text attachments appended in ``<file>`` blocks and
  bang-mode shell commands as ``$ cmd``/output/exit code, then its other attachments as files;
- an assistant message sends its trimmed text, then its reasoning, then its tool calls;
- a tool result whose call is nowhere in the session is dropped; a call with no result anywhere
  gets a synthetic error result right after its message ("tool call was interrupted…").

The leading reminder's exact text and the prompt's system message are Crush's, not the session's;
the reminder is added (marked synthetic), the system prompt is not part of the history here.
"""

from __future__ import annotations

import base64
import binascii
import json
import sqlite3
from typing import Any, Final

from pydantic import JsonValue

from toolhist.agents.stores import StoredSession, StoreReader, row_ptr
from toolhist.formats.base import Built, Pointer, ShapeError, arr, obj, parse_arguments, text
from toolhist.formats.document import Document
from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    MessageMetadata,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

REMINDER: Final = (
    "<system_reminder>This is a reminder that your todo list is currently empty. DO NOT mention this to "
    "the user explicitly because they are already aware.\nIf you are working on tasks that would benefit "
    'from a todo list please use the "todos" tool to create one.\nIf not, please feel free to ignore. '
    "Again do not mention this message to the user.</system_reminder>"
)
"""The user message ``preparePrompt`` puts first in every top-level session's request."""
INTERRUPTED: Final = (
    "tool call was interrupted and did not produce a result, "
    "you may retry this call if the result is still needed"
)
"""``syntheticToolResultsForOrphanedCalls``' error text."""
MEDIA_FAILED: Final = "[Image data could not be loaded]"
TEXT_FILES: Final = (
    "\n<system_info>The files below have been attached by the user, consider them in your response"
    "</system_info>\n"
)
PART_TYPES: Final = frozenset(
    {"text", "reasoning", "image_url", "binary", "tool_call", "tool_result", "finish", "shell_command"}
)
BEFORE_SUMMARY: Final = (
    "before the session's summary: Crush sends the history from summary_message_id on "
    "(getSessionMessages, internal/agent/agent.go)"
)
CANCELLED: Final = "an assistant message with no text, reasoning or tool call: preparePrompt skips it"
ORPHAN: Final = (
    "a tool result whose call is not in the session: preparePrompt drops it (filterOrphanedToolResults)"
)


def _seconds(value: Any) -> float:
    """Crush writes ``strftime('%s')`` seconds; milliseconds are accepted too."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return 0.0
    return value / 1000 if value > 1e11 else float(value)


class CrushReader(StoreReader):
    """``crush``: a Crush ``crush.db``."""

    id = "crush"
    description = "Crush session store .crush/crush.db (PATH#SESSION_ID picks one session)"

    def recognise_store(self, found: dict[str, frozenset[str]]) -> int:
        """Crush's ``sessions`` and ``messages`` (with a ``parts`` column)."""
        messages = found.get("messages", frozenset())
        if "sessions" in found and {"session_id", "role", "parts"} <= messages:
            return 2
        return 0

    def list_store(self, conn: sqlite3.Connection) -> list[StoredSession]:
        """Sessions newest first, with the last assistant message's provider and model."""
        provider = (
            "provider"
            if "provider" in {r[1] for r in conn.execute("PRAGMA table_info(messages)")}
            else "NULL"
        )
        last = {
            sid: (prov, model)
            for sid, prov, model, _ in conn.execute(
                f"SELECT session_id, {provider}, model, max(created_at) FROM messages "
                "WHERE role = 'assistant' GROUP BY session_id"
            )
        }
        counts = dict(
            conn.execute("SELECT session_id, count(*) FROM messages GROUP BY session_id").fetchall()
        )
        rows = conn.execute("SELECT id, title, updated_at FROM sessions ORDER BY updated_at DESC, id DESC")
        return [
            StoredSession(
                id=str(sid),
                updated=_seconds(updated),
                title=title,
                messages=counts.get(sid, 0),
                provider=last.get(sid, (None, None))[0],
                model=last.get(sid, (None, None))[1],
            )
            for sid, title, updated in rows
        ]

    def read_store(self, conn: sqlite3.Connection, session: str, doc: Document) -> Session:
        """The session's messages as ``preparePrompt`` sends them."""
        cursor = conn.execute("SELECT * FROM sessions WHERE id = ?", (session,))
        names = [d[0] for d in cursor.description]
        row = cursor.fetchone()
        info: dict[str, Any] = dict(zip(names, row, strict=True)) if row else {"id": session}
        cursor = conn.execute(
            "SELECT * FROM messages WHERE session_id = ? ORDER BY created_at ASC", (session,)
        )
        names = [d[0] for d in cursor.description]
        rows = [dict(zip(names, r, strict=True)) for r in cursor.fetchall()]
        built = Built(doc)
        loaded = [(r, _parts(r)) for r in rows]
        summary = info.get("summary_message_id")
        index = next((i for i, (r, _) in enumerate(loaded) if summary and r["id"] == summary), None)
        start = index or 0
        for r, parts in loaded[:start]:
            built.keep_unsent("summarised", BEFORE_SUMMARY, row_ptr("messages", r["id"]), text=_text(parts))
        subagent = bool(info.get("parent_session_id"))
        _send(built, loaded[start:], summary_first=index is not None, subagent=subagent)
        built.notes.extend(built.skips.note())
        meta: dict[str, JsonValue] = {
            "crush_session": {k: v for k, v in info.items() if isinstance(v, str | int | float) or v is None}
        }
        model = next(
            (r.get("model") for r, _ in reversed(loaded) if r.get("role") == "assistant" and r.get("model")),
            None,
        )
        return built.session(
            "crush", tools=None, request={"model": model} if isinstance(model, str) else {}, metadata=meta
        )


def _parts(row: dict[str, Any]) -> list[tuple[str, dict[str, Any], Pointer]]:
    """``(type, data, pointer)`` for each part of the message row."""
    ptr = row_ptr("messages", row.get("id"), "parts")
    raw = row.get("parts")
    try:
        value = json.loads(raw) if isinstance(raw, str | bytes) else raw
    except ValueError as exc:
        raise ShapeError(ptr, f"not valid JSON: {exc}") from None
    out = []
    for i, raw_part in enumerate(arr(value, ptr)):
        part = obj(raw_part, (*ptr, i))
        kind = part.get("type")
        data = part.get("data")
        out.append(
            (kind if isinstance(kind, str) else "", data if isinstance(data, dict) else {}, (*ptr, i, "data"))
        )
    return out


def _text(parts: list[tuple[str, dict[str, Any], Pointer]]) -> str:
    return next((d["text"] for k, d, _ in parts if k == "text" and isinstance(d.get("text"), str)), "")


def _send(
    built: Built,
    messages: list[tuple[dict[str, Any], list[tuple[str, dict[str, Any], Pointer]]]],
    *,
    summary_first: bool,
    subagent: bool,
) -> None:
    if (
        summary_first and messages
    ):  # getSessionMessages: msgs[0].Role = message.User, before anything reads roles
        messages = [
            ({**messages[0][0], "role": "user", "summary_of": messages[0][0].get("role")}, messages[0][1]),
            *messages[1:],
        ]
    calls = {
        d.get("id")
        for r, ps in messages
        if r.get("role") == "assistant"
        for k, d, _ in ps
        if k == "tool_call"
    }
    results = {
        d.get("tool_call_id")
        for r, ps in messages
        if r.get("role") == "tool"
        for k, d, _ in ps
        if k == "tool_result"
    }
    if not subagent:
        reminder = MessageMetadata(
            synthetic=True, reason="Crush's todo reminder (preparePrompt, internal/agent/agent.go)"
        )
        built.add(
            Message(speaker="human", blocks=(TextBlock(text=REMINDER),), metadata=reminder),
            None,
            ("sessions",),
        )
    for row, parts in messages:
        ptr = row_ptr("messages", row.get("id"))
        role = row.get("role")
        for kind, _, _ in parts:
            if kind not in PART_TYPES:
                built.skips.add(f"part type {kind!r}" if kind else "part without a string 'type'")
        if not parts:
            continue
        meta = MessageMetadata(
            source_role=str(row.get("summary_of", row.get("role"))),
            turn_id=str(row.get("id")),
            timestamp=_seconds(row.get("created_at")) or None,
            provider=row.get("provider")
            if role == "assistant" and isinstance(row.get("provider"), str)
            else None,
            model=row.get("model") if role == "assistant" and isinstance(row.get("model"), str) else None,
        )
        if role == "user":
            blocks = _user(parts)
            if blocks:
                built.add(Message(speaker="human", blocks=tuple(blocks), metadata=meta), None, ptr)
        elif role == "assistant":
            blocks = _assistant(parts)
            if not blocks:
                built.keep_unsent("cancelled assistant message", CANCELLED, ptr, data={"id": row.get("id")})
                continue
            built.add(Message(speaker="ai", blocks=tuple(blocks), metadata=meta), None, ptr)
            orphans = [b for b in blocks if isinstance(b, ToolCallBlock) and b.id not in results]
            if orphans:
                synthetic = MessageMetadata(
                    synthetic=True, reason="syntheticToolResultsForOrphanedCalls (internal/agent/agent.go)"
                )
                answers = tuple(
                    ToolResponseBlock(
                        call_id=b.id,
                        tool_name=b.name,
                        result=INTERRUPTED,
                        error=INTERRUPTED,
                        is_complete=False,
                        provider_data={"_synthetic": True},
                    )
                    for b in orphans
                )
                built.add(Message(speaker="tool", blocks=answers, metadata=synthetic), None, ptr)
        elif role == "tool":
            kept: list[Block] = []
            for kind, data, pptr in parts:
                if kind != "tool_result":
                    continue
                if data.get("tool_call_id") not in calls:
                    built.keep_unsent(
                        "orphaned tool result",
                        ORPHAN,
                        pptr,
                        text=str(data.get("content", "")),
                        data={"tool_call_id": data.get("tool_call_id")},
                    )
                    continue
                kept.append(_result(data, pptr))
            if kept:
                built.add(Message(speaker="tool", blocks=tuple(kept), metadata=meta), None, ptr)
        else:
            built.skips.add(f"message role {role!r}")


def _user(parts: list[tuple[str, dict[str, Any], Pointer]]) -> list[Block]:
    body = ""
    for kind, data, ptr in parts:
        if kind == "text":
            body = text(data.get("text"), (*ptr, "text")).strip()
            break
    attached = [
        (d, p) for k, d, p in parts if k == "binary" and str(d.get("MIMEType", "")).startswith("text/")
    ]
    if attached:
        body += TEXT_FILES
        for data, _ in attached:
            path = data.get("Path")
            body += f"<file path='{path}'>\n" if path else "<file>\n"
            body += "\n" + _decoded(data.get("Data")) + "\n</file>\n"
    for kind, data, _ in parts:
        if kind == "shell_command":
            exit_code = data.get("exit_code", 0)
            shell = f"$ {data.get('command', '')}\n{data.get('output', '')}\n(exit code {exit_code})"
            body = f"{body}\n\n{shell}" if body else shell
    blocks: list[Block] = [TextBlock(text=body)] if body else []
    for kind, data, _ in parts:
        if kind == "binary" and not str(data.get("MIMEType", "")).startswith("text/"):
            blocks.append(
                MediaBlock(mime_type=data.get("MIMEType"), data=data.get("Data"), filename=data.get("Path"))
            )
        elif kind == "image_url":
            blocks.append(MediaBlock(url=data.get("url"), provider_data={"detail": data.get("detail")}))
    return blocks


def _decoded(data: Any) -> str:
    """A ``[]byte`` Go wrote as base64."""
    if not isinstance(data, str):
        return ""
    try:
        return base64.b64decode(data, validate=True).decode("utf-8", errors="replace")
    except (binascii.Error, ValueError):
        return data


def _base64(data: str) -> bool:
    try:
        base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def _assistant(parts: list[tuple[str, dict[str, Any], Pointer]]) -> list[Block]:
    blocks: list[Block] = []
    body = next((text(d.get("text"), (*p, "text")).strip() for k, d, p in parts if k == "text"), "")
    if body:
        blocks.append(TextBlock(text=body))
    reasoning = next(((d, p) for k, d, p in parts if k == "reasoning"), None)
    if reasoning is not None:
        data, ptr = reasoning
        thinking = data.get("thinking")
        if isinstance(thinking, str) and thinking:
            signature = data.get("signature") or data.get("thought_signature") or None
            blocks.append(
                ThinkingBlock(
                    text=thinking,
                    signature=signature if isinstance(signature, str) else None,
                    source_provider="crush",
                    provider_data={k: v for k, v in data.items() if k != "thinking"},
                )
            )
    for kind, data, ptr in parts:
        if kind != "tool_call":
            continue
        call_id = text(data.get("id"), (*ptr, "id"))
        name = text(data.get("name"), (*ptr, "name"))
        raw = data.get("input")
        raw = raw if isinstance(raw, str) else json.dumps(raw)
        params, error = parse_arguments(raw) if raw.strip() else ({}, None)
        blocks.append(
            ToolCallBlock(
                id=call_id,
                name=name,
                parameters=params,
                raw_id=call_id,
                raw_arguments=raw,
                arguments_error=error,
                provider_data={"finished": bool(data.get("finished"))},
            )
        )
    return blocks


def _result(data: dict[str, Any], ptr: Pointer) -> ToolResponseBlock:
    call_id = text(data.get("tool_call_id"), (*ptr, "tool_call_id"))
    name = data.get("name") if isinstance(data.get("name"), str) else None
    content = data.get("content") if isinstance(data.get("content"), str) else ""
    if data.get("is_error"):
        return ToolResponseBlock(
            call_id=call_id, tool_name=name, result=content, error=content, raw_call_id=call_id
        )
    media = data.get("data")
    if isinstance(media, str) and media:
        if not _base64(media):  # ToAIMessage: stringext.IsValidBase64, else the placeholder text
            return ToolResponseBlock(
                call_id=call_id, tool_name=name, result=MEDIA_FAILED, raw_call_id=call_id
            )
        part: dict[str, JsonValue] = {"type": "media", "mime_type": data.get("mime_type"), "data": media}
        return ToolResponseBlock(call_id=call_id, tool_name=name, result=[part], raw_call_id=call_id)
    return ToolResponseBlock(call_id=call_id, tool_name=name, result=content, raw_call_id=call_id)
