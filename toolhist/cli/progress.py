"""Progress of long CLI work on one line of stderr, and what Ctrl-C does.

Reading and checking a gigabyte log takes tens of seconds; a terminal that shows nothing for that
long looks hung. So commands that read a session draw one status line on stderr, redrawn in place
(``reading session.jsonl  45%  450/1000 MB``, then ``checking session.jsonl  anthropic (3/7)``) and
erased when the work is done, so the command's own output is exactly what it was. The line is drawn
only when stderr is a terminal: a pipe, a file or a CI log gets nothing (stdout is never touched).

Ctrl-C stops any command with exit code 130 (128 + SIGINT, as shells report it) and one line,
``toolhist: interrupted``; files a command writes are written whole or not at all
(`toolhist.atomic`), so an interrupted command leaves nothing half-written behind.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from toolhist.model import Session

EXIT_INTERRUPTED = 130
"""128 + SIGINT: what a shell reports for a command stopped with Ctrl-C."""

MB = 1_000_000


class Interrupted(BaseException):
    """Ctrl-C, raised in place of KeyboardInterrupt while a command runs.

    Click answers a KeyboardInterrupt by printing an empty line before its own handling; this
    passes through it, so ``toolhist.cli.main`` prints exactly one line. A BaseException, like
    KeyboardInterrupt, so no ``except Exception`` swallows it and every ``finally`` runs.
    """


def _interrupt(signum: int, frame: FrameType | None) -> None:
    del signum, frame
    raise Interrupted


@contextmanager
def stoppable() -> Iterator[None]:
    """While the block runs, Ctrl-C raises `Interrupted` (main thread only; the old handler is restored)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class Progress:
    """One status line on ``stream`` (stderr), redrawn at most every `EVERY` seconds, only on a terminal."""

    EVERY = 0.1
    """Seconds between redraws (the first and the last state are always drawn)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _isatty(self.stream)
        self.drawn = False
        self.last = 0.0

    def show(self, text: str, *, now: bool = False) -> None:
        """Draw ``text`` over the previous status (not when drawn less than `EVERY` ago, unless ``now``)."""
        if not self.enabled:
            return
        moment = time.monotonic()
        if not now and moment - self.last < self.EVERY:
            return
        self.last = moment
        width = max(shutil.get_terminal_size().columns - 1, 20)
        self.stream.write("\r" + text[:width] + "\x1b[K")
        self.stream.flush()
        self.drawn = True

    def clear(self) -> None:
        """Erase the status line (the command's output starts on a clean line)."""
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = False

    def reading(self, path: str) -> Callable[[int, int], None]:
        """A ``progress(bytes read, total)`` callback for `toolhist.load`: ``reading NAME  45%  …``.

        Drawn at 0% at once (a whole JSON document reports only when parsed).
        """
        name = os.path.basename(path) or path

        def update(done: int, total: int) -> None:
            share = f"{100 * done // total:3d}%" if total else "   "
            text = f"reading {name}  {share}  {done / MB:,.0f}/{total / MB:,.0f} MB"
            self.show(text, now=done in (0, total))

        with contextlib.suppress(OSError):  # missing or unreadable: load says so, in its own words
            update(0, os.path.getsize(path))
        return update

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.clear()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream: no progress, never an error
        return False


def load_shown(file: str, fmt: str | None) -> Session:
    """`toolhist.load` of ``file`` with ``reading FILE  45%  …`` drawn while it reads (on a terminal)."""
    from toolhist.readers import load

    with Progress() as progress:
        return load(file, format=fmt, progress=progress.reading(file))
