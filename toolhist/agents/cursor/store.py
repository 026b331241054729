"""Cursor's chats in ``globalStorage/state.vscdb``: one composer and its bubbles, as Cursor replays them.

Cursor is closed source: nothing here is read in its code. The store is VS Code's own key-value
database (``ItemTable``, ``key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB``: microsoft/vscode
``src/vs/base/parts/storage/node/storage.ts``) with a second table of the same shape,
``cursorDiskKV``. Its rows, as public viewers read them and users describe them from their own
databases (michaeldhood/chatrxiv ``docs/cursor/storage-reference.md`` at
d28513a810b19068cc68e126dc3cfe369ae45fa4, schema ``_v: 10`` composers and ``_v: 3`` bubbles; the
bubble reference in the search index, id 56333086832):

- ``composerData:<composerId>``: the chat: ``name``, ``createdAt``/``lastUpdatedAt`` (ms),
  ``modelConfig.modelName``, and the bubble order, ``fullConversationHeadersOnly``
  (``[{bubbleId, type}]``, "the canonical bubble order"), or, in older rows, the bubbles inline in
  ``conversation``;
- ``bubbleId:<composerId>:<bubbleId>``: one bubble: ``type`` 1 (user) or 2 (assistant), ``text``,
  ``thinking`` (``{text, signature?}``), ``modelInfo.modelName`` on user bubbles, and on an
  assistant tool turn ``toolFormerData``: ``name``, ``toolCallId``, ``status``
  (``completed``/``running``/``error``…), ``params`` or ``rawArgs`` (the arguments as a JSON string)
  and ``result`` (a JSON string).

Cursor builds the model's request on its server from this conversation, so what is sent is
inferred, in the shape every viewer reconstructs: a user bubble is a user message; consecutive
assistant bubbles are one assistant message (thinking, text, then the tool call of a tool bubble),
and a tool bubble's ``result`` is the tool message that answers its call, after which the next
assistant bubble starts a new message. A tool bubble without a result (still running, or stopped)
leaves its call unanswered; an assistant bubble with no text, thinking or tool (a streaming
placeholder) and a header whose bubble row is missing are kept unsent.
"""

from __future__ import annotations

import sqlite3
from typing import Any, Final

from toolhist.agents.cursor import items
from toolhist.agents.cursor.bubbles import Turn, load_json, text_or_none
from toolhist.agents.stores import StoredSession, StoreReader, row_ptr, tables
from toolhist.formats.base import Built, ShapeError, obj, opt_text
from toolhist.formats.document import Document
from toolhist.model import Session

TABLE: Final = "cursorDiskKV"
MISSING_REASON: Final = "a bubble header whose bubbleId row is not in the store: nothing to send"


def _headers(composer: dict[str, Any]) -> list[Any]:
    headers = composer.get("fullConversationHeadersOnly")
    if isinstance(headers, list) and headers:
        return headers
    inline = composer.get("conversation")
    return inline if isinstance(inline, list) else []


def _model(composer: dict[str, Any]) -> str | None:
    config = composer.get("modelConfig")
    return text_or_none(config.get("modelName")) if isinstance(config, dict) else None


class CursorStoreReader(StoreReader):
    """``cursor``: Cursor's ``state.vscdb`` (``composerData`` and ``bubbleId`` rows)."""

    id = "cursor"
    description = (
        "Cursor chats in state.vscdb: globalStorage's composerData + bubbleId rows, and a workspace's "
        "older ItemTable composers and chat tabs (PATH#COMPOSER_ID, PATH#chat:TAB_ID)"
    )

    def recognise_store(self, found: dict[str, frozenset[str]]) -> int:
        """Cursor's ``cursorDiskKV`` table (2); VS Code's ``ItemTable`` alone (1: a workspace's store)."""
        if {"key", "value"} <= found.get(TABLE, frozenset()):
            return 2
        return 1 if items.has_items(found) else 0

    def list_store(self, conn: sqlite3.Connection) -> list[StoredSession]:
        """Every composer with at least one bubble and every older chat tab, newest first."""
        found = tables(conn)
        out = items.list_items(conn) if items.has_items(found) else []
        if TABLE not in found:
            return sorted(out, key=lambda s: (s.updated, s.id), reverse=True)
        inline = {s.id for s in out}
        rows = conn.execute(f"SELECT key, value FROM {TABLE} WHERE key LIKE 'composerData:%'")
        for key, value in rows:
            cid = str(key).split(":", 1)[1]
            try:
                composer = load_json(value, row_ptr(TABLE, key))
            except ShapeError:
                continue
            if not isinstance(composer, dict) or not _headers(composer) or cid in inline:
                continue
            updated = composer.get("lastUpdatedAt") or composer.get("createdAt")
            out.append(
                StoredSession(
                    id=cid,
                    updated=updated / 1000 if isinstance(updated, int | float) else 0.0,
                    title=text_or_none(composer.get("name")),
                    messages=len(_headers(composer)),
                    model=_model(composer),
                )
            )
        return sorted(out, key=lambda s: (s.updated, s.id), reverse=True)

    def read_store(self, conn: sqlite3.Connection, session: str, doc: Document) -> Session:
        """The composer's bubbles, in header order, as the messages Cursor replays.

        A chat tab, or a composer with no ``cursorDiskKV`` row, is read from the ``ItemTable``.
        """
        key = f"composerData:{session}"
        present = tables(conn)
        row = None
        if TABLE in present and not session.startswith(items.CHAT_PREFIX):
            row = conn.execute(f"SELECT value FROM {TABLE} WHERE key = ?", (key,)).fetchone()
        if row is None and items.has_items(present):
            return items.read_item(conn, session, doc, self.id)
        if row is None:
            raise ShapeError(row_ptr(TABLE, key), "no such composer")
        composer = obj(load_json(row[0], row_ptr(TABLE, key)), row_ptr(TABLE, key))
        built = Built(doc)
        turn = Turn(built, _model(composer))
        for i, header in enumerate(_headers(composer)):
            hptr = row_ptr(TABLE, key, "fullConversationHeadersOnly", i)
            head = obj(header, hptr)
            bid = opt_text(head.get("bubbleId"), (*hptr, "bubbleId"))
            bkey = f"bubbleId:{session}:{bid}"
            if "type" in head and ("text" in head or "toolFormerData" in head):
                bubble, ptr = head, hptr  # an inline (older) bubble
            else:
                found = conn.execute(f"SELECT value FROM {TABLE} WHERE key = ?", (bkey,)).fetchone()
                if found is None:
                    built.keep_unsent("missing bubble", MISSING_REASON, hptr, data={"bubbleId": bid})
                    continue
                ptr = row_ptr(TABLE, bkey)
                bubble = obj(load_json(found[0], ptr), ptr)
            turn.bubble(bubble, ptr, i)
        turn.close()
        metadata = {
            k: v for k, v in composer.items() if k in ("composerId", "name", "createdAt", "lastUpdatedAt")
        }
        model = turn.model
        return built.session(
            self.id, tools=None, request={"model": model} if model else {}, metadata=metadata
        )
