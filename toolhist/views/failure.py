"""A read that failed: the one thing every page shows until another session opens.

Home records the failure (`load_failed`); every other page asks `stop_if_failed` before showing a
session, so none falls back on the session opened before (or the bundled sample) as if it were the
file that failed. A successful read clears it (`clear`).
"""

from __future__ import annotations

from typing import Literal

import streamlit as st

from toolhist.errors import ToolhistError

_FAILED = "toolhist.failed"  # (title, detail) of the last input the home page could not read


def alert(kind: Literal["error", "warning", "info"], title: str, detail: str) -> None:
    """A message box whose title is ours and whose detail (user-derived text) is shown literally.

    Streamlit renders alert bodies as Markdown; a file name or a value from the session could
    otherwise inject links or images (and make the browser fetch a URL). ``st.code`` is literal.
    """
    box = {"error": st.error, "warning": st.warning, "info": st.info}[kind]
    box(
        title,
        icon={"error": ":material/error:", "warning": ":material/warning:", "info": ":material/info:"}[kind],
    )
    st.code(detail, language=None, wrap_lines=True)


def load_failed(title: str, detail: str) -> None:
    """Show why the input could not be read, and remember it: every page then says so, and only so.

    Without this the other pages fell back on the session opened before (or the bundled sample)
    and showed it as if it were the file that failed.
    """
    st.session_state[_FAILED] = (title, detail)
    alert("error", title, detail)


def load_error(exc: ToolhistError, forced: str | None) -> str:
    """A read error's text, and where to go next when detection found no reader."""
    text = str(exc)
    if forced is None and ("unknown format" in text or "ambiguous format" in text):
        text += "\nTo read it as one format, choose that reader in the Format box (sidebar of Home)."
    return text


def clear() -> None:
    """A session was read: no failure to show any more."""
    st.session_state.pop(_FAILED, None)


def stop_if_failed() -> None:
    """On a page other than Home: the failure, and nothing else (the page stops here)."""
    failure = st.session_state.get(_FAILED)
    if failure is None:
        return
    alert("error", f"{failure[0]} (opened on Home)", failure[1])
    st.caption("Open another session on Home: this page shows the session that is open, and none is.")
    st.stop()
