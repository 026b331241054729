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

import json
import sqlite3
from typing import Any, Final

from toolhist.agents.stores import StoredSession, StoreReader, row_ptr
from toolhist.formats.base import Built, Pointer, ShapeError, obj, opt_text, parse_arguments
from toolhist.formats.document import Document
from toolhist.model import (
    Block,
    Message,
    MessageMetadata,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

TABLE: Final = "cursorDiskKV"
PLACEHOLDER_REASON: Final = (
    "an assistant bubble with no text, thinking or tool call (a streaming placeholder)"
)
MISSING_REASON: Final = "a bubble header whose bubbleId row is not in the store: nothing to send"


def _json(value: Any, ptr: Pointer) -> Any:
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError:
            raise ShapeError(ptr, "not UTF-8 text") from None
    if not isinstance(value, str):
        raise ShapeError(ptr, f"expected JSON text, got {type(value).__name__}")
    try:
        return json.loads(value)
    except ValueError as exc:
        raise ShapeError(ptr, f"not valid JSON: {exc}") from None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _headers(composer: dict[str, Any]) -> list[Any]:
    headers = composer.get("fullConversationHeadersOnly")
    if isinstance(headers, list) and headers:
        return headers
    inline = composer.get("conversation")
    return inline if isinstance(inline, list) else []


def _model(composer: dict[str, Any]) -> str | None:
    config = composer.get("modelConfig")
    return _str(config.get("modelName")) if isinstance(config, dict) else None


class CursorStoreReader(StoreReader):
    """``cursor``: Cursor's ``state.vscdb`` (``composerData`` and ``bubbleId`` rows)."""

    id = "cursor"
    description = "Cursor chats in globalStorage/state.vscdb (composerData + bubbleId rows; PATH#COMPOSER_ID)"

    def recognise_store(self, found: dict[str, frozenset[str]]) -> int:
        """Cursor's ``cursorDiskKV`` key-value table."""
        return 2 if {"key", "value"} <= found.get(TABLE, frozenset()) else 0

    def list_store(self, conn: sqlite3.Connection) -> list[StoredSession]:
        """Every composer with at least one bubble, newest first."""
        out = []
        rows = conn.execute(f"SELECT key, value FROM {TABLE} WHERE key LIKE 'composerData:%'")
        for key, value in rows:
            cid = str(key).split(":", 1)[1]
            try:
                composer = _json(value, row_ptr(TABLE, key))
            except ShapeError:
                continue
            if not isinstance(composer, dict) or not _headers(composer):
                continue
            updated = composer.get("lastUpdatedAt") or composer.get("createdAt")
            out.append(
                StoredSession(
                    id=cid,
                    updated=updated / 1000 if isinstance(updated, int | float) else 0.0,
                    title=_str(composer.get("name")),
                    messages=len(_headers(composer)),
                    model=_model(composer),
                )
            )
        return sorted(out, key=lambda s: (s.updated, s.id), reverse=True)

    def read_store(self, conn: sqlite3.Connection, session: str, doc: Document) -> Session:
        """The composer's bubbles, in header order, as the messages Cursor replays."""
        key = f"composerData:{session}"
        row = conn.execute(f"SELECT value FROM {TABLE} WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise ShapeError(row_ptr(TABLE, key), "no such composer")
        composer = obj(_json(row[0], row_ptr(TABLE, key)), row_ptr(TABLE, key))
        built = Built(doc)
        turn = _Turn(built, _model(composer))
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
                bubble = obj(_json(found[0], ptr), ptr)
            turn.bubble(bubble, ptr, i)
        turn.close()
        metadata = {
            k: v for k, v in composer.items() if k in ("composerId", "name", "createdAt", "lastUpdatedAt")
        }
        model = turn.model
        return built.session(
            self.id, tools=None, request={"model": model} if model else {}, metadata=metadata
        )


class _Turn:
    """The assistant message being built from consecutive assistant bubbles."""

    def __init__(self, built: Built, model: str | None) -> None:
        self.built = built
        self.model = model
        self.blocks: list[Block] = []
        self.at: tuple[int, Pointer] | None = None

    def bubble(self, bubble: dict[str, Any], ptr: Pointer, index: int) -> None:
        kind = bubble.get("type")
        if kind == 1:
            self.close()
            info = bubble.get("modelInfo")
            named = _str(info.get("modelName")) if isinstance(info, dict) else None
            self.model = named or self.model
            said = opt_text(bubble.get("text"), (*ptr, "text")) or ""
            meta = MessageMetadata(source_role="user")
            self.built.add(
                Message(speaker="human", blocks=(TextBlock(text=said),), metadata=meta), index, ptr
            )
            return
        if kind != 2:
            self.built.skips.add(f"bubble type {kind!r}")
            return
        thinking = bubble.get("thinking")
        blocks: list[Block] = []
        if isinstance(thinking, dict) and _str(thinking.get("text")):
            blocks.append(
                ThinkingBlock(
                    text=thinking["text"], signature=_str(thinking.get("signature")), source_provider="cursor"
                )
            )
        answer = opt_text(bubble.get("text"), (*ptr, "text"))
        if answer and answer.strip():
            blocks.append(TextBlock(text=answer))
        tool = bubble.get("toolFormerData")
        if not blocks and not isinstance(tool, dict):
            self.built.keep_unsent("empty assistant bubble", PLACEHOLDER_REASON, ptr)
            return
        if self.at is None:
            self.at = (index, ptr)
        self.blocks.extend(blocks)
        if isinstance(tool, dict):
            self._tool(tool, (*ptr, "toolFormerData"), index, bubble.get("bubbleId"))

    def _tool(self, tool: dict[str, Any], ptr: Pointer, index: int, bubble_id: Any) -> None:
        call_id = _str(tool.get("toolCallId")) or f"cursor_{bubble_id}"
        name = opt_text(tool.get("name"), (*ptr, "name")) or "unknown"
        raw = tool.get("params") if tool.get("params") is not None else tool.get("rawArgs")
        params, error = parse_arguments(raw) if isinstance(raw, str) else (raw, None)
        self.blocks.append(
            ToolCallBlock(
                id=call_id,
                name=name,
                parameters=params,
                raw_id=_str(tool.get("toolCallId")),
                raw_arguments=raw if isinstance(raw, str) else None,
                arguments_error=error,
                provider_data={"status": tool.get("status")},
            )
        )
        result = tool.get("result")
        if result is None:
            return
        self.close()
        failed = tool.get("status") == "error"
        said = result if isinstance(result, str) else json.dumps(result)
        answer = ToolResponseBlock(
            call_id=call_id, tool_name=name, result=said, error=said if failed else None, raw_call_id=call_id
        )
        meta = MessageMetadata(source_role="tool")
        self.built.add(Message(speaker="tool", blocks=(answer,), metadata=meta), index, (*ptr, "result"))

    def close(self) -> None:
        """Add the assistant message built so far, if any."""
        if self.blocks and self.at is not None:
            meta = MessageMetadata(source_role="assistant", model=self.model)
            self.built.add(Message(speaker="ai", blocks=tuple(self.blocks), metadata=meta), *self.at)
        self.blocks = []
        self.at = None
