"""Fleet: a scan of many sessions, per provider the share it would reject, why, since when, and the worst.

Layout and state only: `toolhist.scan.scan` scans, `toolhist.fleet.summary` counts and
`toolhist.views.fleet` draws. Opens a dataset written by ``toolhist scan DIR --dataset OUT``
(``?dataset=OUT``) or scans a folder on this machine in process (``?scan=DIR``). A worst session
opens in the Violations and Timeline pages (``?path=…``). File names and reasons are shown only in
tables and ``st.text`` (escaped).
"""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from toolhist.errors import ToolhistError
from toolhist.fleet import is_url
from toolhist.scan import scan
from toolhist.views import state
from toolhist.views.fleet import Fleet, from_result, open_scan, rejected_figure, rules_figure, trend_figure
from toolhist.views.markup import md_literal
from toolhist.views.paths import scannable
from toolhist.views.widgets import COUNT, PAGES, needs_extra, style_links

MODES = ("Open a scan result", "Scan a folder")


def _stamp(path: str) -> float:
    """The folder's modification time: a rewritten dataset (or an edited folder) is read again."""
    try:
        return os.path.getmtime(path)
    except OSError:
        return 0.0


@st.cache_resource(max_entries=4, show_spinner="Reading the scan…")
def opened_dataset(path: str, stamp: float) -> Fleet:
    """`toolhist.views.fleet.open_scan`, cached per folder and modification time."""
    return open_scan(path)


@st.cache_resource(max_entries=4, show_spinner="Scanning the folder…")
def scanned_folder(path: str, stamp: float) -> Fleet:
    """`toolhist.scan.scan` of a local folder in this process, cached per folder and modification time."""
    return from_result(scan(path), source=path)


st.set_page_config(page_title="toolhist · Fleet", layout="wide")
st.title("Fleet")
style_links()  # links between pages look like links
st.caption(
    "Every session of a platform against every provider: the share each provider would reject, the rules "
    "behind it and their trend over the sessions' dates. Scan millions with `toolhist scan DIR|s3://… "
    "--dataset OUT [--scheduler tcp://…]` and open OUT here."
)
needs_extra("Scanning on Dask (`toolhist scan --jobs N`, `--scheduler`)", "fleet", ["distributed"])

wanted_scan = st.query_params.get("scan")
mode = st.radio("Source", MODES, horizontal=True, index=1 if wanted_scan else 0, key="fl_mode")
try:
    if mode == MODES[0]:
        path = st.text_input(
            "Scan dataset folder (written by toolhist scan --dataset)",
            value=st.query_params.get("dataset", ""),
            key="fl_dataset",
        ).strip()
        if not path:
            st.info("Give the folder a `toolhist scan … --dataset OUT` wrote.")
            st.stop()
        scannable(path)  # only where sessions live or the user allows (toolhist.views.paths)
        fleet = opened_dataset(path, _stamp(path))
        state.remember("dataset", path)
        state.remember("scan", None)
    else:
        path = st.text_input(
            "Folder of sessions on this machine", value=wanted_scan or "", key="fl_folder"
        ).strip()
        if not path:
            st.info("Give a folder: every file under it is read and checked against every provider.")
            st.stop()
        if not Path(path).is_dir():
            st.error(md_literal(f"{path}: not a folder on this machine"))
            st.stop()
        scannable(path)  # only where sessions live or the user allows (toolhist.views.paths)
        fleet = scanned_folder(path, _stamp(path))
        state.remember("scan", path)
        state.remember("dataset", None)
except (ToolhistError, PermissionError) as exc:
    st.error(md_literal(str(exc)))
    st.stop()

files = fleet.sessions["file"].nunique()
metrics = st.columns(3)
metrics[0].metric("Sessions", files, format=COUNT)
metrics[1].metric("Unreadable files", len(fleet.unreadable), format=COUNT)
metrics[2].metric("Providers", len(fleet.providers))
if fleet.sessions.empty:
    st.warning("No readable session in this scan.")
    st.stop()

table = fleet.per_provider()
st.subheader("Rejected sessions per provider")
st.plotly_chart(rejected_figure(table), key="fl_rejected")
st.dataframe(
    table,
    hide_index=True,
    column_config={"share": st.column_config.NumberColumn("share", format="percent")},
    key="fl_table",
)

provider = state.pick("provider", "Provider", fleet.providers, fleet.providers[0], key="fl_provider")
left, right = st.columns(2)
left.plotly_chart(rules_figure(fleet.top_rules(provider), provider), key="fl_rules")
right.plotly_chart(trend_figure(fleet.trend(provider), provider), key="fl_trend")

st.subheader("Worst sessions")
worst = fleet.worst()
st.dataframe(worst, hide_index=True, key="fl_worst")
choice = st.selectbox("Open a session", list(worst["file"]), key="fl_open")
if choice is not None:
    if is_url(choice):
        st.caption("A remote file: download it to open it in the other pages.")
    else:
        params = {"path": choice, "provider": provider}
        message = fleet.first_violation(choice, provider)
        if message is not None:
            params["msg"] = str(message)
        links = st.columns(2)
        links[0].page_link(PAGES["violations"], label=f"Its {provider} violations", query_params=params)
        links[1].page_link(PAGES["timeline"], label="Its timeline", query_params=params)

if not fleet.unreadable.empty:
    with st.expander(f"Unreadable files ({len(fleet.unreadable)})"):
        st.dataframe(fleet.unreadable, hide_index=True, key="fl_unreadable")
