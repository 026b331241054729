"""`compact`: RFC 026 tool-history compaction of a Session, with a record of what it replaced.

- The input Session is never changed; the result holds a new one.
- Compaction runs when there are more than ``keep`` pairs and their tokens exceed ``threshold``
  (the RFC's ``computeTruncation`` rule: both conditions, not Kilo's count-only variant).
- The last ``keep`` pairs (widened to whole assistant messages) stay verbatim, and so do tier 1,
  tier 4, every message without tool blocks and everything that is not a pair (see `tiers`).
- An error result is never shortened: its text stays in full (native) or goes in full into the
  summary's ``[Errors encountered:]`` list (text-embed).
- Every replaced call and result is a `Replacement`; every message text-embed drops or converts is
  a note. Nothing is removed silently.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from toolhist._trusted import construct
from toolhist._trusted import replace as trusted_replace
from toolhist.compaction.categories import Category
from toolhist.compaction.rendering import Rendering, elide, has_long, result_marker
from toolhist.compaction.summaries import SummaryItem, call_line, historical_summary
from toolhist.compaction.tiers import TIER_NAMES, Pair, Tier, layout, pairs
from toolhist.errors import UsageError
from toolhist.model import (
    Block,
    Message,
    MessageMetadata,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)
from toolhist.providers import provider_for
from toolhist.tokens import (
    MESSAGE_OVERHEAD,
    TokenCounter,
    count_block,
    count_message,
    extra_error,
    prefetch,
    result_text,
    session_counter,
)

RECENT_CALLS_TO_KEEP: Final = 6
"""RFC 026 ``recentCallsToKeep`` default (Kilo's setting: 6, min 1, max 50)."""
TRUNCATION_THRESHOLD: Final = 10_000
"""RFC 026 ``truncationThreshold`` default, in tokens of tool calls and results."""
SUMMARY_REASON: Final = "toolhist compaction: one line per earlier tool call, in place of its text (tier 2)"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, use_attribute_docstrings=True)


class Replacement(_Frozen):
    """One older pair and what stands for it now."""

    call_id: str
    """The call's id, as the input had it."""
    tool_name: str
    category: Category
    call_at: tuple[int, int]
    """(message, block) of the call in the input session."""
    result_at: tuple[int, int]
    """(message, block) of the result in the input session."""
    summary: str
    """The line that replaced it (``[Earlier: …]``), or for an error ``name: error text``."""
    is_error: bool
    """An error result: its text was kept in full."""
    result_replaced: bool
    """True when the result text was replaced; False for an error, or (native) a result already
    shorter than its summary line, which stays as it was."""
    tokens_before: int
    """Tokens of the call and result blocks before (no framing)."""


class TierTokens(_Frozen):
    """One tier's size before and after."""

    tier: Tier
    name: str
    messages_before: int
    messages_after: int
    tokens_before: int
    tokens_after: int


class Compaction(_Frozen):
    """What `compact` made: the new session, and how and why it differs."""

    session: Session
    """The compacted history (a new object)."""
    original: Session
    """The input, unchanged."""
    provider: str
    rendering: Rendering
    keep: int
    threshold: int
    triggered: bool
    """True when older pairs were replaced (more than ``keep`` pairs over ``threshold`` tokens)."""
    reason: str
    """Why it did or did not compact, in one sentence."""
    encoding: str
    exact: bool
    """True when ``encoding`` is the target model's own (an OpenAI model); else an estimate."""
    token_label: str
    """``exact (o200k_base)`` or ``approx (o200k)``: printed beside every figure."""
    pair_count: int
    tool_tokens: int
    """Tokens of every pair's call and result in the input (what ``threshold`` is compared with)."""
    tiers: tuple[TierTokens, ...]
    replacements: tuple[Replacement, ...]
    summary: str
    """The historical summary text (tier 2), empty when nothing was compacted."""
    notes: tuple[str, ...] = ()
    """Messages and blocks text-embed dropped or turned into user text, said plainly."""
    message_tiers_before: tuple[Tier, ...]
    message_tiers_after: tuple[Tier, ...]
    message_tokens_before: tuple[int, ...]
    message_tokens_after: tuple[int, ...] = Field(default=())

    @property
    def tokens_before(self) -> int:
        """Tokens of the whole input history."""
        return sum(self.message_tokens_before)

    @property
    def tokens_after(self) -> int:
        """Tokens of the whole compacted history."""
        return sum(self.message_tokens_after)


def compact(
    session: Session,
    provider: str,
    *,
    keep: int = RECENT_CALLS_TO_KEEP,
    threshold: int = TRUNCATION_THRESHOLD,
    rendering: Rendering = "native",
) -> Compaction:
    """Compact ``session``'s tool history for ``provider`` (RFC 026), counting tokens the provider's way."""
    provider = provider_for(provider).name
    if keep < 0 or threshold < 0:
        raise UsageError(f"keep and threshold must be 0 or more, got keep={keep!r}, threshold={threshold!r}")
    if rendering not in ("native", "text-embed"):
        raise UsageError(f"unknown rendering {rendering!r}; choose native or text-embed")
    counter = session_counter(session, provider)
    prefetch(counter, session)  # every block is counted below: on every core when the text is long
    found = pairs(session, counter)
    shape = layout(session, found, keep)
    tool_tokens = sum(p.tokens for p in found)
    older = found[: shape.recent_from]
    triggered = bool(older) and tool_tokens > threshold
    if not older:
        reason = f"{len(found)} tool pair(s), not more than the {keep} kept verbatim: nothing to compact"
    elif not triggered:
        reason = f"tool history is {tool_tokens:,} tokens, not over the {threshold:,}-token threshold"
    else:
        reason = f"{len(older):,} older pair(s) compacted: {tool_tokens:,} tool tokens > {threshold:,}"
    chosen = older if triggered else []
    items = [_item(p) for p in chosen]
    summary = historical_summary(items)
    if rendering == "native":
        kept = {p.result_at for p, i in zip(chosen, items, strict=True) if not _shorter(counter, p, i)}
        messages, tiers_after, block_tiers, notes = _native(session, chosen, items, shape.tiers, kept)
    else:
        kept = {p.result_at for p, i in zip(chosen, items, strict=True) if i.is_error}
        messages, tiers_after, block_tiers, notes = _text_embed(session, chosen, summary, shape.tiers)
    compacted = session.model_copy(update={"messages": tuple(messages)})
    before = tuple(count_message(counter, m) for m in session.messages)
    known = {id(m): n for m, n in zip(session.messages, before, strict=True)}  # both sessions are alive
    after = tuple(
        n if (n := known.get(id(m))) is not None else count_message(counter, m) for m in compacted.messages
    )
    return Compaction(
        session=compacted,
        original=session,
        provider=provider,
        rendering=rendering,
        keep=keep,
        threshold=threshold,
        triggered=triggered,
        reason=reason,
        encoding=counter.encoding,
        exact=counter.exact,
        token_label=counter.label,
        pair_count=len(found),
        tool_tokens=tool_tokens,
        tiers=_tier_table(
            counter, (session, shape.tiers, before), (compacted, tiers_after, after), block_tiers
        ),
        replacements=tuple(
            _replacement(p, i, p.result_at not in kept) for p, i in zip(chosen, items, strict=True)
        ),
        summary=summary,
        notes=tuple(notes),
        message_tiers_before=shape.tiers,
        message_tiers_after=tuple(tiers_after),
        message_tokens_before=before,
        message_tokens_after=after,
    )


def _item(pair: Pair) -> SummaryItem:
    if pair.is_error:
        text = error_text(pair.result)
        return SummaryItem(pair.category, f"{pair.call.name}: {text}", is_error=True)
    line = call_line(
        pair.call.name, pair.category, pair.call.parameters, pair.result.result, result_text(pair.result)
    )
    return SummaryItem(pair.category, line, is_error=False)


def error_text(block: ToolResponseBlock) -> str:
    """A result's error and content in full, each once (sources often repeat the error as content)."""
    return "\n".join(p for p in (extra_error(block), result_text(block)) if p)


def _shorter(counter: TokenCounter, pair: Pair, item: SummaryItem) -> bool:
    """Whether the summary line costs fewer tokens than the (successful) result it would replace."""
    return not item.is_error and counter.count(item.line) < count_block(counter, pair.result)


def _replacement(pair: Pair, item: SummaryItem, replaced: bool) -> Replacement:
    return construct(  # valid values of the declared types: one per older pair, 51,000 at 100k messages
        Replacement,
        call_id=pair.call.id,
        tool_name=pair.call.name,
        category=pair.category,
        call_at=pair.call_at,
        result_at=pair.result_at,
        summary=item.line,
        is_error=item.is_error,
        result_replaced=replaced,
        tokens_before=pair.tokens,
    )


def _tier_tokens(
    counter: TokenCounter, side: _Side, block_tiers: Sequence[Sequence[Tier]] | None = None
) -> dict[Tier, int]:
    """Tokens per tier; a message's framing goes to its own tier, each block's tokens to the block's.

    A message whose blocks are all of its own tier adds its count as a whole (``block_tiers`` None:
    every message's are); only text-embed's merged messages are split block by block.
    """
    session, tiers, counts = side
    totals: dict[Tier, int] = dict.fromkeys(TIER_NAMES, 0)
    for i, (tier, tokens) in enumerate(zip(tiers, counts, strict=True)):
        per_block = None if block_tiers is None else block_tiers[i]
        if per_block is None or all(t == tier for t in per_block):
            totals[tier] += tokens
            continue
        totals[tier] += MESSAGE_OVERHEAD
        for block, block_tier in zip(session.messages[i].blocks, per_block, strict=True):
            totals[block_tier] += count_block(counter, block)
    return totals


_Side = tuple[Session, Sequence[Tier], Sequence[int]]
"""A history, the tier of each of its messages and the tokens of each."""


def _tier_table(
    counter: TokenCounter, original: _Side, compacted: _Side, block_tiers: Sequence[Sequence[Tier]] | None
) -> tuple[TierTokens, ...]:
    before = _tier_tokens(counter, original)
    after = _tier_tokens(counter, compacted, block_tiers)
    tiers_before, tiers_after = original[1], compacted[1]
    return tuple(
        TierTokens(
            tier=tier,
            name=name,
            messages_before=tiers_before.count(tier),
            messages_after=tiers_after.count(tier),
            tokens_before=before[tier],
            tokens_after=after[tier],
        )
        for tier, name in TIER_NAMES.items()
    )


def _short_call(call: ToolCallBlock) -> ToolCallBlock:
    """The call with long argument values elided (invalid-JSON arguments stay as they were)."""
    if call.arguments_error is not None or call.parameters is None or not has_long(call.parameters):
        return call  # nothing to elide (most calls: a walk that copies nothing)
    parameters = elide(call.parameters)
    if parameters == call.parameters:
        return call
    raw = None if call.raw_arguments is None else _dumps(parameters)
    return trusted_replace(call, parameters=parameters, raw_arguments=raw)


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _native(
    session: Session,
    chosen: list[Pair],
    items: list[SummaryItem],
    tiers: tuple[Tier, ...],
    kept: set[tuple[int, int]],
) -> tuple[list[Message], list[Tier], None, list[str]]:
    """Same messages and blocks; an older call loses long arguments, a successful result becomes its line.

    Every block keeps its message's tier (no per-block tiers: None, as `_tier_tokens` reads it).
    """
    replace: dict[tuple[int, int], Block] = {}
    for pair, item in zip(chosen, items, strict=True):
        replace[pair.call_at] = _short_call(pair.call)
        if pair.result_at not in kept:
            replace[pair.result_at] = trusted_replace(pair.result, result=item.line)
    touched = {i for i, _ in replace}
    messages = [
        m
        if i not in touched
        else trusted_replace(m, blocks=tuple(replace.get((i, b), x) for b, x in enumerate(m.blocks)))
        for i, m in enumerate(session.messages)
    ]
    return messages, list(tiers), None, []


def _text_embed(
    session: Session, chosen: list[Pair], summary: str, tiers: tuple[Tier, ...]
) -> tuple[list[Message], list[Tier], list[list[Tier]], list[str]]:
    """Calls omitted, results as user text with markers, older pairs as one summary message.

    The summary stands where the last older result stood, so a history that ended on results
    still ends on a user turn. Consecutive messages of one speaker that this made (a converted or
    summary message, or two messages a dropped one used to separate) are then merged: Bedrock
    Converse rejects two user turns in a row. Messages that were already adjacent are left as they
    were. Each block keeps its own tier for the token table.
    """
    older_results = {p.result_at for p in chosen}
    summary_after = max(p.result_at[0] for p in chosen) if chosen else None
    out: list[_Out] = []
    notes: list[str] = []
    for i, message in enumerate(session.messages):
        out += _embed_message(i, message, tiers[i], older_results, notes)
        if i == summary_after:
            meta = MessageMetadata(synthetic=True, reason=SUMMARY_REASON)
            made = Message(speaker="human", blocks=(TextBlock(text=summary),), metadata=meta)
            out.append(_Out(made, 2, [2], None, None))
    merged: list[_Out] = []
    for item in out:
        last = merged[-1] if merged else None
        if (
            last is not None
            and last.message.speaker == item.message.speaker != "system"
            and _made(last, item)
        ):
            joined = last.message.model_copy(update={"blocks": (*last.message.blocks, *item.message.blocks)})
            merged[-1] = _Out(joined, last.tier, last.blocks + item.blocks, None, item.end or last.end)
            notes.append(f"two {item.message.speaker} messages in a row merged into one (text-embed)")
        else:
            merged.append(item)
    return [o.message for o in merged], [o.tier for o in merged], [o.blocks for o in merged], notes


def _made(last: _Out, item: _Out) -> bool:
    """Whether two neighbours are neighbours because of text-embed (else they stay apart)."""
    return last.src is None or item.src is None or item.src != (last.end or 0) + 1


def _embed_message(
    i: int, message: Message, tier: Tier, older_results: set[tuple[int, int]], notes: list[str]
) -> list[_Out]:
    """Message ``i`` in text-embed form: no calls, results as marked user text (or nothing)."""
    if message.speaker not in ("ai", "tool"):
        return [_Out(message, tier, [tier] * len(message.blocks), i, i)]
    blocks: list[Block] = []
    for b, block in enumerate(message.blocks):
        if isinstance(block, ToolCallBlock):
            notes.append(f"message {i} block {b}: call {block.name} ({block.id}) omitted (text-embed)")
        elif isinstance(block, ToolResponseBlock):
            if (i, b) in older_results:
                continue  # in the summary (a Replacement records it)
            marker = result_marker(block.call_id, block.tool_name, block.error is not None)
            body = error_text(block) or "[empty tool result]"
            blocks.append(TextBlock(text=f"{marker}\n{body}"))
        elif isinstance(block, ThinkingBlock) and message.speaker == "tool":
            notes.append(f"message {i} block {b}: thinking in a tool message dropped (text-embed)")
        else:
            blocks.append(block)
    if message.speaker == "ai" and len(blocks) == len(message.blocks):
        return [_Out(message, tier, [tier] * len(blocks), i, i)]  # no call in it: as it was
    if message.speaker == "ai" and not any(isinstance(b, TextBlock) and b.text.strip() for b in blocks):
        if blocks:
            notes.append(f"message {i}: ai message without text left after its calls were omitted, dropped")
        return []
    if not blocks:
        return []
    if message.speaker == "tool":
        notes.append(f"message {i}: tool results sent as user text (text-embed)")
        meta = message.metadata.model_copy(update={"source_role": None})
        converted = Message(speaker="human", blocks=tuple(blocks), metadata=meta)
    else:
        converted = message.model_copy(update={"blocks": tuple(blocks)})
    return [_Out(converted, tier, [tier] * len(blocks), None, i)]


@dataclass(frozen=True)
class _Out:
    """A text-embed output message: its tier, each block's tier, and where it came from."""

    message: Message
    tier: Tier
    blocks: list[Tier]
    src: int | None
    """The input message it is, unchanged; ``None`` when it was made or changed here."""
    end: int | None
    """The last input message it holds (``None`` for the summary alone)."""
