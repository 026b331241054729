"""The index file: where it lives, its tables, how it is opened, written and forgotten.

One SQLite file under the user's cache (`default_path`), never near the agents' own files
(`check_location` refuses a path inside the folders they keep sessions in). Opened in WAL mode with
a busy timeout, so a search reads while another toolhist process writes and two writers take turns
(every write is a short ``BEGIN IMMEDIATE`` transaction: `writing`). The file is made ``0600`` in a
``0700`` folder: it holds text from the sessions (README, "The index of this machine's sessions").

Full-text search follows agentsview (wesm/agentsview @aea2eb12, ``internal/db/db.go`` 31-52): an
FTS5 table over an external-content table (``content='entries'``), kept in step by triggers. Unlike
agentsview it uses the ``trigram`` tokenizer, so a search is a case-insensitive substring test
(``LIKE '%text%'``), the same test the Conversation page's search makes on one session, with
``detail=none`` (no positions: the index is several times smaller; LIKE still uses it) and
``columnsize=0`` (no per-row token counts: only ranking reads them, and the search does not rank).

The text is kept once, in ``entries``: the FTS table holds only the trigram index and reads the
text back from ``entries`` to confirm each candidate and cut its snippet. A call's source id
(``calls.raw_id``) is kept only where it differs from toolhist's (NULL otherwise, its index partial):
most sources' ids are kept as they are, and storing and indexing them twice took a tenth of the
file (300 generated sessions, `benchmarks/bench_index.py`: 78.1 MB down to 69.7 MB).

A file that is SQLite but not a toolhist index (its ``application_id``) is never written to nor
deleted. An index written by another schema version is emptied and filled again: it is a cache.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Final

import toolhist
from toolhist.errors import ToolhistError

INDEX_ENV: Final = "TOOLHIST_INDEX"
"""A path for the index file instead of the default under the user's cache (`default_path`)."""

APPLICATION_ID: Final = 0x74686978
"""``PRAGMA application_id`` of a toolhist index ("thix"): bytes 68-71 of the file's header."""

SCHEMA_VERSION: Final = 2
"""``PRAGMA user_version``; an index of another version is emptied and rebuilt."""

BUSY_S: Final = 60.0
"""How long a write waits for another toolhist process's write to finish."""

SCHEMA: Final = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE heads (
    path TEXT PRIMARY KEY,
    home TEXT NOT NULL,
    agent TEXT NOT NULL,
    state TEXT NOT NULL,
    fields TEXT NOT NULL
);
CREATE INDEX heads_home ON heads (home, agent);
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    locator TEXT NOT NULL UNIQUE,
    home TEXT NOT NULL,
    agent TEXT NOT NULL,
    state TEXT NOT NULL,
    code TEXT NOT NULL,
    messages INTEGER,
    truncated INTEGER NOT NULL DEFAULT 0,
    problem TEXT
);
CREATE INDEX sessions_home ON sessions (home, agent);
CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    session INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    msg INTEGER NOT NULL,
    kind TEXT NOT NULL,
    speaker TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX entries_session ON entries (session, msg);
CREATE VIRTUAL TABLE entries_fts USING fts5 (
    text, content='entries', content_rowid='id', tokenize='trigram', detail='none', columnsize=0
);
CREATE TRIGGER entries_ai AFTER INSERT ON entries BEGIN
    INSERT INTO entries_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER entries_ad AFTER DELETE ON entries BEGIN
    INSERT INTO entries_fts (entries_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TABLE calls (
    session INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    msg INTEGER NOT NULL,
    role TEXT NOT NULL,
    name TEXT NOT NULL,
    id TEXT NOT NULL,
    raw_id TEXT
);
CREATE INDEX calls_session ON calls (session, msg);
CREATE INDEX calls_name ON calls (name COLLATE NOCASE);
CREATE INDEX calls_id ON calls (id);
CREATE INDEX calls_raw_id ON calls (raw_id) WHERE raw_id IS NOT NULL;
CREATE TABLE verdicts (
    session INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    judged_on TEXT NOT NULL,
    key TEXT NOT NULL,
    fields TEXT NOT NULL,
    PRIMARY KEY (session, judged_on)
);
CREATE TABLE violations (
    session INTEGER NOT NULL,
    judged_on TEXT NOT NULL,
    provider TEXT NOT NULL,
    rule TEXT NOT NULL,
    severity TEXT NOT NULL,
    msg INTEGER,
    detail TEXT NOT NULL,
    FOREIGN KEY (session, judged_on) REFERENCES verdicts (session, judged_on) ON DELETE CASCADE
);
CREATE INDEX violations_rule ON violations (rule, judged_on);
CREATE INDEX violations_session ON violations (session, judged_on);
"""
"""Tables: ``heads`` (the listing's header fields per file), ``sessions`` (one per session read
whole), ``entries`` (each message's searchable text) with ``entries_fts``, ``calls`` (tool names
and call ids), ``verdicts`` and ``violations`` (per session, and per provider judged on: ``''`` for
the provider it ran on, else the provider's name)."""

TABLES: Final = ("violations", "verdicts", "calls", "entries_fts", "entries", "sessions", "heads", "meta")


class IndexProblem(ToolhistError):
    """The index cannot be opened, written or removed: one line naming the file and why."""


def default_path(env: dict[str, str] | None = None) -> Path:
    r"""``$TOOLHIST_INDEX``, else ``index.sqlite`` in toolhist's folder of the user's cache.

    Linux and other Unix: ``$XDG_CACHE_HOME/toolhist`` (``~/.cache/toolhist``); macOS:
    ``~/Library/Caches/toolhist``; Windows: ``%LOCALAPPDATA%\toolhist\Cache``.
    """
    given = os.environ if env is None else env
    if given.get(INDEX_ENV, "").strip():
        return Path(given[INDEX_ENV].strip()).expanduser()
    if sys.platform == "win32":
        local = given.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(local) / "toolhist" / "Cache" / "index.sqlite"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "toolhist" / "index.sqlite"
    xdg = given.get("XDG_CACHE_HOME", "")
    cache_home = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return cache_home / "toolhist" / "index.sqlite"


def check_location(path: Path, folders: Sequence[Path]) -> None:
    """Refuse an index path inside a folder where an agent keeps its sessions (``folders``)."""
    here = Path(os.path.abspath(path))
    for folder in folders:
        if here.is_relative_to(os.path.abspath(folder)):
            raise IndexProblem(
                f"{path}: inside {folder}, where an agent keeps its sessions; toolhist never writes "
                f"there (pick another --index or ${INDEX_ENV})"
            )


def application_id(path: Path) -> int | None:
    """The ``application_id`` in the file's SQLite header, or None when it is not an SQLite file."""
    try:
        with open(path, "rb") as f:
            head = f.read(72)
    except OSError:
        return None
    if len(head) < 72 or not head.startswith(b"SQLite format 3\x00"):
        return None
    return int.from_bytes(head[68:72], "big")


def _create_file(path: Path) -> None:
    """Make the folder (``0700``) and an empty file (``0600``) when there is none yet."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def statements(script: str) -> Iterator[str]:
    """The statements of ``script`` one by one (``executescript`` would commit the open transaction)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            yield pending.strip()
            pending = ""


def _current(conn: sqlite3.Connection, path: Path) -> bool:
    """Whether the file holds this schema's tables; raises `IndexProblem` for a foreign SQLite file."""
    found = conn.execute("PRAGMA application_id").fetchone()[0]
    if found == APPLICATION_ID:
        return bool(conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION)
    if found != 0 or conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise IndexProblem(f"{path}: an SQLite file that is not a toolhist index; not touching it")
    return False


def _schema(conn: sqlite3.Connection, path: Path) -> None:
    """Create the tables in a new file, rebuild those of another schema version, refuse a foreign file.

    Checked again inside the write transaction: another process may have just created them.
    """
    if _current(conn, path):
        return
    with writing(conn):
        if _current(conn, path):
            return
        for table in TABLES:
            conn.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in statements(SCHEMA):
            conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def connect(path: Path) -> sqlite3.Connection:
    """The index at ``path``, created when absent (raises `IndexProblem` with the reason)."""
    try:
        _create_file(path)
        conn = sqlite3.connect(path, timeout=BUSY_S, isolation_level=None, check_same_thread=False)
    except (OSError, sqlite3.Error) as exc:
        raise IndexProblem(f"{path}: cannot open the session index: {exc}") from None
    try:
        _current(conn, path)  # a foreign SQLite file is refused before anything is written to it
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        _schema(conn, path)
    except sqlite3.Error as exc:
        conn.close()
        raise IndexProblem(f"{path}: cannot use the session index: {exc}") from None
    except IndexProblem:
        conn.close()
        raise
    return conn


@contextmanager
def opened(path: Path) -> Iterator[sqlite3.Connection]:
    """`connect`, closed on exit."""
    conn = connect(path)
    try:
        yield conn
    finally:
        conn.close()


@contextmanager
def writing(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction: all of it lands or none (an exception, Ctrl-C included, rolls it back)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def forget(path: Path) -> int:
    """Delete the index at ``path`` (and its WAL files); the bytes removed, 0 when there was none.

    A file that is not a toolhist index is left alone (`IndexProblem`).
    """
    if not path.exists():
        return 0
    if application_id(path) != APPLICATION_ID and path.stat().st_size:
        raise IndexProblem(f"{path}: not a toolhist index; not deleting it")
    removed = 0
    for part in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            removed += part.stat().st_size
            part.unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise IndexProblem(f"{part}: cannot delete it: {exc}") from None
    return removed


def size(path: Path) -> int:
    """Bytes the index takes on disk (its WAL files included)."""
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists())


@cache
def code_digest() -> str:
    """Toolhist's version and a digest of its code: what a session read whole, or judged, depends on.

    A verdict or a session's search text is kept while its file and this digest are unchanged, so
    an upgrade (or any edit of a checkout) reads every session again.
    """
    root = Path(toolhist.__file__).parent
    digest = hashlib.sha256(toolhist.__version__.encode())
    for file in sorted(root.rglob("*.py")):  # each file's size and mtime: a stat, not a read, of each
        info = file.stat()
        digest.update(f"{file.relative_to(root).as_posix()}:{info.st_size}:{info.st_mtime_ns}\n".encode())
    return f"{toolhist.__version__}:{digest.hexdigest()[:16]}"
