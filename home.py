"""toolhist home page: load a session, see its format and counts and which providers would reject it.

A bundled sample is open on the first run, so the page shows something before any upload.

Layout and state only: reading, counting and checking live in ``toolhist`` and ``toolhist.views``.
Parsed sessions are cached by content digest, never by widget state. Everything the session contains
is shown through Streamlit's escaping elements (tables, text, code); nothing is rendered as HTML.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pandas as pd
import streamlit as st

import toolhist
from toolhist._gc import pausing
from toolhist.check import CheckResult, is_as_sent
from toolhist.errors import ToolhistError
from toolhist.judgement import describe
from toolhist.model import Session
from toolhist.providers import PROVIDERS
from toolhist.providers.chat_shared import CHAT_SHAPED, sharing
from toolhist.ran_on import said
from toolhist.readers import FORMATS, READERS
from toolhist.summary import Summary
from toolhist.views import failure, forked, state
from toolhist.views.bundles import captured
from toolhist.views.failure import alert
from toolhist.views.home_sources import bundle_source, machine_row, machine_source
from toolhist.views.machine import ran_on_line
from toolhist.views.matrix import provider_totals, violation_matrix
from toolhist.views.sent import as_sent, ran_on_of
from toolhist.views.share import share
from toolhist.views.state import DEFAULT_SAMPLE, MAX_UPLOAD_MB, Input
from toolhist.views.summary import (
    messages_table,
    summary_rows,
    unsent_table,
    verdict_row,
    verdict_rows,
    verdicts_so_far,
)
from toolhist.views.transcript import threads
from toolhist.views.widgets import COUNT, PAGES, sentence, show_ids, style_links

SOURCES = ("Sample", "Upload", "Paste", "Path", "This machine", "Bundles")
# The URL parameter that reopens each source's input (an upload or a paste has none); a comment,
# not a string: Streamlit's magic would show a bare string on the page.
LINKED = {"Sample": "sample", "Path": "path", "This machine": "path", "Bundles": "path"}
PAGE_ROWS = 1000  # message rows per table page
PASTED = "<pasted text>"
# Seconds of CPU each verdict a second process could check took at 100,000 messages (render and check,
# benchmarks/generate.py's session): when one must stay here, the cheapest does, so that both
# processes end about together (the chat trio here is ~2.0 s; with Bedrock kept, this one did 2.85 s
# to the other's 2.1). A comment, not a docstring: Streamlit's magic would show it.
APART_COST = {"openai-responses": 0.5, "gemini": 0.7, "bedrock": 0.8, "anthropic": 0.9}
PATIENCE = 60.0  # seconds Home waits for a second process beyond 3x its own verdicts' time (`forked`)


def cli_path() -> str | None:
    """The file named on the command line (``streamlit run app.py -- FILE``, ``./dev app FILE``), if any.

    It opens like a ``?path=`` link: in the Path box, so the address bar then names it for every page.
    """
    if Path(sys.argv[0]).name != "app.py":  # streamlit run puts the entry script first; AppTest does not
        return None
    given = [arg for arg in sys.argv[1:] if not arg.startswith("-")]
    return given[0] if given else None


def pick_source(fmt: str | None) -> Input | None:
    """The chosen input, or None when nothing is chosen yet."""
    names = state.sample_names()
    held = state.current_input()
    wanted = st.query_params.get("sample")
    if wanted is not None and wanted not in names:
        alert("warning", f"There is no bundled sample by that name; showing {DEFAULT_SAMPLE}.", wanted)
    if wanted is None and held is not None and held.sample in names:
        wanted = held.sample  # the sample another page had open
    default = (
        names.index(wanted)
        if wanted in names
        else names.index(DEFAULT_SAMPLE)
        if DEFAULT_SAMPLE in names
        else 0
    )

    linked_path = st.query_params.get("path") or cli_path()
    if linked_path and "sample" not in st.query_params and "source" not in st.session_state:
        st.session_state["source"], st.session_state["path"] = "Path", linked_path  # a ?path= deep link
    elif "source" not in st.session_state and held is not None and held.sample is None and held.path is None:
        st.session_state["source"] = "Paste" if held.name == PASTED else "Upload"  # back from another page
    if "source" not in st.session_state:  # a default beside a value set in session state: Streamlit warns
        st.session_state["source"] = "Sample"
    source = st.segmented_control("Load from", SOURCES, key="source", required=True)
    # the URL names the input only when a link can reopen it: a sample or a path, never an upload
    for param in ("sample", "path"):
        if param in st.query_params and param != LINKED.get(str(source)):
            del st.query_params[param]
    if source == "Upload":
        upload = st.file_uploader(
            f"A session file (JSON or JSON Lines, up to {MAX_UPLOAD_MB} MB)",
            type=["json", "jsonl"],
            key="upload",
            max_upload_size=MAX_UPLOAD_MB,
        )
        if upload is not None:
            return Input(name=upload.name, data=upload.getvalue(), fmt=fmt)
        return kept(held, fmt, pasted=False)
    if source == "Paste":
        text = st.text_area("Paste a request body, a message list or a session log", key="paste", height=200)
        if text.strip():
            return Input(name=PASTED, data=text.encode("utf-8"), fmt=fmt)
        return kept(held, fmt, pasted=True)
    if source == "This machine":
        return machine_source(fmt)
    if source == "Bundles":
        return bundle_source(fmt)
    if source == "Path":
        raw = st.text_input("Path to a session file on this machine", key="path")
        if not raw.strip():
            return None
        try:  # only where sessions live or the user allows (toolhist.views.paths); a file or STORE#SESSION_ID
            opened = state.path_input(raw, fmt)
        except (OSError, ValueError, ToolhistError) as exc:
            alert("error", "Cannot read that path.", str(exc))
            return None
        st.query_params["path"] = raw.strip()
        return opened
    choice = st.selectbox("Sample session", names, index=default, key="sample")
    if choice is None:
        return None
    st.query_params["sample"] = choice
    return state.sample_input(choice, fmt)


def kept(held: Input | None, fmt: str | None, *, pasted: bool) -> Input | None:
    """The file uploaded (or text pasted) before, when the user comes back to Home from another page.

    Streamlit forgets a widget's value once a page without it has run, so the uploader is empty
    again; the session it opened is still the open one (every other page shows it), and Home shows
    it too, saying where it came from, until another is uploaded or pasted.
    """
    if held is None or held.sample is not None or held.path is not None:
        return None
    if (held.name == PASTED) != pasted:
        return None
    st.caption(
        "Showing the session opened earlier; " + ("paste" if pasted else "upload") + " another to replace it."
    )
    return Input(name=held.name, data=held.data, fmt=fmt)


def show_captured(session: Session) -> None:
    """For a session opened from a bundle: what the provider answered, and where that points."""
    banner = captured(session)
    if banner is None:
        return
    st.subheader("Captured by the toolhist guard")
    st.text(banner.headline)
    found = banner.explanation
    if found is not None and found.rule is not None:
        culprit = "unknown" if found.message_index is None else f"message {found.message_index}"
        st.text(f"The answer is {found.provider} rule {found.rule}; culprit: {culprit}. Fix: {found.fix}")
    if banner.error:
        st.code(banner.error, language=None, wrap_lines=True)
        st.page_link(PAGES["explain"], label="Explain this answer", icon=":material/help:")


@st.cache_resource(max_entries=16, show_spinner=False)
def message_rows(key: str, _session: Session, first: int) -> pd.DataFrame:
    """The message table's page from message ``first``, cached per content key and page.

    Only the rows shown are made: every row of a 100,000-message history was a second of Home's
    first run at that size, and a rerun (another page) makes only its own.
    """
    return pd.DataFrame(messages_table(_session, first, first + PAGE_ROWS))


def show_messages(key: str, session: Session) -> None:
    """The message table; a long history's a page at a time, so the browser is not sent every row."""
    st.subheader("Messages")
    total = len(session.messages)
    first = 0
    if total > PAGE_ROWS:  # a long history: a page at a time, not every row to the browser
        pages = -(-total // PAGE_ROWS)
        page = int(
            st.number_input(f"Page (of {pages}; {PAGE_ROWS} messages a page)", 1, pages, key="home_page")
        )
        first = (page - 1) * PAGE_ROWS
    rows = message_rows(key, session, first)
    if total > PAGE_ROWS:
        st.caption(f"Messages {first:,} to {first + len(rows) - 1:,} of {total:,}")
    st.dataframe(
        rows,
        hide_index=True,
        key="messages",
        # The preview goes last so it takes whatever width is left instead of being clipped mid-table.
        column_order=("#", "role", "source", "calls", "results", "preview"),
        column_config={
            "#": st.column_config.NumberColumn(width="small"),
            "role": st.column_config.TextColumn(width="small"),
            "calls": st.column_config.NumberColumn(width="small"),
            "results": st.column_config.NumberColumn(width="small"),
        },
    )
    if session.unsent:
        st.subheader("Kept in the log, not sent to the model")
        st.caption("The agent records these but leaves them out of every request; they are never rendered.")
        st.dataframe(pd.DataFrame(unsent_table(session)), hide_index=True, key="unsent")


def show_reader_notes(summary: Summary) -> None:
    """What the counts alone do not say: unanswered and unmatched ids, unsent and skipped records."""
    if summary.unanswered_calls:
        show_ids("Unanswered calls", summary.unanswered_calls, "ids_unanswered")
    if summary.unmatched_results:
        show_ids("Results answering no earlier call", summary.unmatched_results, "ids_unmatched")
    if summary.duplicate_results:
        show_ids("Calls answered more than once", summary.duplicate_results, "ids_duplicate")
    if summary.unsent:
        alert(
            "info",
            "Kept in the log, not sent to the model",
            "\n".join(f"{kind} x{n}" for kind, n in summary.unsent.items()),
        )
    if summary.skipped:
        alert(
            "warning",
            "Skipped: records this reader does not know",
            "\n".join(f"{kind} x{n}" for kind, n in summary.skipped.items()),
        )
    if summary.notes:
        alert("info", "What the reader noted", "\n".join(summary.notes))


def show_sidechains(session: Session) -> None:
    """A link to the Conversation page on the first sidechain a Claude Code log keeps apart.

    The reader's note says how to load one from Python (``read_sidechain``); in the app the
    subagents' threads are under Thread on the Conversation page, and the note alone did not say so.
    """
    chains = [t for t in threads(session) if t.key.startswith("sidechain:")]
    if chains:
        st.page_link(
            PAGES["conversation"],
            label=f"Read its {len(chains)} sidechain(s) (subagent threads) on the Conversation page",
            icon=":material/forum:",
            query_params={"thread": chains[0].key},
        )


@st.cache_resource(max_entries=4, show_spinner=False)
def summary_of(key: str, _session: Session) -> Summary:
    """`toolhist.summarize`, cached per content key."""
    return toolhist.summarize(_session)


@st.cache_resource(max_entries=4, show_spinner=False)
def verdict_tables(
    key: str, _result: CheckResult
) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, tuple[int, int]]]:
    """The verdict table, the rule-by-provider matrix and each provider's totals, cached per key.

    They walk every violation, and a rerun (a page of the message table) changes none of them.
    """
    return (
        pd.DataFrame(verdict_rows(_result)),
        violation_matrix(_result.results),
        provider_totals(_result.results),
    )


def verdicts_as_they_come(opened: state.Opened) -> None:
    """Each provider's verdict row as soon as it is computed; the provider it ran on (or is for) first.

    At 100,000 messages the seven verdicts take seconds each on a small machine; the user came for
    one of them (usually the provider the session ran on), so the table is on screen from the start,
    each row filled in when its provider is checked, and replaced by the full table (with the
    violation matrix) when all are. A rerun with every verdict cached draws nothing here.

    On a long session up to half the providers, among those that do not share the chat body (but the
    first), are checked meanwhile by a second process on the machine's other core
    (`toolhist.views.forked`): at 100,000 messages about half of the seven verdicts' ~7.5 s of CPU.
    Without its answer they are checked here.
    """
    key, session = opened.key, opened.session
    pending = [p for p in PROVIDERS if not state.verdict_ready(key, p)]
    if not pending:
        return
    ran = ran_on_of(key, session)
    own = [p for p in pending if is_as_sent(session, p)]  # a request body: the provider it was written for
    first = ran.provider if ran is not None and ran.provider in pending else own[0] if own else None
    # the chat-shaped providers one after another: they share one rendered body (`chat_shared`)
    pending.sort(key=lambda p: p not in CHAT_SHAPED)
    if first is not None:
        pending.remove(first)
        pending.insert(0, first)
    rows = {p: verdict_row(p, opened.found(p), is_as_sent(session, p)) for p in PROVIDERS if p not in pending}
    read = f"{len(session.messages):,} messages read ({session.source.format})"
    # the providers not sharing the chat body, but the first, go to a second process on a long session;
    # no more than this process keeps (the chat trio, one body, costs about three of the others)
    apart = [p for p in pending[1:] if p not in CHAT_SHAPED] if forked.usable(session) else []
    while len(apart) > len(pending) - len(apart):  # the cheapest stays here, beside the chat trio
        apart.remove(min(apart, key=lambda p: APART_COST.get(p, 1.0)))
    child = forked.start(opened.document, session, apart) if len(apart) > 1 else None
    here = [p for p in pending if child is None or p not in child.providers]
    bar, slot = st.empty(), st.empty()
    began = time.monotonic()
    try:
        # the chat-shaped providers share one rendered body; one collector pause over all seven
        # (`toolhist._gc.pausing`: between verdicts it re-scanned what the last one left, 2 s of 8 at 100k)
        with pausing(), sharing():
            for done, provider in enumerate(here):
                count = f"({done + 1} of {len(pending)})"
                # progress text is Markdown: the provider names and counts only, no user-derived text
                bar.progress(done / len(pending), text=f"{read}; checking {provider} {count}…")
                table = verdicts_so_far(PROVIDERS, rows, provider, f"checking {count}…", beside(child))
                slot.dataframe(pd.DataFrame(table), hide_index=True)
                rows[provider] = verdict_row(provider, opened.found(provider), is_as_sent(session, provider))
        if child is not None:
            names = ", ".join(child.providers)
            bar.progress(len(here) / len(pending), text=f"{read}; waiting for {names} (a second process)…")
            table = verdicts_so_far(PROVIDERS, rows, "", "", beside(child))
            slot.dataframe(pd.DataFrame(table), hide_index=True)
            found, child = forked.answers(child, patience=PATIENCE + 3 * (time.monotonic() - began)), None
            if found is not None:
                state.made_elsewhere(opened, found)
            # without an answer (`forked.answers`: none is sound) they are computed here, as without a fork
            with pausing():
                for provider in apart:
                    found_here = opened.found(provider)
                    rows[provider] = verdict_row(provider, found_here, is_as_sent(session, provider))
    finally:
        if child is not None:  # the run was stopped (the user left the page): no child computes on
            forked.stop(child)
        bar.empty()
        slot.empty()
    state.settle()


def beside(child: forked.Child | None) -> dict[str, str]:
    """What Home's table says of the providers a second process checks (`toolhist.views.forked`)."""
    return {} if child is None else dict.fromkeys(child.providers, "checking (second process)…")


def show(opened: state.Opened) -> None:
    """Summary, provider verdicts and the message table.

    The summary shows as soon as the session is read; the verdicts are computed after it (with a
    progress bar naming the provider being checked), so the counts are on screen meanwhile.
    """
    key, session = opened.key, opened.session
    summary = summary_of(key, session)
    st.markdown(f"**Format:** `{summary.format}` — {READERS[summary.format].description}")
    cols = st.columns(5)
    cols[0].metric("Messages", summary.messages, format=COUNT)
    cols[1].metric("Tool calls", summary.tool_calls, format=COUNT)
    cols[2].metric("Tool results", summary.tool_results, format=COUNT)
    cols[3].metric("Unanswered calls", len(summary.unanswered_calls), format=COUNT)
    cols[4].metric("Unmatched results", len(summary.unmatched_results), format=COUNT)
    show_reader_notes(summary)
    show_sidechains(session)

    st.subheader("Would a provider accept it?")
    as_sent()
    verdicts_as_they_come(opened)
    result = opened.result
    st.text(sentence(describe(result.judged, result.appended)))  # literal: pending call ids are user data
    ran = ran_on_of(key, session)
    if ran is not None:
        st.text(sentence(said(ran)))
    verdicts, matrix, totals = verdict_tables(key, result)
    counts = st.column_config.NumberColumn(format=COUNT)  # 12,904 errors, not 12904
    st.dataframe(
        verdicts, hide_index=True, key="verdicts", column_config={"errors": counts, "warnings": counts}
    )
    if len(matrix):
        st.caption("Violations per rule and provider: select a count to list those violations")
        picked = st.dataframe(
            matrix,
            key="matrix",
            on_select="rerun",
            selection_mode="single-cell",
            column_config=dict.fromkeys(result.results, counts),
        )
        cells = picked["selection"]["cells"] if isinstance(picked, dict) else picked.selection.cells
        if cells:
            row, name = cells[0]
            params = {"provider": str(name), "rule": str(matrix.index[int(row)])}
            if name not in result.results:  # the severity column: every provider with that rule
                params = {"rule": params["rule"]}
            st.switch_page(PAGES["violations"], query_params=params)
        links = st.columns(len(result.results))
        for column, (provider, (errors, warnings)) in zip(links, totals.items(), strict=True):
            if errors or warnings:
                column.page_link(
                    PAGES["violations"],
                    label=f"{provider} ({errors + warnings})",
                    help=f"{errors} error(s), {warnings} warning(s) for {provider}",
                    query_params={"provider": provider},
                )
    nav = st.columns(7)
    nav[6].page_link(PAGES["conversation"], label="Conversation", icon=":material/forum:")
    nav[0].page_link(PAGES["timeline"], label="Timeline", icon=":material/timeline:")
    nav[1].page_link(PAGES["violations"], label="Violations", icon=":material/rule:")
    nav[2].page_link(PAGES["curation"], label="Curation", icon=":material/difference:")
    nav[3].page_link(PAGES["payloads"], label="Payloads", icon=":material/data_object:")
    nav[4].page_link(PAGES["explain"], label="Explain a 400", icon=":material/help:")
    nav[5].page_link(PAGES["compaction"], label="Compaction", icon=":material/compress:")

    show_messages(key, session)

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
    style_links()  # links between pages look like links
    st.caption(
        "Inspect an LLM tool-call history: which provider would answer HTTP 400, where, and with which words."
    )
    fmt_choice = st.sidebar.selectbox("Format", ["detect", *FORMATS], key="format")
    fmt = None if fmt_choice == "detect" else fmt_choice
    picked = pick_source(fmt)
    if picked is None:
        st.info("Choose a sample, upload a file, paste JSON or give a path.")
        return
    name = picked.name
    try:
        opened = state.read(picked, ())  # the verdicts come after the summary (`show`)
    except ToolhistError as exc:
        failure.load_failed("This input cannot be read as a session.", failure.load_error(exc, fmt))
        return
    except Exception as exc:  # a bug must still be one clear line, never a traceback in the page
        failure.load_failed("Internal error (please report it).", f"{name}: {type(exc).__name__}: {exc}")
        return
    st.text(f"Session: {name}")
    row = machine_row(name) if st.session_state.get("source") == "This machine" else None
    if row is not None:
        st.text(ran_on_line(row, opened.found(row.provider) if row.provider else None))
    show_captured(opened.session)
    show(opened)
    share(opened, name)


main()
