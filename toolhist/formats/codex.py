"""OpenAI Codex CLI rollouts (``~/.codex/sessions/**/rollout-*.jsonl``): the Responses input Codex sends.

Each line is ``{"timestamp", "type", "payload"}`` (research/anchors.md §3.3; serde ``tag="type",
content="payload"`` in codex-rs). ``response_item`` payloads are Responses API items (``message``,
``reasoning``, ``function_call``, ``function_call_output``, ``custom_tool_call``,
``local_shell_call``, ``web_search_call``…); they become the Session exactly as the Responses
reader groups them, so a ``function_call`` replayed without its ``reasoning`` item is visible to
the ``openai-responses`` rules.

- ``local_shell_call`` is Codex's built-in shell tool; its output comes back as a
  ``function_call_output`` with the same ``call_id``, so it is read as a call named
  ``local_shell`` (arguments: the ``action``) and the original item is kept in ``provider_data``.
- ``compacted`` replaces the history as Codex does: with ``replacement_history`` that list,
  otherwise the earlier user messages plus the summary as a user message. The notes say how many
  items each compaction replaced.
- ``session_meta`` and ``turn_context`` go into ``Session.metadata`` / ``request`` (model);
  ``event_msg`` lines (UI events, ``exec_command_end`` duplicating outputs by design, token counts)
  are counted, not turned into messages.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from pydantic import JsonValue

from toolhist.formats.base import Built, ShapeError
from toolhist.formats.document import Document
from toolhist.formats.jsonl_stream import Lines, StreamReader, at_line
from toolhist.formats.openai_responses import OpenAIResponsesReader
from toolhist.model import Location, Session, SessionSource

LINE_TYPES = {"session_meta", "response_item", "compacted", "turn_context", "event_msg", "world_state"}


def looks_codex(value: Any) -> int:
    """2 when an entry is a ``{timestamp, type, payload}`` Codex line and every entry looks like one.

    Lenient on the others so one broken line gets its own error, not "unknown format".
    """
    if not isinstance(value, list) or not value:
        return 0
    if not all(isinstance(v, dict) and ("payload" in v or "type" in v) for v in value):
        return 0
    ok = any(v.get("type") in LINE_TYPES and "payload" in v and "timestamp" in v for v in value)
    return 2 if ok else 0


def _local_shell(item: dict[str, Any]) -> dict[str, Any]:
    """A ``local_shell_call`` as the function call it pairs like; the original item rides along."""
    call_id = item.get("call_id") or item.get("id")
    return {
        "type": "function_call",
        "call_id": call_id,
        "name": "local_shell",
        "arguments": json.dumps(item.get("action"), separators=(",", ":")),
        "codex_item": item,
    }


def _is_user_message(item: dict[str, Any]) -> bool:
    if item.get("type", "message") != "message" or item.get("role") != "user":
        return False
    content = item.get("content")
    texts = (
        [p.get("text", "") for p in content if isinstance(p, dict)]
        if isinstance(content, list)
        else [content]
    )
    # Codex's own context messages are not what the user typed; a compaction does not keep them.
    return not any(isinstance(t, str) and t.lstrip().startswith("<environment_context>") for t in texts)


def _compact(items: list[dict[str, Any]], payload: dict[str, Any], line: int | None) -> list[dict[str, Any]]:
    """The items after a ``compacted`` line: its ``replacement_history``, else user messages + summary."""
    replacement = payload.get("replacement_history")
    if isinstance(replacement, list):
        return [i for i in replacement if isinstance(i, dict)]
    summary = payload.get("message")
    if not isinstance(summary, str):
        raise at_line(line, ("payload", "message"), "a compaction needs a string 'message'")
    kept = [i for i in items if _is_user_message(i)]
    kept.append({"type": "message", "role": "user", "content": [{"type": "input_text", "text": summary}]})
    return kept


def _grouped(
    items: list[dict[str, Any]], item_lines: list[int | None], name: str, path: str | None, notes: list[str]
) -> tuple[Built, tuple[Location, ...]]:
    """The items grouped into messages as the Responses reader does, with each message's source line."""
    doc = Document(value=items, name=name, path=path, jsonl_lines=None)
    built = Built(doc)
    built.notes = notes
    try:
        OpenAIResponsesReader()._read_items(items, (), built)
    except ShapeError as exc:
        first = exc.pointer[0] if exc.pointer and isinstance(exc.pointer[0], int) else None
        line = item_lines[first] if first is not None else None
        raise at_line(line, ("payload", *exc.pointer[1:]), exc.reason) from None
    locations = tuple(
        Location(
            index=loc.index,
            line=item_lines[loc.index] if loc.index is not None else None,
            json_path="payload",
            block_items=loc.block_items,
        )
        for loc in built.locations
    )
    return built, locations


class CodexReader(StreamReader):
    """``codex``: a Codex CLI rollout JSONL read as the Responses input history it replays."""

    id = "codex"
    description = "OpenAI Codex CLI rollout JSONL (~/.codex/sessions/**/rollout-*.jsonl)"

    def recognise(self, value: Any) -> int:
        """Certain on ``{timestamp, type, payload}`` lines with Codex line types."""
        return looks_codex(value)

    def read_lines(self, lines: Lines, *, name: str, path: str | None, notes: list[str]) -> Session:
        """Collect the response items (compactions applied), then group them as the Responses reader does."""
        items: list[dict[str, Any]] = []
        item_lines: list[int | None] = []
        events: Counter[str] = Counter()
        meta: dict[str, JsonValue] = {}
        turns = 0
        model: str | None = None
        compactions: list[JsonValue] = []
        notes = list(notes)
        for line, entry in lines:
            if not isinstance(entry, dict):
                raise at_line(line, (), "expected a JSON object")
            kind = entry.get("type")
            if kind not in LINE_TYPES:
                raise at_line(
                    line, ("type",), f"unknown line type {kind!r}; expected one of {sorted(LINE_TYPES)}"
                )
            payload = entry.get("payload")
            if not isinstance(payload, dict):
                raise at_line(line, ("payload",), "expected an object")
            if kind == "response_item":
                if not isinstance(payload.get("type", "message"), str):
                    raise at_line(line, ("payload", "type"), "item has no string 'type'")
                if payload.get("type") == "local_shell_call":
                    payload = _local_shell(payload)
                items.append(payload)
                item_lines.append(line)
            elif kind == "compacted":
                replaced = len(items)
                items = _compact(items, payload, line)
                item_lines = [line] * len(items)
                compactions.append({"line": line, "replaced_items": replaced, "kept_items": len(items)})
                notes.append(
                    f"line {line}: compaction replaced {replaced} items with {len(items)} "
                    "(earlier items are not in the history Codex sends after it)"
                )
            elif kind == "session_meta":
                meta = dict(payload)
            elif kind == "turn_context":
                turns += 1
                if isinstance(payload.get("model"), str):
                    model = payload["model"]
            else:
                events[f"{kind}:{payload.get('type', '?')}"] += 1
        built, locations = _grouped(items, item_lines, name, path, notes)
        if events:
            built.notes.append(
                "event lines (not sent to the model): "
                + ", ".join(f"{k} x{v}" for k, v in sorted(events.items()))
            )
        shells = sum(1 for i in items if "codex_item" in i)
        if shells:
            built.notes.append(f"{shells} local_shell_call item(s) read as calls named 'local_shell'")
        session = built.session(
            self.id,
            tools=None,
            request={"model": model} if model else {},
            metadata={
                "session_meta": meta,
                "turns": turns,
                "compactions": compactions,
                "events": dict(events),
            },
        )
        source = SessionSource(format=self.id, path=path, locations=locations, notes=session.source.notes)
        return session.model_copy(update={"source": source})
