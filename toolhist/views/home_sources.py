"""Home's two listing sources: the sessions agents keep on this machine, and the guard's capture bundles.

Each lists what it finds (cached: the machine's listing a minute through the session index, a
bundle folder a few seconds), lets the user pick one and returns it as an `Input` read through
`toolhist.views.state.path_input`, so only files the app may open are opened.
"""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from toolhist.agents.claude_code.sessions import subagent_files
from toolhist.errors import ToolhistError
from toolhist.guard.bundle import BundleInfo, listing
from toolhist.index.listing import listed
from toolhist.machine import AGENTS, HOME_ENV, SessionRow, judge, places
from toolhist.views import machine_search, state
from toolhist.views.bundles import bundles_frame, default_folder
from toolhist.views.bundles import label as bundle_label
from toolhist.views.failure import alert
from toolhist.views.machine import ALL, label, sessions_frame
from toolhist.views.state import Input


@st.cache_data(ttl=60, show_spinner="Looking for the sessions agents keep on this machine…")
def machine_rows(home: str | None) -> list[SessionRow]:
    """The listing (headers only) through the session index (`toolhist.index.listing.listed`), kept a minute.

    ``home`` is ``$TOOLHIST_HOME``. Heads are read again only from files that changed since the last
    listing, by the app or by ``toolhist sessions``.
    """
    return listed(places(Path(home) if home is not None else None))


@st.cache_data(max_entries=5000, show_spinner=False)
def judged_row(path: str, modified: float, _row: SessionRow) -> SessionRow:
    """`toolhist.machine.judge` of one listed session, kept while the file is unchanged."""
    return judge(_row)


def judged_rows(rows: list[SessionRow]) -> list[SessionRow]:
    """Every row judged, with a progress bar naming the session being read."""
    bar = st.progress(0.0)
    judged = []
    for n, row in enumerate(rows):
        bar.progress(n / len(rows), text=f"Judging session {n + 1} of {len(rows)}…")
        judged.append(judged_row(str(row.path), row.modified, row))
    bar.empty()
    return judged


def machine_row(path: str) -> SessionRow | None:
    """The listed session at ``path`` (from the cached listing), if it is one."""
    return next((r for r in machine_rows(os.environ.get(HOME_ENV)) if str(r.path) == path), None)


def machine_source(fmt: str | None) -> Input | None:
    """The sessions agents keep here, newest first, filterable by agent; the one picked, as an Input."""
    rows = machine_rows(os.environ.get(HOME_ENV))
    if not rows:
        st.info(
            "No agent sessions were found on this machine (`toolhist sessions --where` lists the folders)."
        )
        return None
    agents = [a for a in AGENTS if any(r.agent == a for r in rows)]
    agent = st.selectbox("Agent", [ALL, *agents], key="machine_agent")
    shown = [r for r in rows if agent in (ALL, r.agent)]
    st.caption(
        f"{len(shown)} sessions, newest first. Messages are counted from each file's first 256 KiB "
        "(an estimate for longer files); a verdict needs the whole file: the session you open, or every "
        "listed one with the switch below."
    )
    if st.toggle(
        "Judge every listed session on the provider it ran on (reads each file)", key="machine_judge"
    ):
        shown = judged_rows(shown)
    st.dataframe(
        sessions_frame(shown), hide_index=True, key="machine_table", height=min(400, 38 + 35 * len(shown))
    )
    machine_search.show(os.environ.get(HOME_ENV), None if agent == ALL else agent)
    by_path = {str(r.path): r for r in shown}
    picked = st.selectbox(
        "Session to open",
        list(by_path),
        index=None,
        format_func=lambda p: label(by_path[p]),
        placeholder="Choose a session",
        key="machine_pick",
    )
    if picked is None:
        return None
    row = by_path[picked]
    if row.problem is not None:
        alert("error", "toolhist cannot read this session.", f"{row.path}: {row.problem}")
        return None
    picked = subagent_pick(picked)
    try:
        opened = state.path_input(picked, fmt or row.read_format)
    except (OSError, ValueError) as exc:
        alert("error", "Cannot read that session.", f"{picked}: {exc}")
        return None
    st.query_params["path"] = picked
    return opened


def subagent_pick(path: str) -> str:
    """A Claude Code session's own file, or one of its subagent files.

    Both layouts (`toolhist.agents.claude_code.sessions.subagent_files`): ``<session>/subagents/``,
    and an older release's ``agent-*.jsonl`` beside the session whose ``sessionId`` is the session
    file's name.
    """
    files = [str(p) for p in subagent_files(Path(path), Path(path).stem)]
    if not files:
        return path
    return str(
        st.selectbox(
            f"This session has {len(files)} subagent file(s): open the session or one of them",
            [path, *files],
            format_func=lambda p: "the session" if p == path else f"subagent {Path(p).name}",
            key="machine_subagent",
        )
    )


def bundle_source(fmt: str | None) -> Input | None:
    """The guard's capture bundles in a folder, newest first; the one picked, as an Input."""
    folder = st.text_input(
        "Folder of toolhist guard bundles (the guard's capture= folder)",
        value=default_folder(),
        key="bundles_dir",
    ).strip()
    if not folder:
        return None
    if not Path(folder).expanduser().is_dir():
        alert("warning", "There is no such folder.", folder)
        return None
    rows, bad = bundle_listing(str(Path(folder).expanduser()))
    for path, reason in bad:
        alert("warning", "A file in that folder is not a readable bundle.", f"{path}: {reason}")
    if not rows:
        st.info("No bundles in that folder yet (`toolhist.guard` writes them when a provider answers 4xx).")
        return None
    st.caption(f"{len(rows)} bundle{'' if len(rows) == 1 else 's'}, newest first.")
    st.dataframe(bundles_frame(rows), hide_index=True, key="bundles_table")
    by_path = {r.path: r for r in rows}
    picked = st.selectbox(
        "Bundle to open",
        list(by_path),
        index=None,
        format_func=lambda p: bundle_label(by_path[p]),
        placeholder="Choose a bundle",
        key="bundle_pick",
    )
    if picked is None:
        return None
    try:
        opened = state.path_input(picked, fmt)
    except (OSError, ValueError, ToolhistError) as exc:
        alert("error", "Cannot open that bundle.", str(exc))
        return None
    st.query_params["path"] = picked
    return opened


@st.cache_data(ttl=10, show_spinner=False)
def bundle_listing(folder: str) -> tuple[list[BundleInfo], list[tuple[str, str]]]:
    """`toolhist.guard.bundle.listing` of a folder, kept a few seconds (it explains each bundle's answer)."""
    return listing(Path(folder))
