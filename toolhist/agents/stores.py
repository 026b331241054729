"""Agents whose sessions live many to a file: an SQLite store of an agent's sessions.

OpenCode's ``opencode.db``, Crush's ``crush.db``, Goose's ``sessions.db``, Zed's ``threads.db``,
Cursor's ``state.vscdb``. What every such agent shares, so each agent's folder only says how its
own tables read:

- **The session locator** ``PATH#SESSION_ID``: accepted wherever a path is (`toolhist.load`, every
  CLI ``FILE``, the app's Path box and ``?path=``). It is parsed only when ``PATH#SESSION_ID`` is not
  itself an existing file and the part before the last ``#`` is one (`parse_locator`), so a file
  whose name holds ``#`` still opens as itself. Without ``#`` a store opens on its most recently
  updated session, with a note saying how many others it holds and how to pick one
  (`pick`); ``toolhist sessions`` lists every session of a store with its locator as its path.
- **Reading without disturbing the agent**: the file is opened read-only through a ``file:…?mode=ro``
  URI (`open_store`), never ``immutable=1`` (that promises SQLite the file cannot change, and a
  live agent's WAL would then be ignored or misread). Every store here runs in WAL mode, where a
  reader never blocks the writer and sees the last committed transaction, the WAL included; all
  rows are read in one read transaction and the connection is closed at once. A reader of a
  cleanly closed WAL database leaves SQLite's empty ``-wal``/``-shm`` files beside it (read-only
  connections may not delete them); the agent reuses them.
- **Bytes of a store** (an upload, the app's copy of a path): `deserialize` loads them into memory.
  The app copies a store with `snapshot` (SQLite's own serialisation through a read-only
  connection, so pages still in the WAL are included); an image whose header says WAL is marked
  rollback-journal before loading (``sqlite3_deserialize`` cannot open a WAL image).
- **Errors** name the store and session (``opencode.db#ses_…``), then the table, the row and the
  field inside its JSON (``part[prt_…].data.state.input``): the row is the "line" of a store.

Detection: `is_store` looks at the 16-byte SQLite header, before any JSON sniffing
(`toolhist.readers`); each `StoreReader` then says from the tables present whether the store is its
agent's (`StoreReader.recognise_store`).
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from abc import abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from toolhist.agents.folders import RAN_ON, Found
from toolhist.errors import LoadError
from toolhist.formats.base import Reader, ShapeError
from toolhist.formats.document import Document, json_path
from toolhist.model import Session

SQLITE_MAGIC: Final = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite 3 database file (sqlite.org/fileformat2.html §1.3)."""

BUSY_MS: Final = 2000
"""How long a read waits for a writer's lock (only a rollback-journal store's writer can block it)."""

SEP: Final = "#"


@dataclass(frozen=True)
class Locator:
    """A store path and, when given, the session in it."""

    path: str
    session: str | None = None

    def __str__(self) -> str:
        return self.path if self.session is None else f"{self.path}{SEP}{self.session}"


def parse_locator(text: str) -> Locator:
    """``PATH#SESSION_ID`` split at the last ``#``, only when ``text`` is not a file and PATH is one."""
    if SEP not in text or os.path.isfile(text):
        return Locator(text)
    path, _, session = text.rpartition(SEP)
    if session and os.path.isfile(path):
        return Locator(path, session)
    return Locator(text)


def locator(path: str | os.PathLike[str], session: str) -> str:
    """The locator of ``session`` in the store at ``path``."""
    return str(Locator(os.fspath(path), session))


def is_store(path: str) -> bool:
    """Whether ``path`` is a regular file starting with the SQLite header.

    A FIFO or a device is never opened (it would block or never end): `os.path.isfile` stats it.
    """
    if not os.path.isfile(path):
        return False
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def is_store_bytes(data: bytes | bytearray | memoryview) -> bool:
    """Whether ``data`` starts with the SQLite header."""
    return bytes(data[: len(SQLITE_MAGIC)]) == SQLITE_MAGIC


def _uri(path: str) -> str:
    return "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"


@contextmanager
def open_store(path: str) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the store at ``path`` (see the module notes), closed on exit."""
    try:
        conn = sqlite3.connect(_uri(path), uri=True, timeout=BUSY_MS / 1000, check_same_thread=False)
    except sqlite3.Error as exc:
        raise LoadError(f"cannot open the SQLite store: {exc}", file=path) from None
    try:
        conn.execute("PRAGMA query_only = 1")
        yield conn
    finally:
        conn.close()


def snapshot(path: str) -> bytes:
    """The store's bytes as a consistent copy: the last committed state, WAL pages included."""
    with open_store(path) as conn:
        try:
            return conn.serialize()
        except sqlite3.Error as exc:
            raise LoadError(f"cannot read the SQLite store: {exc}", file=path) from None


@contextmanager
def deserialize(data: bytes, name: str) -> Iterator[sqlite3.Connection]:
    """An in-memory connection to the store whose bytes are ``data``."""
    image = bytearray(data)
    if len(image) > 19 and image[18] == 2 and image[19] == 2:
        image[18] = image[19] = 1  # WAL → rollback journal: an in-memory image has no WAL
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    try:
        try:
            conn.deserialize(bytes(image))
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as exc:
            raise LoadError(f"not a readable SQLite store: {exc}", file=name) from None
        yield conn
    finally:
        conn.close()


def tables(conn: sqlite3.Connection) -> dict[str, frozenset[str]]:
    """Every table of the store and its columns."""
    names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {
        name: frozenset(r[1] for r in conn.execute(f"PRAGMA table_info({_quote(name)})")) for name in names
    }


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@dataclass(frozen=True)
class StoredSession:
    """One session of a store, as its listing reads it (no message is parsed)."""

    id: str
    updated: float
    """Last update, seconds since the epoch (the store's own field)."""
    title: str | None = None
    project: str | None = None
    """The folder it worked in."""
    messages: int | None = None
    """Rows of messages the store holds for it (not the history sent)."""
    provider: str | None = None
    """The provider as the agent names it."""
    model: str | None = None


def row_ptr(table: str, row: object, *fields: str | int) -> tuple[str | int, ...]:
    """The pointer of a field inside a row's JSON: ``part[prt_…].data.state``."""
    return (f"{table}[{row}]", *fields)


class StoreReader(Reader):
    """A reader whose sessions may live in an SQLite store (many to a file).

    It may also read JSON (OpenCode's export, Goose's older JSONL); ``recognise`` and ``read``
    are that part. The store part lists the sessions and reads one by id.
    """

    def recognise(self, value: Any) -> int:
        """JSON this reader also reads (none unless a subclass says so)."""
        return 0

    def read(self, doc: Document) -> Session:
        """Read JSON of this format (a subclass that reads JSON overrides this)."""
        raise ShapeError((), f"{self.id} sessions live in an SQLite store; open the store file itself")

    @abstractmethod
    def recognise_store(self, found: dict[str, frozenset[str]]) -> int:
        """0: not this agent's store; 2: its tables (``found``: table → columns)."""

    @abstractmethod
    def list_store(self, conn: sqlite3.Connection) -> list[StoredSession]:
        """Every session the store holds (subagents' too), newest first."""

    @abstractmethod
    def read_store(self, conn: sqlite3.Connection, session: str, doc: Document) -> Session:
        """The session ``session`` (its history as the agent sends it); ShapeError on a bad field.

        ``doc`` names the store and session for locations and errors (its ``value`` is None).
        """


def pick(reader: StoreReader, conn: sqlite3.Connection, loc: Locator) -> tuple[str, list[str]]:
    """The session to read (the locator's, else the newest) and the notes that say which."""
    listed = reader.list_store(conn)
    if loc.session is not None:
        if not any(s.id == loc.session for s in listed):
            known = ", ".join(s.id for s in listed[:5]) or "none"
            raise LoadError(
                f"no session {loc.session!r} in this {reader.id} store (newest: {known}; "
                "`toolhist sessions` lists them all)",
                file=loc.path,
            )
        return loc.session, []
    if not listed:
        raise LoadError(f"this {reader.id} store holds no session", file=loc.path)
    newest = listed[0]
    notes = []
    if len(listed) > 1:
        notes.append(
            f"this store holds {len(listed)} sessions; read the most recently updated, {newest.id}. "
            f"Pick another as {loc.path}{SEP}SESSION_ID (`toolhist sessions` lists them with their ids)"
        )
    return newest.id, notes


def read_session(reader: StoreReader, conn: sqlite3.Connection, loc: Locator, name: str) -> Session:
    """Read the located session (or the newest) from ``conn``; every failure a LoadError."""
    try:
        session_id, notes = pick(reader, conn, loc)
    except sqlite3.Error as exc:
        raise LoadError(f"cannot read the {reader.id} store: {exc}", file=name) from None
    except ShapeError as exc:
        raise _unlisted(reader, exc, name) from None
    where = locator(name, session_id)
    doc = Document(value=None, name=where, path=loc.path if os.path.isfile(loc.path) else None)
    try:
        with _transaction(conn):
            session = reader.read_store(conn, session_id, doc)
    except ShapeError as exc:
        raise LoadError(
            f"not a valid {reader.id} session: {exc.reason}", file=where, json_path=json_path(exc.pointer)
        ) from None
    except sqlite3.Error as exc:
        raise LoadError(f"cannot read the {reader.id} store: {exc}", file=where) from None
    source = session.source.model_copy(update={"notes": (*notes, *session.source.notes)})
    return session.model_copy(
        update={"source": source, "metadata": {**session.metadata, "store_session": session_id}}
    )


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One read transaction: every row from the same committed state, however the agent writes."""
    in_txn = conn.in_transaction
    if not in_txn:
        conn.execute("BEGIN")
    try:
        yield
    finally:
        if not in_txn:
            conn.execute("COMMIT")


def choose(readers: Sequence[StoreReader], conn: sqlite3.Connection, name: str) -> StoreReader:
    """The store reader whose agent's tables these are, or a LoadError naming the tables found."""
    try:
        found = tables(conn)
    except sqlite3.Error as exc:
        raise LoadError(f"not a readable SQLite store: {exc}", file=name) from None
    scored = [(r.recognise_store(found), r) for r in readers]
    best = max((s for s, _ in scored), default=0)
    if best == 0:
        names = ", ".join(sorted(found)[:12]) or "no tables"
        known = ", ".join(r.id for r in readers)
        raise LoadError(
            f"an SQLite database, but not one of the agents' stores toolhist reads ({known}); "
            f"its tables: {names}",
            file=name,
        )
    return next(r for s, r in scored if s == best)


def list_path(reader: StoreReader, path: Path) -> list[StoredSession]:
    """The sessions of the store at ``path`` (raises LoadError when it cannot be read)."""
    with open_store(str(path)) as conn:
        try:
            if reader.recognise_store(tables(conn)) == 0:
                raise LoadError(f"an SQLite database without the {reader.id} store's tables", file=str(path))
            return reader.list_store(conn)
        except sqlite3.Error as exc:
            raise LoadError(f"cannot read the SQLite store: {exc}", file=str(path)) from None
        except ShapeError as exc:
            raise _unlisted(reader, exc, str(path)) from None


def _unlisted(reader: StoreReader, exc: ShapeError, name: str) -> LoadError:
    """A store whose listing itself is unreadable.

    A row every session is listed from: Cursor's older ``ItemTable`` keeps all of a workspace's
    chats in one value.
    """
    return LoadError(
        f"not a valid {reader.id} store: {exc.reason}", file=name, json_path=json_path(exc.pointer)
    )


def found_in(reader: StoreReader, path: Path) -> Iterator[Found]:
    """One listed row per session of the store at ``path`` (its locator as the path).

    A store that cannot be read is one row naming why.
    """
    try:
        stored = list_path(reader, path)
    except LoadError as exc:
        where = f"at {exc.json_path}: " if exc.json_path else ""
        yield Found(path, None, problem=where + exc.reason)
        return
    for s in stored:
        extra = {
            "project": s.project,
            "model": s.model,
            "messages": s.messages,
            "counted": "records" if s.messages is not None else None,
            "session": s.id,
            RAN_ON: (s.provider, s.model),
        }
        yield Found(Path(locator(path, s.id)), None, extra=extra, modified=s.updated)
