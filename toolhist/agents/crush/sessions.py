r"""Where Crush keeps its sessions, and what says where one ran.

- Places: each project has its own store, ``<project>/.crush/crush.db`` (``defaultDataDirectory``,
  charmbracelet/crush ``internal/config/config.go`` at 37f36e93824e5c4f892e4a817f7f628e2682fe14;
  ``internal/db/connect.go`` names ``crush.db``). Crush lists the projects it has opened in
  ``projects.json`` (``path``, ``data_dir``; ``internal/projects/projects.go``) in its global data
  folder: ``$CRUSH_GLOBAL_DATA``, else ``$XDG_DATA_HOME/crush``, else ``%LOCALAPPDATA%\crush`` on
  Windows and ``~/.local/share/crush`` elsewhere (``GlobalConfigData``, ``internal/config/load.go``).
  The stores are found through that list (each project's data folder is one of Crush's places);
  a project outside the home is not looked in. The working folder's ``.crush`` is looked in too
  (a project Crush has not listed yet, or a store copied in).
- The Go OpenCode (opencode-ai/opencode, archived; Crush is its successor) kept the same tables in
  ``<project>/.opencode/opencode.db``: ``defaultDataDirectory = ".opencode"``, relative to the
  working folder (``internal/config/config.go``, the search index's copies of it, id 66465291632),
  the database ``Data.Directory`` joined with the app's name (``internal/db/connect.go``; the fork
  Anseltsmm/opencode at 9f75703e3aacb3793afb596abfc25c596ecaa525 renamed it ``azkia.db``). It is
  read by Crush's reader (a ``messages`` table without ``provider``) from the working folder's
  ``.opencode``; the TypeScript OpenCode's user-wide ``opencode.db`` is `toolhist.agents.opencode`'s.
- Where it ran: each assistant row names its ``provider`` (catwalk's ids). Crush builds
  ``openai`` with ``openai.WithUseResponsesAPI()`` (the Responses API), ``anthropic`` with
  Anthropic's SDK and ``gemini`` with Google's (``internal/agent/coordinator.go``); other providers
  (OpenRouter, Copilot, Azure, Bedrock, OpenAI-compatible ones) are reported by name only.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Final

from toolhist.agents import stores
from toolhist.agents.crush.reader import CrushReader
from toolhist.agents.folders import Found, Home, unique
from toolhist.agents.headers import small_json

READER: Final = CrushReader()

WIRE: Final = {"openai": "openai-responses", "anthropic": "anthropic", "gemini": "gemini"}
"""Crush provider ids whose wire format Crush's own code fixes → toolhist provider."""


def places(home: Home) -> tuple[Path, ...]:
    """Crush's global data folder on each OS, then each project store folder its ``projects.json`` lists.

    A project folder outside the home is left out (under ``--home`` nothing outside it is read, and
    the app opens files only under the listed places).
    """
    named = home.dir("CRUSH_GLOBAL_DATA")
    xdg = home.dir("XDG_DATA_HOME")
    data = [
        *([named] if named else []),
        (xdg or home.path / ".local" / "share") / "crush",
        home.local / "crush",
    ]
    projects = [d for folder in data for d in _project_dirs(folder) if d.is_relative_to(home.path)]
    here = [home.cwd / ".crush", home.cwd / ".opencode"] if home.cwd is not None else []
    return unique([*data, *projects, *here])


def _project_dirs(folder: Path) -> list[Path]:
    """The ``data_dir`` of each project ``projects.json`` in ``folder`` lists."""
    listing = small_json(str(folder / "projects.json"))
    projects = listing.get("projects") if isinstance(listing, dict) else None
    return [
        Path(p["data_dir"])
        for p in (projects if isinstance(projects, list) else [])
        if isinstance(p, dict) and isinstance(p.get("data_dir"), str)
    ]


def sessions(folder: Path) -> Iterator[Found]:
    """Every session of the folder's ``crush.db``, or of a Go OpenCode's ``opencode.db``.

    In a project's ``.crush`` or ``.opencode`` the project is the parent folder.
    """
    store = folder / ("opencode.db" if folder.name == ".opencode" else "crush.db")
    if not stores.is_store(str(store)):
        return
    local = folder.name in (".crush", ".opencode")
    for found in stores.found_in(READER, store):
        extra = {**found.extra, "project": str(folder.parent) if local else None}
        yield Found(found.path, found.header, extra=extra, problem=found.problem, modified=found.modified)
