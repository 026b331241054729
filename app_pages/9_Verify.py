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
from toolhist.views.sent import default_provider, ran_on_of
from toolhist.views.verify import ledger_frame, no_model_here, planned

st.set_page_config(page_title="toolhist · Verify", layout="wide")
st.title("Verify by sending")
opened = state.open_session(())
st.caption(
    "A verdict is a prediction. Here you can send the request toolhist judged to the provider, with your "
    "own API key from the environment, at the smallest cost the API allows, and keep the provider's answer "
    "beside the prediction in your local ledger. Nothing is sent unless you turn sending on and press Send."
)

provider = state.pick(
    "provider",
    "Provider",
    list(PROVIDERS),
    default_provider(opened.key, opened.session, opened.found),
    key="vf_provider",
)
# Its own choice, not the strategy picked on Curation or Payloads: a verdict is confirmed on the
# history as sent unless the user asks to send a repair.
strategy = state.pick("send", "Strategy", list(STRATEGIES), "none", key="vf_strategy")
typed = st.text_input("Model (empty: the one the request or the log names)", key="vf_model").strip()
ran = ran_on_of(opened.key, opened.session)
logged = ran.model if ran is not None and ran.provider == provider and ran.model else None
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

chosen, reason, model_from_log = None, "", False
try:
    chosen = planned(opened, provider, strategy, model=typed or None, route=route)  # type: ignore[arg-type]
except ToolhistError as exc:  # no model named, an unknown route, a peer library missing: say what to do
    reason = str(exc)
if chosen is None and not typed and logged is not None and "names no model" in reason:
    try:  # a log's bodies name no model, but the log says which one it ran on with this provider
        chosen = planned(opened, provider, strategy, model=logged, route=route)  # type: ignore[arg-type]
        model_from_log = True
    except ToolhistError as exc:
        reason = str(exc)
if chosen is None:
    alert("warning", "This request cannot be planned yet.", no_model_here(reason))
    st.stop()
if model_from_log and ran is not None:
    st.caption(md_literal(f"Model {logged}: the one the log ran on ({ran.evidence}); type another above."))

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
