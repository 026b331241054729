"""Files agents keep next to their histories, recognised so an error can say which file to open.

A user who points toolhist at the wrong file of an agent's task folder should hear which file that
is and which one holds the history, not "unknown format" (or, worse, a reader that does not fit
blamed for it). Each shape below is the agent's own (followed in its source):

- Cline / Roo / Kilo ``ui_messages.json``: the chat the extension shows, ``ClineMessage`` objects
  ``{ts, type: "ask" | "say", ask | say, text…}``; the history sent is
  ``api_conversation_history.json`` in the same folder (cline/cline ``src/core/storage/disk.ts``
  ``GlobalFileNames``, ``src/shared/ExtensionMessage.ts``);
- Cline ``task_metadata.json`` (``files_in_context``, ``model_usage``, ``environment_history``:
  ``src/core/context/context-tracking/ContextTrackerTypes.ts``) and ``context_history.json`` (the
  context-window edits, ``[message index, [edit type, updates]]`` pairs);
- MCP server settings (``cline_mcp_settings.json``, ``.mcp.json``: ``mcpServers``);
- Claude Code ``settings.json`` / ``settings.local.json`` (``permissions``, ``hooks``, ``env``…) and
  ``~/.claude/history.jsonl`` (typed prompts: ``display``, ``project``); sessions are the JSONL files
  under ``~/.claude/projects/<project>/``;
- Codex ``~/.codex/history.jsonl`` (typed prompts: ``session_id``, ``ts``, ``text``); sessions are
  ``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``;
- Gemini CLI ``logs.json`` (the prompt log: ``sessionId``, ``messageId``, ``type``, ``message``);
  chats are ``~/.gemini/tmp/<project hash>/chats/session-*.json``;
- Kimi CLI ``wire.jsonl`` (a ``{"type": "metadata", "protocol_version"}`` line, then
  ``{"timestamp", "message": {"type", "payload"}}`` Wire events: MoonshotAI/kimi-cli
  ``src/kimi_cli/wire/file.py`` @4a550eff); Moonshot documents it as the event log for replay and
  titles, the history being ``context.jsonl`` in the same folder
  (``docs/en/configuration/data-locations.md``); a Kimi Code journal (the same metadata line, then
  ``{"type": "context.append_message" | "llm.request" | …}`` records) is named, not read.

The Cline shapes are read from Cline's source (cline/cline at
9ee618111d58630fea30b27439216448225458e0); the Claude Code, Codex and Gemini CLI prompt-history and
settings shapes are those the agents document for these files, not yet checked against their
source here. A recogniser that matches is only used after every reader has declined the file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

API_HISTORY: Final = "open api_conversation_history.json in the same task folder"


def _objects(value: Any) -> list[dict[str, Any]] | None:
    """The records of a JSON array or JSONL file (a one-line JSONL file parses as one object)."""
    if isinstance(value, dict):
        return [value]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return value
    return None


def _ui_messages(value: Any) -> bool:
    items = _objects(value)
    return items is not None and all("ts" in m and m.get("type") in ("ask", "say") for m in items)


def _task_metadata(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and bool({"files_in_context", "model_usage"} & value.keys())
        and "messages" not in value
    )


def _context_history(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            isinstance(v, list) and len(v) == 2 and isinstance(v[0], int) and isinstance(v[1], list)
            for v in value
        )
    )


def _mcp_settings(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("mcpServers"), dict)


CLAUDE_SETTINGS: Final = frozenset(
    {"permissions", "hooks", "env", "apiKeyHelper", "statusLine", "enabledPlugins", "includeCoAuthoredBy"}
)


def _claude_settings(value: Any) -> bool:
    return isinstance(value, dict) and bool(CLAUDE_SETTINGS & value.keys()) and "messages" not in value


def _claude_history(value: Any) -> bool:
    items = _objects(value)
    return items is not None and all("display" in m and "project" in m for m in items)


def _codex_history(value: Any) -> bool:
    items = _objects(value)
    return items is not None and all({"session_id", "ts", "text"} <= m.keys() for m in items)


def _gemini_logs(value: Any) -> bool:
    items = _objects(value)
    return items is not None and all({"sessionId", "messageId", "type", "message"} <= m.keys() for m in items)


def _kimi_wire(value: Any) -> bool:
    items = _objects(value)
    if not items:
        return False
    head = items[0].get("type") == "metadata" and isinstance(items[0].get("protocol_version"), str)
    rest = items[1:] if head else items
    return (head or bool(rest)) and all(isinstance(m.get("message"), dict) and "timestamp" in m for m in rest)


def _kimi_code_journal(value: Any) -> bool:
    items = _objects(value)
    return (
        items is not None
        and len(items) > 1
        and items[0].get("type") == "metadata"
        and isinstance(items[0].get("protocol_version"), str)
        and all(isinstance(m.get("type"), str) and "message" not in m for m in items[1:])
    )


KNOWN: Final[tuple[tuple[Callable[[Any], bool], str], ...]] = (
    (
        _ui_messages,
        "this is a Cline/Roo/Kilo ui_messages.json (the chat the extension shows, not what it sends); "
        + API_HISTORY,
    ),
    (
        _task_metadata,
        f"this is a Cline task_metadata.json (files and models used, no messages); {API_HISTORY}",
    ),
    (
        _context_history,
        f"this is a Cline context_history.json (context-window edits, no messages); {API_HISTORY}",
    ),
    (_mcp_settings, "this is an MCP server settings file (mcpServers), not a conversation"),
    (
        _claude_settings,
        "this is a Claude Code settings file (settings.json), not a conversation; "
        "Claude Code sessions are the .jsonl files under ~/.claude/projects/<project>/",
    ),
    (
        _claude_history,
        "this is Claude Code's prompt history (~/.claude/history.jsonl: what you typed, no replies); "
        "sessions are the .jsonl files under ~/.claude/projects/<project>/",
    ),
    (
        _codex_history,
        "this is Codex's prompt history (~/.codex/history.jsonl: what you typed, no replies); "
        "open a rollout under ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl",
    ),
    (
        _kimi_wire,
        "this is Kimi CLI's wire.jsonl (the Wire event log it replays on screen, not what it sends); "
        "open context.jsonl in the same session folder",
    ),
    (
        _kimi_code_journal,
        "this is a Kimi Code session journal (~/.kimi-code/sessions/…/agents/<agent>/wire.jsonl), "
        "which toolhist does not read yet; Kimi CLI's history is context.jsonl under ~/.kimi/sessions/",
    ),
    (
        _gemini_logs,
        "this is Gemini CLI's prompt log (logs.json: what you typed, no replies); "
        "open a chat under ~/.gemini/tmp/<project hash>/chats/session-*.json",
    ),
)
"""(recogniser, what to say), most specific first."""


def known_file(value: Any) -> str | None:
    """What this non-history file is and which file to open instead, or None."""
    return next((said for recognise, said in KNOWN if recognise(value)), None)


__all__ = ["known_file"]
