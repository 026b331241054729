"""Passes ``map_ids`` and ``dedupe_calls``: which call each result answers, and ids to pair on.

Raw ids cannot be trusted to pair: a provider switch leaves ``call_…``, ``toolu_…`` and Kimi's
turn-local ``functions.read:0`` side by side, some agents write empty ids, and a retried turn can
repeat an id for a different call. This pass decides, once, which call every result answers, and
gives every distinct call an id of its own and every result the id of its call:

- a call whose id repeats an earlier call's id with the same name and arguments is the *same*
  call recorded twice (seed 000 failure mode A): same id, and ``dedupe_calls`` drops the copy;
- a call whose id repeats an earlier *different* call's id gets its own id (the raw id plus its
  occurrence number enters the hash), so the two stay apart;
- a call with no id gets one from its turn and position (seed 001's missing-id rule);
- a result pairs with the latest still-unanswered call of its id before it, else the first
  unanswered one after it (an early result), else the latest one before it (a duplicate result);
  a result with no id pairs with the first unanswered call of the assistant turn before it.

Two modes. ``keep`` (strategy ``toolhist``): a call keeps its own id when that id already tells it
apart, and only the calls above get a seed 001 canonical id (`toolhist.ids.canonical_id`) to pair on;
`toolhist.curation.sent_ids` later decides what goes out, so these ids are the passes' own and make
no Change. ``canonical`` (strategy ``canonical``, seed 001 in full): every call gets its canonical id,
shown as the Curation's id map.
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_left
from dataclasses import dataclass
from typing import Literal

from toolhist._trusted import replace
from toolhist.curation.base import Change, Pass, Trace, block_json
from toolhist.ids import canonical_id
from toolhist.model import Block, Message, ToolCallBlock, ToolResponseBlock

PASS = "map_ids"
Mode = Literal["keep", "canonical"]
"""``keep``: a call keeps an id that tells it apart; ``canonical``: every call gets its seed 001 id."""


@dataclass
class _Call:
    message: int
    block: ToolCallBlock
    new_id: str
    answered: bool = False


def _turn_key(message: Message) -> str:
    """A turn key that survives re-reads and compaction: the agent's turn id, else a content hash."""
    if message.metadata.turn_id:
        return message.metadata.turn_id
    shape = [[b.name, b.parameters] if isinstance(b, ToolCallBlock) else b.type for b in message.blocks]
    digest = hashlib.sha256(json.dumps(shape, sort_keys=True, default=str).encode()).hexdigest()
    return "turn_" + digest[:16]


def _same_call(a: ToolCallBlock, b: ToolCallBlock) -> bool:
    return a.name == b.name and a.parameters == b.parameters and a.raw_arguments == b.raw_arguments


def _assign_calls(
    messages: tuple[Message, ...], provider: str | None, mode: Mode
) -> tuple[list[_Call], dict[str, list[_Call]]]:
    calls: list[_Call] = []
    by_raw: dict[str, list[_Call]] = {}
    for m, message in enumerate(messages):
        index = 0
        for block in message.blocks:
            if not isinstance(block, ToolCallBlock):
                continue
            raw = block.id
            if not raw:
                new = canonical_id(provider, None, block.name, _turn_key(message), index)
            else:
                earlier = by_raw.get(raw)
                twin = (
                    None
                    if earlier is None
                    else next((c for c in earlier if _same_call(c.block, block)), None)
                )
                if twin is not None:
                    new = twin.new_id
                elif earlier:
                    new = canonical_id(provider, f"{raw}#{len(earlier)}", block.name, "", 0)
                else:
                    new = raw if mode == "keep" else canonical_id(provider, raw, block.name, "", 0)
            call = _Call(m, block, new)
            calls.append(call)
            if raw in by_raw:
                by_raw[raw].append(call)
            else:
                by_raw[raw] = [call]
            index += 1
    return calls, by_raw


def _pair(  # noqa: PLR0917 - one call site; the state is the pass's
    m: int,
    result: ToolResponseBlock,
    messages: tuple[Message, ...],
    calls: list[_Call],
    by_raw: dict[str, list[_Call]],
    provider: str | None,
    positions: list[int],
    mode: Mode,
) -> str:
    if not result.call_id:
        # Pair by position: the first unanswered call of the nearest assistant turn before it.
        # ``calls`` is in message order, so bisecting ``positions`` (each call's message index)
        # finds that turn without scanning every earlier call (quadratic on id-less histories).
        end = bisect_left(positions, m)
        if end:
            for c in calls[bisect_left(positions, calls[end - 1].message) : end]:
                if not c.answered:
                    c.answered = True
                    return c.new_id
        return canonical_id(provider, None, result.tool_name, _turn_key(messages[m]), 0)
    candidates = by_raw.get(result.call_id, [])  # keyed by a call's id: a non-empty one, as this result's
    if len(candidates) == 1:  # the common case, and what the general one does with a single call
        candidates[0].answered = True
        return candidates[0].new_id
    before = [c for c in candidates if c.message < m]
    after = [c for c in candidates if c.message >= m]
    for group in (reversed(before), after):
        for c in group:
            if not c.answered:
                c.answered = True
                # A repeated copy of the same call answers for all its copies.
                for twin in candidates:
                    if twin.new_id == c.new_id:
                        twin.answered = True
                return c.new_id
    if before:
        return before[-1].new_id
    if after:
        return after[0].new_id
    # No call has this id (compacted away): the result keeps its own id for the call made for it.
    return (
        result.call_id if mode == "keep" else canonical_id(provider, result.call_id, result.tool_name, "", 0)
    )


def map_ids(provider: str | None, mode: Mode = "keep") -> Pass:
    """The ``map_ids`` pass for a history read from ``provider`` (the source format names the ids).

    It makes no Change: the ids it gives are what the later passes pair on. What is sent, and the
    Changes or id map that say so, come from `toolhist.curation.sent_ids`.
    """

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        if mode == "keep":
            ids = trace.tool_ids(messages)
            if all(ids.calls) and all(ids.results) and ids.calls_distinct:
                # Every call keeps its own id (given, and no other call's), and every result pairs
                # on it as it is (one call of that id, or none: it keeps its own): nothing changes.
                return messages, []
        calls, by_raw = _assign_calls(messages, provider, mode)
        new_call_id = {id(c.block): c.new_id for c in calls}
        positions = [c.message for c in calls]
        out: list[Message] = []
        changed = False
        for m, message in enumerate(messages):
            given = message.blocks
            blocks: list[Block] | None = None  # a copy of ``given`` once a block of it changes
            for k, block in enumerate(given):
                kind = type(block)
                if kind is ToolCallBlock:
                    new = new_call_id[id(block)]
                    if new == block.id:  # type: ignore[union-attr]  # the type was just checked
                        continue
                    new_block: Block = replace(block, id=new)
                elif kind is ToolResponseBlock:
                    call_id = block.call_id  # type: ignore[union-attr]
                    candidates = by_raw.get(call_id) if call_id else None
                    if candidates is not None and len(candidates) == 1:  # `_pair`'s common case, inline
                        candidates[0].answered = True
                        new = candidates[0].new_id
                    else:
                        new = _pair(m, block, messages, calls, by_raw, provider, positions, mode)  # type: ignore[arg-type]
                    if new == call_id:
                        continue
                    new_block = replace(block, call_id=new)
                else:
                    continue
                trace.derive(new_block, block)
                if blocks is None:
                    blocks = list(given)
                blocks[k] = new_block
            if blocks is not None:
                new_message = replace(message, blocks=tuple(blocks))
                trace.derive(new_message, message)
                out.append(new_message)
                changed = True
            else:
                out.append(message)
        return (tuple(out) if changed else messages), []

    return run


def dedupe_calls(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
    """Drop a call recorded again under the same id with the same name and arguments (keep the first)."""
    if trace.tool_ids(messages).calls_distinct:  # no id twice: nothing to drop
        return messages, []
    seen: set[str] = set()
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        blocks: list[Block] = []
        for block in message.blocks:
            if isinstance(block, ToolCallBlock):
                if block.id in seen:
                    changes.append(
                        Change.trusted(
                            pass_="dedupe_calls",
                            action="dedupe",
                            reason="the same call (same id, name and arguments) was recorded twice; the first copy is kept",
                            call_id=block.raw_id or block.id,
                            before=trace.origin(block),
                            dropped=block_json(block),
                        )
                    )
                    continue
                seen.add(block.id)
            blocks.append(block)
        if len(blocks) == len(message.blocks):
            out.append(message)
        elif blocks:
            new = replace(message, blocks=tuple(blocks))
            trace.derive(new, message)
            out.append(new)
        else:
            changes.append(
                Change.trusted(
                    pass_="dedupe_calls",
                    action="drop",
                    reason="this assistant turn held only calls already in the history, so nothing of it is left",
                    before=trace.origin(message),
                    dropped=block_json(message),
                )
            )
    return tuple(out), changes
