"""Once per server, when it starts: what the pages' first visits would otherwise each wait for.

Measured at 10,000 messages under AppTest (cProfile, one session visiting the pages in
``benchmarks/bench_app.py``'s order): the Compaction page's first visit built tiktoken's o200k
encoder (0.44 s of its 1.46 s: the bundled BPE file decoded, then tiktoken's Rust ``CoreBPE``),
and the Curation page's first visit imported pandas' Styler with jinja2 (0.27 s of its 2.0 s:
``DataFrame.style``, for its change log's row colours). Neither depends on the session, and a
server pays each once; so the app's entry (``app.py``) calls `warm` on every run, which does the
work on the server's first run only (`st.cache_resource`): the imports there, in the script's own
thread (an import on another thread could interleave with the page's imports), and the encoder on a
daemon thread, so the first page does not wait for it. A page that counts tokens before the thread
is done waits for its build (`toolhist.tokens._encoding` builds under a lock) instead of making a
second one. Nothing here changes what a page shows.
"""

from __future__ import annotations

import threading
from contextlib import suppress

import streamlit as st

from toolhist.tokens import warm_encoding


@st.cache_resource(show_spinner=False)
def warm() -> threading.Thread:
    """Import what the first visits would import, and start building the default token encoder."""
    import pandas.io.formats.style  # noqa: F401  # Curation's ``DataFrame.style`` (and jinja2)

    import toolhist.compaction  # noqa: F401  # the Compaction page's engine

    with suppress(ImportError):  # the [app] extra's encoder (`toolhist.encodings`), imported here too
        import tiktoken  # noqa: F401
    thread = threading.Thread(target=warm_encoding, name="toolhist-warm-encoding", daemon=True)
    thread.start()
    return thread
