"""What the user opened in the app: bytes held in memory, or a local file by reference.

An upload or pasted text is in memory anyway, so it is kept as bytes and keyed by their SHA-256. A
file the user opens by path (the Path box, a ``?path=`` link, a "This machine" pick) is not: holding
a 200 MB Claude Code log as bytes, hashing all of it on every open and parsing it from memory took
the server to 7 times the file (1.40 GB) and 83 s before Home showed its verdicts. It is named instead by
what says whether it changed (its resolved path, size and modification time, `Stamp`) and read with
`toolhist.load_document` from the path, which streams a JSONL agent log as the CLI does. A file
that changed since it was read has another stamp, so another cache key, and is read again
(`Input.restamped`, called on every open).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Literal


@dataclass(frozen=True)
class Stamp:
    """A file on this machine, as the app saw it when it read it."""

    path: Path
    """The path as opened (names the session, as it did when its bytes were read)."""
    resolved: str
    """The path with its links resolved: the same file opened by two names is read once."""
    size: int
    mtime_ns: int

    files: int = 1
    """How many files the stamp covers: a folder's files, or a store and its write-ahead log."""

    @classmethod
    def of(cls, path: Path) -> Stamp:
        """``path`` as it is now: one ``stat``, or one per file of a folder (an OpenHands conversation).

        ``size`` and ``mtime_ns`` are the total and the newest over the files the session is read
        from: a folder's files (an event written adds one), and an SQLite store's non-empty ``-wal``
        (a commit lands there first, and the store is read with it, `toolhist.agents.stores`).
        """
        parts = [path.stat()]
        if path.is_dir():
            parts = [os.stat(os.path.join(top, f)) for top, _, names in os.walk(path) for f in names] or parts
        else:
            wal = Path(f"{path}-wal")  # an empty one holds no commit: opening the store read-only makes one
            parts += [found] if wal.is_file() and (found := wal.stat()).st_size else []
        return cls(
            path=path,
            resolved=str(path.resolve()),
            size=sum(p.st_size for p in parts),
            mtime_ns=max(p.st_mtime_ns for p in parts),
            files=len(parts),
        )


@dataclass(frozen=True)
class Input:
    """What the user opened: its bytes (an upload, pasted text, a sample) or a file read by reference."""

    name: str
    """Display name: the sample or file name, ``<pasted text>``, or a path."""
    data: bytes | None
    """The content, or None for a file read by reference (``file``): the app holds no copy of it."""
    fmt: str | None
    """A forced reader format, or None to detect."""
    sample: str | None = None
    """The bundled sample's file name, when it came from the gallery (deep-linkable)."""
    path: str | None = None
    """The path on this machine, when it came from one (deep-linkable); a session of an agent's
    store is named by its locator ``STORE#SESSION_ID`` (`toolhist.agents.stores`)."""
    session: str | None = None
    """The session to read when ``data`` is an agent's store of many (None: its newest)."""
    redacted: Literal["bytes", "session"] | None = None
    """None: as the user gave it. ``bytes``: the content is the text with its secrets replaced (the
    "Redact secrets" switch): ``data``, or for a file opened by path a private redacted copy that
    ``file`` names (`toolhist.views.copies`). ``session``: the content is not text (an agent's
    SQLite store, an archive), so the session read from it is redacted instead."""
    file: Stamp | None = None
    """The file on this machine read by reference (``data`` is None), as last seen."""

    @cached_property
    def digest(self) -> str:
        """The cache key: SHA-256 of the content, or of the stamp of a file read by reference.

        The session read from it (and whether it is redacted) is hashed in too.
        """
        if self.file is not None:
            found = hashlib.sha256(
                f"file\0{self.file.resolved}\0{self.file.size}\0{self.file.mtime_ns}\0{self.file.files}".encode()
            )
        else:
            found = hashlib.sha256(self.content())
        if self.session is not None:
            found.update(b"\0#" + self.session.encode())
        if self.redacted is not None:
            found.update(b"\0redacted:" + self.redacted.encode())
        return found.hexdigest()

    @property
    def size(self) -> int:
        """The content's size in bytes (the file's, as last seen, when read by reference)."""
        return self.file.size if self.file is not None else len(self.content())

    def source(self) -> bytes | Path:
        """What to read the session from: the bytes, or the file's path (so a JSONL log is streamed)."""
        return self.file.path if self.file is not None else self.content()

    def content(self) -> bytes:
        """The bytes (read from the file now when it is read by reference)."""
        if self.data is not None:
            return self.data
        assert self.file is not None, "an Input holds bytes or names a file"
        if self.file.path.is_dir():  # a conversation folder: the document its reader reads
            from toolhist.readers import gather_folder  # the readers' registry, only when a folder is read

            gathered = gather_folder(self.file.path)
            assert gathered is not None, (
                "a folder is opened only when it holds a session (`state.path_input`)"
            )
            return gathered
        return self.file.path.read_bytes()

    def restamped(self) -> Input:
        """The same input, with its file's stamp as it is now (itself when not a file or unchanged)."""
        if self.file is None:
            return self
        now = Stamp.of(self.file.path)
        return self if now == self.file else replace(self, file=now)


def by_reference(
    path: Path, raw: str, fmt: str | None, *, name: str | None = None, session: str | None = None
) -> Input:
    """The file or folder at ``path`` (already allowed), typed by the user as ``raw``, by reference.

    ``session`` names one session of a store or log of many (``name`` is then its locator).
    """
    stamp = Stamp.of(path)
    return Input(name=name or str(path), data=None, fmt=fmt, path=raw.strip(), session=session, file=stamp)
