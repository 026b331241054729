"""Payloads: the exact request bodies two to four providers would receive, side by side.

As-is (strategy none) or curated; each body as highlighted JSON with the lines a violation points at
marked and a jump to each; the id map; each body downloads as JSON. Layout and state only: the lines
come from `toolhist.views.payloads`, the highlighted code from `toolhist.views.markup` (the report
and Jupyter draw the same). The code is shown with ``st.html``: every piece of the body in it is
escaped by `toolhist.views.markup.esc` (and Streamlit sanitises the HTML again), so a ``<script>`` in
a tool result is text. Deep link: ``?sample=…&provider=…&strategy=…``.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from toolhist.curation import STRATEGIES
from toolhist.errors import ToolhistError
from toolhist.providers import PROVIDERS, Payload
from toolhist.redact import shareable_json
from toolhist.views import state
from toolhist.views.markup import CSS, json_code, md_literal
from toolhist.views.payloads import id_map_frame, offending_lines, verdict
from toolhist.views.sdk import SdkRequestView, sdk_request
from toolhist.views.widgets import use_full_width

FULL_VIEW_LINES = 4000  # above this many lines a body shows only its marked lines (with context)
CODE_LINES = 4000  # lines drawn as highlighted code per body (a long body's marked lines can be more)
LAZY_DOWNLOAD_MESSAGES = 2000  # above this many messages the download is built when clicked


@st.cache_resource(max_entries=64, show_spinner=False)
def sdk_view(key: str, provider: str, strategy: str, _payload: Payload) -> SdkRequestView:
    """The payload through the provider's official SDK (`toolhist.views.sdk`), cached like the payload."""
    return sdk_request(_payload.body, provider, _payload.source_map)


st.set_page_config(page_title="toolhist · Payloads", layout="wide")
use_full_width(CSS)  # four bodies side by side need the width
st.title("Payloads")
opened = state.open_session(())  # only the providers shown are checked (below)
session = opened.session

strategy = state.pick("strategy", "Strategy", list(STRATEGIES), "none", key="pl_strategy")
linked = st.query_params.get("provider")
if "pl_providers" not in st.session_state or (
    linked in PROVIDERS and st.session_state.get("pl_linked") != linked
):
    first = linked if linked in PROVIDERS else session.source.format
    others = [p for p in ("openai-chat", "anthropic", "gemini") if p != first]
    st.session_state["pl_providers"] = ([first] if first in PROVIDERS else []) + others[
        : 3 - (first in PROVIDERS)
    ]
    st.session_state["pl_linked"] = linked
chosen: list[str] = st.sidebar.multiselect(
    "Providers (two to four)", PROVIDERS, key="pl_providers", max_selections=4
)
if len(chosen) < 2:
    st.info("Choose at least two providers to compare.")
if not chosen:
    st.stop()
if len(chosen) == 1:
    state.remember("provider", chosen[0])
only_marked = st.toggle("Marked lines only", key="pl_only_marked")
st.caption(
    f"Strategy {strategy}: "
    + (
        "the history as it is."
        if strategy == "none"
        else "the history curated for each provider, ids as the strategy writes them."
    )
    + " A marked line names the rules of the violations it is part of."
)

as_is = state.checked(opened, chosen) if strategy == "none" else {}
columns = st.columns(len(chosen))
for column, provider in zip(columns, chosen, strict=True):
    try:
        with st.spinner(f"Rendering {provider}…"):
            payload = state.payload(opened.key, provider, strategy, session)
            found = (
                as_is[provider]
                if strategy == "none"
                else state.violations(opened.key, provider, strategy, session)
            )
    except ToolhistError as exc:  # a peer library not installed, or without this provider's route
        column.subheader(provider)
        column.error(f"Strategy {strategy} gave no answer: {exc}")
        continue
    with column:
        st.subheader(provider)
        st.text(verdict(found))
        if payload.omitted:
            st.caption("What this format cannot carry")
            st.text("\n".join(payload.omitted))
        if payload.id_map:
            st.caption("Id map (original → sent)")
            st.dataframe(id_map_frame(payload.id_map), hide_index=True, key=f"pl_ids_{provider}")
        dump = partial(shareable_json, payload.body)  # a download leaves the machine: redacted
        st.download_button(
            "Download JSON",
            # A long history's body is tens of MB of JSON: made on click (in its own thread) only then.
            dump if len(session.messages) > LAZY_DOWNLOAD_MESSAGES else dump(),
            file_name=f"{provider}-{strategy}.json",
            mime="application/json",
            key=f"pl_dl_{provider}",
        )
        with st.spinner(f"Numbering {provider}'s lines…"):
            total, lines = state.lines(opened.key, provider, strategy, FULL_VIEW_LINES, payload, found)
        long = total > FULL_VIEW_LINES  # then `lines` holds only the marked lines, with context
        if long:
            st.caption(f"{total:,} lines: only the marked ones (with context) are listed")
        elif only_marked:
            lines = offending_lines(lines)
        marked = int((lines["rules"] != "").sum())
        st.caption(
            f"{marked} marked line{'s' if marked != 1 else ''}" + (": jump to each below" if marked else "")
        )
        drawn = lines.head(CODE_LINES)
        if len(drawn) < len(lines):
            st.caption(
                f"The first {CODE_LINES:,} of {len(lines):,} listed lines are drawn: the table has all."
            )
        st.html(json_code(drawn, anchor=f"pl-{provider}", total=total))
        with st.expander("Lines as a table"):
            st.dataframe(
                lines.style.apply(
                    lambda row: ["background-color: #f8d7da" if row["rules"] else ""] * len(row), axis=1
                )
                if len(lines) <= FULL_VIEW_LINES
                else lines,
                hide_index=True,
                key=f"pl_lines_{provider}",
                column_order=("line", "text", "rules"),
                height=420,
                column_config={
                    "line": st.column_config.NumberColumn(width=50),
                    "text": st.column_config.TextColumn(width="large"),
                    "rules": st.column_config.TextColumn(width="small"),
                },
            )
        with st.expander("Body as JSON"):
            if long:  # the tree would ship the whole body to the browser on every run
                st.caption("Too long to show as a tree here: download it.")
            else:
                st.json(payload.body, expanded=2)
        with st.expander("As the SDK sends it"):
            if long and not st.toggle("Build it (the SDK checks every message)", key=f"pl_sdk_{provider}"):
                continue
            sent = sdk_view(opened.key, provider, strategy, payload)
            st.caption(md_literal(f"{sent.label}: {sent.status}"))
            if sent.status == "unavailable":
                st.info(md_literal(sent.text))
            else:
                st.code(sent.text, language="http", wrap_lines=True)  # escaped: session content inside
            for note in sent.notes:
                st.caption(md_literal(note))
            if sent.violations:
                st.text("\n".join(f"{v.rule} {v.path}: {v.error_text}" for v in sent.violations))
