"""The OpenAI Agents SDK's ``SQLiteSession`` databases: each session's items, as the SDK replays them.

``SQLiteSession`` (openai/openai-agents-python ``src/agents/memory/sqlite_session.py`` at
09bb8728e95428fd8936e56d04ff3355e9616777; openai-agents 0.24.0's own file) keeps
``agent_sessions(session_id, created_at, updated_at)`` and ``agent_messages(id, session_id,
message_data, created_at)``: one row per input item, its JSON in ``message_data``, read back
``ORDER BY id ASC`` by ``get_items`` and put before the new input of the next run. So a session
is those items in that order: a Responses input item list (`toolhist.formats.openai_responses`),
judged as the request the SDK sends next.

Custom table names (``sessions_table=``, ``messages_table=``) are not guessed: a store without
the default tables is not recognised. The input item list the SDK hands back in process
(``result.to_input_list()``) is plain JSON and reads as ``openai-responses``; a run result or its
items as objects are its live form (`toolhist.agents.openai_agents.live`).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from typing import Any, Final

import orjson

from toolhist.agents.stores import StoredSession, StoreReader, row_ptr
from toolhist.formats.base import ShapeError
from toolhist.formats.document import Document
from toolhist.formats.openai_responses import OpenAIResponsesReader
from toolhist.model import Session, SessionSource

FORMAT: Final = "openai-agents"
SESSIONS: Final = "agent_sessions"
MESSAGES: Final = "agent_messages"


def _epoch(value: Any) -> float:
    """SQLite's ``CURRENT_TIMESTAMP`` text (UTC) as seconds since the epoch; 0 when unreadable."""
    if not isinstance(value, str):
        return 0.0
    try:
        return datetime.fromisoformat(value).replace(tzinfo=UTC).timestamp()
    except ValueError:
        return 0.0


class OpenAIAgentsSessionReader(StoreReader):
    """``openai-agents``: a session of an Agents SDK ``SQLiteSession`` database (read-only)."""

    id = FORMAT
    description = "OpenAI Agents SDK SQLiteSession database (PATH#SESSION_ID: that session's input items)"

    def recognise_store(self, found: dict[str, frozenset[str]]) -> int:
        """The SDK's two default tables."""
        return 2 if {"session_id", "message_data"} <= found.get(MESSAGES, frozenset()) else 0

    def list_store(self, conn: sqlite3.Connection) -> list[StoredSession]:
        """Every session with its item count, most recently updated first."""
        counts = dict(
            conn.execute(f"SELECT session_id, count(*) FROM {MESSAGES} GROUP BY session_id").fetchall()
        )
        has_sessions = conn.execute(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", (SESSIONS,)
        ).fetchone()[0]
        updated: dict[str, float] = {}
        if has_sessions:
            updated = {
                str(s): _epoch(u) for s, u in conn.execute(f"SELECT session_id, updated_at FROM {SESSIONS}")
            }
        last = dict(
            conn.execute(f"SELECT session_id, max(created_at) FROM {MESSAGES} GROUP BY session_id").fetchall()
        )
        ids = {*map(str, counts), *updated}
        listed = [
            StoredSession(id=s, updated=max(updated.get(s, 0.0), _epoch(last.get(s))), messages=counts.get(s))
            for s in ids
        ]
        return sorted(listed, key=lambda s: (s.updated, s.id), reverse=True)

    def read_store(self, conn: sqlite3.Connection, session: str, doc: Document) -> Session:
        """The session's items in ``id`` order, read as a Responses input item list."""
        rows = conn.execute(
            f"SELECT id, message_data FROM {MESSAGES} WHERE session_id = ? ORDER BY id ASC", (session,)
        ).fetchall()
        items: list[Any] = []
        for row_id, data in rows:
            try:
                items.append(orjson.loads(data))
            except orjson.JSONDecodeError as exc:
                # get_items skips such a row too (it logs and continues): say so rather than fail
                raise ShapeError(row_ptr(MESSAGES, row_id, "message_data"), f"not JSON: {exc.msg}") from None
        inner = Document(value=items, name=doc.name, path=doc.path)
        try:
            read = OpenAIResponsesReader().read(inner)
        except ShapeError as exc:
            at = exc.pointer[0] if exc.pointer and isinstance(exc.pointer[0], int) else None
            row = rows[at][0] if at is not None and at < len(rows) else "?"
            raise ShapeError(row_ptr(MESSAGES, row, "message_data", *exc.pointer[1:]), exc.reason) from None
        source = SessionSource(
            format=FORMAT, path=doc.path, locations=read.source.locations, notes=read.source.notes
        )
        return read.model_copy(
            update={"source": source, "metadata": {"session_id": session, "items": len(items)}}
        )
