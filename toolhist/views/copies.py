"""Private redacted copies of files opened by path (the "Redact secrets" switch), and their removal.

A file the app opens by path is read by reference (`toolhist.views.inputs`); redacting it must not
hold it in memory either, so its redacted text is written, piece by piece (`toolhist.redact_file`),
to a copy that is then read by reference in its place. The copies live in one folder made for
this process with `tempfile.mkdtemp` (mode 0700, under the system's temporary folder, never beside
the agent's files); each is made with `tempfile.mkstemp` (mode 0600). A copy goes when its session
leaves the app's recent sessions (`toolhist.views.kept.keep_recent` calls `clear`, as it clears a
cache entry) and all go when the process exits.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

from toolhist.errors import LoadError
from toolhist.formats.document import Document
from toolhist.model import Session
from toolhist.readers import load_document
from toolhist.redact_file import redact_stream

_made: list[Path] = []  # the folder, once made
_lock = threading.Lock()


def _private_folder() -> Path:
    with _lock:
        if not _made:
            _made.append(Path(tempfile.mkdtemp(prefix="toolhist-redacted-")))
            atexit.register(shutil.rmtree, _made[0], True)
        return _made[0]


def redacted_copy(path: Path) -> Path | None:
    """A private copy of the file at ``path`` with its secrets replaced; None when it is not UTF-8 text.

    The copy keeps the file's suffix (``.jsonl``…), which some readers look at.
    """
    fd, name = tempfile.mkstemp(suffix=path.suffix, dir=_private_folder())
    copy = Path(name)
    try:
        with open(fd, "wb") as target, path.open("rb") as source:
            made = redact_stream(source, target)
    except BaseException:
        copy.unlink(missing_ok=True)
        raise
    if not made:
        copy.unlink(missing_ok=True)
        return None
    return copy


def is_copy(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is one of this process's redacted copies."""
    return bool(_made) and Path(path).parent == _made[0]


def clear(path: str) -> None:
    """Remove the copy at ``path`` (its session left the recent ones); `keep_recent` calls this."""
    if is_copy(path):
        Path(path).unlink(missing_ok=True)


def load_copy(copy: Path, fmt: str | None, name: str, session: str | None) -> tuple[Document, Session]:
    """`toolhist.load_document` of a copy, named as the redacted bytes it replaces were (``name``).

    The copy's path is the app's business: the document, the session and an error name the file
    the user opened, and the session has no path, as one read from bytes has none.
    """
    where = str(copy)
    try:
        document, read = load_document(copy, fmt, name=name, session=session)
    except LoadError as exc:
        if exc.file != where:
            raise
        raise LoadError(
            exc.reason,
            file=name,
            line=exc.line,
            column=exc.column,
            offset=exc.offset,
            json_path=exc.json_path,
        ) from None
    if read.source.path == where:
        read = read.model_copy(update={"source": read.source.model_copy(update={"path": None})})
    return replace(document, name=name, path=None), read
