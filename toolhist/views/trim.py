"""Give the heap pages a big transient freed back to the system (glibc's ``malloc_trim``).

The Streamlit server runs each page in a thread of its own, and glibc gives threads their own
arenas; what a page frees (a 100,000-message body rendered to be packed, a compacted history, a
parsed JSON document) stays in the process's RSS as free heap until it is reused, which the next
page, in another arena, may never do. ``malloc_trim(0)`` returns every arena's free pages. Called
only after a cached result is made (a miss), never on a rerun that computes nothing; where there is
no glibc (macOS, Windows, musl) it does nothing.
"""

from __future__ import annotations

import ctypes
import functools
import sys
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    found: Callable[[int], int] | None = getattr(libc, "malloc_trim", None)
    return found


def trimmed() -> bool:
    """Return the heap's free pages to the system; whether this platform could."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
