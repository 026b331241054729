"""Progress of long index work on a terminal: one line on stderr, rewritten in place, only on a TTY.

``reading sessions into the index: 1,200 of 3,000 (40%, 45/s)``; nothing at all when stderr is a
file or a pipe (a script's log keeps only the result). At most ten updates a second.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class TerminalProgress:
    """A `toolhist.index.listing.Progress` that draws on ``stream`` (default stderr) when it is a TTY."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.shown = False
        self.start = time.monotonic()
        self.last = 0.0

    @property
    def active(self) -> bool:
        """Whether anything is drawn (stderr is a terminal)."""
        isatty = getattr(self.stream, "isatty", None)
        return bool(isatty and isatty())

    def __call__(self, done: int, total: int | None, what: str) -> None:
        now = time.monotonic()
        if not self.active or (now - self.last < 0.1 and done != total):
            return
        self.last = now
        rate = done / (now - self.start) if now > self.start else 0.0
        count = f"{done:,}" if total is None else f"{done:,} of {total:,} ({done / max(total, 1):.0%}, {rate:.0f}/s)"
        self.stream.write(f"\r\x1b[K{what}: {count}")
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        """End the line (when one was drawn)."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False

