"""Violations: per provider and rule, the provider's exact error text, the payload path, the message.

Layout and state only: the tables come from `toolhist.views.violations`. Deep link:
``?sample=…&provider=…&rule=…``.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from toolhist.providers import PROVIDERS, Violation
from toolhist.views import state
from toolhist.views.rules import rules_frame
from toolhist.views.sent import as_sent
from toolhist.views.violations import opening_row, rule_counts, violations_frame
from toolhist.views.widgets import COUNT, PAGES, style_links

ALL = "all providers"
PAGE_ROWS = 500  # violations per table page


@st.cache_resource(max_entries=16, show_spinner=False)
def tables(
    key: str, provider: str, _results: dict[str, list[Violation]]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """`rule_counts` and `violations_frame`, cached per session key and provider choice.

    A selection reruns the page; at 100,000 messages rebuilding the frame would cost seconds each time.
    """
    return rule_counts(_results), violations_frame(_results)


st.set_page_config(page_title="toolhist · Violations", layout="wide")
st.title("Violations")
style_links()  # links between pages look like links
opened = state.open_session(())  # checked below: only the providers shown
as_sent(
    "A body in the provider's own format is checked exactly as it was sent; every other provider sees "
    "the body toolhist renders for it."
)

provider = state.pick("provider", "Provider", [ALL, *PROVIDERS], ALL, key="vi_provider")
results = state.checked(opened, PROVIDERS if provider == ALL else [provider])
if provider == ALL:
    state.remember("provider", None)

with st.expander(f"Rules of {provider}: severity, models, dates and evidence"):
    st.caption(
        "A rule applies to the models and dates it was observed for: `error` where the provider is known to "
        "reject, `warning` where the evidence is mixed or old. Each rule lists its evidence."
    )
    st.dataframe(rules_frame(None if provider == ALL else provider), hide_index=True, key="vi_rules")

counts, frame = tables(opened.key, provider, results)
if counts.empty:
    st.success(f"No violation: {provider if provider != ALL else 'every provider'} accepts this history.")
    st.stop()

st.subheader("Per provider and rule")
st.dataframe(
    counts,
    hide_index=True,
    key="vi_counts",
    column_config={"count": st.column_config.NumberColumn(format=COUNT)},
)

rules = sorted(frame["rule"].unique())
wanted_rule = st.query_params.get("rule")
if "vi_rule" not in st.session_state or (
    wanted_rule in rules and st.session_state.get("vi_rule_link") != wanted_rule
):
    st.session_state["vi_rule"] = [wanted_rule] if wanted_rule in rules else []
    st.session_state["vi_rule_link"] = wanted_rule
picked_rules: list[str] = st.multiselect("Rules", rules, key="vi_rule")
if picked_rules:
    frame = frame[frame["rule"].isin(picked_rules)]
    if len(picked_rules) == 1:
        state.remember("rule", picked_rules[0])
elif "rule" in st.query_params:
    del st.query_params["rule"]

st.subheader(f"{len(frame):,} violation{'s' if len(frame) != 1 else ''}")
# A long history has violations by the hundred thousand: the table shows a page of them, so the
# browser is sent (and renders) PAGE_ROWS rows, not all of them.
pages = max(1, -(-len(frame) // PAGE_ROWS))
page = 1
if pages > 1:
    if st.session_state.get("vi_page_of") != (provider, tuple(picked_rules)):
        st.session_state["vi_page"] = 1  # another provider or rule: back to the first page
        st.session_state["vi_page_of"] = (provider, tuple(picked_rules))
    page = int(st.number_input(f"Page (of {pages}; {PAGE_ROWS} rows a page)", 1, pages, key="vi_page"))
    first, total = (page - 1) * PAGE_ROWS, len(frame)
    frame = frame.iloc[first : first + PAGE_ROWS]
    st.caption(f"Violations {first + 1:,} to {first + len(frame):,} of {total:,}")
table = st.dataframe(
    frame,
    hide_index=True,
    # each provider, rule filter and page has its own selection: a row picked elsewhere means nothing here
    key=f"vi_table:{provider}:{'|'.join(picked_rules)}:{page}",
    on_select="rerun",
    selection_mode="single-row",
    column_order=("provider", "rule", "severity", "message", "block", "path", "error text"),
    placeholder="",  # a violation of a whole message (no block) or of the request: empty cells, not "None"
)
selection = table["selection"] if isinstance(table, dict) else table.selection
rows = selection["rows"] if isinstance(selection, dict) else selection.rows
row = frame.iloc[rows[0] if rows and rows[0] < len(frame) else opening_row(frame)]  # the first error
st.subheader("Selected violation")
st.text(f"{row['provider']} · {row['rule']} · {row['severity']} · {row['path']}")
st.caption("The provider's error text")
st.code(str(row["error text"]), language=None, wrap_lines=True)
st.caption("Fix")
st.text(str(row["fix"]))
st.caption("Source")
st.text(str(row["source"]))
if row["call ids"]:
    st.text(f"Call ids: {row['call ids']}")
message = row["message"]
if message is not None and str(message) != "<NA>":
    links = st.columns(4)
    params = {"provider": str(row["provider"]), "msg": str(int(message))}
    if opened.input.sample is not None:
        params["sample"] = opened.input.sample
    links[0].page_link(
        PAGES["timeline"], label=f"Message {int(message)} in the timeline", query_params=params
    )
    links[1].page_link(PAGES["payloads"], label="The payload", query_params=params)
    links[2].page_link(PAGES["curation"], label="Repair it", query_params=params)
    links[3].page_link(PAGES["conversation"], label="In the conversation", query_params=params)
else:
    st.caption("This path maps to no message of the history (a request field outside it).")
