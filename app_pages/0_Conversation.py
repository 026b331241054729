"""Conversation: the session as a transcript, tool calls as cards, violations where they point.

Layout and state only: the threads, the index, the search and the HTML come from
`toolhist.views.transcript` and `toolhist.views.transcript_html`. A window of messages is shown at
a time (a 100,000-message session renders one page of cards, not 100,000). Deep link:
``?sample=…&provider=…&msg=…&thread=…``; ``msg=`` from any page lands on that message here.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from toolhist.agents.claude_code.reader import read_sidechain
from toolhist.check import is_as_sent, verdict
from toolhist.errors import ToolhistError
from toolhist.formats.document import Document
from toolhist.model import Session
from toolhist.providers import PROVIDERS, Violation
from toolhist.ran_on import ran_on
from toolhist.readers import load_document
from toolhist.redact import redact_bytes
from toolhist.views import failure, state
from toolhist.views.transcript import (
    MAIN,
    SEARCH_FIELDS,
    Index,
    SearchField,
    SearchIndex,
    hits_rows,
    index_of,
    search,
    search_index,
    threads,
    window_of,
)
from toolhist.views.transcript_html import CSS, conversation_html

SIZES = (25, 50, 100, 200)  # messages per page
CONTEXT = 1  # messages shown above the one jumped to
HITS = 200  # search hits listed
VIOLATION_ROWS = 1000  # violations listed to jump from


@st.cache_resource(max_entries=4, show_spinner="Reading the thread…")
def thread_of(key: str, thread: str, _opened: state.Opened) -> tuple[Document, Session]:
    """The document and session of a thread: the one opened, a sidechain in it, or a subagent file."""
    if thread.startswith("sidechain:"):
        return _opened.document, read_sidechain(_opened.input.source(), thread.removeprefix("sidechain:"))
    if thread.startswith("file:"):
        path = Path(thread.removeprefix("file:"))
        data = path.read_bytes()
        if _opened.input.redacted is not None:  # the "Redact secrets" switch covers the subagents too
            data = redact_bytes(data)
        return load_document(data, None, name=str(path))
    return _opened.document, _opened.session


@st.cache_resource(max_entries=4, show_spinner=False)
def index(key: str, thread: str, _session: Session) -> Index:
    """`index_of` a thread, cached (one pass over the session)."""
    return index_of(_session)


@st.cache_resource(max_entries=2, show_spinner="Indexing the session for search…")
def searchable(key: str, thread: str, _session: Session) -> SearchIndex:
    """`search_index` of a thread, built on the first search and kept."""
    return search_index(_session)


@st.cache_resource(max_entries=16, show_spinner="Checking the thread…")
def thread_verdict(
    key: str, thread: str, provider: str, _doc: Document, _session: Session
) -> list[Violation]:
    """A sidechain's or subagent file's verdict (the main thread's is `Opened.found`)."""
    return verdict(_doc, _session, provider)


@st.cache_resource(max_entries=8, show_spinner=False)
def violation_rows(key: str, thread: str, provider: str, _found: list[Violation]) -> pd.DataFrame:
    """The located violations as rows to jump from (message, block, rule, severity), cached."""
    rows = [
        {"message": v.message_index, "block": v.block_index, "rule": v.rule, "severity": v.severity}
        for v in _found
        if v.message_index is not None
    ]
    return pd.DataFrame(rows, columns=["message", "block", "rule", "severity"])


def default_provider(opened: state.Opened) -> str:
    """The provider the session ran on, else the first that rejects it, else the first provider."""
    ran = ran_on(opened.session)
    if ran is not None and ran.provider in PROVIDERS:
        return ran.provider
    if st.query_params.get("provider") in PROVIDERS:
        return str(st.query_params["provider"])
    return next((p for p in PROVIDERS if any(v.severity == "error" for v in opened.found(p))), PROVIDERS[0])


def jump(message: int) -> None:
    """Show ``message`` near the top of the window, highlighted, and name it in the URL."""
    st.session_state["cv_focus"] = message
    st.session_state["cv_start"] = max(0, message - CONTEXT)
    st.session_state["cv_scroll"] = True
    st.session_state["cv_msg_link"] = str(message)
    state.remember("msg", str(message))


def move(step: int) -> None:
    """Previous / next page (a button's callback)."""
    size = int(st.session_state.get("cv_size", 50))
    st.session_state["cv_start"] = max(0, int(st.session_state.get("cv_start", 0)) + step * size)


def picked_row(key: str) -> int | None:
    """The row selected in the table widget ``key`` at the start of this run, if any."""
    selection = st.session_state.get(key)
    rows = selection["selection"]["rows"] if isinstance(selection, dict) and "selection" in selection else []
    return int(rows[0]) if rows else None


def jump_table(frame: pd.DataFrame, key: str) -> None:
    """A table whose selected row jumps to its ``message`` (once per selection)."""
    row = picked_row(key)
    if row is not None and row < len(frame) and st.session_state.get(f"{key}__done") != row:
        st.session_state[f"{key}__done"] = row
        jump(int(frame.iloc[row]["message"]))
    st.dataframe(frame, hide_index=True, key=key, on_select="rerun", selection_mode="single-row")


st.set_page_config(page_title="toolhist · Conversation", layout="wide")
st.title("Conversation")
opened = state.open_session(())

path = opened.input.path
choices = threads(opened.session, str(Path(path).expanduser()) if path else None)
keys = [t.key for t in choices]
linked_thread = st.query_params.get("thread")
if linked_thread in keys and st.session_state.get("cv_thread_link") != linked_thread:
    st.session_state["cv_thread"] = linked_thread
    st.session_state["cv_thread_link"] = linked_thread
if st.session_state.get("cv_thread") not in keys:
    st.session_state["cv_thread"] = MAIN.key
if len(choices) > 1:
    labels = {t.key: t.label for t in choices}
    st.sidebar.selectbox("Thread", keys, format_func=labels.__getitem__, key="cv_thread")
thread = str(st.session_state["cv_thread"])
state.remember("thread", None if thread == MAIN.key else thread)
st.session_state["cv_thread_link"] = None if thread == MAIN.key else thread  # the URL as now written
if st.session_state.get("cv_thread_of") != (opened.key, thread):  # another session or thread: from the top
    st.session_state["cv_thread_of"] = (opened.key, thread)
    st.session_state.pop("cv_focus", None)
    st.session_state["cv_start"] = 0

try:
    document, session = thread_of(opened.key, thread, opened)
except (OSError, ToolhistError) as exc:
    failure.alert("error", "This thread cannot be read.", f"{thread}: {exc}")
    st.stop()
count = len(session.messages)
idx = index(opened.key, thread, session)

provider = state.pick(
    "provider", "Violations of", list(PROVIDERS), default_provider(opened), key="cv_provider"
)
found = (
    opened.found(provider)
    if thread == MAIN.key
    else thread_verdict(opened.key, thread, provider, document, session)
)
errors = sum(v.severity == "error" for v in found)
judged = (
    "as sent (a request body)" if is_as_sent(session, provider) else "as the next request the agent sends"
)
st.caption(
    f"{count:,} message{'s' if count != 1 else ''}"
    f" · {idx.call_count:,} tool call{'s' if idx.call_count != 1 else ''}"
    f" · {len(session.unsent):,} record{'s' if len(session.unsent) != 1 else ''} kept but not sent"
    f" · {provider}: {errors} error(s), {len(found) - errors} warning(s), judged {judged}. "
    "Markdown is shown as text where it would fetch anything: images and links appear as their addresses."
)

size = int(st.sidebar.selectbox("Messages per page", SIZES, index=1, key="cv_size"))
linked = st.query_params.get("msg")
if "cv_focus" not in st.session_state or (
    linked is not None and linked != st.session_state.get("cv_msg_link")
):
    focus = state.message_param(count)
    st.session_state["cv_msg_link"] = linked
    if focus is None:
        st.session_state["cv_focus"] = None
    else:
        jump(focus)

# Always in view, not in an expander: the browser alone knew whether an expander was open, and on a
# server's first runs it was found closed again after a search had run (the hits hidden under it;
# CI trials 2026-11-28). Search is what a long session is read by, so it stays where it is seen.
with st.container(border=True):
    query_col, field_col = st.columns([3, 2])
    query = query_col.text_input("Find", key="cv_query", placeholder="text, a tool's name or a call id")
    fld: SearchField = field_col.radio(
        "In", list(SEARCH_FIELDS), format_func=SEARCH_FIELDS.__getitem__, key="cv_field", horizontal=True
    )
    if query.strip():
        hits, total = search(session, searchable(opened.key, thread, session), query, fld, limit=HITS)
        st.caption(
            f"{total:,} match{'es' if total != 1 else ''} in {SEARCH_FIELDS[fld]}"
            + (f"; the first {HITS} listed" if total > HITS else "")
            + ". Select a row to go to its message."
        )
        if hits:
            jump_table(pd.DataFrame(hits_rows(hits)), f"cv_hits:{thread}:{fld}:{query.strip()}")

if found:
    with st.expander(f"{len(found):,} violation(s) of {provider}: select one to go to its message"):
        frame = violation_rows(opened.key, thread, provider, found)
        if len(frame) > VIOLATION_ROWS:
            st.caption(f"The first {VIOLATION_ROWS:,} of {len(frame):,}; the Violations page lists them all.")
        if len(frame):
            jump_table(frame.head(VIOLATION_ROWS), f"cv_violations:{thread}:{provider}")
        elsewhere = [v for v in found if v.message_index is None]
        if elsewhere:
            st.caption(
                f"{len(elsewhere)} not in a logged message (a request field, or the next request's tail):"
            )
            for v in elsewhere[:VIOLATION_ROWS]:
                st.text(f"{v.rule} · {v.severity} · {v.path}")
                st.code(v.error_text, language=None, wrap_lines=True)

if count == 0:
    st.info("This thread has no message the agent sends.")
start = int(st.session_state.get("cv_start", 0))
shown = window_of(count, start, size)
st.session_state["cv_start"] = shown.start
nav = st.columns([1, 1, 2, 4])
nav[0].button("◀ Previous", on_click=move, args=(-1,), disabled=shown.start == 0, key="cv_prev")
nav[1].button("Next ▶", on_click=move, args=(1,), disabled=shown.stop >= count, key="cv_next")
goto = nav[2].number_input("Go to message", 0, max(0, count - 1), value=None, key="cv_goto", placeholder="#")
if goto is not None and st.session_state.get("cv_goto_done") != goto:
    st.session_state["cv_goto_done"] = goto
    jump(int(goto))
    shown = window_of(count, int(st.session_state["cv_start"]), size)
if count:
    nav[3].caption(f"Messages {shown.start:,} to {shown.stop - 1:,} of {count:,}")

focus = st.session_state.get("cv_focus")
st.html(f"<style>{CSS}</style>")
st.html(conversation_html(session, idx, shown, found, focus=focus if isinstance(focus, int) else None))
if st.session_state.pop("cv_scroll", False) and isinstance(focus, int) and focus in shown:
    # our own script, no session content: bring the message jumped to into view, and again once the
    # elements drawn in the same run (the search results above it) have settled and moved it down
    st.iframe(
        f"<script>function go() {{ var m = window.parent.document.getElementById('th-msg-{int(focus)}');"
        "if (m) { m.scrollIntoView({block: 'start'}); } }"
        "go(); [150, 500, 1200].forEach(function (t) { setTimeout(go, t); });</script>",
        height=1,
    )
