"""toolhist home page: load a session, see its format and counts and which providers would reject it.

A bundled sample is open on the first run, so the page shows something before any upload.

Layout and state only: reading, counting and checking live in ``toolhist`` and ``toolhist.views``.
Parsed sessions are cached by content digest, never by widget state. Everything the session contains
is shown through Streamlit's escaping elements (tables, text, code); nothing is rendered as HTML.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd
import streamlit as st

import toolhist
from toolhist.check import CheckResult, check
from toolhist.errors import ToolhistError
from toolhist.formats import FORMATS, READERS
from toolhist.model import Session
from toolhist.views.summary import list_samples, messages_table, summary_rows, verdict_rows, violation_rows

SAMPLES_DIR = Path(__file__).parent / "sample_logs"
DEFAULT_SAMPLE = "openai_chat_request.json"
MAX_UPLOAD_MB = 50
SOURCES = ("Sample", "Upload", "Paste", "Path")


def alert(kind: str, title: str, detail: str) -> None:
    """A message box whose title is ours and whose detail (user-derived text) is shown literally.

    Streamlit renders alert bodies as Markdown; a file name or a role value in an error could
    otherwise inject links or images (and make the browser fetch a URL). ``st.code`` is literal.
    """
    box = {"error": st.error, "warning": st.warning, "info": st.info}[kind]
    box(
        title,
        icon={"error": ":material/error:", "warning": ":material/warning:", "info": ":material/info:"}[kind],
    )
    st.code(detail, language=None, wrap_lines=True)


@st.cache_resource(max_entries=8, show_spinner=False)
def load_cached(digest: str, fmt: str | None, name: str, _data: bytes) -> tuple[Session, CheckResult]:
    """Parse and check once per content digest and format (the bytes themselves are not hashed again)."""
    session = toolhist.load(_data, format=fmt, name=name)
    return session, check(_data, format=fmt, name=name)


def pick_source() -> tuple[str, bytes] | None:
    """The chosen input as (display name, bytes), or None when nothing is chosen yet."""
    samples = list_samples(SAMPLES_DIR)
    names = [p.name for p in samples]
    wanted = st.query_params.get("sample")
    if wanted is not None and wanted not in names:
        alert("warning", f"There is no bundled sample by that name; showing {DEFAULT_SAMPLE}.", wanted)
    default = (
        names.index(wanted)
        if wanted in names
        else names.index(DEFAULT_SAMPLE)
        if DEFAULT_SAMPLE in names
        else 0
    )

    source = st.segmented_control("Load from", SOURCES, default="Sample", key="source", required=True)
    if source == "Upload":
        upload = st.file_uploader(
            f"A session file (JSON or JSON Lines, up to {MAX_UPLOAD_MB} MB)",
            type=["json", "jsonl"],
            key="upload",
            max_upload_size=MAX_UPLOAD_MB,
        )
        return (upload.name, upload.getvalue()) if upload is not None else None
    if source == "Paste":
        text = st.text_area("Paste a request body, a message list or a session log", key="paste", height=200)
        return ("<pasted text>", text.encode("utf-8")) if text.strip() else None
    if source == "Path":
        raw = st.text_input("Path to a session file on this machine", key="path")
        if not raw.strip():
            return None
        path = Path(raw.strip()).expanduser()
        try:
            size = path.stat().st_size
        except OSError as exc:
            alert("error", "Cannot read that path.", f"{path}: {exc.strerror or exc}")
            return None
        if size > MAX_UPLOAD_MB * 1024 * 1024:
            alert(
                "error",
                f"That file is over the app's {MAX_UPLOAD_MB} MB limit; use the CLI.",
                f"{path}: {size} bytes",
            )
            return None
        return str(path), path.read_bytes()
    choice = st.selectbox("Sample session", names, index=default, key="sample")
    if choice is None:
        return None
    st.query_params["sample"] = choice
    return choice, (SAMPLES_DIR / choice).read_bytes()


def show(session: Session, result: CheckResult) -> None:
    """Summary, provider verdicts and the message table."""
    summary = toolhist.summarize(session)
    st.markdown(f"**Format:** `{summary.format}` — {READERS[summary.format].description}")
    cols = st.columns(5)
    cols[0].metric("Messages", summary.messages)
    cols[1].metric("Tool calls", summary.tool_calls)
    cols[2].metric("Tool results", summary.tool_results)
    cols[3].metric("Unanswered calls", len(summary.unanswered_calls))
    cols[4].metric("Unmatched results", len(summary.unmatched_results))
    if summary.unanswered_calls:
        st.text("Unanswered calls: " + ", ".join(summary.unanswered_calls))
    if summary.unmatched_results:
        st.text("Results answering no earlier call: " + ", ".join(summary.unmatched_results))
    if summary.duplicate_results:
        st.text("Calls answered more than once: " + ", ".join(summary.duplicate_results))
    if summary.notes:
        alert("info", "What the reader noted", "\n".join(summary.notes))

    st.subheader("Would a provider accept it?")
    st.dataframe(pd.DataFrame(verdict_rows(result)), hide_index=True, key="verdicts")
    found = violation_rows(result)
    if found:
        st.dataframe(pd.DataFrame(found), hide_index=True, key="violations")

    st.subheader("Messages")
    st.dataframe(
        pd.DataFrame(messages_table(session)),
        hide_index=True,
        key="messages",
        # The preview goes last so it takes whatever width is left instead of being clipped mid-table.
        column_order=("#", "speaker", "source", "calls", "results", "preview"),
        column_config={
            "#": st.column_config.NumberColumn(width="small"),
            "speaker": st.column_config.TextColumn(width="small"),
            "calls": st.column_config.NumberColumn(width="small"),
            "results": st.column_config.NumberColumn(width="small"),
        },
    )

    st.subheader("Summary")
    narrow, _ = st.columns([1, 2])
    narrow.dataframe(
        pd.DataFrame(summary_rows(summary)).astype(str),
        hide_index=True,
        key="summary",
        height="content",  # a dozen rows: show them all rather than scroll inside the table
        column_config={
            "": st.column_config.TextColumn(width=140),
            "value": st.column_config.TextColumn(width=160),
        },
    )


def main() -> None:
    """The page."""
    st.set_page_config(page_title="toolhist", layout="wide")  # no icon: an icon favicon loads from a CDN
    st.title("toolhist")
    st.caption(
        "Inspect an LLM tool-call history: which provider would answer HTTP 400, where, and with which words."
    )
    fmt_choice = st.sidebar.selectbox("Format", ["detect", *FORMATS], key="format")
    fmt = None if fmt_choice == "detect" else fmt_choice
    picked = pick_source()
    if picked is None:
        st.info("Choose a sample, upload a file, paste JSON or give a path.")
        return
    name, data = picked
    digest = hashlib.sha256(data).hexdigest()
    try:
        with st.spinner(f"Reading {name}…"):
            session, result = load_cached(digest, fmt, name, data)
    except ToolhistError as exc:
        alert("error", "This input cannot be read as a session.", str(exc))
        return
    except Exception as exc:  # a bug must still be one clear line, never a traceback in the page
        alert("error", "Internal error (please report it).", f"{name}: {type(exc).__name__}: {exc}")
        return
    st.text(f"Session: {name}")
    show(session, result)


main()
