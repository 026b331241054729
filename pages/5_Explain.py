"""Explain a 400: paste a provider's error and see the rule, what it means, the culprit message and the fix.

Layout and state only: `toolhist.explain.explain` does the work, against the open session.
"""

from __future__ import annotations

import streamlit as st

from toolhist.explain import explain
from toolhist.views import state
from toolhist.views.bundles import captured
from toolhist.views.markup import md_literal
from toolhist.views.widgets import PAGES, show_message

st.set_page_config(page_title="toolhist · Explain a 400", layout="wide")
st.title("Explain a 400")
opened = state.open_session()
session = opened.session

recorded = captured(session)
if recorded is not None and recorded.error and st.session_state.get("ex_bundle_used") != opened.key:
    st.session_state["ex_text"] = recorded.error  # a bundle's answer: the 400 this session really got
    st.session_state["ex_bundle_used"] = opened.key
if recorded is not None:
    st.caption(md_literal(f"Opened from a guard bundle: {recorded.headline}"))

examples = {
    f"{v.provider} · {v.rule} · message {v.message_index}": v.error_text
    for found in opened.result.results.values()
    for v in found
    if v.severity == "error"
}
if examples:
    example = st.selectbox(
        "Or start from an error this session would get", ["(paste your own)", *examples], key="ex_example"
    )
    if example != "(paste your own)" and st.session_state.get("ex_example_used") != example:
        st.session_state["ex_text"] = examples[example]
        st.session_state["ex_example_used"] = example
text = st.text_area(
    "The error text, as your client printed it (wrappers from LiteLLM, OpenRouter, Vertex, boto… are peeled)",
    key="ex_text",
    height=160,
)
if not text.strip():
    st.info("Paste an HTTP 400 body or the exception your client raised.")
    st.stop()

found = explain(text, session)
if found.rule is None:
    st.warning("No known provider rule matches this text.")
    st.text(found.reason or "")
    st.stop()

cols = st.columns(3)
cols[0].metric("Provider", found.provider or "client-side")
cols[1].metric("Rule", found.rule)
cols[2].metric("Culprit message", "unknown" if found.message_index is None else found.message_index)
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
if found.message_index is not None:
    params = {"msg": str(found.message_index)}
    if found.provider:
        params["provider"] = found.provider
    if opened.input.sample is not None:
        params["sample"] = opened.input.sample
    links = st.columns(3)
    links[0].page_link(
        PAGES["timeline"], label=f"Open message {found.message_index} in the timeline", query_params=params
    )
    if found.provider:
        links[1].page_link(PAGES["curation"], label="Repair it", query_params=params)
        links[2].page_link(PAGES["payloads"], label="The payload", query_params=params)
    st.subheader("The culprit message")
    violations = opened.result.results.get(found.provider or "", [])
    show_message(session, found.message_index, violations)
else:
    st.caption("The text names no message of this session (or no session matches it).")
