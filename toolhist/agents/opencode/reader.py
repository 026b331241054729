"""OpenCode sessions, in the three forms OpenCode keeps or gives them, read as OpenCode sends them.

- **``opencode.db``** (OpenCode 1.2+, SQLite in WAL mode): tables ``session``, ``message`` and
  ``part``; a message row's ``data`` is its ``info`` JSON without ``id``/``sessionID``, a part
  row's ``data`` the part without its ids (anomalyco/opencode
  ``packages/opencode/src/session/session.sql.ts`` at 063e8306d9895af9bdd175306cfa4fa3291fd83a).
  Messages are read in ``time_created, id`` order and each message's parts in id order, as
  ``MessageV2.stream`` and ``hydrate`` read them (``message-v2.ts`` at
  007a9409bafea06d6b9084ff1f6d1fe9f5e3a803).
- **The older ``storage/`` tree** (JSON files, before the database): ``session/<project>/<id>.json``
  (the session's info), ``message/<session>/<message>.json``, ``part/<message>/<part>.json``. Open
  the session's info file; its messages and parts are read from beside it (the tree of
  jazzyalex/agent-sessions' fixtures; OpenCode's ``Storage`` keys). Also the oldest layout with
  ``session/info``, ``session/message`` and ``session/part``.
- **``opencode export``** output: ``{"info": <session>, "messages": [{"info", "parts"}]}``
  (``packages/opencode/src/cli/cmd/export.ts``).

All three become the same list of messages with parts, turned into what OpenCode sends by
`toolhist.agents.opencode.send`.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Final

from pydantic import JsonValue

from toolhist.agents.opencode.send import Entry, Sender, next_target
from toolhist.agents.stores import StoredSession, StoreReader, row_ptr
from toolhist.errors import LoadError
from toolhist.formats.base import Built, Pointer, ShapeError, arr, obj
from toolhist.formats.document import Document
from toolhist.model import Session

ID_PREFIX: Final = "ses"


class OpenCodeReader(StoreReader):
    """``opencode``: ``opencode.db``, a ``storage/`` session file, or ``opencode export`` output."""

    id = "opencode"
    description = (
        "OpenCode session: opencode.db (PATH#ses_… picks one), storage/session/…/ses_….json, "
        "or opencode export"
    )

    def recognise(self, value: Any) -> int:
        """Certain on an export (``info`` + ``messages`` of ``{info, parts}``) or a session info file."""
        if not isinstance(value, dict):
            return 0
        if _is_export(value):
            return 2
        if _is_session_info(value):
            return 2
        return 0

    def read(self, doc: Document) -> Session:
        """An export, or a storage session info file read with its tree."""
        value = obj(doc.value, ())
        built = Built(doc)
        if _is_export(value):
            info = obj(value["info"], ("info",))
            messages = arr(value["messages"], ("messages",))
            entries = [_export_entry(m, i) for i, m in enumerate(messages)]
            return _session(built, entries, info, "export")
        if _is_session_info(value):
            if doc.path is None:
                raise ShapeError(
                    (), "an OpenCode session info file: open the file itself, its messages are beside it"
                )
            entries = _tree_entries(Path(doc.path), str(value["id"]))
            return _session(built, entries, value, "storage")
        raise ShapeError((), "neither an opencode export nor a storage session file")

    def recognise_store(self, found: dict[str, frozenset[str]]) -> int:
        """OpenCode's ``session``, ``message`` and ``part`` tables."""
        message, part = found.get("message", frozenset()), found.get("part", frozenset())
        if "session" in found and {"id", "session_id", "data"} <= message and {"message_id", "data"} <= part:
            return 2
        return 0

    def list_store(self, conn: sqlite3.Connection) -> list[StoredSession]:
        """Sessions newest first, with their message rows and the last assistant's provider and model."""
        columns = {r[1] for r in conn.execute("PRAGMA table_info(session)")}
        directory = "directory" if "directory" in columns else "NULL"
        rows = conn.execute(
            f"SELECT id, title, {directory}, time_updated FROM session ORDER BY time_updated DESC, id DESC"
        ).fetchall()
        counts = dict(conn.execute("SELECT session_id, count(*) FROM message GROUP BY session_id").fetchall())
        last = {
            sid: (provider, model)
            for sid, provider, model, _ in conn.execute(
                "SELECT session_id, json_extract(data, '$.providerID'), json_extract(data, '$.modelID'), "
                "max(time_created) FROM message WHERE json_valid(data) "
                "AND json_extract(data, '$.role') = 'assistant' GROUP BY session_id"
            )
        }
        return [
            StoredSession(
                id=str(sid),
                updated=(updated or 0) / 1000,
                title=title,
                project=folder,
                messages=counts.get(sid, 0),
                provider=last.get(sid, (None, None))[0],
                model=last.get(sid, (None, None))[1],
            )
            for sid, title, folder, updated in rows
        ]

    def read_store(self, conn: sqlite3.Connection, session: str, doc: Document) -> Session:
        """The session's messages and parts, in OpenCode's order."""
        found = conn.execute("SELECT * FROM session WHERE id = ?", (session,))
        names = [d[0] for d in found.description]
        row = found.fetchone()
        info = dict(zip(names, row, strict=True)) if row else {"id": session}
        messages = conn.execute(
            "SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id", (session,)
        ).fetchall()
        parts: dict[str, list[tuple[str, str]]] = {}
        for pid, mid, data in conn.execute(
            "SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id", (session,)
        ):
            parts.setdefault(mid, []).append((pid, data))
        entries = []
        for mid, data in messages:
            ptr = row_ptr("message", mid)
            message = {**_row_json(data, (*ptr, "data")), "id": mid, "sessionID": session}
            rows = parts.get(mid, [])
            part_ptrs: list[Pointer] = [row_ptr("part", pid, "data") for pid, _ in rows]
            loaded = [
                {**_row_json(pdata, pptr), "id": pid, "messageID": mid}
                for (pid, pdata), pptr in zip(rows, part_ptrs, strict=True)
            ]
            entries.append(Entry(message, loaded, ptr, part_ptrs))
        return _session(Built(doc), entries, info, "opencode.db")


def _row_json(data: Any, ptr: Pointer) -> dict[str, Any]:
    if not isinstance(data, str | bytes):
        raise ShapeError(ptr, f"expected JSON text, got {type(data).__name__}")
    try:
        value = json.loads(data)
    except ValueError as exc:
        raise ShapeError(ptr, f"not valid JSON: {exc}") from None
    return obj(value, ptr)


def _is_export(value: dict[str, Any]) -> bool:
    messages = value.get("messages")
    return (
        isinstance(value.get("info"), dict)
        and isinstance(messages, list)
        and all(isinstance(m, dict) and "info" in m and "parts" in m for m in messages)
        and (
            str(value["info"].get("id", "")).startswith(ID_PREFIX)
            or any(isinstance(m["info"], dict) and "sessionID" in m["info"] for m in messages)
        )
    )


def _is_session_info(value: dict[str, Any]) -> bool:
    return (
        isinstance(value.get("id"), str)
        and value["id"].startswith(ID_PREFIX)
        and "projectID" in value
        and isinstance(value.get("time"), dict)
        and "messages" not in value
    )


def _export_entry(message: Any, i: int) -> Entry:
    ptr: Pointer = ("messages", i)
    message = obj(message, ptr)
    info = obj(message.get("info"), (*ptr, "info"))
    parts = arr(message.get("parts"), (*ptr, "parts"))
    part_ptrs: list[Pointer] = [(*ptr, "parts", j) for j in range(len(parts))]
    return Entry(info, [obj(p, pp) for p, pp in zip(parts, part_ptrs, strict=True)], ptr, part_ptrs)


def _tree_entries(info_path: Path, session: str) -> list[Entry]:
    """The session's messages and parts from the ``storage/`` tree around its info file.

    ``storage/session/<project>/<id>.json`` with ``storage/message/<id>/`` and
    ``storage/part/<message>/``; or the oldest ``storage/session/info/<id>.json`` with
    ``storage/session/message/<id>/`` and ``storage/session/part/<id>/<message>/``.
    """
    sessions = info_path.parent.parent
    if (sessions / "message" / session).is_dir():
        message_dir, part_root = sessions / "message" / session, sessions / "part" / session
    else:
        message_dir, part_root = sessions.parent / "message" / session, sessions.parent / "part"
    if not message_dir.is_dir():
        raise LoadError(f"no messages for {session} in {message_dir}", file=str(info_path))
    entries = []
    for path in sorted(message_dir.glob("*.json")):
        info = _tree_json(path)
        mid = str(info.get("id", path.stem))
        part_files = sorted((part_root / mid).glob("*.json"))
        parts = [_tree_json(p) for p in part_files]
        ptrs: list[Pointer] = [(f"part/{mid}/{p.name}",) for p in part_files]
        entries.append(Entry(info, parts, (f"message/{session}/{path.name}",), ptrs))
    entries.sort(key=lambda e: (_created(e.info), str(e.info.get("id", ""))))
    return entries


def _tree_json(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise LoadError(f"not a readable OpenCode storage file: {exc}", file=str(path)) from None
    if not isinstance(value, dict):
        raise LoadError("not an OpenCode storage object", file=str(path))
    return value


def _created(info: dict[str, Any]) -> float:
    time = info.get("time")
    created = time.get("created") if isinstance(time, dict) else None
    return float(created) if isinstance(created, int | float) else 0.0


def _session(built: Built, entries: list[Entry], info: dict[str, Any], form: str) -> Session:
    target = next_target(entries)
    Sender(built, built.skips, target).send(entries)
    built.notes.extend(built.skips.note())
    request: dict[str, Any] = {"model": target.model} if target.model else {}
    meta: dict[str, JsonValue] = {
        "opencode_form": form,
        "opencode_session": {
            k: v for k, v in info.items() if isinstance(v, str | int | float | bool) or v is None
        },
        "next_model": {"providerID": target.provider, "modelID": target.model},
    }
    return built.session("opencode", tools=None, request=request, metadata=meta)
