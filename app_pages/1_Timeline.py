"""Timeline: every tool call linked to its result(s), violations ringed, one message inspected.

Layout and state only: the event frame and the figure come from `toolhist.views.timeline`, the
picture from `toolhist.views.svg`. Deep link: ``?sample=…&provider=…&msg=…&chart=interactive``.

The chart is, by default, a picture the server draws: an SVG of the window on show
(`toolhist.views.svg.timeline_svg`, cached as `toolhist.views.derived.picture`), every session
string escaped (line breaks too: it is one markdown HTML block), shown with ``st.markdown``
(``st.html`` cannot: Streamlit's DOMPurify html profile strips every SVG element); no script. Plotly's
JavaScript is what made the page slow to show: loading and starting it took ~3 s of a first visit on
a loaded 2-core box (the 10-message sample drew in ~4 s on a first visit and 0.7 s on a second,
WebGL or SVG traces alike), against ~0.4 s of server work at 10,000 messages. The picture carries
what the figure shows (a lane per tool, calls, results, links, violations ringed with their rule as
a tooltip, the inspected message marked). Each kind of mark is one SVG path, so a 2,500-message
window is ~100 elements and ~120 KB, not ~8,000 elements with a tooltip each (580 KB, which
Streamlit's markdown renderer took ~3 s to mount). A message is picked in the event table or the
Message box; marks are not links (a link reloads the app, which reads the session again). Zoom and picking a
point on the chart are one switch away ("Interactive chart", ``?chart=interactive``), remembered
across reruns and pages (`toolhist.views.prefs.switch`).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from toolhist.providers import PROVIDERS
from toolhist.views import state
from toolhist.views.sent import as_sent, default_provider
from toolhist.views.timeline import has_times
from toolhist.views.widgets import COUNT, show_message

PAGE_ROWS = 500  # event rows per table page
CHART_WINDOW = 2500  # messages drawn at once; a longer history pages through windows of this size,
# and the window (and the table's page) follows the inspected message (picked on the chart or in the
# table, typed in the Message box, linked) unless moved by hand

st.set_page_config(page_title="toolhist · Timeline", layout="wide")
st.title("Timeline")
# Providers whose violations are ringed: ?provider= (a link), else the provider it ran on, else the
# first that rejects it (`toolhist.views.sent.default_provider`); the others are added in the sidebar.
linked = st.query_params.get("provider")
fresh = "tl_providers" not in st.session_state or (
    linked in PROVIDERS and st.session_state.get("tl_linked") != linked
)
opened = state.open_session([linked] if linked in PROVIDERS else ())
session = opened.session
count = len(session.messages)
as_sent()
if fresh:
    st.session_state["tl_providers"] = [
        linked if linked in PROVIDERS else default_provider(opened.key, session, opened.found)
    ]
    st.session_state["tl_linked"] = linked
chosen: list[str] = st.sidebar.multiselect("Highlight violations for", PROVIDERS, key="tl_providers")
if len(chosen) == 1:
    state.remember("provider", chosen[0])
    st.session_state["tl_linked"] = chosen[0]
elif "provider" in st.query_params:
    del st.query_params["provider"]
axis = "turn"
state.checked(opened, chosen)  # a provider added to the highlight is checked now, with progress
frame = state.events(opened.key, tuple(chosen), opened)
if has_times(frame):
    axis = str(st.sidebar.radio("Axis", ["turn", "time"], key="tl_axis", horizontal=True))

# the 400 the user came for: the page opens on the chosen providers' first error (a warning only
# when there is no error)
first_error = min(
    (
        v.message_index
        for p in chosen
        for v in opened.found(p)
        if v.severity == "error" and v.message_index is not None
    ),
    default=None,
)
calls = int((frame["kind"] == "call").sum())
results = int((frame["kind"] == "result").sum())
flagged = frame[frame["violations"] != ""]
cols = st.columns(5)
cols[0].metric("Messages", count, format=COUNT)
cols[1].metric("Tool calls", calls, format=COUNT)
cols[2].metric("Tool results", results, format=COUNT)
cols[3].metric(
    "Unanswered / unmatched",
    f"{(frame['status'] == 'unanswered').sum():,} / {(frame['status'] == 'unmatched').sum():,}",
)
cols[4].metric("Marked by violations", int(flagged["message"].nunique()), format=COUNT)
st.caption(
    "Circles are calls, squares results, diamonds messages with neither; grey lines link a call to its "
    f"result(s); red rings mark violations for {', '.join(chosen) if chosen else 'no provider'}; "
    "a dashed line marks the inspected message. Hover a ring for its violation; pick a table row or type "
    "in the Message box to inspect a message (with Interactive chart on: hover any point, zoom, and click "
    "or box-select a point)."
)


def _message_of(customdata: Any) -> int:
    """A point's message from its ``[event, message]`` customdata.

    The browser hands a row of a 2-D customdata array as ``{"0": event, "1": message}``; AppTest and
    plain lists give a list.
    """
    return int(customdata["1"] if isinstance(customdata, dict) else customdata[1])


def _selected(key: str, field: str) -> list[Any]:
    """``field`` (``points``, ``rows``) of the selection widget ``key`` holds at the start of the run.

    The state is a dict under AppTest and an attribute object in the server; empty when none.
    """
    event = st.session_state.get(key)
    selection = (
        event.get("selection") if isinstance(event, dict) else getattr(event, "selection", None)
    ) or {}
    return list(selection.get(field, []) if isinstance(selection, dict) else getattr(selection, field))


def _chart_pick() -> int | None:
    """The message a new chart selection points at (its points' ``customdata``), else None.

    Read from the widget's state at the start of the run, before the table is drawn, so the table
    can page to the message picked on the chart in the same run (AppTest hands plain dicts).
    """
    points: list[Any] = _selected("tl_chart", "points")
    picked = next((_message_of(p["customdata"]) for p in points if p.get("customdata")), None)
    if picked is None or st.session_state.get("tl_seen_chart") == picked:
        st.session_state["tl_seen_chart"] = picked
        return None
    st.session_state["tl_seen_chart"] = picked
    return picked


def _table_rows() -> list[int]:
    """The rows selected in the event table (as the widget holds them at the start of the run)."""
    return list(_selected("tl_table", "rows"))


def chart() -> None:
    """The chart of the window holding the inspected message (all of a short history)."""
    plotted = frame
    window: tuple[int, int] | None = None
    if count > CHART_WINDOW:
        windows = -(-count // CHART_WINDOW)
        inspected = int(st.session_state.get("tl_msg", 0))
        if st.session_state.get("tl_window_for") != inspected:  # a new message: the chart follows it
            st.session_state["tl_window"] = inspected // CHART_WINDOW + 1
            st.session_state["tl_window_for"] = inspected
        window_no = int(
            st.number_input(
                f"Chart window (of {windows}; {CHART_WINDOW} messages a window)", 1, windows, key="tl_window"
            )
        )
        lo, hi = (window_no - 1) * CHART_WINDOW, min(window_no * CHART_WINDOW, count)
        window = (lo, hi)
        plotted = frame[(frame["message"] >= lo) & (frame["message"] < hi)]
        outside = int(flagged["message"].nunique()) - int(
            plotted[plotted["violations"] != ""]["message"].nunique()
        )
        st.caption(
            f"Messages {lo} to {hi - 1}; {outside} marked message(s) outside this window. "
            "Triangles at the edges: the other end of a link is outside this window (hover for its message)."
        )
    if not len(plotted):
        st.info("This history has no tool calls or results, and no violation for the providers chosen.")
        return
    interactive = state.switch(
        "chart",
        "interactive",
        "Interactive chart",
        key="tl_interactive",
        help="Zoom, pan, and click or box-select a point to inspect its message (loads Plotly: slower).",
    )
    selected = st.session_state.get("tl_msg")
    if not interactive:  # the picture is cached as the figure is
        drawn = window if window is not None else (0, count)
        st.markdown(
            state.picture(opened.key, tuple(chosen), axis, selected, drawn, plotted), unsafe_allow_html=True
        )
    else:
        st.plotly_chart(  # the figure is cached: a rerun that moves nothing does not build it again
            state.figure(opened.key, tuple(chosen), axis, selected, window, plotted),
            key="tl_chart",
            on_select="rerun",
            selection_mode=("points", "box"),
            config={"displaylogo": False, "scrollZoom": True},
        )


def table() -> None:
    """The event table, filtered and paged; it pages to the inspected message and selects its row.

    A row picked here becomes the inspected message; a message picked on the chart (`_chart_pick`),
    typed in the Message box or linked moves the table to its page (unless the filters hide it),
    once per new message, so paging by hand stays where it is.
    """
    filters = st.columns([2, 2, 1.6])  # the toggle's label whole at 1,400 px
    statuses = filters[0].multiselect("Status", sorted(frame["status"].unique()), key="tl_status")
    needle = filters[1].text_input("Call id or tool contains", key="tl_needle")
    only_bad = filters[2].toggle("Violations only", key="tl_only_bad")
    shown = frame
    if statuses:
        shown = shown[shown["status"].isin(statuses)]
    if needle:
        shown = shown[
            shown["call_id"].str.contains(needle, regex=False)
            | shown["tool"].str.contains(needle, regex=False)
        ]
    if only_bad:
        shown = shown[shown["violations"] != ""]
    inspected = int(st.session_state.get("tl_msg", 0))
    positions = (shown["message"].to_numpy() == inspected).nonzero()[0]
    pages = max(1, -(-len(shown) // PAGE_ROWS))
    page = 1
    if pages > 1:
        current = int(st.session_state.get("tl_page", 1))
        if st.session_state.get("tl_page_for") != inspected and len(positions):
            on_page = [int(i) for i in positions if (current - 1) * PAGE_ROWS <= i < current * PAGE_ROWS]
            if not on_page:  # the table follows a new message to the page of its first event
                st.session_state["tl_page"] = int(positions[0]) // PAGE_ROWS + 1
        st.session_state["tl_page_for"] = inspected
        page = int(st.number_input(f"Page (of {pages}; {PAGE_ROWS} rows a page)", 1, pages, key="tl_page"))
    start = (page - 1) * PAGE_ROWS
    window = shown.iloc[start : start + PAGE_ROWS]
    rows = _table_rows()
    if rows != st.session_state.get("tl_seen_rows", []) and rows and rows[0] < len(window):
        # a row the user has just picked (not the selection this page set): its message is inspected
        inspected = st.session_state["tl_msg"] = int(window["message"].iloc[rows[0]])
        st.session_state["tl_page_for"] = inspected
        positions = (shown["message"].to_numpy() == inspected).nonzero()[0]
    # a row of the inspected message on this page is selected: the one picked, else its first one
    mine = [int(i) - start for i in positions if start <= i < start + PAGE_ROWS]
    selected = _table_rows()[:1]
    if not (selected and selected[0] in mine) and selected != mine[:1]:
        st.session_state["tl_table"] = {"selection": {"rows": mine[:1], "columns": [], "cells": []}}
    st.session_state["tl_seen_rows"] = _table_rows()
    selected = _table_rows()[:1]
    if selected:  # the grid does not scroll to its selection: say where it is
        st.caption(f"Message {inspected}: row {selected[0] + 1} of this page (selected).")
    elif len(positions):
        st.caption(f"Message {inspected} is on page {int(positions[0]) // PAGE_ROWS + 1}.")
    else:
        st.caption(f"Message {inspected} has no row in this table (no call or result, or filtered out).")
    st.dataframe(
        window,
        hide_index=True,
        key="tl_table",
        on_select="rerun",
        selection_mode="single-row",
        column_order=("message", "kind", "tool", "call_id", "status", "partner", "violations"),
        placeholder="",  # an unanswered call has no partner: an empty cell, not "None"
    )


@st.fragment
def body() -> None:
    """Chart and table on the left, the inspected message on the right."""
    from_link = state.message_param(count)
    if "tl_msg" not in st.session_state or (
        st.query_params.get("msg") is not None
        and st.session_state.get("tl_msg_link") != st.query_params.get("msg")
    ):
        st.session_state["tl_msg"] = (
            from_link
            if from_link is not None
            else first_error
            if first_error is not None
            else int(flagged["message"].iloc[0])
            if len(flagged)
            else 0
        )
        st.session_state["tl_msg_link"] = st.query_params.get("msg")
    picked = _chart_pick()
    if picked is not None:
        st.session_state["tl_msg"] = picked
    left, right = st.columns([3, 2])
    with left:
        # the table runs first (a row picked there moves the inspected message, and so the chart's
        # window, in the same run) but shows below the chart
        above = st.container()
        table()
        with above:
            chart()
    with right:
        msg = int(st.number_input("Message", 0, max(count - 1, 0), key="tl_msg"))
        state.remember("msg", str(msg))
        st.session_state["tl_msg_link"] = str(msg)
        if count:
            found = [v for p in chosen for v in opened.found(p)]
            show_message(session, msg, found)


body()
