"""Reading agent logs (JSON Lines) one line at a time, so a 200 MB debug log never sits in memory.

The agent-log readers (llxprt debug logs, llxprt session recordings, Claude Code, Codex) work on
``(line number, parsed line)`` pairs. Two sources feed them the same pairs:

- `lines_of_document`: an already parsed `Document` (bytes, text, an upload), line numbers from
  ``Document.jsonl_lines``;
- `lines_of_path`: a file read line by line, each line parsed
  with orjson on its own, progress reported as bytes read out of the file size.

So the readers are written once, and `StreamReader.stream` is what ``toolhist.load(path)`` uses for
these formats. Errors name the file, the line and the field (`LineError` → `LoadError`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

import orjson
from pydantic import JsonValue

from toolhist._trusted import construct
from toolhist.errors import LoadError
from toolhist.files import regular_file, why_not_regular
from toolhist.formats.base import MALFORMED, UNREADABLE, Pointer, Reader, ShapeError, Skips, fill_tool_names
from toolhist.formats.document import Document, json_path
from toolhist.formats.records import (
    MAX_SKIPPED,
    culprit,
    kind_of,
    reason_of,
    record_scope,
    skipped,
    skipped_note,
    skipping,
)
from toolhist.model import Location, Message, Session, SessionSource, ToolSpec, Unsent

Progress = Callable[[int, int], None]
"""Called with (bytes read, total bytes) while a file is streamed."""

Lines = Iterable[tuple[int | None, Any]]
"""``(1-based line number or None, parsed JSON value)`` for each non-blank line, in file order."""

HEAD_LINES = 12
"""How many lines `head_of_path` parses to sniff a file's format."""
HEAD_BYTES = 8 * 1024 * 1024
"""Sniffing stops after this many bytes even when fewer lines were read (huge single lines)."""
PROGRESS_EVERY = 4 * 1024 * 1024
"""Report progress about this often (bytes), plus once at the start and once at the end."""


def lines_of_document(doc: Document) -> Iterator[tuple[int | None, Any]]:
    """The lines of a parsed document: JSON Lines element by element; a single value as line 1."""
    value = doc.value
    if isinstance(value, list) and doc.jsonl_lines is not None:
        yield from zip(doc.jsonl_lines, value, strict=True)
    elif isinstance(value, list):
        yield from ((None, v) for v in value)
    else:
        yield (1 if doc.text is not None and "\n" not in doc.text.strip() else None), value


def lines_of_path(path: str, *, progress: Progress | None = None) -> Iterator[tuple[int, Any]]:
    """Parse ``path`` line by line; a line that is not JSON is a LoadError naming it."""
    total = _size(path)
    done = 0
    reported = 0
    if progress is not None:
        progress(0, total)
    for number, chunk in _chunks(path):
        done += len(chunk)
        if progress is not None and done - reported >= PROGRESS_EVERY:
            progress(done, total)
            reported = done
        raw = chunk[3:] if number == 1 and chunk.startswith(b"\xef\xbb\xbf") else chunk
        if not raw.strip():
            continue
        yield number, _parse_line(raw, path, number)
    if progress is not None:
        progress(total, total)


def _chunks(path: str) -> Iterator[tuple[int, bytes]]:
    """``(line number, line bytes)``; a read the system refuses half-way is a LoadError on that line."""
    number = 0
    try:
        with open(path, "rb") as fh:
            for number, chunk in enumerate(fh, start=1):
                yield number, chunk
    except OSError as exc:
        raise LoadError(exc.strerror or str(exc), file=path, line=number + 1) from None


def _size(path: str) -> int:
    return regular_file(path)  # a FIFO or a device would block the read: refused before opening


def _parse_line(raw: bytes, name: str, number: int) -> Any:
    """One line's JSON value; a line that is not valid UTF-8 JSON is a LoadError saying why.

    orjson parses the bytes as they are: it refuses what the checks below refuse (bytes that
    are not UTF-8, a raw NUL, which JSON allows neither in a string nor between values), so a
    line it accepts needs neither a decoded copy nor a scan; decoding one line of a gigabyte log
    to text first was a copy of every byte read (issue 26). A line it refuses is looked at again
    for the error that names it.
    """
    try:
        return orjson.loads(raw)
    except (orjson.JSONDecodeError, RecursionError):
        pass
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LoadError(
            f"not valid UTF-8 (byte 0x{raw[exc.start]:02x})", file=name, line=number, column=exc.start + 1
        ) from None
    if "\x00" in line:
        raise LoadError("contains a NUL character: not a JSON Lines file", file=name, line=number)
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise LoadError(
            f"not valid JSON Lines: {exc.msg.rstrip('.')}", file=name, line=number, column=exc.colno
        ) from None
    except RecursionError:
        raise LoadError("JSON nesting is too deep", file=name, line=number) from None


def head_of_path(path: str) -> list[Any] | None:
    """The first few parsed lines of a JSON Lines file, or None when it does not start like one.

    Cheap by design (a few lines, a bounded number of bytes): it only decides whether the file can
    be streamed; anything unusual falls back to reading the whole document.
    """
    values: list[Any] = []
    read = 0
    if why_not_regular(path) is not None:  # a FIFO would block, /dev/zero never ends a line
        return None
    try:
        with open(path, "rb") as fh:
            while raw := fh.readline(max(HEAD_BYTES - read, 1)):  # bounded even on one endless line
                read += len(raw)
                if raw.strip():
                    try:
                        values.append(orjson.loads(raw))
                    except orjson.JSONDecodeError:
                        return None
                    if not isinstance(values[0], dict):
                        return None
                if len(values) >= HEAD_LINES or read >= HEAD_BYTES:
                    break
    except OSError:
        return None
    return values if len(values) >= 2 else None


def iso_seconds(value: Any) -> float | None:
    """An ISO-8601 timestamp (``2025-12-19T10:45:15.123Z``) as epoch seconds, or None."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


class LineError(Exception):
    """Bad content on one line: becomes a LoadError with the file, line and field."""

    def __init__(self, line: int | None, pointer: Pointer, reason: str) -> None:
        self.line = line
        self.pointer = pointer
        self.reason = reason
        super().__init__(f"line {line}: {json_path(pointer)}: {reason}")


class Collector:
    """Messages with their source lines, and notes, as a stream reader walks a log."""

    def __init__(self, notes: list[str] | None = None) -> None:
        self.messages: list[Message] = []
        self.locations: list[Location] = []
        self.notes: list[str] = list(notes or ())
        self.unsent: list[Unsent] = []
        self.skips = Skips()
        self.named = False
        """True when the reader named every result as it made it (`fill_tool_names` would change nothing)."""

    def keep_unsent(
        self,
        kind: str,
        reason: str,
        line: int | None,
        path: str,
        *,
        text: str = "",
        data: dict[str, JsonValue] | None = None,
    ) -> None:
        """Record a log entry the agent keeps but never sends, before the next message added."""
        self.unsent.append(
            Unsent(
                kind=kind,
                reason=reason,
                before=len(self.messages),
                line=line,
                json_path=path,
                text=text,
                data=data or {},
            )
        )

    def record(
        self, line: int | None, index: int | None, kind: str | None, value: Any
    ) -> AbstractContextManager[None]:
        """A scope converting the line ``value``: if it cannot be read, it is skipped and named.

        For a reader that converts lines after reading them all (Claude Code threads first): the
        automatic skip of `StreamReader` would leave the line out of the threading too; this
        scope only leaves out what the line would have added (`toolhist.formats.records`).
        """

        def locate(stopped: Pointer) -> tuple[str, int | None]:
            return (f"line {line}" if line is not None else f"entry {index}"), line

        return record_scope(self, kind=kind, record=value, base=(), locate=locate)

    def skipped(
        self,
        exc: Exception,
        marks: tuple[int, int, int, int],
        *,
        line: int | None,
        index: int | None,
        kind: str | None,
        value: Any,
    ) -> bool:
        """`record` for a loop that catches the line's error itself (`toolhist.formats.records.skipped`).

        ``marks`` is `toolhist.formats.records.marks_of` this collector before the line; False
        when the error must pass (the caller re-raises it).
        """

        def locate(stopped: Pointer) -> tuple[str, int | None]:
            return (f"line {line}" if line is not None else f"entry {index}"), line

        return skipped(self, exc, marks, kind=kind, record=value, base=(), locate=locate)

    def add(self, message: Message, line: int | None, index: int | None, path: str = "") -> None:
        """Append a message read from source entry ``index`` (on ``line``)."""
        self.messages.append(message)
        self.locations.append(construct(Location, index=index, line=line, json_path=path or f"[{index}]"))

    def session(
        self,
        fmt: str,
        *,
        path: str | None,
        request: dict[str, JsonValue] | None = None,
        metadata: dict[str, JsonValue] | None = None,
        tools: tuple[ToolSpec, ...] | None = None,
    ) -> Session:
        """The finished Session, with tool names filled on results."""
        return Session(
            messages=tuple(self.messages if self.named else fill_tool_names(self.messages)),
            tools=tools,
            request=request or {},
            source=SessionSource(
                format=fmt,
                path=path,
                locations=tuple(self.locations),
                notes=tuple(self.notes),
                skipped=self.skips.as_dict(),
            ),
            metadata=metadata or {},
            unsent=tuple(self.unsent),
        )


class StreamReader(Reader):
    """A JSON Lines agent log: read from a parsed document or streamed from a file, same result.

    A line whose conversion fails (a shape error, a field of an unexpected type) is skipped and
    named, and the log read again without it, when `record_kind` says it is a record
    (`toolhist.formats.records`); a header line's failure, or one whose line cannot be told, is a
    `LoadError` naming the file, the line and the field. Subclasses need do nothing for this.
    """

    @abstractmethod
    def read_lines(self, lines: Lines, *, name: str, path: str | None, notes: list[str]) -> Session:
        """Build the Session from ``(line, value)`` pairs; raise LineError for bad content."""

    def record_kind(self, value: Any) -> str | None:
        """The kind of the record on one line, when a malformed one may be skipped; None otherwise.

        By default a line's string ``type`` (``response_item``, ``user``…); a line without one has
        no kind this reader could know. Override to name headers (return None for them: a damaged
        header makes the file unreadable) or to take the kind from another field.
        """
        return kind_of(value)

    def read(self, doc: Document) -> Session:
        """Read an already parsed document (bytes, text, upload)."""
        return self._read(lambda: lines_of_document(doc), doc.name, doc.path, list(doc.notes))

    def stream(self, path: str, progress: Progress | None = None) -> Session:
        """Read ``path`` line by line; memory holds the Session, never the file."""
        return self._read(lambda: lines_of_path(path, progress=progress), path, path, [])

    def _read(self, lines: Callable[[], Lines], name: str, path: str | None, notes: list[str]) -> Session:
        """`read_lines`, again without each line that could not be read (at most `MAX_SKIPPED`)."""
        skipped: dict[int, tuple[int | None, str, str]] = {}
        while True:
            tracked = _Tracked(lines(), skipped)
            try:
                session = self.read_lines(tracked, name=name, path=path, notes=list(notes))
            except (LineError, ShapeError, *MALFORMED) as exc:
                key, line, value, pointer = self._where(exc, tracked, lines)
                kind = self.record_kind(value) if key is not None else None
                if key is None or kind is None or len(skipped) >= MAX_SKIPPED or not skipping():
                    raise self._error(exc, name, line, pointer) from None
                where = f"line {line}" if line is not None else f"entry {key}"
                skipped[key] = (line, kind, skipped_note(where, kind, value, pointer, reason_of(exc)))
                continue
            return _with_skipped(session, skipped.values())

    def _where(
        self, exc: Exception, tracked: _Tracked, lines: Callable[[], Lines]
    ) -> tuple[int | None, int | None, Any, Pointer | None]:
        """The failed line: its key (position), number, value, and the field inside it (if known)."""
        if isinstance(exc, LineError):
            if exc.line is None:
                return None, None, None, exc.pointer
            if not tracked.done and tracked.line == exc.line:
                return tracked.key, exc.line, tracked.value, exc.pointer
            found = next(((k, v) for k, n, v in _positions(lines()) if n == exc.line), None)
            return (
                (found[0], exc.line, found[1], exc.pointer) if found else (None, exc.line, None, exc.pointer)
            )
        if tracked.done or tracked.key is None:  # raised after the last line: which one is not known
            return None, None, None, getattr(exc, "pointer", None)
        if isinstance(exc, ShapeError):  # a shared block reader's pointer starts at the line
            return tracked.key, tracked.line, tracked.value, exc.pointer
        return tracked.key, tracked.line, tracked.value, culprit(exc, tracked.value)

    def _error(self, exc: Exception, name: str, line: int | None, pointer: Pointer | None) -> LoadError:
        return LoadError(
            f"not a valid {self.id} log: {reason_of(exc)}",
            file=name,
            line=line,
            json_path=json_path(pointer) if pointer is not None else None,
        )


class _Tracked:
    """The lines a reader reads, minus the skipped ones, remembering the one it is on."""

    def __init__(self, lines: Lines, skipped: dict[int, Any]) -> None:
        self._lines = lines
        self._skipped = skipped
        self.key: int | None = None
        self.line: int | None = None
        self.value: Any = None
        self.done = False

    def __iter__(self) -> Iterator[tuple[int | None, Any]]:
        skipped = self._skipped
        for key, pair in enumerate(self._lines):  # `_positions`, without a generator of its own per line
            if key in skipped:
                continue
            self.key, (self.line, self.value) = key, pair
            yield pair
        self.done = True


def _positions(lines: Lines) -> Iterator[tuple[int, int | None, Any]]:
    """``(position, line, value)``: the position names a line even where its number is unknown."""
    for key, (line, value) in enumerate(lines):
        yield key, line, value


def _with_skipped(session: Session, skipped: Iterable[tuple[int | None, str, str]]) -> Session:
    """The session with each skipped line named in the notes and counted in ``skipped``."""
    done = list(skipped)
    if not done:
        return session
    counts = dict(session.source.skipped)
    for _, kind, _ in done:
        counts[f"{UNREADABLE}{kind}"] = counts.get(f"{UNREADABLE}{kind}", 0) + 1
    source = session.source.model_copy(
        update={"notes": (*session.source.notes, *(note for _, _, note in done)), "skipped": counts}
    )
    return session.model_copy(update={"source": source})


def at_line(line: int | None, pointer: Pointer, reason: str) -> LineError:
    """Shorthand for raising a LineError."""
    return LineError(line, pointer, reason)


def shape_on_line(line: int | None, exc: ShapeError) -> LineError:
    """A ShapeError from a shared block reader, placed on its line."""
    return LineError(line, exc.pointer, exc.reason)
