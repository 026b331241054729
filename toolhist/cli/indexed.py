"""What ``toolhist sessions`` needs of the session index: its option, opening it, progress.

The index is a cache (`toolhist.index`): when it cannot be opened or written, ``sessions`` says so
in one line on stderr and lists without it; ``--search`` needs it and exits 2 with that line.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

from toolhist.cli.progress import Progress
from toolhist.index import INDEX_ENV, IndexProblem, Stopped, check_location, connect, default_path
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
    return option(func)


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


class IndexProgress:
    """A `toolhist.index.Progress` drawn as one status line on stderr (`toolhist.cli.progress.Progress`).

    ``reading sessions into the index  1,200/3,000  40%``; nothing when stderr is not a terminal.
    """

    def __init__(self, line: Progress) -> None:
        self.line = line

    def __call__(self, done: int, total: int | None, what: str) -> None:
        """Redraw the line (at most ten times a second; the first and the last state always)."""
        if total is None:
            self.line.show(f"{what}  {done:,}", now=done == 1)
        else:
            self.line.show(f"{what}  {done:,}/{total:,}  {done / max(total, 1):.0%}", now=done in (0, total))


@contextmanager
def progress() -> Iterator[IndexProgress]:
    """Progress on stderr (only on a terminal); Ctrl-C says how far the index got, then exits 130."""
    with Progress() as line:
        try:
            yield IndexProgress(line)
        except Stopped as stop:
            line.clear()
            click.echo(
                f"toolhist: interrupted: {stop.done:,} of {stop.total:,} sessions read into the index "
                "(kept; run again to read the rest)",
                err=True,
            )
            raise


def size_text(size: int) -> str:
    """Bytes as ``12.3 MB``."""
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.1f} kB"
