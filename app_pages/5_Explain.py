"""Explain a 400: paste a provider's error and see the rule, what it means, the culprit message and the fix.

Layout and state only: `toolhist.explain.explain` does the work, against the open session. The ids
the text names are looked up in that session: a culprit is named only when one is there, and an id
that is not is said to be not in this session. With an empty box the page checks nothing: the
examples come from the verdicts already computed (Home's) and the default provider's.
"""

from __future__ import annotations

import streamlit as st

from toolhist.explain import Explanation, explain, in_verdict
from toolhist.model import Session, ToolCallBlock, ToolResponseBlock
from toolhist.providers import PROVIDERS
from toolhist.views import state
from toolhist.views.bundles import captured
from toolhist.views.markup import md_literal
from toolhist.views.sent import as_sent, default_provider
from toolhist.views.widgets import COUNT, PAGES, show_message, style_links

st.set_page_config(page_title="toolhist · Explain a 400", layout="wide")
st.title("Explain a 400")
style_links()  # links between pages look like links
opened = state.open_session(())  # the examples below use the verdicts computed already
session = opened.session
as_sent()


@st.cache_resource(max_entries=32, show_spinner="Explaining…")
def explained(key: str, text: str, _session: Session) -> Explanation:
    """`toolhist.explain.explain` against the open session, cached per content key and text."""
    return explain(text, _session)


@st.cache_resource(max_entries=8, show_spinner=False)
def call_ids(key: str, _session: Session) -> frozenset[str]:
    """Every call id the session holds, as written and as read (for "not in this session")."""
    found: set[str] = set()
    for message in _session.messages:
        for block in message.blocks:
            if isinstance(block, ToolCallBlock):
                found.update(x for x in (block.id, block.raw_id) if x)
            elif isinstance(block, ToolResponseBlock):
                found.update(x for x in (block.call_id, block.raw_call_id) if x)
    return frozenset(found)


recorded = captured(session)
if recorded is not None and recorded.error and st.session_state.get("ex_bundle_used") != opened.key:
    st.session_state["ex_text"] = recorded.error  # a bundle's answer: the 400 this session really got
    st.session_state["ex_bundle_used"] = opened.key
if recorded is not None:
    st.caption(md_literal(f"Opened from a guard bundle: {recorded.headline}"))

known = [p for p in PROVIDERS if state.verdict_ready(opened.key, p)]
first = default_provider(opened.key, session, opened.found)
examples: dict[str, str] = {}
for name in dict.fromkeys([first, *known]):
    seen: set[str] = set()  # rules with an example (a scan of the examples per violation: 0.6 s at 100k)
    for v in opened.found(name):  # the first error of each rule: a list a person can choose from
        if v.severity == "error" and v.rule not in seen:
            seen.add(v.rule)
            examples[f"{v.provider} · {v.rule} · message {v.message_index}"] = v.error_text


def use_example(examples: dict[str, str]) -> None:
    """The example picked fills the box (a callback: it runs before the box is drawn again)."""
    example = st.session_state.get("ex_example")
    if example in examples:
        st.session_state["ex_text"] = examples[example]


text = st.text_area(
    "Paste the error text, as your client printed it (wrappers from LiteLLM, OpenRouter, Vertex, boto… are "
    "peeled)",
    key="ex_text",
    height=160,
)
run = st.columns([1, 9], vertical_alignment="center")
run[0].button("Explain", key="ex_go", type="primary")  # a click leaves the box: what it holds is read
run[1].caption("Press Ctrl+Enter (⌘+Enter on a Mac) in the box, or the Explain button, to explain it.")
if examples:
    st.selectbox(
        "Or start from an error this session would get",
        list(examples),
        index=None,
        placeholder="Choose an error",
        key="ex_example",
        on_change=use_example,
        args=(examples,),
    )
if not text.strip():
    st.info("Paste an HTTP 400 body or the exception your client raised.")
    st.stop()

found = explained(opened.key, text, session)
if found.rule is None:
    st.warning("No known provider rule matches this text.")
    st.text(found.reason or "")
    st.stop()

cols = st.columns(3)
cols[0].metric("Provider", found.provider or "client-side")
cols[1].caption("Rule")  # the whole id: a metric cuts a long one short ("oai.call_unanswe…")
cols[1].code(found.rule, language=None, wrap_lines=True)
cols[2].metric(
    "Culprit message", "unknown" if found.message_index is None else found.message_index, format=COUNT
)
absent = [i for i in found.call_ids if i not in call_ids(opened.key, session)]
if found.call_ids and found.message_index is None:
    st.warning("Not in this session: the text names ids this session does not hold, so no culprit is named.")
    st.dataframe({"call id (as written)": absent or list(found.call_ids)}, hide_index=True, key="ex_absent")
elif absent:
    st.caption("Not in this session: " + ", ".join(absent))
st.caption("Meaning")
st.text(found.meaning)
st.caption("Fix")
st.text(found.fix)
st.caption("The provider's own words" + (f" (peeled: {', '.join(found.wrappers)})" if found.wrappers else ""))
st.code(found.error_text, language=None, wrap_lines=True)
if found.paths or found.call_ids:
    st.text(
        " · ".join(
            x
            for x in (
                "paths: " + ", ".join(found.paths) if found.paths else "",
                "call ids: " + ", ".join(found.call_ids) if found.call_ids else "",
            )
            if x
        )
    )


def links(index: int, provider: str | None) -> None:
    """Links to message ``index`` on the Timeline, and to its repair and payload for ``provider``."""
    params = {"msg": str(index)}
    if provider:
        params["provider"] = provider
    if opened.input.sample is not None:
        params["sample"] = opened.input.sample
    cols = st.columns(3)
    cols[0].page_link(PAGES["timeline"], label=f"Open message {index} in the timeline", query_params=params)
    if provider:
        cols[1].page_link(PAGES["curation"], label="Repair it", query_params=params)
        cols[2].page_link(PAGES["payloads"], label="The payload", query_params=params)


if found.message_index is not None:
    links(found.message_index, found.provider)
    st.subheader("The culprit message")
    violations = opened.found(found.provider) if found.provider in PROVIDERS else []
    show_message(session, found.message_index, violations)
elif not found.call_ids:
    # The text names the rule and no message (Gemini's never name one): this session's own verdict for
    # that provider says where the rule is broken (`toolhist.explain.in_verdict`), said to come from it.
    violations = opened.found(found.provider) if found.provider in PROVIDERS else []
    same = in_verdict(found, violations)
    if not same:
        registered = found.provider in PROVIDERS
        none_here = f", and its {found.provider} verdict has no {found.rule} error" if registered else ""
        st.caption(
            f"The text names no message of this session{none_here}: the 400 may be about another history."
        )
    else:
        at = sorted({v.message_index for v in same if v.message_index is not None})
        shown = ", ".join(map(str, at[:10])) + (f" and {len(at) - 10:,} more" if len(at) > 10 else "")
        index = at[0]
        st.info(
            f"The text names no message. This session's {found.provider} verdict has {len(same):,} "
            f"{found.rule} error(s), in message(s) {shown}; the first is message {index}."
        )
        links(index, found.provider)
        st.subheader(f"The first {found.rule} error in this session")
        show_message(session, index, violations)
