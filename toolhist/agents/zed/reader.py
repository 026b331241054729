"""Zed's agent threads: ``threads.db``, one zstd-compressed JSON thread per row, read as Zed sends it.

The store (zed-industries/zed ``crates/agent/src/db.rs`` at 0642ec7e49e2d2c06f55db8c5bb2d4eca0f5223b):
``threads (id, summary, updated_at, data_type, data, parent_id, folder_paths, folder_paths_order,
created_at)``; ``data_type`` is ``zstd`` (``zstd::encode_all`` of the JSON, level 3) or ``json``.
The JSON is a ``DbThread`` (``version`` ``0.3.0``): ``title``, ``messages``, ``model``
(``{provider, model}``)… A message is serde's externally tagged ``Message`` enum
(``crates/agent/src/thread.rs`` at 000e783fddd704e6a0fa2be12fe41c56c94e820c): ``{"User": {id,
content}}`` with ``Text``, ``Mention`` and ``Image`` items, ``{"Agent": {content, tool_results}}``
with ``Text``, ``Thinking``, ``RedactedThinking`` and ``ToolUse`` items and the results keyed by
tool use id, or ``"Resume"``. A thread of the first agent (no ``version`` or another one: messages
with ``role``, ``segments``, ``tool_uses``, ``tool_results``) is upgraded as
``DbThread::upgrade_from_agent_1`` does (system messages dropped).

What Zed sends (``Message::to_request``, ``UserMessage::to_request``, ``AgentMessage::to_request``):

- a user message sends its texts and images; a mention sends its link, and its content goes in the
  ``<context>`` block Zed appends (reproduced as one text block, and the link as
  ``[@name](file://path)`` for a path: the exact tags per mention kind and ``as_link`` for other
  mentions are inferred, not reproduced);
- an agent message sends its text, thinking and redacted thinking, and only the tool uses that
  have a result; then one user message with every result, an empty one replaced by
  "<Tool returned an empty string>";
- ``Resume`` sends the user message "Continue where you left off".

A tool use without a result is kept in ``Session.unsent``.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any, Final

from pydantic import JsonValue

from toolhist.agents.stores import StoredSession, StoreReader, row_ptr
from toolhist.agents.zed.zstd import decompress
from toolhist.errors import LoadError
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

VERSION: Final = "0.3.0"
EMPTY_RESULT: Final = "<Tool returned an empty string>"
RESUME: Final = "Continue where you left off"
OPEN_CONTEXT: Final = (
    "<context>\nThe following items were attached by the user. "
    "They are up-to-date and don't need to be re-read.\n\n"
)
NO_RESULT: Final = "a tool use without a result: AgentMessage::to_request sends only the uses in tool_results"


def _rfc3339(value: Any) -> float:
    if not isinstance(value, str):
        return 0.0
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0


class ZedReader(StoreReader):
    """``zed``: Zed's agent ``threads.db``."""

    id = "zed"
    description = "Zed agent threads threads.db (zstd JSON rows; PATH#THREAD_ID picks one)"

    def recognise_store(self, found: dict[str, frozenset[str]]) -> int:
        """Zed's ``threads`` table with ``data_type`` and ``data``."""
        return 2 if {"id", "summary", "data_type", "data"} <= found.get("threads", frozenset()) else 0

    def list_store(self, conn: sqlite3.Connection) -> list[StoredSession]:
        """Threads newest first; each thread is decompressed for its model and message count."""
        columns = {r[1] for r in conn.execute("PRAGMA table_info(threads)")}
        folders = "folder_paths" if "folder_paths" in columns else "NULL"
        out = []
        for tid, summary, updated, kind, data, folder in conn.execute(
            f"SELECT id, summary, updated_at, data_type, data, {folders} FROM threads "
            "ORDER BY updated_at DESC, id DESC"
        ):
            try:
                thread = _thread(kind, data, row_ptr("threads", tid, "data"))
            except (ShapeError, LoadError):
                thread = {}
            model = _dict(thread.get("model"))
            messages = thread.get("messages")
            out.append(
                StoredSession(
                    id=str(tid),
                    updated=_rfc3339(updated),
                    title=summary,
                    project=folder.split("\n")[0] if isinstance(folder, str) and folder else None,
                    messages=len(messages) if isinstance(messages, list) else None,
                    provider=_str(model.get("provider")),
                    model=_str(model.get("model")),
                )
            )
        return out

    def read_store(self, conn: sqlite3.Connection, session: str, doc: Document) -> Session:
        """The thread, decompressed and turned into what Zed sends."""
        row = conn.execute("SELECT data_type, data, summary FROM threads WHERE id = ?", (session,)).fetchone()
        if row is None:
            raise ShapeError(row_ptr("threads", session), "no such thread")
        ptr = row_ptr("threads", session, "data")
        thread = _thread(row[0], row[1], ptr)
        if thread.get("version") != VERSION:
            thread = _upgrade(thread, ptr)
        return _session(Built(doc), thread, ptr)


def _thread(kind: Any, data: Any, ptr: Pointer) -> dict[str, Any]:
    if not isinstance(data, bytes | str):
        raise ShapeError(ptr, f"expected a BLOB, got {type(data).__name__}")
    raw = data.encode() if isinstance(data, str) else data
    if kind == "zstd":
        try:
            raw = decompress(raw)
        except ValueError as exc:
            raise ShapeError(ptr, f"not valid zstd data: {exc}") from None
    elif kind != "json":
        raise ShapeError((*ptr[:-1], "data_type"), f"unknown data type {kind!r} (Zed writes zstd or json)")
    try:
        return obj(json.loads(raw), ptr)
    except ValueError as exc:
        raise ShapeError(ptr, f"not valid JSON: {exc}") from None


def _upgrade(thread: dict[str, Any], ptr: Pointer) -> dict[str, Any]:
    """A first-agent thread as ``DbThread::upgrade_from_agent_1`` makes it."""
    messages: list[Any] = []
    for i, raw in enumerate(arr(thread.get("messages", []), (*ptr, "messages"))):
        old = obj(raw, (*ptr, "messages", i))
        segments = [s for s in old.get("segments", []) if isinstance(s, dict)]
        if old.get("role") == "user":
            content: list[Any] = [
                {"Text": s.get("text", "")} for s in segments if s.get("type") in ("text", "thinking")
            ]
            if not content and old.get("context"):
                content = [{"Text": old["context"]}]
            messages.append({"User": {"id": str(old.get("id", i)), "content": content}})
        elif old.get("role") == "assistant":
            agent: list[Any] = []
            for s in segments:
                if s.get("type") == "text":
                    agent.append({"Text": s.get("text", "")})
                elif s.get("type") == "thinking":
                    agent.append({"Thinking": {"text": s.get("text", ""), "signature": s.get("signature")}})
                elif s.get("type") == "redacted_thinking":
                    agent.append({"RedactedThinking": s.get("data", "")})
            names = {}
            for use in old.get("tool_uses", []):
                if isinstance(use, dict):
                    names[use.get("id")] = use.get("name")
                    agent.append(
                        {
                            "ToolUse": {
                                "id": use.get("id"),
                                "name": use.get("name"),
                                "input": use.get("input"),
                                "raw_input": json.dumps(use.get("input")),
                                "is_input_complete": True,
                            }
                        }
                    )
            results = {
                r.get("tool_use_id"): {**r, "tool_name": names.get(r.get("tool_use_id"), "unknown")}
                for r in old.get("tool_results", [])
                if isinstance(r, dict)
            }
            messages.append({"Agent": {"content": agent, "tool_results": results}})
    return {**thread, "messages": messages, "upgraded_from": thread.get("version")}


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _result_text(content: Any) -> JsonValue:
    """``LanguageModelToolResultContent``: a string, ``{"Text": …}``, ``{"type": "text", …}`` or an image."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        for key in ("Text", "text"):
            found = _str(content.get(key))
            if found is not None:
                return found
        return {str(k): v for k, v in content.items()}
    if isinstance(content, list):
        return [_result_text(c) for c in content]
    return None


def _session(built: Built, thread: dict[str, Any], ptr: Pointer) -> Session:
    model = _dict(thread.get("model"))
    provider = _str(model.get("provider"))
    name = _str(model.get("model"))
    for i, raw in enumerate(arr(thread.get("messages", []), (*ptr, "messages"))):
        mptr = (*ptr, "messages", i)
        if raw == "Resume":
            resume = MessageMetadata(
                source_role="Resume", synthetic=True, reason="Zed's Message::Resume (thread.rs)"
            )
            built.add(Message(speaker="human", blocks=(TextBlock(text=RESUME),), metadata=resume), None, mptr)
            continue
        message = obj(raw, mptr)
        if "User" in message:
            blocks = _user(obj(message["User"], (*mptr, "User")), (*mptr, "User"))
            if blocks:
                built.add(
                    Message(
                        speaker="human", blocks=tuple(blocks), metadata=MessageMetadata(source_role="User")
                    ),
                    None,
                    mptr,
                )
        elif "Agent" in message:
            _agent(built, obj(message["Agent"], (*mptr, "Agent")), (*mptr, "Agent"), provider, name)
        else:
            built.skips.add(f"message kind {next(iter(message), '')!r}")
    built.notes.extend(built.skips.note())
    meta: dict[str, JsonValue] = {
        "zed_thread": {
            k: v for k, v in thread.items() if isinstance(v, str | int | float | bool) or v is None
        },
        "zed_model": model,
    }
    return built.session("zed", tools=None, request={"model": name} if name else {}, metadata=meta)


def _user(user: dict[str, Any], ptr: Pointer) -> list[Block]:
    blocks: list[Block] = []
    context: list[str] = []
    for j, raw in enumerate(arr(user.get("content", []), (*ptr, "content"))):
        item = obj(raw, (*ptr, "content", j))
        if isinstance(item.get("Text"), str):
            blocks.append(TextBlock(text=item["Text"]))
        elif isinstance(item.get("Mention"), dict):
            mention = item["Mention"]
            blocks.append(
                TextBlock(text=_link(mention.get("uri")), provider_data={"zed_mention": mention.get("uri")})
            )
            if mention.get("content"):
                context.append(str(mention["content"]))
        elif isinstance(item.get("Image"), dict):
            image = item["Image"]
            blocks.append(
                MediaBlock(
                    mime_type="image/png", data=image.get("source"), provider_data={"size": image.get("size")}
                )
            )
        else:
            raise ShapeError((*ptr, "content", j), f"unknown user content {next(iter(item), '')!r}")
    if context:
        blocks.append(
            TextBlock(
                text=OPEN_CONTEXT + "\n".join(context) + "\n</context>", provider_data={"zed_context": True}
            )
        )
    return blocks


def _link(uri: Any) -> str:
    """``MentionUri::as_link`` for a mention of a path (``[@name](file://path)``); others as their JSON."""
    if isinstance(uri, dict) and len(uri) == 1:
        ((kind, fields),) = uri.items()
        path = fields.get("abs_path") if isinstance(fields, dict) else None
        if isinstance(path, str):
            return f"[@{path.rstrip('/').rsplit('/', 1)[-1]}](file://{path})"
        return f"[@{kind}]({json.dumps(fields, separators=(',', ':'))})"
    return json.dumps(uri)


def _agent(
    built: Built, agent: dict[str, Any], ptr: Pointer, provider: str | None, model: str | None
) -> None:
    results = _dict(agent.get("tool_results"))
    blocks: list[Block] = []
    for j, raw in enumerate(arr(agent.get("content", []), (*ptr, "content"))):
        iptr = (*ptr, "content", j)
        item = obj(raw, iptr)
        if isinstance(item.get("Text"), str):
            blocks.append(TextBlock(text=item["Text"]))
        elif isinstance(item.get("Thinking"), dict):
            thinking = item["Thinking"]
            signature = thinking.get("signature")
            blocks.append(
                ThinkingBlock(
                    text=str(thinking.get("text", "")),
                    signature=signature if isinstance(signature, str) else None,
                    source_provider="anthropic",
                )
            )
        elif "RedactedThinking" in item:
            blocks.append(
                ThinkingBlock(redacted=True, data=str(item["RedactedThinking"]), source_provider="anthropic")
            )
        elif isinstance(item.get("ToolUse"), dict):
            use = item["ToolUse"]
            use_id = text(use.get("id"), (*iptr, "ToolUse", "id"))
            if use_id not in results:
                built.keep_unsent("tool use without a result", NO_RESULT, iptr, data={"tool_use": use})
                continue
            raw_input = use.get("raw_input")
            data: dict[str, JsonValue] = (
                {"thoughtSignature": use["thought_signature"]} if use.get("thought_signature") else {}
            )
            blocks.append(
                ToolCallBlock(
                    id=use_id,
                    name=text(use.get("name"), (*iptr, "ToolUse", "name")),
                    parameters=use.get("input"),
                    raw_id=use_id,
                    raw_arguments=raw_input if isinstance(raw_input, str) and raw_input else None,
                    provider_data=data,
                )
            )
        else:
            raise ShapeError(iptr, f"unknown agent content {next(iter(item), '')!r}")
    meta = MessageMetadata(source_role="Agent", provider=provider, model=model)
    if blocks:
        built.add(Message(speaker="ai", blocks=tuple(blocks), metadata=meta), None, ptr)
    answers: list[Block] = []
    for key, raw in results.items():
        result = obj(raw, (*ptr, "tool_results", key))
        content = _result_text(result.get("content"))
        if content in ("", [], None):
            content = EMPTY_RESULT
        is_error = result.get("is_error") is True
        name = result.get("tool_name")
        answers.append(
            ToolResponseBlock(
                call_id=str(result.get("tool_use_id", key)),
                tool_name=name if isinstance(name, str) else None,
                result=content,
                error=content if is_error and isinstance(content, str) else None,
                raw_call_id=str(result.get("tool_use_id", key)),
            )
        )
    if answers:
        built.add(
            Message(speaker="tool", blocks=tuple(answers), metadata=MessageMetadata(source_role="User")),
            None,
            (*ptr, "tool_results"),
        )
