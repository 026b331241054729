"""What every agent's ``sessions`` module builds on: the home its folders hang from, and the files in them.

An agent says where it keeps sessions (``places(home)``: folders, absent ones included) and which
files under one of those folders are sessions (``sessions(folder)``: `Found` entries, each with the
function that reads its header). `toolhist.machine` turns them into listed rows. Every folder is
derived from one `Home`, so a test or a copied home from another machine is read like the real one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from toolhist.agents.headers import Head

RAN_ON: Final = "ran_on"
"""The key under which a header (or a `Found`'s ``extra``) gives what says where the session ran:
``(the provider as the agent names it, the model to tell it by)``, both optional. `toolhist.machine`
turns it into the row's ``provider`` (`toolhist.machine.ran_on`); a row without it has none."""

Header = Callable[[Head], dict[str, Any]]
"""Reads a session file's first bytes: the `toolhist.machine.SessionRow` fields it found (``project``,
``model``, ``messages``, ``counted``, ``problem``) and `RAN_ON`."""


@dataclass(frozen=True)
class Home:
    """The home folder every place is found under, and the environment the agents' variables come from.

    Under the user's own home the agents' variables are honoured as the agents honour them; under
    an explicit home ``env`` is empty, so nothing outside that folder is read.
    """

    path: Path
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: Path | None = None
    """The folder toolhist runs in, for agents that keep a store in the project itself (Crush's
    ``.crush``, the Go OpenCode's ``.opencode``); None when not looked in (under an explicit home,
    a working folder outside it)."""

    def dir(self, name: str) -> Path | None:
        """The folder variable ``name`` names, or None when unset or blank."""
        value = self.env.get(name, "").strip()
        return Path(value) if value else None

    @property
    def roaming(self) -> Path:
        """Windows' ``%APPDATA%`` (``~/AppData/Roaming``)."""
        return self.dir("APPDATA") or self.path / "AppData" / "Roaming"

    @property
    def local(self) -> Path:
        """Windows' ``%LOCALAPPDATA%`` (``~/AppData/Local``)."""
        return self.dir("LOCALAPPDATA") or self.path / "AppData" / "Local"


def unique(paths: list[Path]) -> tuple[Path, ...]:
    """``paths`` without repeats (compared as absolute, case-folded where the OS folds case), in order."""
    seen: dict[str, Path] = {}
    for path in paths:
        seen.setdefault(os.path.normcase(os.path.abspath(path)), path)
    return tuple(seen.values())


@dataclass(frozen=True)
class Found:
    """A session an agent keeps: its file (or task folder), and how to read what its first bytes say.

    A session in a store of many (`toolhist.agents.stores`) has its locator ``PATH#SESSION_ID`` as
    its path, no header (the store's listing gave its fields in ``extra``) and the store's own
    update time as ``modified``.
    """

    path: Path
    header: Header | None
    """Reads the file's header; None for a file listed but not read (``problem`` says why), or for
    a session of a store (its fields are in ``extra``)."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Row fields known without the header (the project from a side file…); the header's win."""
    problem: str | None = None
    """Why a file without ``header`` is not read."""
    modified: float | None = None
    """Last modified, when the file's mtime is not the session's (a store's sessions share one file)."""


def files(folder: Path, *, prefix: str = "", suffixes: tuple[str, ...]) -> Iterator[Path]:
    """Regular files directly in ``folder`` named ``prefix…suffix``, sorted."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith(prefix) and entry.name.endswith(suffixes) and entry.is_file():
            yield Path(entry.path)


def dirs(folder: Path) -> Iterator[Path]:
    """Folders directly in ``folder``, hidden ones left out, sorted."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.is_dir() and not entry.name.startswith("."):
            yield Path(entry.path)
