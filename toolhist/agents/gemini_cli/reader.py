"""Gemini CLI: ``/chat save`` checkpoints and the recorded session files.

Two kinds of file (``research/kilo_rfc_vscode.md`` §4.3, ``anchors.md`` §3.3; gemini-cli
``chatRecordingService.ts``):

- a checkpoint ``checkpoint-<tag>.json`` = ``{"history": Content[], "authType"?}`` (the Gemini
  API history as sent), or a ``/restore`` checkpoint with ``clientHistory``. A legacy checkpoint
  that is a bare ``Content[]`` is plain Gemini and reads as ``gemini``.
- a session ``chats/session-….jsonl``: a metadata line ``{sessionId, projectHash, startTime…}``,
  then ``MessageRecord`` lines (``type`` user / gemini / info / error / warning), ``{"$set": …}``
  metadata updates and ``{"$rewindTo": id}`` (drops that message and everything after it). The file
  is an upsert log, replayed as Gemini CLI's ``loadConversationRecord`` does (see ``_replay``).
  The older ``.json`` form is one ``ConversationRecord`` with a ``messages`` array.

A ``gemini`` record becomes an ai message (its text, then one call per ``toolCalls`` entry) and,
when the calls have results, a tool message with the ``functionResponse`` parts of their
``result``: the model turn and the function-response turn Gemini CLI sends back. ``info``,
``error`` and ``warning`` records are shown to the user only: kept in ``Session.unsent``, never
rendered. A line of a kind this reader does not know is skipped and counted, never fatal.
Thought summaries are not replayed to the model; they stay in the message's ``extra``.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from typing import Any

from pydantic import JsonValue

from toolhist.formats.base import Built, Pointer, Reader, ShapeError, arr, obj, rest, text
from toolhist.formats.document import Document
from toolhist.formats.gemini import looks_gemini, read_contents, read_part
from toolhist.model import (
    Block,
    Message,
    MessageMetadata,
    Session,
    TextBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

RECORD_TYPES = frozenset({"user", "gemini", "info", "error", "warning"})
UI_ONLY = frozenset({"info", "error", "warning"})
IGNORED_USER = ("/", "?", "<session_context>", "<hook_context>")
"""User records Gemini CLI does not replay (``convertSessionToClientHistory``: slash commands and
``?`` help at google-gemini/gemini-cli ``packages/core/src/utils/sessionUtils.ts``
0be7075688178e3f0271ffd63f8ad7bd8f44f21c; its later ``isIgnoredUserContent`` adds empty text and the
``<session_context>`` / ``<hook_context>`` blocks it writes itself)."""
IGNORED_REASON = (
    "a slash command, help request or context Gemini CLI wrote itself: convertSessionToClientHistory "
    "(packages/core/src/utils/sessionUtils.ts) leaves it out of the history it sends"
)
EMPTY_REASON = (
    "a model record with no content and no tool calls: convertSessionToClientHistory adds no model "
    "turn for it (packages/core/src/utils/sessionUtils.ts)"
)
CANCELLED = "[Operation Cancelled]"
"""How Gemini CLI starts the error of a cancelled call's ``functionResponse``."""


def _is_record(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("type"), str)
        and value["type"] in RECORD_TYPES
        and "id" in value
    )


def _is_meta(value: Any) -> bool:
    return isinstance(value, dict) and ("$set" in value or "$rewindTo" in value or "sessionId" in value)


def _fingerprint(name: str, args: Any) -> str:
    """A call without id as Gemini CLI matches it (``getFunctionCallFingerprint``: name + stable args)."""
    return f"{name}:{json.dumps(args if args is not None else {}, sort_keys=True, separators=(',', ':'))}"


def _epoch(value: Any) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


class GeminiCliReader(Reader):
    """``gemini-cli``: Gemini CLI checkpoints and session recordings."""

    id = "gemini-cli"
    description = "Gemini CLI /chat save checkpoint or session recording (.jsonl, or legacy .json)"

    def recognise(self, value: Any) -> int:
        """Certain on a checkpoint's ``history``/``clientHistory`` or a session's records.

        llxprt-code (a Gemini CLI fork) writes ``{history, context}``; that one is its reader's.
        """
        if isinstance(value, dict):
            if "context" in value or "contents" in value:
                return 0  # llxprt-code's checkpoint (``context``) or a Gemini request body
            for key in ("history", "clientHistory"):
                if key in value and looks_gemini(value[key]):
                    return 2
            if "sessionId" in value and isinstance(value.get("messages"), list):
                # the legacy ``.json`` ConversationRecord: its known records make it one, and a
                # record of a kind newer than this reader is skipped and named on read (as in the
                # ``.jsonl`` form), not a reason to call the whole file an unknown format
                records = value["messages"]
                return (
                    2
                    if any(_is_record(m) for m in records) and all(isinstance(m, dict) for m in records)
                    else 0
                )
            return 0
        if isinstance(value, list) and value and all(_is_record(v) or _is_meta(v) for v in value):
            return 2 if any(_is_record(v) for v in value) or "projectHash" in value[0] else 0
        if (
            isinstance(value, list)
            and value
            and all(isinstance(v, dict) for v in value)
            and {"sessionId", "projectHash"} <= value[0].keys()
            and any(_is_record(v) for v in value)
        ):
            return 2  # a session file with lines of kinds newer than this reader: skipped on read
        return 0

    def read(self, doc: Document) -> Session:
        """Read a checkpoint or a session (JSONL lines or one ConversationRecord)."""
        value = doc.value
        built = Built(doc)
        if isinstance(value, dict) and "messages" not in value:
            key = "history" if "history" in value else "clientHistory"
            read_contents(arr(value.get(key), (key,)), (key,), built, "gemini")
            meta: dict[str, JsonValue] = {"kind": "checkpoint", **rest(value, key)}
            return built.session(self.id, tools=None, request={}, metadata=meta)
        if isinstance(value, dict):
            ptr: Pointer = ("messages",)
            entries = list(enumerate(arr(value["messages"], ptr)))
            session_meta: dict[str, JsonValue] = rest(value, "messages")
        else:
            ptr = ()
            entries = list(enumerate(arr(value, ptr)))
            session_meta = {}
        records = self._replay(entries, ptr, session_meta, built)
        if not records and not session_meta and built.skips.counts:
            raise ShapeError(ptr, "expected message records, a metadata line, $set or $rewindTo; found none")
        ui_only = 0
        for i, record in records:
            if record["type"] in UI_ONLY:
                ui_only += 1
                content = record.get("content")
                built.keep_unsent(
                    f"{record['type']} record",
                    "shown to the user only: Gemini CLI never sends info/error/warning records to the model",
                    (*ptr, i),
                    text=content if isinstance(content, str) else "",
                    data=rest(record, "content"),
                    index=i,
                )
                continue
            self._record(record, (*ptr, i), i, built)
        if ui_only:
            built.notes.append(
                f"{ui_only} info/error/warning record(s) are shown to the user only and never sent "
                "to the model: kept in session.unsent, not made messages"
            )
        built.notes += built.skips.note()
        session_meta["kind"] = "session"
        return built.session(self.id, tools=None, request={}, metadata=session_meta)

    def _replay(
        self, entries: list[tuple[int, Any]], ptr: Pointer, session_meta: dict[str, JsonValue], built: Built
    ) -> list[tuple[int, dict[str, Any]]]:
        """The message records as Gemini CLI loads them, in order, with their line indexes.

        Follows ``loadConversationRecord`` (google-gemini/gemini-cli
        ``packages/core/src/services/chatRecordingService.ts`` at
        016443b5e7bf36fc40313db8a901f639a4426a14): the file is an upsert log, so a record whose id
        was seen replaces that message where it stood (a JS ``Map.set``; Gemini CLI rewrites a
        message whole as its tool calls, results and tokens arrive); ``$rewindTo`` drops that id and
        every later one, or every message when no record has the id; ``$set`` merges into the
        metadata, and a non-empty ``$set.messages`` replaces the messages read from records.
        """
        records: dict[str, tuple[int, dict[str, Any]]] = {}
        rewritten = 0
        replaced: tuple[int, list[Any]] | None = None
        for i, raw in entries:
            entry = obj(raw, (*ptr, i))
            if "$rewindTo" in entry:
                target = text(entry["$rewindTo"], (*ptr, i, "$rewindTo"))
                ids = list(records)
                cut = ids.index(target) if target in records else 0
                for gone in ids[cut:]:
                    del records[gone]
                found = "" if target in ids else ", which no earlier record has, so Gemini CLI drops them all"
                built.notes.append(
                    f"line {i + 1}: $rewindTo {target!r} removed {len(ids) - cut} record(s){found} "
                    "(they are not part of the history any more)"
                )
            elif "$set" in entry:
                update = obj(entry["$set"], (*ptr, i, "$set"))
                session_meta.update({k: v for k, v in update.items() if k != "messages"})
                if isinstance(update.get("messages"), list):
                    replaced = (i, update["messages"])
            elif _is_record(entry):
                if isinstance(entry["id"], str) and entry["id"] in records:
                    rewritten += 1
                key = entry["id"] if isinstance(entry["id"], str) else f"#{i}"
                records[key] = (i, entry)
            elif "sessionId" in entry:
                session_meta.update(entry)
            else:  # a record kind newer than this reader: skipped and counted, never fatal
                kind = entry.get("type")
                lines = built.doc.jsonl_lines
                built.skips.add(
                    f"record type {kind!r}" if isinstance(kind, str) else "line of an unknown shape",
                    lines[i] if lines is not None and i < len(lines) else None,
                )
        if rewritten:
            built.notes.append(
                f"{rewritten} record(s) rewrite a message already written (same id): Gemini CLI keeps "
                "the last version of each, where the first one stood"
            )
        if replaced is not None and replaced[1]:
            line, messages = replaced
            built.notes.append(
                f"line {line + 1}: $set.messages replaces the {len(records)} message record(s) with "
                f"{len(messages)} (Gemini CLI loads those instead)"
            )
            return [(line, obj(m, (*ptr, line, "$set", "messages", k))) for k, m in enumerate(messages)]
        return list(records.values())

    def _record(self, record: dict[str, Any], ptr: Pointer, index: int, built: Built) -> None:
        """One user or gemini record as one message, or an ai message plus its results."""
        content = record.get("content")
        blocks = self._content(content, (*ptr, "content"), len(built.messages), built)
        extra: dict[str, JsonValue] = rest(record, "type", "content", "toolCalls", "timestamp", "model", "id")
        metadata = MessageMetadata(
            source_role=record["type"],
            turn_id=record["id"] if isinstance(record["id"], str) else None,
            timestamp=_epoch(record.get("timestamp")),
            model=record.get("model") if isinstance(record.get("model"), str) else None,
            provider="gemini" if record["type"] == "gemini" else None,
            extra=extra,
        )
        if record["type"] == "user":
            said = "".join(b.text for b in blocks if isinstance(b, TextBlock)).strip()
            if said.startswith(IGNORED_USER) or not blocks:
                built.keep_unsent("user record", IGNORED_REASON, ptr, text=said, index=index)
                return
            built.add(Message(speaker="human", blocks=tuple(blocks), metadata=metadata), index, ptr)
            return
        in_content = Counter(
            b.raw_id or _fingerprint(b.name, b.parameters) for b in blocks if isinstance(b, ToolCallBlock)
        )
        results: list[Block] = []
        for j, raw in enumerate(arr(record.get("toolCalls", []), (*ptr, "toolCalls"))):
            cptr = (*ptr, "toolCalls", j)
            tc = obj(raw, cptr)
            call_id = text(tc.get("id"), (*cptr, "id"))
            name = text(tc.get("name"), (*cptr, "name"))
            for key in (call_id, _fingerprint(name, tc.get("args"))):
                if in_content[key]:  # the call is in the content already: Gemini CLI sends it once
                    in_content[key] -= 1
                    break
            else:
                blocks.append(
                    ToolCallBlock(
                        id=call_id,
                        name=name,
                        parameters=tc.get("args"),
                        raw_id=call_id,
                        provider_data=rest(tc, "id", "name", "args", "result"),
                    )
                )
            results += self._results(tc.get("result"), (*cptr, "result"), call_id, name, built)
        if not blocks and not results:
            built.keep_unsent("gemini record", EMPTY_REASON, ptr, data=rest(record, "content"), index=index)
            return
        built.add(Message(speaker="ai", blocks=tuple(blocks), metadata=metadata), index, ptr)
        if results:
            built.add(
                Message(
                    speaker="tool",
                    blocks=tuple(results),
                    metadata=MessageMetadata(source_role="user", turn_id=metadata.turn_id),
                ),
                index,
                (*ptr, "toolCalls"),
            )

    def _content(self, content: Any, ptr: Pointer, msg_index: int, built: Built) -> list[Block]:
        """A ``PartListUnion``: a string, one part, or a list of strings and parts."""
        if content is None:
            return []
        if isinstance(content, str):
            return [TextBlock(text=content)] if content else []
        items = content if isinstance(content, list) else [content]
        out: list[Block] = []
        for j, item in enumerate(items):
            where = (*ptr, j) if isinstance(content, list) else ptr
            if isinstance(item, str):
                out.append(TextBlock(text=item))
            else:
                out.append(read_part(item, where, msg_index, "gemini", built.notes))
        return out

    def _results(self, result: Any, ptr: Pointer, call_id: str, name: str, built: Built) -> list[Block]:
        """The ``functionResponse`` parts of a call's result, answering ``call_id``."""
        if result is None or result == "":
            return []
        if isinstance(result, str):  # Gemini CLI wraps a text result as the call's output
            return [
                ToolResponseBlock(
                    call_id=call_id, tool_name=name, result={"output": result}, raw_call_id=call_id
                )
            ]
        out: list[Block] = []
        for block in self._content(result, ptr, len(built.messages) + 1, built):
            if isinstance(block, ToolResponseBlock):
                response = block.result
                error = response.get("error") if isinstance(response, dict) else None
                out.append(
                    block.model_copy(
                        update={
                            "call_id": block.raw_call_id or call_id,
                            "tool_name": block.tool_name or name,
                            "error": error if isinstance(error, str) else None,
                            "is_complete": not (isinstance(error, str) and error.startswith(CANCELLED)),
                        }
                    )
                )
            else:
                out.append(block)
        return out
