"""Where each agent keeps its sessions, on Linux, macOS and Windows: every agent's ``places``, from one home.

Every folder is derived from one home folder (``--home``, ``TOOLHIST_HOME``, else the user's), so a
test or a copied home from another machine is read exactly like the real one. Under the user's own
home the agents' variables are honoured as the agents honour them; under an explicit home they are
not, so nothing outside that folder is read. Every platform's layout is looked for (a macOS home
copied to Linux still lists its VS Code sessions); a folder that is absent costs one ``stat``.

Each agent's folders, and the agent's code that says so, are in its ``sessions`` module
(``toolhist/agents/<agent>/sessions.py``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from toolhist.agents.folders import Home
from toolhist.agents.registry import AGENTS

HOME_ENV: Final = "TOOLHIST_HOME"
"""An explicit home folder for ``toolhist sessions`` and the app's "This machine" source."""


@dataclass(frozen=True)
class Places:
    """The folders to look in, per agent (absent folders included: `where` reports them)."""

    home: Path
    folders: tuple[tuple[str, tuple[Path, ...]], ...]
    """(agent, its folders), in `toolhist.agents.registry.AGENTS` order."""
    cwd: Path | None = None
    """The working folder whose project-local stores are looked in (`toolhist.agents.folders.Home.cwd`)."""

    def in_cwd(self, folder: Path) -> bool:
        """Whether ``folder`` is one of the working folder's own (``.crush``, ``.opencode``)."""
        return self.cwd is not None and folder.parent == self.cwd

    def of(self, agent: str) -> tuple[Path, ...]:
        """``agent``'s folders (none for an agent without places)."""
        return next((found for name, found in self.folders if name == agent), ())

    def where(self) -> list[tuple[str, Path]]:
        """(agent, folder) for every folder looked in, in listing order."""
        return [(agent, folder) for agent, found in self.folders for folder in found]


def places(home: Path | None = None, env: Mapping[str, str] | None = None) -> Places:
    """Where to look: under ``home`` alone when given, else under the user's home and the agents' variables.

    ``env`` defaults to ``os.environ`` for the user's home and to nothing for an explicit home.
    The working folder is looked in for project-local stores; under an explicit home only when it
    is inside that home.
    """
    mine = home is None
    if home is None:
        given: Mapping[str, str] = os.environ if env is None else env
        explicit = given.get(HOME_ENV, "").strip()
        mine = not explicit
        home, env = (Path(explicit), {}) if explicit else (Path.home(), given)
    elif env is None:
        env = {}
    cwd = _cwd()
    if cwd is not None and not mine and not cwd.is_relative_to(home.absolute()):
        cwd = None
    where = Home(home, env, cwd)
    return Places(home, tuple((a.id, a.places(where)) for a in AGENTS if a.places is not None), cwd)


def _cwd() -> Path | None:
    """The working folder, or None when it no longer exists."""
    try:
        return Path.cwd()
    except OSError:
        return None
