"""Cursor's older chats, inline in ``ItemTable``: a 2024 ``workspaceStorage/<hash>/state.vscdb``.

Before the ``cursorDiskKV`` rows (`toolhist.agents.cursor.store`), Cursor kept each workspace's chats
whole in VS Code's own ``ItemTable`` of that workspace's ``state.vscdb``, two JSON values:

- ``composer.composerData``: ``{allComposers: [{composerId, name?, createdAt, lastUpdatedAt?,
  status, text, conversation: [{type: 1|2, bubbleId, text, …}], …}], selectedComposerId,
  composerDataVersion: 0}``; user bubbles (``type`` 1) carry ``context``/``relevantFiles``, assistant
  bubbles (``type`` 2) ``codeBlocks``. Newer workspaces keep only the composers' headers here (no
  ``conversation``): their bubbles are in the global store, so they are not listed from here.
- ``workbench.panel.aichat.view.aichat.chatdata``: the older chat panel, ``{tabs: [{tabId,
  chatTitle, lastSendTime, bubbles: [{type: "user"|"ai", id, text, …}]}], chatDataVersion: 0}``;
  an ``ai`` bubble names its model (``modelType``, e.g. ``claude-3.5-sonnet``) and keeps the answer
  in ``text`` (``rawText`` the same); each tab ends with the input box's bubble, an empty ``user``
  bubble Cursor has not sent.

The shape is read from a real store (slevin48/cursor-history ``state.vscdb`` at
74b0ce6cbceee765239bf001f3218e4f5fbd8ecd, November 2024, Cursor on Windows: 26 composers with 82
inline bubbles, 5 chat tabs), and matches what session viewers read (slevin48/cursor-history
``db.py``, which selects ``workbench.panel.aichat.view.aichat.chatdata``; michaeldhood/chatrxiv
``docs/cursor/storage-reference-old-architecture.md`` at d28513a810b19068cc68e126dc3cfe369ae45fa4,
the "workspace-centric" layout). Cursor is closed source: what it sends is inferred as for the
newer store, a user bubble a user message and an assistant bubble an assistant message.

Kept unsent: an empty bubble (the input box's draft, a streaming placeholder) and a composer's
unsent draft (its top-level ``text``). Session ids: a composer's ``composerId``; a chat tab's
``chat:<tabId>`` (`CHAT_PREFIX`).
"""

from __future__ import annotations

import sqlite3
from typing import Any, Final

from toolhist.agents.cursor.bubbles import Turn, load_json, text_or_none
from toolhist.agents.stores import StoredSession, row_ptr
from toolhist.formats.base import Built, Pointer, ShapeError, obj, opt_text
from toolhist.formats.document import Document
from toolhist.model import Message, MessageMetadata, Session, TextBlock

TABLE: Final = "ItemTable"
COMPOSERS: Final = "composer.composerData"
CHAT: Final = "workbench.panel.aichat.view.aichat.chatdata"
CHAT_PREFIX: Final = "chat:"
EMPTY_USER_REASON: Final = "an empty user bubble: the input box's draft, not sent"
EMPTY_AI_REASON: Final = "an empty assistant bubble (a streaming placeholder)"
DRAFT_REASON: Final = "the composer's input box draft (its top-level text), not sent"


def has_items(found: dict[str, frozenset[str]]) -> bool:
    """Whether the store has VS Code's key-value ``ItemTable``."""
    return {"key", "value"} <= found.get(TABLE, frozenset())


def _value(conn: sqlite3.Connection, key: str) -> Any:
    row = conn.execute(f"SELECT value FROM {TABLE} WHERE key = ?", (key,)).fetchone()
    return None if row is None else load_json(row[0], row_ptr(TABLE, key))


def _list_of(value: Any, field: str) -> list[Any]:
    inner = value.get(field) if isinstance(value, dict) else None
    return inner if isinstance(inner, list) else []


def _ms(value: Any) -> float:
    return value / 1000 if isinstance(value, int | float) else 0.0


def list_items(conn: sqlite3.Connection) -> list[StoredSession]:
    """Every composer with an inline conversation and every chat tab with a bubble said.

    A value that is not JSON raises ShapeError: every chat of the workspace is in it, so the
    store's listing says so rather than list none.
    """
    out = []
    composers = _list_of(_value(conn, COMPOSERS), "allComposers")
    tabs = _list_of(_value(conn, CHAT), "tabs")
    for c in composers:
        conversation = _list_of(c, "conversation")
        if not conversation or not text_or_none(c.get("composerId")):
            continue
        out.append(
            StoredSession(
                id=c["composerId"],
                updated=_ms(c.get("lastUpdatedAt") or c.get("createdAt")),
                title=text_or_none(c.get("name")),
                messages=len(conversation),
            )
        )
    for tab in tabs:
        bubbles = _list_of(tab, "bubbles")
        said = [b for b in bubbles if isinstance(b, dict) and text_or_none(b.get("text"))]
        if not said or not text_or_none(tab.get("tabId")):
            continue
        models = [b.get("modelType") for b in said if text_or_none(b.get("modelType"))]
        out.append(
            StoredSession(
                id=CHAT_PREFIX + tab["tabId"],
                updated=_ms(tab.get("lastSendTime")),
                title=text_or_none(tab.get("chatTitle")),
                messages=len(said),
                model=models[-1] if models else None,
            )
        )
    return out


def read_item(conn: sqlite3.Connection, session: str, doc: Document, reader: str) -> Session:
    """The composer or chat tab ``session`` of the ``ItemTable``, as Cursor replays it."""
    if session.startswith(CHAT_PREFIX):
        return _read_tab(conn, session.removeprefix(CHAT_PREFIX), doc, reader)
    composers = _list_of(_value(conn, COMPOSERS), "allComposers")
    for i, c in enumerate(composers):
        if isinstance(c, dict) and c.get("composerId") == session:
            return _read_composer(c, row_ptr(TABLE, COMPOSERS, "allComposers", i), doc, reader)
    raise ShapeError(row_ptr(TABLE, COMPOSERS), f"no composer {session!r}")


def _read_composer(composer: dict[str, Any], ptr: Pointer, doc: Document, reader: str) -> Session:
    built = Built(doc)
    turn = Turn(built, None)
    for i, bubble in enumerate(_list_of(composer, "conversation")):
        bptr = (*ptr, "conversation", i)
        turn.bubble(obj(bubble, bptr), bptr, i)
    turn.close()
    draft = opt_text(composer.get("text"), (*ptr, "text"))
    if draft and draft.strip():
        built.keep_unsent("composer draft", DRAFT_REASON, (*ptr, "text"), data={"text": draft})
    metadata = {
        k: v for k, v in composer.items() if k in ("composerId", "name", "createdAt", "lastUpdatedAt")
    }
    return built.session(reader, tools=None, request={}, metadata=metadata)


def _read_tab(conn: sqlite3.Connection, tab_id: str, doc: Document, reader: str) -> Session:
    tabs = _list_of(_value(conn, CHAT), "tabs")
    found = next(
        ((i, t) for i, t in enumerate(tabs) if isinstance(t, dict) and t.get("tabId") == tab_id), None
    )
    if found is None:
        raise ShapeError(row_ptr(TABLE, CHAT), f"no chat tab {tab_id!r}")
    index, tab = found
    ptr = row_ptr(TABLE, CHAT, "tabs", index)
    built = Built(doc)
    model = None
    for i, raw in enumerate(_list_of(tab, "bubbles")):
        bptr = (*ptr, "bubbles", i)
        bubble = obj(raw, bptr)
        kind = bubble.get("type")
        said = opt_text(bubble.get("text"), (*bptr, "text")) or ""
        if kind not in ("user", "ai"):
            built.skips.add(f"chat bubble type {kind!r}")
            continue
        if not said.strip():
            reason = EMPTY_USER_REASON if kind == "user" else EMPTY_AI_REASON
            built.keep_unsent(f"empty {kind} bubble", reason, bptr)
            continue
        if kind == "user":
            meta = MessageMetadata(source_role="user")
            built.add(Message(speaker="human", blocks=(TextBlock(text=said),), metadata=meta), i, bptr)
            continue
        model = text_or_none(bubble.get("modelType")) or model
        meta = MessageMetadata(source_role="assistant", model=text_or_none(bubble.get("modelType")))
        built.add(Message(speaker="ai", blocks=(TextBlock(text=said),), metadata=meta), i, bptr)
    metadata = {k: v for k, v in tab.items() if k in ("tabId", "chatTitle", "lastSendTime")}
    return built.session(reader, tools=None, request={"model": model} if model else {}, metadata=metadata)
