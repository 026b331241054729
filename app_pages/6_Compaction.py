"""Compaction: the four tiers of tool-history compaction, tokens before and after, what summaries replaced.

The tiers are RFC 026's (seed 004); the page says what they are in words, not by an internal name.

Layout and state only: `toolhist.compaction.compact` compacts, `toolhist.views.compaction` makes
the tables. Session content is shown only through escaping elements (tables, ``st.code``,
``st.text``). Deep link: ``?sample=…&provider=…``.
"""

from __future__ import annotations

import streamlit as st

from toolhist.compaction import (
    RECENT_CALLS_TO_KEEP,
    RENDERINGS,
    TRUNCATION_THRESHOLD,
    Rendering,
    compact,
)
from toolhist.model import Session
from toolhist.providers import PROVIDERS
from toolhist.views import state
from toolhist.views.compaction import Shown, shown, side_frame
from toolhist.views.kept import built, record
from toolhist.views.sent import as_sent, ran_on_of
from toolhist.views.trim import trimmed
from toolhist.views.widgets import COUNT

PAGE_ROWS = 1000  # message rows per table page
# Lines of the tier-2 summary shown (one per summarised call and heading: 51,584 lines, 3.7 MB, at
# 100,000 messages, all sent to the browser and kept by the server); the CLI prints it whole.
SUMMARY_LINES = 400


@st.cache_resource(max_entries=8, show_spinner=False)
def compacted(
    key: str, provider: str, keep: int, threshold: int, rendering: Rendering, _session: Session
) -> Shown:
    """What the page shows of `toolhist.compaction.compact`, cached per session key and settings.

    Kept as `Shown` (figures, tables, per message a count), not as the Compaction: at 100,000
    messages the compacted history it holds was most of the page's memory. Dropped with the session.
    """
    record(key, compacted, key, provider, keep, threshold, rendering, None)
    made = built(compact)(_session, provider, keep=keep, threshold=threshold, rendering=rendering)
    kept = built(shown)(made)
    del made  # the Compaction (the compacted history) goes now, and its heap with it
    trimmed()  # (`toolhist.views.trim`)
    return kept


st.set_page_config(page_title="toolhist · Compaction", layout="wide")
st.title("Compaction")
opened = state.open_session(())  # no provider's verdict is shown here
session = opened.session
as_sent("Tokens before count it; tokens after count its compaction.")
st.caption(
    "Compaction shortens an agent's tool history in four tiers: the system prompt and original request "
    "(tier 1), the last N tool call/result pairs (tier 3) and the current turn (tier 4) stay verbatim; "
    "older pairs (tier 2) are "
    "replaced by summaries that keep paths, line ranges, commands, exit codes and every error in full."
)

ran = ran_on_of(opened.key, session)  # the provider it ran on, else its own format: no check needed here
native = (
    ran.provider
    if ran is not None and ran.provider in PROVIDERS
    else session.source.format
    if session.source.format in PROVIDERS
    else "openai-chat"
)
provider = state.pick("provider", "Provider", list(PROVIDERS), native, key="co_provider")
cols = st.columns(3)
keep = int(
    cols[0].number_input("Recent pairs kept", min_value=0, value=RECENT_CALLS_TO_KEEP, step=1, key="co_keep")
)
threshold = int(
    cols[1].number_input(
        "Threshold (tool tokens)", min_value=0, value=TRUNCATION_THRESHOLD, step=1000, key="co_threshold"
    )
)
chosen = cols[2].radio("Rendering", RENDERINGS, horizontal=True, key="co_rendering")
rendering: Rendering = "text-embed" if chosen == "text-embed" else "native"

result = compacted(opened.key, provider, keep, threshold, rendering, session)

# two rows of three: five columns cut a 1 GB log's counts ("112,847,…": nine digits, commas) in a
# 1,400 px window (user run); three hold 1,000,000,000 and more
metrics = [*st.columns(3), *st.columns(3)]
metrics[0].metric("Tokens before", result.tokens_before, format=COUNT)
saved = result.tokens_before - result.tokens_after
metrics[1].metric(
    "Tokens after",
    result.tokens_after,
    # a saving is good news: shown as one (green, "saved"), not as a red negative delta
    delta=-saved if saved else None,
    delta_color="inverse",  # fewer tokens is the good direction: green, arrow down
    delta_description="saved" if saved > 0 else "more" if saved < 0 else None,
    format=COUNT,
)
metrics[2].metric("Tool pairs", result.pair_count, format=COUNT)
metrics[3].metric("Tool tokens", result.tool_tokens, format=COUNT)
metrics[4].metric("Pairs replaced", len(result.replacements), format=COUNT)
st.text(f"Token counts: {result.token_label}")
if not result.exact:
    st.caption(
        f"{provider} has no offline tokenizer: figures are o200k_base counts, an estimate. "
        "OpenAI models named in the request are counted exactly."
    )
st.text(result.reason)

st.subheader("Tokens per tier")
st.dataframe(
    result.tiers,
    hide_index=True,
    key="co_tiers",
    column_config={  # counts of a long session: 195,080,772 tokens, not a run of digits
        column: st.column_config.NumberColumn(format=COUNT)
        for column in result.tiers.columns
        if column != "tier"
    },
)

st.subheader("What each summary replaced")
replaced = result.replacements
if len(replaced) > PAGE_ROWS:  # a page at a time, like the tokens per message below
    pages = -(-len(replaced) // PAGE_ROWS)
    label = f"Page (of {pages}; {PAGE_ROWS} summaries a page)"
    page = int(st.number_input(label, 1, pages, key="co_rep_page"))
    start = (page - 1) * PAGE_ROWS
    st.caption(f"Rows {start:,} to {min(start + PAGE_ROWS, len(replaced)) - 1:,} of {len(replaced):,}")
    table = replaced.page(range(start, start + PAGE_ROWS))  # only the page shown is made
else:
    table = replaced.page(None)
if len(table):
    st.dataframe(table, hide_index=True, key="co_replacements")
else:
    st.caption("Nothing was replaced with these settings.")

if result.summary:
    st.subheader("Historical summary (tier 2)")
    head, lines = result.summary, result.summary.count("\n") + 1
    if lines > SUMMARY_LINES:
        head = "\n".join(result.summary.split("\n", SUMMARY_LINES)[:SUMMARY_LINES])
        command = f"toolhist compact FILE --provider {provider} --keep {keep} --threshold {threshold}"
        command += " --rendering text-embed" if rendering == "text-embed" else ""
        st.caption(f"The first {SUMMARY_LINES:,} of {lines:,} lines. The whole summary: `{command}`")
    st.code(head, language=None, wrap_lines=True)

if result.notes:
    st.subheader("Text-embed notes")
    st.code("\n".join(result.notes), language=None, wrap_lines=True)

st.subheader("Tokens per message")
longest = max(len(result.before.tokens), len(result.after.tokens))
first = 0
if longest > PAGE_ROWS:  # a long history: a page at a time, not every row to the browser (twice)
    pages = -(-longest // PAGE_ROWS)
    page = int(st.number_input(f"Page (of {pages}; {PAGE_ROWS} messages a page)", 1, pages, key="co_page"))
    first = (page - 1) * PAGE_ROWS
    st.caption(f"Rows {first:,} to {min(first + PAGE_ROWS, longest) - 1:,} of {longest:,}")
left, right = st.columns(2)
left.caption("Before")
# only the page shown is made: two frames of every message were 28 MB kept per setting at 100,000
rows = range(first, first + PAGE_ROWS)
left.dataframe(side_frame(result.before, rows), hide_index=True, key="co_messages_before")
right.caption("After")
right.dataframe(side_frame(result.after, rows), hide_index=True, key="co_messages_after")
