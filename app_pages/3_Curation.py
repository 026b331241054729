"""Curation: what a strategy does to the history for a provider, before and after, side by side.

Layout and state only: `toolhist.curate` repairs, `toolhist.diff.diff` aligns, `toolhist.views.diffs`
makes the tables (`toolhist.views.curation_rows` caches the diff and the rows shown).
Deep link: ``?sample=…&provider=…&strategy=…&msg=…``.
"""

from __future__ import annotations

import time

import pandas as pd
import streamlit as st

from toolhist.curation import STRATEGIES
from toolhist.errors import ToolhistError
from toolhist.judgement import judgement_of, pending_calls
from toolhist.model import Session
from toolhist.providers import PROVIDERS
from toolhist.views import apart, curation_rows, forked, state
from toolhist.views.diffs import (
    changes_frame,
    compared_view,
    focus_row,
    id_map_frame,
    not_run_yet,
    pending_closed,
    pending_sentence,
    per_pass,
    row_caption,
    row_styles,
    why_changes,
)
from toolhist.views.kept import record, recorded
from toolhist.views.markup import md_literal
from toolhist.views.on_request import BUTTON, deferred, starts_library, waiting
from toolhist.views.peer_versions import pick_version, with_version
from toolhist.views.sent import default_provider, verdict_line
from toolhist.views.violations import violations_frame
from toolhist.views.widgets import COUNT, show_message, use_full_width

STYLED_ROWS = 2000  # above this many rows the before/after table is not coloured
PATIENCE = 60.0  # seconds the page waits for a second process beyond 3x its own diff's time (`forked`)
COMPARE_AT_ONCE = 2000  # above this many messages the strategies are compared only when asked


st.set_page_config(page_title="toolhist · Curation", layout="wide")
use_full_width()  # before and after side by side need the width
st.title("Curation")


@st.cache_resource(max_entries=4, show_spinner=False)
def _pending(key: str, _session: Session) -> int:
    """How many calls the log leaves pending, once per session (a pass over every message)."""
    record(key, _pending, key, None)  # dropped with the session (`toolhist.views.kept`)
    return len(pending_calls(_session))


opened = state.open_session(())  # only the provider picked is checked (below)
session = opened.session

linked = st.query_params.get("provider")
provider = state.pick(
    "provider",
    "Provider",
    list(PROVIDERS),
    linked if linked in PROVIDERS else default_provider(opened.key, session, opened.found),
    key="cu_provider",
)
default_strategy = "toolhist" if "toolhist" in STRATEGIES else STRATEGIES[0]
strategy = state.pick("strategy", "Strategy", list(STRATEGIES), default_strategy, key="cu_strategy")
strategy = pick_version(strategy)  # litellm / openai-agents: at the version picked (litellm@1.110.2)

before = state.checked(opened, [provider])[provider]
with st.spinner(f"Curating {len(session.messages):,} messages with {strategy} for {provider}…"):
    try:
        curation = state.curated(opened.key, provider, strategy, session)
    except ToolhistError as exc:  # a peer library not installed (`toolhist peers install`)
        st.error(md_literal(f"Strategy {strategy} gave no answer: {exc}"))
        st.stop()
if curation.library is not None:
    st.caption(f"Strategy {strategy} ran the real {curation.library}; the after side is the body it sent.")
# On a long session the repaired verdict is checked by a second process while this one aligns
# (`toolhist.views.apart`); without its answer it is checked here, as without one.
checking = ("violations", opened.key, provider, strategy)
job = (
    None
    if recorded(opened.key, curation_rows.diffed, opened.key, provider, strategy, None)
    or recorded(opened.key, state.violations, opened.key, provider, strategy, None)
    else apart.repair_started(curation, session)
)
began = time.monotonic()
try:
    with st.spinner("Aligning before and after…"):
        counts, aligned = curation_rows.diffed(opened.key, provider, strategy, curation)
    if job is not None:
        apart.repair_taken(job, checking, PATIENCE + 3 * (time.monotonic() - began))
        job = None
    with st.spinner(f"Checking the curated history for {provider}…"):
        left = state.violations(opened.key, provider, strategy, session)
finally:
    if job is not None:  # the run was stopped (the user left the page): no child computes on
        forked.stop(job)
    apart.drop(checking)  # an answer no cached function took (another run cached it first)

# As sent first: the verdict Home shows, then the repaired one, each saying which history it is about.
verdicts = st.columns(2)
verdicts[0].markdown(f"**As sent**, {provider} {verdict_line(before)}")
verdicts[1].markdown(f"**Repaired by `{strategy}`** (not what was sent), {provider} {verdict_line(left)}")
cols = st.columns(5)
cols[0].metric("Changes", len(curation.changes), format=COUNT)
grown = len(curation.session.messages) - len(session.messages)
cols[1].metric(  # no "0" chip when unchanged; grey: fewer or more messages is neither good nor bad
    "Messages", len(curation.session.messages), delta=grown or None, delta_color="off", format=COUNT
)
cols[2].metric(
    "Rows changed", counts["changed"] + counts["inserted"] + counts["deleted"] + counts["moved"], format=COUNT
)
cols[3].metric(
    "Errors before", sum(v.severity == "error" for v in before), help="As sent: Home's verdict.", format=COUNT
)
cols[4].metric("Errors left", sum(v.severity == "error" for v in left), format=COUNT)
st.caption(" · ".join(f"{status}: {n}" for status, n in counts.items()))
pending = pending_closed(curation.changes) if judgement_of(session) == "next-request" else 0
why = why_changes(curation.changes, provider, sum(v.severity == "error" for v in before), pending)
if why is not None:  # "accepts" beside a count of changes: say what each change is for
    st.info(why)

st.subheader("Before and after")
only_changed = st.toggle("Changed rows only", key="cu_only_changed", value=len(aligned.rows) > 200)
shown = curation_rows.table(opened.key, provider, strategy, only_changed, aligned)  # built when first shown
picked = st.dataframe(
    # colouring is per cell in the browser: only for a table of a size a person scrolls
    shown.style.apply(row_styles, axis=None) if len(shown) <= STYLED_ROWS else shown,
    hide_index=True,
    key="cu_aligned",
    # the positions are numbers (they sort 9 before 10); no message on a side is an empty cell, not "None"
    placeholder="",
    column_config={
        "before #": st.column_config.NumberColumn(width="small"),
        "after #": st.column_config.NumberColumn(width="small"),
        "before": st.column_config.TextColumn(width="large"),
        "status": st.column_config.TextColumn(width="small"),
        "after": st.column_config.TextColumn(width="large"),
        "changes": st.column_config.TextColumn(width="small"),
    },
    on_select="rerun",
    selection_mode="single-row",
)
selection = picked["selection"] if isinstance(picked, dict) else picked.selection
rows = selection["rows"] if isinstance(selection, dict) else selection.rows
position = rows[0] if rows else focus_row(shown, state.message_param(len(session.messages)))
if position is not None:
    row = shown.iloc[position]
    b, a = row["before #"], row["after #"]
    if b is not pd.NA:
        state.remember("msg", str(int(b)))
    st.caption(row_caption(position, row["status"], row["changes"]))
    sides = st.columns(2)
    with sides[0]:
        st.markdown("**Before**")
        if b is pd.NA:
            st.caption("(not in the history given: inserted by the strategy)")
        else:
            show_message(session, int(b), before)
    with sides[1]:
        st.markdown(f"**After ({strategy})**")
        if a is pd.NA:
            st.caption("(dropped by the strategy: see the change log)")
        else:
            show_message(curation.sent_session(), int(a), left, located=False)  # the ids that are sent

st.subheader("Change log")
if curation.changes:
    st.text(f"Changes per pass: {per_pass(curation.changes)}")
    fixing = sum(bool(change.fixes) for change in curation.changes)
    if fixing:
        st.caption(
            f"{fixing:,} change(s) repair a violation of the history as given (column fixes): listed first."
        )
    if pending:
        st.caption(pending_sentence(pending))
    st.dataframe(changes_frame(curation.changes), hide_index=True, key="cu_changes")
else:
    st.caption(f"Strategy {strategy} changed nothing.")
if curation.id_map:
    st.subheader("Id map")
    st.caption(
        f"Strategy {strategy} gives every call a canonical id and sends it in {provider}'s form: "
        f"{len(curation.id_map):,} call(s), one row each (not a change each)."
    )
    st.dataframe(id_map_frame(curation), hide_index=True, key="cu_id_map")

st.subheader(f"Violations left for {provider}")
if left:
    st.dataframe(
        violations_frame({provider: left}),
        hide_index=True,
        key="cu_left",
        column_order=("rule", "severity", "message", "path", "error text"),
    )
else:
    st.success(f"{provider} accepts the history repaired by {strategy} (as sent: {verdict_line(before)}).")

st.subheader("Strategies compared")
if _pending(opened.key, session):
    st.caption(
        "Each row judges the history its strategy hands on, as given: the calls the log leaves pending count "
        "as unanswered there (Errors before, above, judges the next request, which sends their results)."
    )
compare_key = f"cu_compared:{opened.key}:{provider}"
if len(session.messages) > COMPARE_AT_ONCE and not st.session_state.get(compare_key):
    st.caption(
        f"Each built-in strategy curates all {len(session.messages):,} messages for {provider}: "
        "this takes a while on a history this long."
    )
    if not st.button("Compare the built-in strategies", key="cu_compare_go"):
        st.stop()
    st.session_state[compare_key] = True  # computed rows are cached: show them on every later run
libraries_key = f"cu_libraries:{opened.key}:{provider}"
later = deferred(STRATEGIES, bool(st.session_state.get(libraries_key)), strategy)
if later:
    st.caption(
        f"{', '.join(later)} start a real library each: its first start takes seconds to tens of seconds, "
        "so they run when asked."
    )
    # set before the page runs again, so that run draws no button: kept for this session and provider
    st.button(
        BUTTON, key="cu_libraries_go", on_click=st.session_state.__setitem__, args=(libraries_key, True)
    )
running = [name for name in STRATEGIES if name not in later]
progress = st.empty()
by_name: dict[str, pd.DataFrame] = {}
for n, name in enumerate(running):
    what = f"Starting the library of {name}" if starts_library(name) else f"Curating with {name}"
    progress.progress(n / len(running), text=f"{what} ({n + 1} of {len(running)})…")
    by_name[name] = state.compared(opened.key, provider, with_version(name), session)
progress.empty()
by_name |= {name: not_run_yet({name: waiting(name)}) for name in later}
compared = pd.concat([by_name[name] for name in STRATEGIES], ignore_index=True)
st.dataframe(
    compared_view(compared),  # a strategy that did not run reads "not run", its status says why
    hide_index=True,
    key="cu_compare",
    height=35 * (len(compared) + 1) + 3,  # every strategy in view, none behind a scroll bar
    column_config={"status": st.column_config.TextColumn(width="large")},  # why one did not run
)
