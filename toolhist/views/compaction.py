"""Tables of a Compaction: tokens per tier, what each summary replaced, tokens per message.

Pure: a `toolhist.compaction.Compaction` in, DataFrames of text and numbers out (the Compaction
page shows them; Jupyter can too). Every cell is plain text or a number, so whatever shows it
escapes it.
"""

from __future__ import annotations

import pandas as pd

from toolhist.compaction import TIER_NAMES, Compaction


def tiers_frame(c: Compaction) -> pd.DataFrame:
    """One row per tier and a total row: messages and tokens before and after, tokens saved."""
    rows = [
        {
            "tier": f"{t.tier} · {t.name}",
            "messages before": t.messages_before,
            "messages after": t.messages_after,
            "tokens before": t.tokens_before,
            "tokens after": t.tokens_after,
            "saved": t.tokens_before - t.tokens_after,
        }
        for t in c.tiers
    ]
    rows.append(
        {
            "tier": "total",
            "messages before": len(c.original.messages),
            "messages after": len(c.session.messages),
            "tokens before": c.tokens_before,
            "tokens after": c.tokens_after,
            "saved": c.tokens_before - c.tokens_after,
        }
    )
    return pd.DataFrame(rows)


def replacements_frame(c: Compaction) -> pd.DataFrame:
    """One row per replaced pair: the tool, where its call and result were, and what stands for it."""
    columns = ["tool", "call id", "category", "call at", "result at", "tokens before", "outcome", "summary"]
    rows = [
        {
            "tool": r.tool_name,
            "call id": r.call_id,
            "category": r.category,
            "call at": f"message {r.call_at[0]}, block {r.call_at[1]}",
            "result at": f"message {r.result_at[0]}, block {r.result_at[1]}",
            "tokens before": r.tokens_before,
            "outcome": (
                "error kept in full"
                if r.is_error
                else ("replaced by the summary" if r.result_replaced else "kept (shorter than its summary)")
            ),
            "summary": r.summary,
        }
        for r in c.replacements
    ]
    return pd.DataFrame(rows, columns=columns)


def messages_frame(c: Compaction, *, after: bool = False, rows: range | None = None) -> pd.DataFrame:
    """Tokens per message of the input (or of the compacted history), with its speaker and tier.

    ``rows``: only those messages (a page of the table; past the end, fewer), numbered as in the
    whole frame. Built a column at a time (not a dict per row): at 100,000 messages a whole frame
    is 14 MB.
    """
    session = c.session if after else c.original
    tiers = c.message_tiers_after if after else c.message_tiers_before
    tokens = c.message_tokens_after if after else c.message_tokens_before
    if not (len(session.messages) == len(tiers) == len(tokens)):
        raise ValueError(
            f"{len(session.messages)} messages, {len(tiers)} tiers and {len(tokens)} token counts: "
            "a compaction gives one of each per message"
        )
    columns = ["message", "speaker", "tier", "tokens"]
    if not tokens:  # as a frame of no rows is (every column of dtype object)
        return pd.DataFrame([], columns=columns)
    shown = range(len(tokens))[rows.start : rows.stop] if rows is not None else range(len(tokens))
    names = {t: f"{t} · {TIER_NAMES[t]}" for t in set(tiers)}
    messages = session.messages
    frame = pd.DataFrame(
        {
            "message": shown,
            "speaker": [messages[i].speaker for i in shown],
            "tier": [names[tiers[i]] for i in shown],
            "tokens": [tokens[i] for i in shown],
        },
        columns=columns,
    )
    # a page past the end: no rows, but the columns' types as on every other page
    return (
        frame
        if shown
        else frame.astype({"message": "int64", "speaker": "str", "tier": "str", "tokens": "int64"})
    )
