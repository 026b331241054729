"""Tables of a Compaction: tokens per tier, what each summary replaced, tokens per message.

Pure: a `toolhist.compaction.Compaction` in, DataFrames of text and numbers out (the Compaction
page shows them; Jupyter can too). Every cell is plain text or a number, so whatever shows it
escapes it.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from toolhist.compaction import TIER_NAMES, Compaction, Tier


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


@dataclass(frozen=True)
class Side:
    """One history's messages as the tokens table lists them: speaker, tier and tokens of each."""

    speakers: tuple[str, ...]
    tiers: tuple[Tier, ...]
    tokens: tuple[int, ...]


def side_of(c: Compaction, *, after: bool = False) -> Side:
    """The input's (or the compacted history's) `Side`."""
    session = c.session if after else c.original
    tiers = c.message_tiers_after if after else c.message_tiers_before
    tokens = c.message_tokens_after if after else c.message_tokens_before
    if not (len(session.messages) == len(tiers) == len(tokens)):
        raise ValueError(
            f"{len(session.messages)} messages, {len(tiers)} tiers and {len(tokens)} token counts: "
            "a compaction gives one of each per message"
        )
    return Side(tuple(m.speaker for m in session.messages), tiers, tokens)


@dataclass(frozen=True)
class Shown:
    """What the Compaction page shows of a `Compaction`, made once, without the compacted history.

    At 100,000 messages a Compaction holds a new history (a new message for each replaced result)
    and a `Replacement` model per pair; the page keeps this instead: its figures, its tables, and
    per message only a speaker, a tier and a count.
    """

    tokens_before: int
    tokens_after: int
    pair_count: int
    tool_tokens: int
    token_label: str
    exact: bool
    reason: str
    tiers: pd.DataFrame
    replacements: pd.DataFrame
    summary: str
    notes: tuple[str, ...]
    before: Side
    after: Side


def shown(c: Compaction) -> Shown:
    """`Shown` of ``c``: every figure and table as the page shows it."""
    return Shown(
        tokens_before=c.tokens_before,
        tokens_after=c.tokens_after,
        pair_count=c.pair_count,
        tool_tokens=c.tool_tokens,
        token_label=c.token_label,
        exact=c.exact,
        reason=c.reason,
        tiers=tiers_frame(c),
        replacements=replacements_frame(c),
        summary=c.summary,
        notes=c.notes,
        before=side_of(c),
        after=side_of(c, after=True),
    )


def messages_frame(c: Compaction, *, after: bool = False, rows: range | None = None) -> pd.DataFrame:
    """Tokens per message of the input (or of the compacted history), with its speaker and tier."""
    return side_frame(side_of(c, after=after), rows)


def side_frame(side: Side, rows: range | None = None) -> pd.DataFrame:
    """Tokens per message of one history, with its speaker and tier.

    ``rows``: only those messages (a page of the table; past the end, fewer), numbered as in the
    whole frame. Built a column at a time (not a dict per row): at 100,000 messages a whole frame
    is 14 MB.
    """
    tiers, tokens, speakers = side.tiers, side.tokens, side.speakers
    columns = ["message", "speaker", "tier", "tokens"]
    if not tokens:  # as a frame of no rows is (every column of dtype object)
        return pd.DataFrame([], columns=columns)
    picked = range(len(tokens))[rows.start : rows.stop] if rows is not None else range(len(tokens))
    names = {t: f"{t} · {TIER_NAMES[t]}" for t in set(tiers)}
    frame = pd.DataFrame(
        {
            "message": picked,
            "speaker": [speakers[i] for i in picked],
            "tier": [names[tiers[i]] for i in picked],
            "tokens": [tokens[i] for i in picked],
        },
        columns=columns,
    )
    # a page past the end: no rows, but the columns' types as on every other page
    return (
        frame
        if picked
        else frame.astype({"message": "int64", "speaker": "str", "tier": "str", "tokens": "int64"})
    )
