"""LangGraph checkpoints in the SQLite checkpointer's database: one thread's messages as its graph holds them.

``SqliteSaver`` (langchain-ai/langgraph ``libs/checkpoint-sqlite/langgraph/checkpoint/sqlite/__init__.py``
at 229239a152c16f4e4526f55948d608e8cecff8ba; langgraph-checkpoint-sqlite 3.1 and its own file) keeps:

- ``checkpoints(thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint,
  metadata)``: one row per super-step of a thread, ``checkpoint`` a serialised dict whose
  ``channel_values`` hold the graph's state (``messages`` for a ``MessagesState`` or a prebuilt
  agent); ``checkpoint_id`` is a UUIDv6, so the newest sorts last (``get_tuple`` reads
  ``ORDER BY checkpoint_id DESC LIMIT 1`` the same way);
- ``writes(…, task_id, idx, channel, type, value)``: writes of tasks that ran after a checkpoint
  (pending when the run stopped mid-step).

A session is a thread (the locator ``PATH#THREAD_ID``, `toolhist.agents.stores`): its newest
checkpoint in the root namespace (``checkpoint_ns = ''``; subgraphs' namespaces are not the
conversation the model was sent), whose ``messages`` are read as LangChain messages
(`toolhist.agents.langchain.reader`). Pending ``messages`` writes of that checkpoint (a step that
stopped before its checkpoint was written) are counted in a note, not merged: LangGraph applies
them only when the thread resumes. The blobs are decoded as data (`toolhist.agents.langgraph.serde`).
"""

from __future__ import annotations

import sqlite3
from typing import Any, Final

from pydantic import JsonValue

from toolhist.agents.langchain.reader import read_messages
from toolhist.agents.langgraph.serde import loads
from toolhist.agents.stores import StoredSession, StoreReader, row_ptr
from toolhist.formats.base import Built, ShapeError
from toolhist.formats.document import Document
from toolhist.model import Session

FORMAT: Final = "langgraph"
CHECKPOINTS: Final = frozenset({"thread_id", "checkpoint_ns", "checkpoint_id", "type", "checkpoint"})


def _uuid_time(checkpoint_id: str) -> float:
    """Seconds since the epoch of a UUIDv6 checkpoint id (LangGraph's ``uuid6``); 0 when not one."""
    hexes = checkpoint_id.replace("-", "")
    if len(hexes) != 32 or hexes[12] != "6":
        return 0.0
    try:
        ticks = (int(hexes[:12], 16) << 12) | int(hexes[13:16], 16)
    except ValueError:
        return 0.0
    return ticks / 1e7 - 12219292800  # 100 ns since 1582-10-15 → Unix time


class LangGraphReader(StoreReader):
    """``langgraph``: a thread of a LangGraph ``SqliteSaver`` database (read-only)."""

    id = FORMAT
    description = (
        "LangGraph SqliteSaver checkpoints (PATH#THREAD_ID: the thread's newest checkpoint's messages)"
    )

    def recognise_store(self, found: dict[str, frozenset[str]]) -> int:
        """The checkpointer's ``checkpoints`` table."""
        return 2 if found.get("checkpoints", frozenset()) >= CHECKPOINTS else 0

    def list_store(self, conn: sqlite3.Connection) -> list[StoredSession]:
        """Every thread with root checkpoints, newest first (the time is the newest checkpoint id's)."""
        rows = conn.execute(
            "SELECT thread_id, max(checkpoint_id), count(*) FROM checkpoints "
            "WHERE checkpoint_ns = '' GROUP BY thread_id"
        ).fetchall()
        listed = [StoredSession(id=str(t), updated=_uuid_time(str(c)), messages=None) for t, c, _ in rows]
        return sorted(listed, key=lambda s: s.updated, reverse=True)

    def read_store(self, conn: sqlite3.Connection, session: str, doc: Document) -> Session:
        """The thread's newest root checkpoint, its ``messages`` read as LangChain messages."""
        row = conn.execute(
            "SELECT checkpoint_id, type, checkpoint, metadata FROM checkpoints "
            "WHERE thread_id = ? AND checkpoint_ns = '' ORDER BY checkpoint_id DESC LIMIT 1",
            (session,),
        ).fetchone()
        if row is None:
            raise ShapeError(row_ptr("checkpoints", session), "the thread has no checkpoint")
        checkpoint_id, kind, blob, meta_blob = row
        where = row_ptr("checkpoints", checkpoint_id)
        try:
            checkpoint = loads(kind, blob)
        except ValueError as exc:
            raise ShapeError((*where, "checkpoint"), str(exc)) from None
        values = checkpoint.get("channel_values") if isinstance(checkpoint, dict) else None
        if not isinstance(values, dict) or not isinstance(values.get("messages"), list):
            held = ", ".join(sorted(map(str, values))) if isinstance(values, dict) else "nothing"
            raise ShapeError(
                (*where, "checkpoint", "channel_values"),
                f"no 'messages' channel in the thread's state (its channels: {held})",
            )
        built = Built(doc)
        read_messages(values["messages"], (*where, "checkpoint", "channel_values", "messages"), built)
        pending = conn.execute(
            "SELECT count(*) FROM writes WHERE thread_id = ? AND checkpoint_ns = '' AND checkpoint_id = ? "
            "AND channel = 'messages'",
            (session, checkpoint_id),
        ).fetchone()
        if pending and pending[0]:
            built.notes.append(
                f"{pending[0]} pending write(s) to 'messages' after the newest checkpoint (a step that "
                "stopped before its checkpoint): LangGraph applies them when the thread resumes; not read"
            )
        built.notes += built.skips.note("no chat model integration sends these")
        meta: dict[str, JsonValue] = {"thread_id": session, "checkpoint_id": str(checkpoint_id)}
        try:
            said = loads("json", meta_blob) if isinstance(meta_blob, bytes | str) else None
        except ValueError:
            said = None
        if isinstance(said, dict):
            meta["checkpoint_metadata"] = _plain(said)
        return built.session(self.id, tools=None, request={}, metadata=meta)


def _plain(value: Any) -> JsonValue:
    """``value`` with anything that is not JSON as its text (metadata is shown, never sent)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)
