"""Timeline: every tool call linked to its result(s), violations ringed, one message inspected.

Layout and state only: the event frame and the figure come from `toolhist.views.timeline`.
Deep link: ``?sample=…&provider=…&msg=…``.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from toolhist.providers import PROVIDERS
from toolhist.views import state
from toolhist.views.timeline import has_times, timeline_figure
from toolhist.views.widgets import show_message

PAGE_ROWS = 500  # event rows per table page
CHART_WINDOW = 2500  # messages drawn at once; a longer history pages through windows of this size,
# and the window follows the inspected message (a table row, the Message box) unless moved by hand

st.set_page_config(page_title="toolhist · Timeline", layout="wide")
st.title("Timeline")
# Providers whose violations are ringed: ?provider= narrows to one (the only one checked now), else
# every provider that objects.
linked = st.query_params.get("provider")
fresh = "tl_providers" not in st.session_state or (
    linked in PROVIDERS and st.session_state.get("tl_linked") != linked
)
opened = state.open_session([linked] if linked in PROVIDERS else PROVIDERS if fresh else ())
session = opened.session
count = len(session.messages)
if fresh:
    st.session_state["tl_providers"] = (
        [linked] if linked in PROVIDERS else [p for p in PROVIDERS if opened.found(p)]
    )
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

calls = int((frame["kind"] == "call").sum())
results = int((frame["kind"] == "result").sum())
flagged = frame[frame["violations"] != ""]
cols = st.columns(5)
cols[0].metric("Messages", count)
cols[1].metric("Tool calls", calls)
cols[2].metric("Tool results", results)
cols[3].metric(
    "Unanswered / unmatched",
    f"{(frame['status'] == 'unanswered').sum()} / {(frame['status'] == 'unmatched').sum()}",
)
cols[4].metric("Marked by violations", int(flagged["message"].nunique()))
st.caption(
    "Circles are calls, squares results, diamonds messages with neither; grey lines link a call to its "
    f"result(s); red rings mark violations for {', '.join(chosen) if chosen else 'no provider'}. "
    "Select a point (or a table row) to inspect its message."
)


def _selected_message(event: Any, frame_rows: Any, kind: str) -> int | None:
    """The message a chart or table selection points at (dict-style: AppTest hands plain dicts)."""
    if not event:
        return None
    selection = event["selection"] if isinstance(event, dict) else event.selection
    if kind == "chart":
        points = selection["points"] if isinstance(selection, dict) else selection.points
        for point in points:
            data = point.get("customdata")
            if data:
                return int(data[1])
        return None
    rows = selection["rows"] if isinstance(selection, dict) else selection.rows
    return int(frame_rows.iloc[rows[0]]["message"]) if rows else None


def _apply(source: str, picked: int | None) -> None:
    """A new chart/table selection moves the inspected message (an unchanged one does not)."""
    marker = f"tl_seen_{source}"
    if picked is not None and st.session_state.get(marker) != picked:
        st.session_state["tl_msg"] = picked
    st.session_state[marker] = picked


def chart() -> None:
    """The chart of the window holding the inspected message (all of a short history)."""
    plotted = frame
    if count > CHART_WINDOW:
        windows = -(-count // CHART_WINDOW)
        inspected = int(st.session_state.get("tl_msg", 0))
        if st.session_state.get("tl_window_for") != inspected:  # a new message: the chart follows it
            st.session_state["tl_window"] = inspected // CHART_WINDOW + 1
            st.session_state["tl_window_for"] = inspected
        window_no = int(
            st.number_input(
                f"Chart window (of {windows}, {CHART_WINDOW} messages each)", 1, windows, key="tl_window"
            )
        )
        lo, hi = (window_no - 1) * CHART_WINDOW, min(window_no * CHART_WINDOW, count)
        plotted = frame[(frame["message"] >= lo) & (frame["message"] < hi)]
        outside = int(flagged["message"].nunique()) - int(
            plotted[plotted["violations"] != ""]["message"].nunique()
        )
        st.caption(f"Messages {lo} to {hi - 1}; {outside} marked message(s) outside this window.")
    if len(plotted):
        figure = timeline_figure(plotted, axis=axis, selected=st.session_state.get("tl_msg"))
        picked = st.plotly_chart(
            figure,
            key="tl_chart",
            on_select="rerun",
            selection_mode=("points", "box"),
            config={"displaylogo": False, "scrollZoom": True},
        )
        _apply("chart", _selected_message(picked, plotted, "chart"))
    else:
        st.info("This history has no tool calls or results, and no violation for the providers chosen.")


def table() -> None:
    """The event table, filtered and paged; a picked row becomes the inspected message."""
    filters = st.columns([2, 2, 1])
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
    pages = max(1, -(-len(shown) // PAGE_ROWS))
    page = 1
    if pages > 1:
        page = int(st.number_input(f"Page (of {pages}, {PAGE_ROWS} rows each)", 1, pages, key="tl_page"))
    window = shown.iloc[(page - 1) * PAGE_ROWS : page * PAGE_ROWS]
    picked = st.dataframe(
        window,
        hide_index=True,
        key="tl_table",
        on_select="rerun",
        selection_mode="single-row",
        column_order=("message", "kind", "tool", "call_id", "status", "partner", "violations"),
    )
    _apply("table", _selected_message(picked, window, "table"))


@st.fragment
def body() -> None:
    """Chart and table on the left, the inspected message on the right."""
    from_link = state.message_param(count)
    if "tl_msg" not in st.session_state or (
        st.query_params.get("msg") is not None
        and st.session_state.get("tl_msg_link") != st.query_params.get("msg")
    ):
        st.session_state["tl_msg"] = (
            from_link if from_link is not None else (int(flagged["message"].iloc[0]) if len(flagged) else 0)
        )
        st.session_state["tl_msg_link"] = st.query_params.get("msg")
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
