"""Home's "Share" section: the session's self-contained HTML report, built when asked for.

The report (`toolhist.report`) is what ``toolhist report`` writes: no script, nothing fetched, all
session content escaped, secrets redacted (it is meant to leave the machine). Building it judges and
curates for every provider, so it is made on a click, never on a rerun, and kept per session key:
a page that only looks at the session does not pay for it.
"""

from __future__ import annotations

from pathlib import PurePath

import streamlit as st

from toolhist.model import Session
from toolhist.report import report
from toolhist.views import state


@st.cache_resource(max_entries=2, show_spinner=False)
def _report(key: str, name: str, _session: Session) -> bytes:
    """`toolhist.report.report` of the open session, cached per content key.

    A session read from bytes (a sample, an upload) has no path: the report is titled with the file
    name the app shows, as ``toolhist report FILE`` titles it with the file's (a paste has none).
    """
    if _session.source.path is None and name and not name.startswith("<"):
        _session = _session.model_copy(update={"source": _session.source.model_copy(update={"path": name})})
    return report(_session).encode("utf-8")


def share(opened: state.Opened, name: str) -> None:
    """A button that builds the report, then its download (the file name follows the session's)."""
    st.subheader("Share")
    st.caption(
        "One HTML file to attach to a bug report: summary, verdicts, timeline, violations, what curation "
        "changes and the bodies. It runs no script and loads nothing; keys, tokens and passwords are "
        "redacted. The same file as `toolhist report FILE -o report.html`."
    )
    built = st.session_state.get("share_built") == opened.key
    if not built and st.button("Build the report", key="share_build"):
        with st.spinner("Building the report…"):
            _report(opened.key, name, opened.session)
        st.session_state["share_built"] = built = opened.key
    if built:
        data = _report(opened.key, name, opened.session)
        st.download_button(
            f"Download the report ({len(data) / 1e3:,.0f} kB)",
            data,
            file_name=f"{PurePath(name).stem or 'session'}-toolhist-report.html",
            mime="text/html",
            key="share_download",
        )
