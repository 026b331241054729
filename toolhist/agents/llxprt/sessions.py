r"""Where llxprt-code keeps its chats, what a chat file's first bytes say, and how to read one listed.

HEAD keeps chats under the log folder: ``$LLXPRT_LOG_HOME``, else ``$LLXPRT_CONFIG_HOME``, else
env-paths' log folder (``~/.local/state/llxprt-code`` or ``$XDG_STATE_HOME/llxprt-code``,
``~/Library/Logs/llxprt-code``, ``%LOCALAPPDATA%\llxprt-code\Log``), then ``tmp/<sha256 of the
project path>/chats/session-<time>-<id12>.jsonl`` (vybestack/llxprt-code @f80a695f
``packages/storage/src/config/path-resolver.ts`` 139-145, ``storage.ts`` 379-391,
``core/src/recording/SessionRecordingService.ts`` 258-263). Before that, ``~/.llxprt/tmp/<sha256>/``
held ``checkpoint-<tag>.json`` (research/llxprt.md §7.6); both are looked at.

Where it ran: a recording's ``session_start`` names the provider (``provider``); llxprt's
``openai`` is ``OpenAIProvider`` (Chat Completions) and ``openai-responses`` is
``OpenAIResponsesProvider`` (``research/llxprt.md`` §5.2, §5.5). IContent ``metadata.provider``
names it per message.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from toolhist.agents.folders import RAN_ON, Found, Home, dirs, files, unique
from toolhist.agents.headers import Head

PROVIDERS: Final = {
    "anthropic": "anthropic",
    "gemini": "gemini",
    "openai": "openai-chat",
    "openai-responses": "openai-responses",
    "openaivercel": "openai-chat",
}
"""llxprt provider names (``session_start.provider``) → toolhist provider."""

WIRE: Final = {"openai": "openai-chat", "openai-responses": "openai-responses"}
"""The provider names whose wire format llxprt's own code fixes (`PROVIDERS` without the unambiguous)."""


def places(home: Home) -> tuple[Path, ...]:
    """Each platform's log folder's ``tmp`` (or the one its variables name), then ``~/.llxprt/tmp``."""
    log_home = home.dir("LLXPRT_LOG_HOME") or home.dir("LLXPRT_CONFIG_HOME")
    xdg_state = home.dir("XDG_STATE_HOME") or home.path / ".local" / "state"
    logs = (
        [log_home]
        if log_home
        else [
            xdg_state / "llxprt-code",
            home.path / "Library" / "Logs" / "llxprt-code",
            home.local / "llxprt-code" / "Log",
        ]
    )
    return unique([log / "tmp" for log in logs] + [home.path / ".llxprt" / "tmp"])


def recording(head: Head) -> dict[str, Any]:
    """An llxprt recording: line 1 is ``session_start`` (provider, model, cwd / workspaceDirs)."""
    first, problem = head.first_line()
    start = first.get("payload") if isinstance(first, dict) and first.get("type") == "session_start" else None
    if problem is None and not isinstance(start, dict):
        problem = "line 1 is not a session_start record"
    start = start if isinstance(start, dict) else {}
    dirs_ = start.get("workspaceDirs")
    project = start.get("cwd") or (dirs_[0] if isinstance(dirs_, list) and dirs_ else None)
    messages, counted = head.count("type", ("content",))
    provider = start.get("provider")
    model = start.get("model")
    return {
        "project": project if isinstance(project, str) else None,
        "model": model if isinstance(model, str) else None,
        RAN_ON: (provider if isinstance(provider, str) else None, None),
        "messages": messages,
        "counted": counted,
        "problem": problem,
    }


def checkpoint(head: Head) -> dict[str, Any]:
    """A ``/chat save`` checkpoint: Gemini ``Content`` entries counted; it names no provider."""
    messages, counted = head.count("role", ("user", "model"))
    return {"messages": messages, "counted": counted}


def sessions(folder: Path) -> Iterator[Found]:
    """``tmp/<sha256>/chats/session-*.jsonl`` (recordings) and ``tmp/<sha256>/checkpoint-*.json``."""
    for project in dirs(folder):
        for path in files(project / "chats", prefix="session-", suffixes=(".jsonl",)):
            yield Found(path, recording)
        for path in files(project, prefix="checkpoint-", suffixes=(".json",)):
            yield Found(path, checkpoint)


def read_as(path: Path) -> str | None:
    """``llxprt-checkpoint``, but None (detect) for a ``.json`` checkpoint.

    Named, the llxprt-checkpoint format streams a file on disk as JSON Lines (recordings), and a
    pretty-printed checkpoint then fails on its first line; detection reads it right.
    """
    return None if path.suffix == ".json" else "llxprt-checkpoint"
