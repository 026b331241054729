r"""Where Zed keeps its agent threads, and what says where one ran.

- Places: ``threads/threads.db`` in Zed's data folder (``ThreadsDatabase::new``,
  zed-industries/zed ``crates/agent/src/db.rs`` at 0642ec7e49e2d2c06f55db8c5bb2d4eca0f5223b): on
  Linux ``$FLATPAK_XDG_DATA_HOME``, else ``$XDG_DATA_HOME`` or ``~/.local/share``, then ``zed``; on
  macOS ``~/Library/Application Support/Zed``; on Windows ``%LOCALAPPDATA%\Zed``
  (``crates/paths/src/paths.rs`` at 010c9b6fa6d6efbf90a3b8d5ee64cb30297ba275, ``support_dir``, which
  later versions call ``data_dir``).
- Where it ran: a thread's ``model.provider`` is Zed's provider id. ``anthropic`` speaks Anthropic
  Messages, ``google`` the Gemini API, ``mistral`` Mistral's and ``bedrock`` Converse
  (``crates/language_models/src/provider/``); Zed's ``openai`` picks Chat Completions or Responses
  per model (``open_ai.rs`` ``stream_completion`` at 014676e49857c2b2fec5b57883880c1db05f1ca7), and
  ``zed.dev`` routes to several vendors, so both are reported by name only.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Final

from toolhist.agents import stores
from toolhist.agents.folders import Found, Home, unique
from toolhist.agents.zed.reader import ZedReader

READER: Final = ZedReader()

WIRE: Final = {"anthropic": "anthropic", "google": "gemini", "mistral": "mistral", "bedrock": "bedrock"}
"""Zed provider ids whose wire format Zed's own code fixes → toolhist provider."""


def places(home: Home) -> tuple[Path, ...]:
    """The ``threads`` folder under Zed's data folder on Linux (and Flatpak), macOS and Windows."""
    linux = home.dir("FLATPAK_XDG_DATA_HOME") or home.dir("XDG_DATA_HOME") or home.path / ".local" / "share"
    return unique(
        [
            linux / "zed" / "threads",
            home.path / "Library" / "Application Support" / "Zed" / "threads",
            home.local / "Zed" / "threads",
        ]
    )


def sessions(folder: Path) -> Iterator[Found]:
    """Every thread of ``threads.db``."""
    store = folder / "threads.db"
    if stores.is_store(str(store)):
        yield from stores.found_in(READER, store)
