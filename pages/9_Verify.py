"""Verify: send the request toolhist judged (opt-in), and see the provider's answer beside the prediction.

Layout and state only: `toolhist.verify` plans, sends and keeps the ledger; `toolhist.views.verify`
caches the plan and makes the ledger table. Sending is off until the user turns it on, in each browser
session; the key is read from the environment when sending and never shown, stored or cached.
"""

from __future__ import annotations

import json

import streamlit as st

from toolhist.curation import STRATEGIES
from toolhist.errors import ToolhistError
from toolhist.providers import PROVIDERS
from toolhist.verify import confirm, export, ledger_path, read
from toolhist.verify.text import answer_lines, plan_lines
from toolhist.views import state
from toolhist.views.failure import alert
from toolhist.views.markup import md_literal
from toolhist.views.verify import ledger_frame, planned

st.set_page_config(page_title="toolhist · Verify", layout="wide")
st.title("Verify by sending")
opened = state.open_session(())
st.caption(
    "A verdict is a prediction. Here you can send the request toolhist judged to the provider, with your "
    "own API key from the environment, at the smallest cost the API allows, and keep the provider's answer "
    "beside the prediction in your local ledger. Nothing is sent unless you turn sending on and press Send."
)

provider = state.pick("provider", "Provider", list(PROVIDERS), PROVIDERS[0], key="vf_provider")
strategy = state.pick("strategy", "Strategy", list(STRATEGIES), "none", key="vf_strategy")
model = st.text_input("Model (empty: the one the request names)", key="vf_model").strip() or None
route = None
if provider == "anthropic":
    picked = st.radio(
        "Anthropic endpoint",
        ["auto", "count_tokens", "generate"],
        horizontal=True,
        key="vf_route",
        help="count_tokens validates the history for free; auto uses it on Anthropic's own host only.",
    )
    route = None if picked == "auto" else picked

try:
    chosen = planned(opened, provider, strategy, model=model, route=route)  # type: ignore[arg-type]
except ToolhistError as exc:  # no model named, an unknown route, a peer library missing: say what to do
    alert("warning", "This request cannot be planned yet.", str(exc))
    st.stop()

st.subheader("What would be sent")
st.code("\n".join(plan_lines(chosen)), language=None, wrap_lines=True)

allowed = st.toggle("Allow sending requests to providers", value=False, key="vf_allow")
if not allowed:
    st.info("Sending is off: nothing leaves this machine.")
elif chosen.key_var is None and chosen.transport != "botocore":
    alert("warning", "No API key in the environment.", f"set {' or '.join(chosen.endpoint.key_vars)}")
elif st.button(f"Send to {provider}", key="vf_send", type="primary"):
    with st.spinner(f"Waiting for {chosen.url}…"):
        try:
            entry, _ = confirm(chosen)
        except ToolhistError as exc:
            alert("error", "No answer.", str(exc))
        else:
            box = st.success if entry["outcome"] == "confirmed" else st.warning
            box(f"Outcome: {entry['outcome']}")
            st.code("\n".join(answer_lines(entry)), language=None, wrap_lines=True)

st.subheader("Ledger")
path = ledger_path()
rows, bad = read(path)
st.caption(md_literal(f"{len(rows)} request(s) sent, kept in {path}"))
for line in bad:
    st.text(line)
if rows:
    st.dataframe(ledger_frame(rows), hide_index=True, key="vf_ledger")
    st.download_button(
        "Export for a bug report (structure only: no text, ids or keys)",
        json.dumps(export(rows), indent=2, ensure_ascii=False),
        file_name="toolhist-ledger-export.json",
        mime="application/json",
        key="vf_export",
    )
