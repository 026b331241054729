"""Search every session on this machine, from the home page's "This machine" list.

One text box and what it is (text, a tool's name, a call id, a rule, and for a rule the provider
it is judged on), answered by the session index (`toolhist.index`): the same file and the same
search as ``toolhist sessions --search/--tool/--call-id/--rule``, so either fills it for the other.

Nothing here runs until the user turns the search on (`show`), so the home page's reruns do no
more work than before. Sessions the index lacks are read in only when the user asks, one session
per transaction with a progress bar (`fill`): stopping the page leaves every session either as it
was or wholly in. The hits are a table (`hits_frame`): ``st.dataframe`` shows the snippets as text,
never as markdown or HTML. Picking a hit opens its session below (the picker's ``machine_pick``)
and links to its message on the Conversation and Timeline pages (``?path=…&msg=…``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pandas as pd
import streamlit as st

from toolhist.index import (
    WHERE_IT_RAN,
    IndexProblem,
    Listing,
    Pending,
    Query,
    Results,
    check_location,
    default_path,
    list_indexed,
    opened,
    pending,
    search,
)
from toolhist.index.query import Hit
from toolhist.index.update import refresh_one
from toolhist.machine import AGENTS, places
from toolhist.providers import PROVIDERS
from toolhist.views.failure import alert
from toolhist.views.machine import label
from toolhist.views.roles import role
from toolhist.views.widgets import PAGES, style_links

KINDS: Final = {"text": "text", "tool": "tool name", "call_id": "call id", "rule": "rule"}
"""What the box holds (`toolhist.index.Query`'s field) and its label."""

RAN_ON: Final = "where each session ran"
"""The provider choice that judges each session on the provider it ran on."""

LIMIT: Final = 200
"""Hits shown at most (the caption says how many there are in all)."""

PICK: Final = "machine_pick"
"""The home page's "Session to open" picker, set when a hit is picked."""


@dataclass(frozen=True)
class Asked:
    """What the user typed and chose."""

    kind: str
    value: str
    provider: str | None

    def query(self, agents: tuple[str, ...]) -> Query:
        """The index query (``agents``: only these agents' sessions; none: all)."""
        given = self.value.strip()
        if self.kind == "text":
            return Query(text=given, agents=agents)
        if self.kind == "tool":
            return Query(tool=given, agents=agents)
        if self.kind == "call_id":
            return Query(call_id=given, agents=agents)
        return Query(rule=given, provider=self.provider, agents=agents)


def hits_frame(hits: Sequence[Hit], *, rules: bool) -> pd.DataFrame:
    """One row per hit: session, agent, message, role, the text around the match (and the rule)."""
    columns = ["session", "agent", "message", "role", "snippet"] + (["rule"] if rules else [])
    frame = pd.DataFrame(
        [
            {
                "session": label(hit.row),
                "agent": hit.row.agent,
                "message": hit.msg,
                "role": role(hit.speaker) if hit.speaker else hit.kind,
                "snippet": hit.snippet,
                "rule": f"{hit.rule} ({hit.severity}, {hit.provider})" if hit.rule else "",
            }
            for hit in hits
        ],
        columns=columns,
    )
    return frame.astype({"message": "Int64"})  # a violation in no logged message has none


def hit_label(hit: Hit) -> str:
    """A hit in the "Hit to open" picker."""
    where = "after the last message" if hit.msg is None else f"message {hit.msg}"
    return f"{where} · {label(hit.row)}"


def _ask() -> Asked:
    box, kind_col, provider_col = st.columns([3, 1, 1])
    kind = str(
        kind_col.selectbox(
            "Search for", list(KINDS), format_func=KINDS.__getitem__, key="machine_search_kind"
        )
    )
    value = box.text_input(
        "Search every session",
        key="machine_search_text",
        placeholder="text in any message, a tool's name, a call id or a rule (oai.dup_tool_result)",
    )
    provider = None
    if kind == "rule":
        chosen = provider_col.selectbox("Judged on", [RAN_ON, *PROVIDERS], key="machine_search_provider")
        provider = None if chosen == RAN_ON else str(chosen)
    return Asked(kind, value, provider)


def fill(conn: sqlite3.Connection, home: str, work: Sequence[Pending]) -> int:
    """Read ``work`` into the index, one session per transaction, with a progress bar; the sessions read.

    `toolhist.index.update.refresh_one` per session, not `refresh`: Streamlit stops or reruns a
    script by raising inside it, which must reach Streamlit, and each session's transaction is
    rolled back by it all the same.
    """
    bar = st.progress(0.0)
    for n, item in enumerate(work):
        bar.progress(n / len(work), text=f"Reading session {n + 1:,} of {len(work):,} into the index…")
        refresh_one(conn, home, item)
    bar.empty()
    return len(work)


def _state(conn: sqlite3.Connection, home: str, listing: Listing, work: list[Pending], asked: Asked) -> None:
    """How much of the listing the index holds, and a button to read in the rest."""
    if not work:
        return
    readable = sum(str(row.path) in listing.states for row in listing.rows)  # the others are never read in
    held = readable - sum(item.content for item in work)
    what = "their verdicts" if asked.kind == "rule" else "their messages"
    if held == 0:
        st.info(
            f"The session index holds none of these {readable:,} sessions yet: read them in with "
            "the button below (each is read whole once, and again only when it changes), or run "
            "`toolhist sessions --search TEXT` in a terminal, which fills the same index."
        )
    else:
        st.caption(
            f"{len(work):,} of {len(listing.rows):,} sessions are not in the index yet, or lack {what}."
        )
    if st.button(f"Read {len(work):,} sessions into the index", key="machine_search_fill"):
        fill(conn, home, work)
        st.rerun()


def _results(results: Results, asked: Asked) -> None:
    """The hits as a table, what was not searched, and the hit to open."""
    shown = (
        f"{len(results.hits)} of {results.total}" if results.total > len(results.hits) else str(results.total)
    )
    note = f"{shown} hits in {results.searched:,} sessions searched"
    if results.not_indexed:
        note += f"; {len(results.not_indexed):,} not in the index"
    if results.no_verdict:
        note += f"; {len(results.no_verdict):,} without a verdict"
    if results.unreadable:
        note += f"; {len(results.unreadable):,} unreadable"
    st.caption(note + ". Only each message's first 4,096 characters are searched.")
    if not results.hits:
        return
    st.dataframe(
        hits_frame(results.hits, rules=asked.kind == "rule"), hide_index=True, key="machine_search_hits"
    )
    hits = results.hits

    def opening() -> None:  # before the picker below is drawn: open the hit's session there
        at = st.session_state.get("machine_search_hit")
        if at is not None:
            st.session_state[PICK] = str(hits[int(at)].row.path)

    at = st.selectbox(
        "Hit to open",
        range(len(hits)),
        index=None,
        format_func=lambda n: hit_label(hits[n]),
        placeholder="Choose a hit: its session opens below",
        key="machine_search_hit",
        on_change=opening,
    )
    if at is None:
        return
    hit = hits[int(at)]
    params = {"path": str(hit.row.path)} | ({} if hit.msg is None else {"msg": str(hit.msg)})
    to = "" if hit.msg is None else f" at message {hit.msg}"
    style_links()
    links = st.columns(2)
    links[0].page_link(
        PAGES["conversation"], label=f"Conversation{to}", icon=":material/forum:", query_params=params
    )
    links[1].page_link(
        PAGES["timeline"], label=f"Timeline{to}", icon=":material/timeline:", query_params=params
    )


def show(home: str | None, agent: str | None) -> None:
    """The search, under a toggle (``agent``: only that agent's sessions, as the list above is filtered)."""
    if not st.toggle("Search every session's messages (text, tool, call id, rule)", key="machine_search"):
        return
    asked = _ask()
    where = places(Path(home) if home is not None else None)
    agents = (agent,) if agent else ()
    path = default_path()
    try:
        check_location(path, [folder for _, folder in where.where()])
        with opened(path) as conn:
            whole = list_indexed(conn, where, AGENTS)
            listing = Listing(
                [r for r in whole.rows if not agents or r.agent in agents],
                whole.states,
                whole.read,
                whole.removed,
            )
            judge_on = ((asked.provider or WHERE_IT_RAN),) if asked.kind == "rule" else ()
            work = pending(conn, listing, judge_on)
            _state(conn, str(where.home), listing, work, asked)
            if asked.value.strip():
                _results(search(conn, listing, asked.query(agents), LIMIT), asked)
    except (IndexProblem, sqlite3.Error) as exc:
        alert("warning", "The session index cannot be used; the search needs it.", str(exc))
