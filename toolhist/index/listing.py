"""``toolhist sessions`` from the index: folders walked as before, a file's head read only when it changed.

The walk (`toolhist.machine.listing.walk`) still looks in every folder and stats every file, so a
new, changed or vanished session is seen at once; what the index saves is the read of each file's
first 256 KiB and its parsing. A file's header fields are kept under its state: size, modification
time in nanoseconds, what the agent's header function was given besides the file (`inputs`) and
toolhist's code digest (`toolhist.index.db.code_digest`). Same state, same fields; any change, the
head is read again. A store's sessions are listed from the store each time (one read-only query;
`toolhist.agents.stores`): each session's state is the store's own update time and message count.

Vanished sessions leave the index at the next listing of their home and agent: their heads, their
search text and their verdicts.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from toolhist.agents.folders import RAN_ON, Found, Header
from toolhist.index.db import IndexProblem, check_location, code_digest, default_path, opened, writing
from toolhist.machine.listing import AGENTS, SessionRow, newest_first, read_header, walk
from toolhist.machine.places import Places

Progress = Callable[[int, int | None, str], None]
"""``(done, total or None when not known yet, what)``: called as work goes on (`toolhist.index.progress`)."""


@dataclass(frozen=True)
class Listing:
    """The sessions listed, newest first, and what it took."""

    rows: list[SessionRow]
    states: dict[str, str]
    """Per listed path (a store session's locator), the state its search text and verdicts are kept
    under (`toolhist.index.update`); a row that cannot be read has none."""
    read: int
    """Heads read from their files this time (the rest came from the index)."""
    removed: int
    """Sessions gone since the last listing, taken out of the index."""


def inputs(header: Header) -> str:
    """What the header function was given besides the file's bytes, as a short digest.

    Gemini CLI's takes a partial's arguments, Cline's a closure over its task list entry: a change
    there (a task renamed in ``taskHistory.json``) reads the head again.
    """
    if not isinstance(header, partial) and not getattr(header, "__closure__", None):
        return _plain(header)
    parts: list[object] = []
    func: Any = header
    while isinstance(func, partial):
        parts += [func.args, sorted(func.keywords.items())]
        func = func.func
    parts.append(f"{getattr(func, '__module__', '')}.{getattr(func, '__qualname__', repr(func))}")
    for cell in getattr(func, "__closure__", None) or ():
        parts.append(cell.cell_contents)
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


@cache
def _plain(header: Header) -> str:
    """`inputs` of a module-level function: its name alone."""
    name = f"{getattr(header, '__module__', '')}.{getattr(header, '__qualname__', repr(header))}"
    return hashlib.sha256(repr([name]).encode()).hexdigest()[:16]


def store_state(row: SessionRow) -> str:
    """A store session's state: the store's update time and message count (one file holds many)."""
    return f"store:{row.modified!r}:{row.messages}"


def _encode(fields: Mapping[str, Any]) -> str:
    return json.dumps(dict(fields), ensure_ascii=False)


def _decode(text: str) -> dict[str, Any]:
    fields: dict[str, Any] = json.loads(text)
    if isinstance(fields.get(RAN_ON), list):
        fields[RAN_ON] = tuple(fields[RAN_ON])
    return fields


def list_indexed(
    conn: sqlite3.Connection,
    where: Places,
    agents: tuple[str, ...] = AGENTS,
    progress: Progress | None = None,
) -> Listing:
    """Every session of ``agents`` in ``where``, newest first, heads read only where files changed.

    The heads read and the sessions gone are written in one transaction, only when there are any.
    """
    code = code_digest()
    kept = {
        path: (state, fields) for path, state, fields in conn.execute("SELECT path, state, fields FROM heads")
    }
    fresh: dict[str, tuple[str, str]] = {}
    states: dict[str, str] = {}

    def read(found: Found, stat: os.stat_result) -> Mapping[str, Any]:
        path = str(found.path)
        assert found.header is not None
        state = f"{stat.st_size}:{stat.st_mtime_ns}:{inputs(found.header)}:{code}"
        states[path] = state
        hit = kept.get(path)
        if hit is not None and hit[0] == state:
            return _decode(hit[1])
        fields = read_header(found, stat)
        fresh[path] = (state, _encode(fields))
        if progress is not None:
            progress(len(fresh), None, "reading the heads of new or changed session files")
        return fields

    rows = list(walk(where, agents, read))
    for row in rows:
        if row.session is not None and row.problem is None:
            states[str(row.path)] = store_state(row)
        elif row.problem is not None:
            states.pop(str(row.path), None)
    removed = _forget_gone(conn, str(where.home), agents, rows, fresh)
    return Listing(newest_first(rows), states, len(fresh), removed)


def _forget_gone(
    conn: sqlite3.Connection,
    home: str,
    agents: Iterable[str],
    rows: list[SessionRow],
    fresh: dict[str, tuple[str, str]],
) -> int:
    """Write the heads read; take out the heads and sessions of ``home``'s ``agents`` not listed now."""
    wanted = tuple(agents)
    marks = ",".join("?" * len(wanted))
    listed = {str(row.path) for row in rows}
    gone_heads = [
        path
        for (path,) in conn.execute(
            f"SELECT path FROM heads WHERE home = ? AND agent IN ({marks})", (home, *wanted)
        )
        if path not in listed
    ]
    gone = [
        (sid, locator)
        for sid, locator in conn.execute(
            f"SELECT id, locator FROM sessions WHERE home = ? AND agent IN ({marks})", (home, *wanted)
        )
        if locator not in listed
    ]
    if not (fresh or gone_heads or gone):
        return 0
    agent_of = {str(row.path): row.agent for row in rows}
    with writing(conn):
        conn.executemany(
            "INSERT INTO heads (path, home, agent, state, fields) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (path) DO UPDATE SET home = excluded.home, agent = excluded.agent, "
            "state = excluded.state, fields = excluded.fields",
            [(path, home, agent_of[path], state, fields) for path, (state, fields) in fresh.items()],
        )
        conn.executemany("DELETE FROM heads WHERE path = ?", [(p,) for p in gone_heads])
        conn.executemany("DELETE FROM sessions WHERE id = ?", [(sid,) for sid, _ in gone])
    return len(set(gone_heads) | {locator for _, locator in gone})


def listed(where: Places, agents: tuple[str, ...] = AGENTS) -> list[SessionRow]:
    """The listing through the index at `toolhist.index.db.default_path` (the app's "This machine").

    The index is a cache: when it cannot be used (refused, not an index, locked too long) every
    file's head is read as without one.
    """
    path = default_path()
    try:
        check_location(path, [folder for _, folder in where.where()])
        with opened(path) as conn:
            return list_indexed(conn, where, agents).rows
    except (IndexProblem, sqlite3.Error):
        return newest_first(list(walk(where, agents)))
