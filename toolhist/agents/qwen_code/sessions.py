"""Where Qwen Code keeps its sessions and checkpoints, what a file's first bytes say, and where it ran.

- Places: ``$QWEN_RUNTIME_DIR`` (newer Qwen Code: ``Storage.getRuntimeBaseDir``) else ``~/.qwen``
  (``Storage.getGlobalQwenDir``; ``os.homedir()`` on every OS), then
  ``projects/<cwd with every non-alphanumeric character as ->/chats/<session id>.jsonl``
  (``Storage.getProjectDir``, ``sanitizeCwd``; lower-cased on Windows) and, for ``/chat save``,
  ``tmp/<sha256 of the project root>/checkpoint-<tag>.json`` (``getProjectTempDir``,
  ``core/logger.ts``) (QwenLM/qwen-code @011f3d23 ``packages/core/src/config/storage.ts``,
  ``utils/paths.ts``; ``QWEN_RUNTIME_DIR`` as in the 0.14.5 sources). Newer releases archive chats
  to ``chats/archive/``, also listed. A checkpoint is a bare Gemini ``Content[]``, read as
  ``gemini``.
- Where it ran: the content generator is the session's ``authType`` (``system`` / ``session_model``
  records in newer Qwen Code); ``openai`` and ``qwen-oauth`` speak Chat Completions, ``gemini`` and
  ``vertex-ai`` Gemini, ``anthropic`` the Messages API (``core/contentGenerator.ts``). Without the
  record it is inferred from the model names (`reader.infer_auth`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from toolhist.agents.folders import RAN_ON, Found, Home, dirs, files, unique
from toolhist.agents.headers import Head
from toolhist.model import Session

AUTH_WIRE: Final = {
    "openai": "openai-chat",
    "qwen-oauth": "openai-chat",
    "gemini": "gemini",
    "vertex-ai": "gemini",
    "anthropic": "anthropic",
}
"""Qwen Code ``authType`` → the toolhist provider whose wire its content generator sends."""


def places(home: Home) -> tuple[Path, ...]:
    """``projects`` (chat recordings) and ``tmp`` (checkpoints) under ``$QWEN_RUNTIME_DIR`` or ``~/.qwen``."""
    base = home.dir("QWEN_RUNTIME_DIR") or home.path / ".qwen"
    return unique([base / "projects", base / "tmp"])


def header(head: Head) -> dict[str, Any]:
    """Line 1 names the project (``cwd``); ``authType`` when a session_model record says it."""
    first, problem = head.first_line()
    cwd = first.get("cwd") if isinstance(first, dict) else None
    model = head.string("model")
    auth = head.string("authType")
    if auth is None:
        auth = "gemini" if model and model.lower().startswith("gemini") else "qwen-oauth"
    messages, counted = head.count("type", ("user", "assistant", "tool_result"))
    return {
        "project": cwd if isinstance(cwd, str) else None,
        "model": model,
        RAN_ON: (auth, None),
        "messages": messages,
        "counted": counted,
        "problem": problem,
    }


def checkpoint(head: Head) -> dict[str, Any]:
    """A ``/chat save`` checkpoint: Gemini contents counted; it names no generator."""
    messages, counted = head.count("role", ("user", "model"))
    return {"messages": messages, "counted": counted}


def sessions(folder: Path) -> Iterator[Found]:
    """``projects/<cwd>/chats/*.jsonl`` (and ``chats/archive/``); ``tmp/<hash>/checkpoint-*.json``."""
    for project in dirs(folder):
        if folder.name == "tmp":
            yield from (
                Found(p, checkpoint) for p in files(project, prefix="checkpoint-", suffixes=(".json",))
            )
            continue
        for chats in (project / "chats", project / "chats" / "archive"):
            yield from (Found(p, header) for p in files(chats, suffixes=(".jsonl",)))


def read_as(path: Path) -> str | None:
    """A checkpoint is a bare Gemini ``Content[]`` (the ``gemini`` reader's); a chat is ``qwen-code``'s."""
    return "gemini" if path.name.startswith("checkpoint-") else "qwen-code"


def session_says(session: Session) -> tuple[str, str] | None:
    """The recording's ``authType``, recorded or inferred (the reader keeps both in the metadata)."""
    if session.source.format != "qwen-code":
        return None
    auth = session.metadata.get("auth_type")
    if not isinstance(auth, str):
        return None
    if session.metadata.get("auth_inferred") is True:
        return auth, "inferred: the recording names no authType; Qwen Code's default generator for its model"
    return auth, "system/session_model authType"
