"""Tables of a Compaction: tokens per tier, what each summary replaced, tokens per message.

Pure: a `toolhist.compaction.Compaction` in, DataFrames of text and numbers out (the Compaction
page shows them; Jupyter can too). Every cell is plain text or a number, so whatever shows it
escapes it.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Final

import pandas as pd

from toolhist.compaction import TIER_NAMES, Compaction, Tier
from toolhist.views.roles import role


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


REPLACEMENT_COLUMNS: Final = (
    "tool",
    "call id",
    "category",
    "call at",
    "result at",
    "tokens before",
    "outcome",
    "summary",
)
OUTCOMES: Final = ("error kept in full", "replaced by the summary", "kept (shorter than its summary)")


def replacements_frame(c: Compaction) -> pd.DataFrame:
    """One row per replaced pair: the tool, where its call and result were, and what stands for it."""
    return replaced_of(c).page(None)


@dataclass(frozen=True)
class Replaced:
    """`replacements_frame`'s rows, kept a column at a time; a page of them made when shown (`page`).

    At 100,000 messages 51,000 pairs are replaced: the whole frame (two position strings per row
    among its cells) was 13 MB the Compaction page kept per setting, to show 1,000 rows at a time.
    """

    tools: tuple[str, ...]
    call_ids: tuple[str, ...]
    categories: tuple[str, ...]
    places: array[int]
    """Per row: the call's message and block, then the result's."""
    tokens: array[int]
    outcomes: bytes
    """Per row: its index into `OUTCOMES`."""
    summaries: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.tools)

    def page(self, rows: range | None) -> pd.DataFrame:
        """Rows ``rows`` (None: all) as `replacements_frame` has them, numbered as in the whole frame."""
        picked = range(len(self))[rows.start : rows.stop] if rows is not None else range(len(self))
        if not picked:  # as a frame of no rows is (every column of dtype object)
            return pd.DataFrame([], columns=list(REPLACEMENT_COLUMNS))
        at = self.places
        columns = (
            [self.tools[i] for i in picked],
            [self.call_ids[i] for i in picked],
            [self.categories[i] for i in picked],
            [f"message {at[4 * i]}, block {at[4 * i + 1]}" for i in picked],
            [f"message {at[4 * i + 2]}, block {at[4 * i + 3]}" for i in picked],
            [self.tokens[i] for i in picked],
            [OUTCOMES[self.outcomes[i]] for i in picked],
            [self.summaries[i] for i in picked],
        )
        frame = pd.DataFrame(
            dict(zip(REPLACEMENT_COLUMNS, columns, strict=True)), columns=list(REPLACEMENT_COLUMNS)
        )
        frame.index = pd.RangeIndex(picked.start, picked.stop)
        return frame


def replaced_of(c: Compaction) -> Replaced:
    """`Replaced` of ``c``'s replacements."""
    made = c.replacements
    return Replaced(
        tools=tuple(r.tool_name for r in made),
        call_ids=tuple(r.call_id for r in made),
        categories=tuple(r.category for r in made),
        places=array("q", (n for r in made for n in (*r.call_at, *r.result_at))),
        tokens=array("q", (r.tokens_before for r in made)),
        outcomes=bytes(0 if r.is_error else 1 if r.result_replaced else 2 for r in made),
        summaries=tuple(r.summary for r in made),
    )


@dataclass(frozen=True)
class Side:
    """One history's messages as the tokens table lists them: role, tier and tokens of each."""

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
    return Side(tuple(role(m.speaker) for m in session.messages), tiers, tokens)


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
    replacements: Replaced
    """What each summary replaced (`Replaced.page` makes the rows shown)."""
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
        replacements=replaced_of(c),
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
    columns = ["message", "role", "tier", "tokens"]
    if not tokens:  # as a frame of no rows is (every column of dtype object)
        return pd.DataFrame([], columns=columns)
    picked = range(len(tokens))[rows.start : rows.stop] if rows is not None else range(len(tokens))
    names = {t: f"{t} · {TIER_NAMES[t]}" for t in set(tiers)}
    frame = pd.DataFrame(
        {
            "message": picked,
            "role": [speakers[i] for i in picked],
            "tier": [names[tiers[i]] for i in picked],
            "tokens": [tokens[i] for i in picked],
        },
        columns=columns,
    )
    # a page past the end: no rows, but the columns' types as on every other page
    return (
        frame
        if picked
        else frame.astype({"message": "int64", "role": "str", "tier": "str", "tokens": "int64"})
    )
