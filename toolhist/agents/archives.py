"""Logs that are zip archives of many sessions (Inspect AI's ``.eval``), and JSON files holding many.

The same session locator as the SQLite stores (`toolhist.agents.stores`): ``PATH#SESSION_ID``
picks one session of an archive or of a JSON log that holds many (an Inspect ``.json`` log's
samples); without it the reader takes its first and a note says how many others there are and how
to pick one. An archive is recognised by the zip header before any JSON sniffing; each
`ArchiveReader` says from the member names whether the archive is its framework's.
"""

from __future__ import annotations

import io
import os
import struct
import zipfile
from abc import abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from toolhist.errors import LoadError
from toolhist.formats.base import Reader
from toolhist.model import Session

ZIP_MAGIC: Final = b"PK\x03\x04"


def is_zip(path: str) -> bool:
    """Whether ``path`` is a regular file starting with the zip local-file header.

    A FIFO or a device is never opened (it would block or never end): `os.path.isfile` stats it.
    """
    if not os.path.isfile(path):
        return False
    try:
        with open(path, "rb") as f:
            return f.read(len(ZIP_MAGIC)) == ZIP_MAGIC
    except OSError:
        return False


def is_zip_bytes(data: bytes | bytearray | memoryview) -> bool:
    """Whether ``data`` starts with the zip local-file header."""
    return bytes(data[: len(ZIP_MAGIC)]) == ZIP_MAGIC


@contextmanager
def open_zip(source: str | bytes, name: str) -> Iterator[zipfile.ZipFile]:
    """The archive at path ``source`` (or in bytes ``source``), read-only; a LoadError when it is not one."""
    try:
        with zipfile.ZipFile(io.BytesIO(source) if isinstance(source, bytes) else source) as zf:
            yield zf
    except (zipfile.BadZipFile, OSError) as exc:
        raise LoadError(f"not a readable zip archive: {exc}", file=name) from None


ZSTD: Final = 93
"""The zip compression method number of zstd (APPNOTE 4.4.5), which Inspect AI writes and
``zipfile`` reads only from Python 3.14."""


def read_member(zf: zipfile.ZipFile, member: str) -> bytes:
    """The bytes of ``member``, zstd-compressed ones included (decompressed as `toolhist.agents.zed.zstd`)."""
    info = zf.getinfo(member)
    if info.compress_type != ZSTD:
        return zf.read(member)
    from toolhist.agents.zed import zstd

    fp = zf.fp
    if fp is None:
        raise ValueError("the archive is closed")
    fp.seek(info.header_offset)
    header = fp.read(30)
    if header[:4] != ZIP_MAGIC:
        raise zipfile.BadZipFile(f"no local header for {member}")
    name_len, extra_len = struct.unpack("<HH", header[26:30])
    fp.seek(info.header_offset + 30 + name_len + extra_len)
    return zstd.decompress(fp.read(info.compress_size))


def pick_note(count: int, chosen: str, name: str, what: str) -> list[str]:
    """The note said when no session was named and the log holds more than one."""
    if count <= 1:
        return []
    return [
        f"this log holds {count} {what}s; read the first, {chosen}. Pick another as {name}#ID "
        f"(the {what} ids are listed in session.metadata['{what}s'])"
    ]


class ArchiveReader(Reader):
    """A reader whose logs may be zip archives of many sessions."""

    @abstractmethod
    def recognise_archive(self, names: frozenset[str]) -> int:
        """0: not this framework's archive; 2: its members (``names``: every member's name)."""

    @abstractmethod
    def read_archive(self, zf: zipfile.ZipFile, session: str | None, name: str, path: str | None) -> Session:
        """The session ``session`` of the archive (its first when None); LoadError naming the member."""


def choose(readers: tuple[ArchiveReader, ...], zf: zipfile.ZipFile, name: str) -> ArchiveReader:
    """The archive reader whose framework's members these are, or a LoadError naming a few."""
    names = frozenset(zf.namelist())
    scored = [(r.recognise_archive(names), r) for r in readers]
    best = max((s for s, _ in scored), default=0)
    if best == 0:
        shown = ", ".join(sorted(names)[:8]) or "no members"
        known = ", ".join(r.id for r in readers)
        said = f"a zip archive, but not a log toolhist reads ({known}); its members: {shown}"
        raise LoadError(said, file=name)
    return next(r for s, r in scored if s == best)
