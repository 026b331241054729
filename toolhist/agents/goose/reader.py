"""Goose sessions: ``sessions.db`` and the JSONL files before it, read as Goose sends them.

- **``sessions.db``** (SQLite, WAL): ``sessions`` (``id``, ``name``, ``working_dir``,
  ``updated_at``, ``provider_name``, ``model_config_json``…) and ``messages`` (``session_id``,
  ``role``, ``content_json``, ``created_timestamp``, ``timestamp``, ``metadata_json``), read in
  ``timestamp`` order as ``get_conversation`` reads them (block/goose
  ``crates/goose/src/session/session_manager.rs`` at dbec1655c17720cb591291603f1337ed7856afbd,
  schema version 9).
- **``<name>.jsonl``** (before the database): a first line of session metadata (``working_dir``,
  ``description``…), then one message per line (``crates/goose/src/session/legacy.rs`` at
  0fc5e54062be2712f705269265e928c17bceee83, which skips a line it cannot parse; here it is named).

A message is ``{role, created, content: [...], metadata: {userVisible, agentVisible}}``; content
items are tagged by ``type`` (``crates/goose/src/conversation/message.rs`` at
05132966065f7dd80b97af7d080a41328d103073): ``text``, ``image`` (``data``, ``mimeType``),
``toolRequest`` (``id``, ``toolCall``: ``{"status": "success", "value": {name, arguments}}`` or
``{"status": "error", "error"}``), ``toolResponse`` (``id``, ``toolResult``: ``value`` the MCP
content list, or a ``CallToolResult`` with ``content``), ``thinking`` (``thinking``,
``signature``), ``redactedThinking`` (``data``). A tool response rides in a user message; it is
read as a tool message, followed by the message's other content as a user message (the order
Goose's OpenAI format writes them). Messages not ``agentVisible`` go to ``Session.unsent``; the
rest are repaired as `toolhist.agents.goose.send.fix` says.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any, Final

from pydantic import JsonValue

from toolhist.agents.goose.send import NEVER_SENT, SENT, Dropped, Stored, fix
from toolhist.agents.stores import StoredSession, StoreReader, row_ptr
from toolhist.formats.base import Built, Pointer, ShapeError, arr, obj, text
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

HIDDEN: Final = (
    "not agent-visible (metadata.agentVisible false): Goose sends only agent_visible_messages "
    "(crates/goose/src/conversation/mod.rs)"
)
REMOVED: Final = "removed by fix_conversation (crates/goose/src/conversation/mod.rs)"


def _timestamp(value: Any) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(
                value.replace(" ", "T").replace("Z", "+00:00")
                + ("" if "+" in value or "Z" in value else "+00:00")
            ).timestamp()
        except ValueError:
            return 0.0
    return 0.0


def _is_message(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and value.get("role") in ("user", "assistant")
        and isinstance(value.get("content"), list)
        and "created" in value
    )


class GooseReader(StoreReader):
    """``goose``: a Goose ``sessions.db``, or a Goose session ``.jsonl`` from before it."""

    id = "goose"
    description = "Goose session store sessions.db (PATH#SESSION_ID picks one), or a session .jsonl before it"

    def recognise(self, value: Any) -> int:
        """Certain on JSON Lines of Goose messages (``toolRequest``… items), after a metadata line."""
        if not isinstance(value, list) or not value:
            return 0
        first = value[0]
        messages = value[1:] if isinstance(first, dict) and "working_dir" in first else value
        if messages and all(_is_message(m) for m in messages):
            items = {c.get("type") for m in messages for c in m["content"] if isinstance(c, dict)}
            return 2 if items & {"toolRequest", "toolResponse"} or "working_dir" in first else 1
        return (
            2
            if messages == [] and isinstance(first, dict) and {"working_dir", "description"} <= first.keys()
            else 0
        )

    def read(self, doc: Document) -> Session:
        """A legacy JSONL session."""
        lines = arr(doc.value, ())
        meta: dict[str, Any] = {}
        stored: list[tuple[dict[str, Any], Pointer, Any]] = []
        for i, line in enumerate(lines):
            if i == 0 and isinstance(line, dict) and "working_dir" in line and not _is_message(line):
                meta = line
                continue
            message = obj(line, (i,))
            if not _is_message(message):
                raise ShapeError((i,), "not a Goose message (role, created, content)")
            stored.append((message, (i,), None))
        built = Built(doc)
        return _session(built, stored, meta, "jsonl", doc)

    def recognise_store(self, found: dict[str, frozenset[str]]) -> int:
        """Goose's ``sessions`` and ``messages`` (with ``content_json``)."""
        if "sessions" in found and {"session_id", "role", "content_json"} <= found.get(
            "messages", frozenset()
        ):
            return 2
        return 0

    def list_store(self, conn: sqlite3.Connection) -> list[StoredSession]:
        """Sessions newest first (the ``user`` and ``scheduled`` ones Goose lists, and the others)."""
        columns = {r[1] for r in conn.execute("PRAGMA table_info(sessions)")}
        provider = "provider_name" if "provider_name" in columns else "NULL"
        config = "model_config_json" if "model_config_json" in columns else "NULL"
        counts = dict(
            conn.execute("SELECT session_id, count(*) FROM messages GROUP BY session_id").fetchall()
        )
        rows = conn.execute(
            f"SELECT id, name, working_dir, updated_at, {provider}, {config} FROM sessions "
            "ORDER BY updated_at DESC, id DESC"
        )
        return [
            StoredSession(
                id=str(sid),
                updated=_timestamp(updated),
                title=name,
                project=folder,
                messages=counts.get(sid, 0),
                provider=prov,
                model=_model(cfg),
            )
            for sid, name, folder, updated, prov, cfg in rows
        ]

    def read_store(self, conn: sqlite3.Connection, session: str, doc: Document) -> Session:
        """The session's messages in ``timestamp`` order."""
        cursor = conn.execute("SELECT * FROM sessions WHERE id = ?", (session,))
        names = [d[0] for d in cursor.description]
        row = cursor.fetchone()
        info = dict(zip(names, row, strict=True)) if row else {"id": session}
        columns = {r[1] for r in conn.execute("PRAGMA table_info(messages)")}
        metadata = "metadata_json" if "metadata_json" in columns else "NULL"
        stored = []
        for rowid, role, content, created, meta_json in conn.execute(
            f"SELECT id, role, content_json, created_timestamp, {metadata} FROM messages "
            "WHERE session_id = ? ORDER BY timestamp, id",
            (session,),
        ):
            ptr = row_ptr("messages", rowid)
            items = _json(content, (*ptr, "content_json"))
            meta = _json(meta_json, (*ptr, "metadata_json")) if meta_json else {}
            stored.append(
                ({"role": role, "created": created, "content": items, "metadata": meta}, ptr, rowid)
            )
        return _session(Built(doc), stored, info, "sessions.db", doc)


def _model(config: Any) -> str | None:
    try:
        value = json.loads(config) if isinstance(config, str) else None
    except ValueError:
        return None
    name = value.get("model_name") if isinstance(value, dict) else None
    return name if isinstance(name, str) else None


def _json(raw: Any, ptr: Pointer) -> Any:
    try:
        return json.loads(raw) if isinstance(raw, str | bytes) else raw
    except ValueError as exc:
        raise ShapeError(ptr, f"not valid JSON: {exc}") from None


def _session(
    built: Built,
    stored: list[tuple[dict[str, Any], Pointer, Any]],
    info: dict[str, Any],
    form: str,
    doc: Document,
) -> Session:
    visible: list[Stored] = []
    never: dict[str, int] = {}
    hidden: list[Dropped] = []
    for pos, (message, ptr, _) in enumerate(stored):
        content = arr(message.get("content"), (*ptr, "content"))
        items = []
        for j, raw in enumerate(content):
            item = obj(raw, (*ptr, "content", j))
            kind = item.get("type")
            if kind in SENT:
                items.append(item)
            elif kind in NEVER_SENT:
                never[str(kind)] = never.get(str(kind), 0) + 1
            else:
                built.skips.add(
                    f"content type {kind!r}"
                    if isinstance(kind, str)
                    else "content item without a string 'type'"
                )
        meta = message.get("metadata")
        created = message.get("created")
        entry = Stored(
            str(message.get("role")),
            items,
            ptr,
            pos,
            float(created) if isinstance(created, int | float) else None,
        )
        if isinstance(meta, dict) and meta.get("agentVisible") is False:
            hidden.append(Dropped(pos, "not agent-visible", ptr, {"content": content}))
            continue
        visible.append(entry)
    sent, removed = fix(built, visible)
    pending = sorted([*hidden, *removed], key=lambda d: d.pos)
    provider = info.get("provider_name") if isinstance(info.get("provider_name"), str) else None
    model = _model(info.get("model_config_json"))
    for out in sent:
        while pending and pending[0].pos < out.pos:
            _unsent(built, pending.pop(0))
        for speaker, blocks in _canonical(out):
            meta = MessageMetadata(
                source_role=out.role,
                timestamp=out.created,
                provider=provider if speaker == "ai" else None,
                model=model if speaker == "ai" else None,
            )
            built.add(Message(speaker=speaker, blocks=tuple(blocks), metadata=meta), None, out.ptr)
    for dropped in pending:
        _unsent(built, dropped)
    if never:
        kinds = ", ".join(f"{k} x{n}" for k, n in sorted(never.items()))
        built.notes.append(f"content Goose shows but never sends to the model: {kinds}")
    built.notes.extend(
        built.skips.note(
            "Goose's own reader fails on them (serde)"
            if form == "sessions.db"
            else "legacy.rs skips lines it cannot parse"
        )
    )
    session_info: dict[str, JsonValue] = {
        k: v for k, v in info.items() if isinstance(v, str | int | float | bool) or v is None
    }
    return built.session(
        "goose",
        tools=None,
        request={"model": model} if model else {},
        metadata={"goose_form": form, "goose_session": session_info},
    )


def _unsent(built: Built, dropped: Dropped) -> None:
    reason = HIDDEN if dropped.kind == "not agent-visible" else REMOVED
    built.keep_unsent(dropped.kind, reason, dropped.ptr, data=dropped.data)


def _canonical(message: Stored) -> list[tuple[str, list[Block]]]:
    """The message as canonical messages: tool responses first (a tool message), then the rest."""
    responses = [_response(c, message.ptr) for c in message.content if c.get("type") == "toolResponse"]
    rest: list[Block] = [
        b for c in message.content if c.get("type") != "toolResponse" for b in _block(c, message.ptr)
    ]
    out: list[tuple[str, list[Block]]] = []
    if responses:
        out.append(("tool", list(responses)))
    if rest:
        out.append(("ai" if message.role == "assistant" else "human", rest))
    return out


def _block(item: dict[str, Any], ptr: Pointer) -> list[Block]:
    kind = item.get("type")
    if kind == "text":
        return [TextBlock(text=text(item.get("text"), (*ptr, "text")))]
    if kind == "image":
        return [MediaBlock(mime_type=item.get("mimeType"), data=item.get("data"))]
    if kind == "thinking":
        signature = item.get("signature")
        return [
            ThinkingBlock(
                text=str(item.get("thinking", "")),
                signature=signature if isinstance(signature, str) and signature else None,
                source_provider="anthropic",
            )
        ]
    if kind == "redactedThinking":
        return [ThinkingBlock(redacted=True, data=str(item.get("data", "")), source_provider="anthropic")]
    if kind == "toolRequest":
        call = obj(item.get("toolCall"), (*ptr, "toolCall"))
        call_id = text(item.get("id"), (*ptr, "id"))
        data: dict[str, JsonValue] = {}
        if isinstance(item.get("thoughtSignature"), str):
            data["thoughtSignature"] = item["thoughtSignature"]
        if call.get("status") == "success":
            value = obj(call.get("value"), (*ptr, "toolCall", "value"))
            return [
                ToolCallBlock(
                    id=call_id,
                    name=text(value.get("name"), (*ptr, "toolCall", "value", "name")),
                    parameters=value.get("arguments") or {},
                    raw_id=call_id,
                    provider_data=data,
                )
            ]
        data["toolCall"] = call
        return [
            ToolCallBlock(
                id=call_id, name="invalid_tool_call", parameters={}, raw_id=call_id, provider_data=data
            )
        ]
    return []


def _response(item: dict[str, Any], ptr: Pointer) -> ToolResponseBlock:
    call_id = text(item.get("id"), (*ptr, "id"))
    result = obj(item.get("toolResult"), (*ptr, "toolResult"))
    if result.get("status") != "success":
        failed = str(result.get("error", "tool error"))
        return ToolResponseBlock(call_id=call_id, result=failed, error=failed, raw_call_id=call_id)
    value = result.get("value")
    content = value.get("content") if isinstance(value, dict) else value
    is_error = isinstance(value, dict) and value.get("isError") is True
    texts = (
        [c.get("text") for c in content if isinstance(c, dict) and c.get("type") == "text"]
        if isinstance(content, list)
        else []
    )
    error = "\n".join(t for t in texts if isinstance(t, str)) if is_error else None
    return ToolResponseBlock(call_id=call_id, result=content, error=error, raw_call_id=call_id)
