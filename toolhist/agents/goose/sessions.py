r"""Where Goose keeps its sessions, and what says where one ran.

- Places: Goose's data folder is ``$GOOSE_PATH_ROOT/data`` when that variable is an absolute path,
  else etcetera's ``choose_app_strategy`` for ``Block``/``goose``: XDG on Linux and macOS
  (``$XDG_DATA_HOME/goose`` or ``~/.local/share/goose``), ``%APPDATA%\Block\goose\data`` on Windows
  (block/goose ``crates/goose/src/config/paths.rs`` at 0780e228ca96f8b7171d9a76f62b6d2c11ed901e,
  whose comment also names ``~/Library/Application Support/Block/goose``, looked in too). Sessions
  are in its ``sessions`` folder: ``sessions.db`` (``SESSIONS_FOLDER``, ``DB_NAME``,
  ``session_manager.rs``) and, from before the database, ``<name>.jsonl`` files (``legacy.rs``
  ``list_sessions``), which Goose imports once; those already in the database are listed once.
- Where it ran: ``sessions.provider_name`` names Goose's provider. ``anthropic`` speaks Anthropic
  Messages and ``google`` the Gemini API; Goose's ``openai`` chooses Chat Completions or Responses
  by model, so it and the gateways (``openrouter``, ``databricks``, ``tetrate``…) are reported by
  name only.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from toolhist.agents import stores
from toolhist.agents.folders import RAN_ON, Found, Home, files, unique
from toolhist.agents.goose.reader import GooseReader
from toolhist.agents.headers import Head

READER: Final = GooseReader()

WIRE: Final = {"anthropic": "anthropic", "google": "gemini"}
"""Goose provider names whose wire format Goose's own code fixes → toolhist provider."""


def places(home: Home) -> tuple[Path, ...]:
    """The ``sessions`` folder under each OS's Goose data folder (or ``$GOOSE_PATH_ROOT/data``)."""
    root = home.dir("GOOSE_PATH_ROOT")
    xdg = home.dir("XDG_DATA_HOME") or home.path / ".local" / "share"
    data = [root / "data"] if root is not None and root.is_absolute() else []
    data += [
        xdg / "goose",
        home.path / "Library" / "Application Support" / "Block" / "goose",
        home.roaming / "Block" / "goose" / "data",
    ]
    return unique([d / "sessions" for d in data])


def sessions(folder: Path) -> Iterator[Found]:
    """Each session of ``sessions.db``, then each ``.jsonl`` session not imported into it."""
    listed: set[str] = set()
    store = folder / "sessions.db"
    if stores.is_store(str(store)):
        for found in stores.found_in(READER, store):
            listed.add(str(found.extra.get("session")))
            yield found
    for path in files(folder, suffixes=(".jsonl",)):
        if path.stem not in listed:
            yield Found(path, header)


def header(head: Head) -> dict[str, Any]:
    """Line 1 is the session metadata (``working_dir``); the messages are the other lines."""
    first, problem = head.first_line()
    meta = first if isinstance(first, dict) and "working_dir" in first else None
    messages, counted = head.count("role", ("user", "assistant"))
    return {
        "project": meta.get("working_dir") if meta else None,
        "messages": messages,
        "counted": counted,
        "problem": problem,
        RAN_ON: (None, None),
    }
