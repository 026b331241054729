"""The sessions each agent keeps on this machine, newest first, from headers only.

`list_sessions` walks the folders `places` names, one agent at a time (`toolhist.agents.registry`),
and makes one `SessionRow` per session file the agent's ``sessions`` finds, from its first bytes
(`toolhist.agents.headers`) as the agent's header function reads them. A file that cannot be read,
or whose first record is not what the agent writes, is still a row, with its ``problem``. Verdicts
need the whole file and are computed on demand (`toolhist.machine.judge`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from toolhist.agents.folders import RAN_ON, Found
from toolhist.agents.headers import Counted, read_head
from toolhist.agents.registry import BY_ID, LISTED
from toolhist.agents.spec import Agent
from toolhist.machine.places import Places, places
from toolhist.machine.ran_on import ran_on

HeaderRead = Callable[[Found, os.stat_result], Mapping[str, Any]]
"""How a row's header fields are found from its `Found` and the file's ``stat``: `read_header` reads
the file's first bytes; `toolhist.index` answers from its cache when the file is unchanged."""

AGENTS: Final = LISTED
"""Agent names for ``--agent`` (Cline, Roo and Kilo apart: same file, different homes)."""


@dataclass(frozen=True)
class SessionRow:
    """One session an agent keeps on this machine."""

    agent: str
    """One of `AGENTS`."""
    path: Path
    modified: float
    """Last modified (the file's mtime, seconds since the epoch)."""
    project: str | None
    """The folder the session worked in (its header's cwd, the workspace, the task's folder)."""
    messages: int | None
    """Messages, counted as ``counted`` says."""
    counted: Counted | None
    model: str | None
    """The model the header names first."""
    provider: str | None
    """The toolhist provider it ran on (`toolhist.machine.ran_on`), None when the header does not say."""
    problem: str | None = None
    """Why the file cannot be listed or read; the other fields are then partly empty."""
    verdict: str | None = None
    """``provider``'s verdict on the next request (`toolhist.machine.judge`); None until computed."""
    rules: tuple[str, ...] = ()
    """The rules broken there (with the verdict)."""
    session: str | None = None
    """The session's id inside a store of many (`toolhist.agents.stores`); ``path`` is then its
    locator ``STORE#SESSION_ID``, which every command opens."""

    @property
    def format(self) -> str:
        """The reader id for this file."""
        return BY_ID[self.agent].session_format

    @property
    def read_format(self) -> str | None:
        """The format to read the file with: `format`, unless its agent says otherwise (None: detect)."""
        return BY_ID[self.agent].read_format(self.path)

    def when(self) -> str:
        """``modified`` as ``YYYY-MM-DD HH:MM`` UTC."""
        return datetime.fromtimestamp(self.modified, UTC).strftime("%Y-%m-%d %H:%M")

    def to_json(self) -> dict[str, Any]:
        """The ``toolhist sessions --json`` object."""
        return {
            "agent": self.agent,
            "path": str(self.path),
            "modified": datetime.fromtimestamp(self.modified, UTC).isoformat().replace("+00:00", "Z"),
            "project": self.project,
            "messages": self.messages,
            "counted": self.counted,
            "model": self.model,
            "provider": self.provider,
            "format": self.read_format or self.format,
            "verdict": self.verdict,
            "rules": list(self.rules),
            "problem": self.problem,
            "session": self.session,
        }


def _fields(agent: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """``fields`` with what says where the session ran (`RAN_ON`) turned into its ``provider``."""
    found = dict(fields)
    if RAN_ON in found:
        named, model = found.pop(RAN_ON)
        found["provider"] = ran_on(agent, named, model)
    return found


def read_header(found: Found, stat: os.stat_result) -> Mapping[str, Any]:
    """The fields the agent's header function finds in the file's first bytes (raises OSError)."""
    assert found.header is not None
    return found.header(read_head(str(found.path), stat.st_size))


def _row(agent: str, found: Found, read: HeaderRead = read_header) -> SessionRow:
    """A row from the file's head, read by the agent's header function (or why it is not read)."""
    path = found.path
    if found.header is None:
        try:
            modified = found.modified if found.modified is not None else path.stat().st_mtime
        except OSError:
            modified = 0.0
        row = SessionRow(agent, path, modified, None, None, None, None, None, problem=found.problem)
        return replace(row, **_fields(agent, found.extra))
    try:
        stat = path.stat()
    except OSError as exc:
        return SessionRow(agent, path, 0.0, None, None, None, None, None, problem=exc.strerror or str(exc))
    base = SessionRow(agent, path, stat.st_mtime, None, None, None, None, None)
    try:
        fields = read(found, stat)
    except OSError as exc:
        return replace(base, problem=exc.strerror or str(exc), **_fields(agent, found.extra))
    return replace(base, **_fields(agent, {**found.extra, **fields}))


def _sessions(agent: Agent, folder: Path, read: HeaderRead) -> Iterator[SessionRow]:
    if agent.sessions is not None:
        for found in agent.sessions(folder):
            yield _row(agent.id, found, read)


def walk(
    where: Places, agents: tuple[str, ...] = AGENTS, read: HeaderRead = read_header
) -> Iterator[SessionRow]:
    """Every session of ``agents`` in ``where``, in folder order (``read`` finds each file's header)."""
    wanted = set(agents)
    for agent, folders in where.folders:
        if agent in wanted:
            for folder in folders:
                yield from _sessions(BY_ID[agent], folder, read)


def newest_first(rows: list[SessionRow]) -> list[SessionRow]:
    """``rows`` by last modified, newest first (then by path, so the order is the same every time)."""
    return sorted(rows, key=lambda r: (-r.modified, str(r.path)))


def list_sessions(home: Path | str | None = None, agents: tuple[str, ...] | None = None) -> list[SessionRow]:
    """Every session the agents keep under ``home`` (see `places`), newest first.

    ``agents`` limits the listing to those agents (`AGENTS`); headers only, no verdicts. Each call
    reads every file's head again; `toolhist.index.listing` keeps them between calls.
    """
    where = places(Path(home) if home is not None else None)
    return newest_first(list(walk(where, agents or AGENTS)))
