"""Readers for every source format, and `load`, which sniffs the format when none is given.

The readers are the provider wire formats' (`toolhist.formats.registry`) and every agent's
(`toolhist.agents.registry`); this module sits above both, so neither package imports the other's
registry.

Each reader scores the parsed content (0 no, 1 plausible, 2 certain). The single best reader wins;
when two readers tie at the top, `load` refuses to guess and names both, so the user picks one
with ``--format``.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

from toolhist._gc import paused
from toolhist.agents import archives, stores
from toolhist.agents.registry import READERS as AGENT_READERS
from toolhist.errors import LoadError, UsageError
from toolhist.formats.base import MALFORMED, Reader, ShapeError, malformed
from toolhist.formats.bundled import OpenedBundle, open_bundle
from toolhist.formats.document import Document, json_path, read_input
from toolhist.formats.jsonl_stream import Progress, StreamReader, head_of_path
from toolhist.formats.not_history import known_file
from toolhist.formats.registry import CANONICAL, WIRE
from toolhist.live import as_json, name_of
from toolhist.model import Session

READERS: dict[str, Reader] = {r.id: r for r in (*WIRE, *AGENT_READERS, CANONICAL)}
"""Every reader, in detection order: provider request bodies, agents' logs, then canonical JSON."""
FORMATS: tuple[str, ...] = tuple(READERS)
"""The format ids ``load`` and ``--format`` accept."""


def detect(doc: Document) -> Reader:
    """The one reader that recognises the document best, or a LoadError saying why there is none."""
    scores = {rid: _recognised(reader, doc.value) for rid, reader in READERS.items()}
    best = max(scores.values())
    if best == 0:
        raise _unknown(doc)
    top = [rid for rid, s in scores.items() if s == best]
    if len(top) > 1:
        raise LoadError(
            f"ambiguous format: this content reads as {' and as '.join(top)}; choose one with --format",
            file=doc.name,
        )
    return READERS[top[0]]


def _recognised(reader: Reader, value: Any) -> int:
    """``reader.recognise(value)``; 0 when its sniffing trips on a field of an unexpected type.

    A list where the reader looks for a string is not content it recognises.
    """
    try:
        return reader.recognise(value)
    except MALFORMED:
        return 0


def _unknown(doc: Document) -> LoadError:
    """No reader recognises the content: say what it is, or name the reader that got furthest.

    - A file agents keep beside their histories (Cline's ``ui_messages.json``, a Claude Code
      ``settings.json``…) is named, with the file to open instead (`toolhist.formats.not_history`).
    - A body that is almost right (one message with a bad role) gets the precise error for the
      format the user meant, instead of only "unknown format".
    - A reader that got nowhere is never blamed: one whose own dispatch field is missing from the
      first entry (an OpenAI reader meeting a Gemini CLI message has no ``role`` to read) says
      nothing about the file, so it is not "closest".
    """
    said = known_file(doc.value)
    if said is not None:
        return LoadError(f"not a conversation history: {said}", file=doc.name)
    attempts: list[tuple[tuple[int, ...], str, ShapeError]] = []
    for rid, reader in READERS.items():
        try:
            reader.read(doc)
        except ShapeError as exc:
            if _got_nowhere(doc.value, exc.pointer):
                continue
            # Deeper first, then later in the list: how far the reader got before it stopped.
            indices = tuple(p for p in exc.pointer if isinstance(p, int))
            attempts.append(((len(exc.pointer), *indices), rid, exc))
        except Exception:
            continue
    known = f"no reader recognises it (formats: {', '.join(FORMATS)})"
    if attempts:
        furthest = max(a[0] for a in attempts)
        tied = [a for a in attempts if a[0] == furthest]  # registry order: the commoner format first
        _, rid, closest = tied[0]
        if len(tied) > 1:
            rid += f" (also {', '.join(a[1] for a in tied[1:])})"
        if len(closest.pointer) > 1:
            line, column = doc.line_of(closest.pointer)
            return LoadError(
                f"unknown format: {_describe(doc.value)}; {known}. "
                f"Closest: {rid}, which stops here: {closest.reason}",
                file=doc.name,
                line=line,
                column=column,
                json_path=json_path(closest.pointer),
            )
    return LoadError(f"unknown format: {_describe(doc.value)}; {known}", file=doc.name)


def _got_nowhere(value: Any, pointer: tuple[str | int, ...]) -> bool:
    """Whether a reader stopped at a field missing from the first entry it looked at (no progress)."""
    if any(isinstance(p, int) and p > 0 for p in pointer):
        return False  # it read at least one entry before this one
    node = value
    for part in pointer:
        present = (isinstance(part, int) and isinstance(node, list) and part < len(node)) or (
            isinstance(part, str) and isinstance(node, dict) and part in node
        )
        if not present:
            return True
        node = node[part]
    return False


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        keys = ", ".join(sorted(value)[:8]) or "no keys"
        return f"a JSON object with keys {keys}"
    if isinstance(value, list):
        first = value[0] if value else None
        inner = (
            f" of {type(first).__name__}"
            if first is not None and not isinstance(first, dict)
            else (f" of objects with keys {', '.join(sorted(first)[:6])}" if isinstance(first, dict) else "")
        )
        return f"a JSON array{inner}" if value else "an empty JSON array"
    return f"a JSON {type(value).__name__}"


def reader_for(format: str) -> Reader:
    """The reader named ``format``, or a UsageError listing the valid names."""
    try:
        return READERS[format]
    except KeyError:
        raise UsageError(f"unknown format {format!r}; choose one of: {', '.join(FORMATS)}") from None


@paused
def load(
    source: Any,
    format: str | None = None,
    *,
    name: str | None = None,
    progress: Progress | None = None,
    session: str | None = None,
) -> Session:
    """Read a session from a path, bytes, str or parsed JSON; ``format=None`` sniffs it.

    A framework's live objects are read too (`toolhist.live`): pydantic-ai messages or a run
    result, LangChain messages, a LangGraph state…, serialised by the framework itself.

    ``name`` is what errors call in-memory input (an uploaded file's name); paths name themselves.
    ``progress(bytes_read, total)`` is called while a file is read (agent logs: as they stream).
    An agent's SQLite store (many sessions in one file) is recognised by its header before any
    JSON sniffing; a path may name one of its sessions as ``PATH#SESSION_ID``, and ``session``
    does the same for a store given as bytes (`toolhist.agents.stores`). Without either, the
    store's most recently updated session is read and a note says how to pick another.
    """
    return load_document(source, format, name=name, progress=progress, session=session)[1]


def _streamer(source: Any, reader: Reader | None) -> tuple[str, StreamReader] | None:
    """The path and reader to stream ``source`` with, when it is a file in a line-oriented log format.

    Without ``format``, the first lines decide, scored by every reader exactly as `detect` would
    score the whole file; anything not certain falls back to reading the whole document.
    """
    if not isinstance(source, str | os.PathLike) or (isinstance(source, str) and not _is_file(source)):
        return None
    path = os.fspath(source)
    if reader is not None:
        return (path, reader) if isinstance(reader, StreamReader) else None
    head = head_of_path(path)
    if head is None:
        return None
    scores = {rid: r.recognise(head) for rid, r in READERS.items()}
    top = [rid for rid, s in scores.items() if s == 2]
    best = READERS[top[0]] if len(top) == 1 else None
    return (path, best) if isinstance(best, StreamReader) else None


def _is_file(text: str) -> bool:
    return (
        "\n" not in text
        and len(text) < 4096
        and not text.lstrip().startswith(("{", "["))
        and os.path.isfile(text)
    )


def load_document(
    source: Any,
    format: str | None = None,
    *,
    name: str | None = None,
    progress: Progress | None = None,
    session: str | None = None,
) -> tuple[Document, Session]:
    """Like `load`, also returning the parsed document (to validate a captured body as it was sent).

    A streamed agent log, and a session of a store, return a Document without ``value``: the file
    was never held whole as JSON.
    """
    live = as_json(source)
    if live is not None:  # a framework's live objects (`toolhist.live`), dumped by the framework itself
        name = name or name_of(source, live[1])
        source, format = live[0], format or live[1]
    reader = reader_for(format) if format is not None else None
    gathered = gather_folder(source, reader)
    if gathered is not None:
        folder = os.fspath(source)
        doc, read = load_document(gathered, format, name=folder, progress=progress)
        return doc, read.model_copy(update={"source": read.source.model_copy(update={"path": folder})})
    stored = _from_store(source, reader, name, session) or _from_archive(source, reader, name, session)
    if stored is not None:
        return stored
    source, session = _located(source, session)
    streamed = _streamer(source, reader)
    if streamed is not None:
        path, streamer = streamed
        return Document(value=None, name=path, path=path), streamer.stream(path, progress)
    doc = read_input(source, name=name)
    if progress is not None and doc.path is not None:
        size = os.path.getsize(doc.path)
        progress(size, size)
    bundle = open_bundle(doc)
    if bundle is not None:
        return _read_bundle(doc, bundle, reader)
    if reader is None:
        reader = detect(doc)
    if session is not None:
        if not reader.holds_many:
            raise LoadError(
                f"{stores.SEP}{session} names one session of a log that holds many; "
                f"a {reader.id} file holds one",
                file=doc.name,
            )
        doc = replace(doc, session=session)
    try:
        return doc, reader.read(doc)
    except MALFORMED as exc:
        raise malformed(reader, exc, doc.name, None) from None
    except ShapeError as exc:
        line, column = doc.line_of(exc.pointer)
        raise LoadError(
            f"not a valid {reader.id} session: {exc.reason}",
            file=doc.name,
            line=line,
            column=column,
            json_path=json_path(exc.pointer),
        ) from None
    except RecursionError:
        raise LoadError("JSON nesting is too deep", file=doc.name) from None


def gather_folder(source: Any, reader: Reader | None = None) -> bytes | None:
    """A session kept as a folder (an OpenHands conversation), as the one document its reader reads.

    See `toolhist.formats.base.Reader.gather`; None when ``source`` is not such a folder.
    """
    if not isinstance(source, str | os.PathLike) or not os.path.isdir(source):
        return None
    path = os.fspath(source)
    for candidate in [reader] if reader is not None else READERS.values():
        data = candidate.gather(path)
        if data is not None:
            return data
    return None


STORE_READERS: tuple[stores.StoreReader, ...] = tuple(
    r for r in READERS.values() if isinstance(r, stores.StoreReader)
)
"""The readers of agents' SQLite stores, in detection order."""


def _from_store(
    source: Any, reader: Reader | None, name: str | None, session: str | None
) -> tuple[Document, Session] | None:
    """The session read from an SQLite store given as a path (a locator) or bytes; None for anything else.

    Detected by the file's SQLite header, before JSON is sniffed: a store is never parsed as text.
    """
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _is_pathlike(source)):
        loc = stores.parse_locator(os.fspath(source))
        if session is not None:
            loc = stores.Locator(loc.path, session)
        if not stores.is_store(loc.path):
            return None  # an archive or a JSON log holding many sessions may take the locator
        with stores.open_store(loc.path) as conn:
            chosen = _store_reader(reader, conn, loc.path)
            read = stores.read_session(chosen, conn, loc, loc.path)
        where = stores.locator(loc.path, str(read.metadata["store_session"]))
        return Document(value=None, name=where, path=loc.path), read
    if isinstance(source, bytes | bytearray | memoryview) and stores.is_store_bytes(source):
        label = name or "<bytes>"
        with stores.deserialize(bytes(source), label) as conn:
            chosen = _store_reader(reader, conn, label)
            read = stores.read_session(chosen, conn, stores.Locator(label, session), label)
        return Document(value=None, name=stores.locator(label, str(read.metadata["store_session"]))), read
    return None


ARCHIVE_READERS: tuple[archives.ArchiveReader, ...] = tuple(
    r for r in READERS.values() if isinstance(r, archives.ArchiveReader)
)
"""The readers of zip archives of many sessions (Inspect AI's ``.eval``)."""


def _from_archive(
    source: Any, reader: Reader | None, name: str | None, session: str | None
) -> tuple[Document, Session] | None:
    """The session read from a zip archive given as a path (a locator) or bytes; None for anything else."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _is_pathlike(source)):
        loc = stores.parse_locator(os.fspath(source))
        if not archives.is_zip(loc.path):
            return None
        label, data, path = loc.path, None, loc.path
        session = session if session is not None else loc.session
    elif isinstance(source, bytes | bytearray | memoryview) and archives.is_zip_bytes(source):
        label, data, path = name or "<bytes>", bytes(source), None
    else:
        return None
    with archives.open_zip(data if data is not None else label, label) as zf:
        if reader is None:
            chosen = archives.choose(ARCHIVE_READERS, zf, label)
        elif isinstance(reader, archives.ArchiveReader):
            chosen = reader
        else:
            raise LoadError(f"a zip archive; the {reader.id} format is not read from one", file=label)
        read = chosen.read_archive(zf, session, label, path)
    where = read.metadata.get("log_session")
    return Document(value=None, name=f"{label}#{where}" if where else label, path=path), read


def _located(source: Any, session: str | None) -> tuple[Any, str | None]:
    """A path ``FILE#ID`` split into the file and the session it names (a JSON log of many sessions)."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _is_pathlike(source)):
        loc = stores.parse_locator(os.fspath(source))
        if loc.session is not None:
            return loc.path, session if session is not None else loc.session
    return source, session


def _is_pathlike(text: str) -> bool:
    return "\n" not in text and len(text) < 4096 and not text.lstrip().startswith(("{", "["))


def _store_reader(reader: Reader | None, conn: Any, name: str) -> stores.StoreReader:
    if reader is None:
        return stores.choose(STORE_READERS, conn, name)
    if not isinstance(reader, stores.StoreReader):
        raise LoadError(f"an SQLite database; the {reader.id} format is not read from one", file=name)
    return reader


def _read_bundle(doc: Document, bundle: OpenedBundle, reader: Reader | None) -> tuple[Document, Session]:
    """A guard bundle (`toolhist.guard.bundle`): its request body, read in its provider's own format.

    The body is what was sent, so `toolhist.check` judges it as sent for that provider; the bundle's
    header (provider, model, status, the provider's answer) rides along in ``metadata["bundle"]``.
    """
    chosen = reader or READERS[bundle.format]
    try:
        session = chosen.read(bundle.body)
    except MALFORMED as exc:
        raise malformed(chosen, exc, doc.name, None) from None
    except ShapeError as exc:
        line, column = doc.line_of(("request", "body", *exc.pointer))
        raise LoadError(
            f"not a valid {chosen.id} session in the bundle's request body: {exc.reason}",
            file=doc.name,
            line=line,
            column=column,
            json_path=json_path(("request", "body", *exc.pointer)),
        ) from None
    return bundle.body, session.model_copy(update={"metadata": {**session.metadata, "bundle": bundle.header}})


__all__ = ["FORMATS", "READERS", "Reader", "detect", "gather_folder", "load", "load_document", "reader_for"]
