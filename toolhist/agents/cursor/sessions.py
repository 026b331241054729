r"""Where Cursor keeps its chats, and what says where one ran.

Cursor is closed source; its folders are those public tools read and users report:

- ``state.vscdb`` in Cursor's user data folder, ``globalStorage/``: ``$XDG_CONFIG_HOME`` or
  ``~/.config/Cursor/User`` on Linux, ``~/Library/Application Support/Cursor/User`` on macOS,
  ``%APPDATA%\Cursor\User`` on Windows (pppp606/cursor-efficiency ``docs/vscdbRelation.md`` at the
  index's copy, the VS Code layout with the product name ``Cursor``); one listed row per composer,
  its path the locator ``state.vscdb#<composerId>``;
- each workspace's ``workspaceStorage/<hash>/state.vscdb`` beside ``globalStorage`` (same document):
  older Cursor kept a workspace's chats whole in its ``ItemTable`` (`toolhist.agents.cursor.items`),
  and ``workspace.json`` beside it names the project (``folder``, a ``file://`` URI);
- agent transcripts: ``~/.cursor/projects/<workspace slug>/agent-transcripts/<id>/<id>.jsonl``
  (older builds ``agent-transcripts/<id>.jsonl``, older still ``<id>.txt``, listed unread);
  ``%USERPROFILE%\.cursor`` on Windows (a user's ``C:\Users\…\.cursor\projects\…\agent-transcripts``
  path, search index id 55438750170).
- Where it ran: Cursor's servers call the model's vendor; the bubbles name the model
  (``modelInfo.modelName``, ``modelConfig.modelName``), so its family says (inferred), as for
  Copilot; ``default``/``auto`` names none.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from toolhist.agents import stores
from toolhist.agents.cursor.store import CursorStoreReader
from toolhist.agents.folders import RAN_ON, Found, Home, dirs, files, unique
from toolhist.agents.headers import Head, small_json
from toolhist.model import Session

STORE: Final = CursorStoreReader()
FAMILIES: Final = (("claude", "anthropic"), ("gemini", "gemini"), ("gpt", "openai-chat"))
WIRE: Final = {p: p for p in ("anthropic", "gemini", "openai-chat")}


def places(home: Home) -> tuple[Path, ...]:
    """Cursor's ``globalStorage``, ``workspaceStorage`` (Linux, macOS, Windows), ``~/.cursor/projects``."""
    config = home.dir("XDG_CONFIG_HOME") or home.path / ".config"
    users = [
        config / "Cursor",
        home.path / "Library" / "Application Support" / "Cursor",
        home.roaming / "Cursor",
    ]
    return unique(
        [
            *(u / "User" / "globalStorage" for u in users),
            *(u / "User" / "workspaceStorage" for u in users),
            home.path / ".cursor" / "projects",
        ]
    )


def header(head: Head) -> dict[str, Any]:
    """A transcript's lines counted (it names no model or project)."""
    messages, counted = head.count("role", ("user", "assistant"))
    return {"messages": messages, "counted": counted, RAN_ON: (None, None)}


def sessions(folder: Path) -> Iterator[Found]:
    """Every composer of ``globalStorage/state.vscdb``, older chat of a workspace's, or transcript.

    The folder says which: ``globalStorage``, ``workspaceStorage`` (each ``<hash>/state.vscdb``), or
    ``projects``.
    """
    if folder.name == "globalStorage":
        store = folder / "state.vscdb"
        if stores.is_store(str(store)):
            yield from stores.found_in(STORE, store)
        return
    if folder.name == "workspaceStorage":
        for workspace in dirs(folder):
            store = workspace / "state.vscdb"
            if not stores.is_store(str(store)):
                continue
            folder_of = _project(workspace)
            for found in stores.found_in(STORE, store):
                extra = {**found.extra, "project": folder_of}
                yield Found(found.path, found.header, extra, found.problem, found.modified)
        return
    for project in dirs(folder):
        transcripts = project / "agent-transcripts"
        extra = {"project": project.name}
        for path in files(transcripts, suffixes=(".jsonl", ".txt")):
            if path.suffix == ".txt":
                yield Found(
                    path, None, extra, "an older Cursor transcript (.txt); toolhist reads the .jsonl form"
                )
            else:
                yield Found(path, header, extra)
        for chat in dirs(transcripts):
            yield from (Found(p, header, extra) for p in files(chat, suffixes=(".jsonl",)))


def _project(workspace: Path) -> str | None:
    """The folder ``workspace.json`` names (its ``file://`` URI as a path), else None."""
    named = small_json(str(workspace / "workspace.json"))
    folder = named.get("folder") if isinstance(named, dict) else None
    if not isinstance(folder, str):
        return None
    if not folder.startswith("file://"):
        return folder
    path = urllib.parse.unquote(folder.removeprefix("file://"))
    return path[1:] if path[2:3] == ":" else path  # /c:/Users/… on Windows


def read_as(path: Path) -> str:
    """``cursor-transcript`` for a ``.jsonl`` transcript, ``cursor`` for the store's locator."""
    return "cursor-transcript" if path.suffix == ".jsonl" else "cursor"


def session_says(session: Session) -> tuple[str, str] | None:
    """The model's family, for a session read from Cursor's store."""
    if session.source.format != "cursor":
        return None
    model = session.request.get("model")
    if not isinstance(model, str):
        return None
    for prefix, provider in FAMILIES:
        if model.lower().startswith(prefix):
            return provider, "the model's family, through Cursor's servers"
    return None
