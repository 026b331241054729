"""The read's progress bar, moved while a reader streams a file (issue 26: long work shows progress).

A 1 GB Codex rollout takes a minute or two to read; the bar stood at zero all that time. The reader
reports the bytes it has read (`toolhist.readers.load_document`'s ``progress``), but it does so inside
`toolhist.views.state._load`, a cached function: Streamlit records what such a function writes, to
replay it on a cache hit, and refuses a write into a placeholder made outside it
(``CacheReplayClosureError``). So the reader only notes the figure here, and a thread given the
script run's context moves the bar a few times a second; it is stopped before the bar is emptied.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any

from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx

EVERY = 0.4
"""Seconds between two moves of the bar (the reader reports every few MB)."""


class Ticker:
    """A ``progress(done, total)`` callback for the reader, and the thread that shows what it noted.

    ``text(done, total)`` is the bar's label; it must hold no user-derived text (a file name): a
    progress label is Markdown.
    """

    def __init__(self, bar: Any, text: Callable[[int, int], str]) -> None:
        self._bar = bar
        self._text = text
        self._noted: tuple[int, int] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __call__(self, done: int, total: int) -> None:
        """Note ``done`` of ``total`` bytes read (the reader's call; the thread shows it)."""
        self._noted = (done, total)  # one assignment: the thread reads the pair whole

    def __enter__(self) -> Ticker:
        ctx = get_script_run_ctx(suppress_warning=True)
        if ctx is not None:  # outside a script run (a test calling the page's code) nothing is shown
            thread = threading.Thread(target=self._run, name="toolhist-read-progress", daemon=True)
            add_script_run_ctx(thread, ctx)
            thread.start()
            self._thread = thread
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        shown: tuple[int, int] | None = None
        while not self._stop.wait(EVERY):
            noted = self._noted
            if noted is None or noted == shown or noted[1] <= 0:
                continue
            done, total = noted
            try:
                self._bar.progress(min(done / total, 1.0), text=self._text(done, total))
            except BaseException:  # e.g. Streamlit's StopException (not an Exception): nothing to move
                return
            shown = noted
