"""What ``toolhist sessions`` and ``toolhist search`` share about the index: its option, opening it, progress.

The index is a cache (`toolhist.index`): when it cannot be opened or written, ``sessions`` says so
in one line on stderr and lists without it; ``search`` needs it and exits 2 with that line.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

from toolhist.index import INDEX_ENV, IndexProblem, Stopped, check_location, connect, default_path
from toolhist.index.progress import TerminalProgress
from toolhist.machine.places import Places

F = TypeVar("F", bound=Callable[..., Any])


def index_option(func: F) -> F:
    """``--index PATH``: the index file (default ``$TOOLHIST_INDEX``, else under the user's cache)."""
    option = click.option(
        "--index",
        "index_path",
        type=click.Path(dir_okay=False, path_type=Path),
        help=f"The session index file (default: ${INDEX_ENV}, else index.sqlite in toolhist's folder of "
        "your cache: ~/.cache/toolhist on Linux, ~/Library/Caches/toolhist on macOS, "
        "%LOCALAPPDATA%\\toolhist\\Cache on Windows).",
    )
    return option(func)  # type: ignore[no-any-return]


def index_file(given: Path | None) -> Path:
    """The index path given, else the default."""
    return given if given is not None else default_path()


@contextmanager
def open_index(given: Path | None, where: Places) -> Iterator[sqlite3.Connection]:
    """The index, refused inside the agents' folders (raises `toolhist.index.IndexProblem`)."""
    path = index_file(given)
    check_location(path, [folder for _, folder in where.where()])
    conn = connect(path)
    try:
        yield conn
    except sqlite3.Error as exc:
        raise IndexProblem(f"{path}: the session index failed: {exc}") from None
    finally:
        conn.close()


@contextmanager
def progress() -> Iterator[TerminalProgress]:
    """A progress line on stderr (drawn only on a terminal); Ctrl-C says how far the index got."""
    shown = TerminalProgress()
    try:
        yield shown
    except Stopped as stop:
        shown.done()
        click.echo(
            f"toolhist: interrupted: {stop.done:,} of {stop.total:,} sessions read into the index "
            "(kept; run again to read the rest)",
            err=True,
        )
        raise
    finally:
        shown.done()


def size_text(size: int) -> str:
    """Bytes as ``12.3 MB``."""
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.1f} kB"
