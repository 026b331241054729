"""Once per server, when it starts: the imports the pages' first visits would otherwise each wait for.

Measured at 10,000 messages under AppTest (cProfile, one session visiting the pages in
``benchmarks/bench_app.py``'s order): the Curation page's first visit imported pandas' Styler with
jinja2 (0.27 s of its 2.0 s: ``DataFrame.style``, for its change log's row colours), and the
Compaction page's first visit its engine. Neither depends on the session, and a server pays each
once; so the app's entry (``app.py``) calls `warm` on every run, which imports them on the
server's first run only (`st.cache_resource`), in the script's own thread (an import on another
thread could interleave with the page's imports). Nothing here changes what a page shows.

The o200k token encoder is not built here. Built on a thread at the server's first run, it took
1.3 s of CPU (tiktoken's ``CoreBPE``, holding the interpreter) just when the first session is read:
in ``benchmarks/bench_app.py`` the home page's read of a 100,000-message file took 6.0 and 6.8 s
beside the landed tree's 4.0 and 4.7 (both orders), and 1.1 against 0.9 s at 10,000, for 0.4 s
saved on Compaction's first visit. The read is what every user waits for first; Compaction builds
the encoder when it first counts (`toolhist.tokens._encoding`, under a lock).
"""

from __future__ import annotations

from contextlib import suppress

import streamlit as st


@st.cache_resource(show_spinner=False)
def warm() -> bool:
    """Import what the pages' first visits would import (once per server: True when done)."""
    import pandas.io.formats.style  # noqa: F401  # Curation's ``DataFrame.style`` (and jinja2)

    import toolhist.compaction  # noqa: F401  # the Compaction page's engine

    with suppress(ImportError):  # the [app] extra's encoder (`toolhist.encodings`), imported here too
        import tiktoken  # noqa: F401
    return True
