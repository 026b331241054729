"""Pass ``dedupe_results``: one result per call.

After a provider switch or a retry, the same result can be stored twice (seed 000 failure mode B),
and providers reject the second (``each tool_use must have a single result``). The kept copy is the
first complete, non-error one (else the first); every other copy is dropped with a Change. A copy
that *differs* from the kept one is a ``conflict``: both contents are in the Change, because the
user may need to know the tool said two different things.
"""

from __future__ import annotations

from collections import Counter

from toolhist._trusted import replace
from toolhist.curation.base import Change, Trace, block_json
from toolhist.curation.util import same_result
from toolhist.model import Block, Message, ToolResponseBlock

PASS = "dedupe_results"


def _rank(block: ToolResponseBlock) -> int:
    return (2 if block.is_complete else 0) + (0 if block.error else 1)


def dedupe_results(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
    """Keep one result per call id; drop the others, reporting differing ones as conflicts."""
    ids = trace.tool_ids(messages)
    if ids.results_distinct:
        return messages, []  # one result per call already
    # Only the results of a call answered more than once can lose: the others are their call's best.
    twice = {call_id for call_id, n in Counter(ids.results).items() if n > 1}
    best: dict[str, ToolResponseBlock] = {}
    results: list[tuple[int, ToolResponseBlock]] = []
    for m, message in enumerate(messages):
        for result in message.blocks:
            if type(result) is ToolResponseBlock and result.call_id in twice:
                results.append((m, result))
                leader = best.get(result.call_id)
                if leader is None or _rank(result) > _rank(leader):
                    best[result.call_id] = result
    dropping = sorted(
        {m for m, result in results if best[result.call_id] is not result}
    )  # messages that lose one
    out: list[Message] = []
    changes: list[Change] = []
    done = 0  # messages before this are in ``out``
    for m in dropping:
        out.extend(messages[done:m])  # the messages between two that lose a result, as they are
        done = m + 1
        message = messages[m]
        blocks: list[Block] = []
        for block in message.blocks:
            if type(block) is ToolResponseBlock and best.get(block.call_id, block) is not block:
                winner = best[block.call_id]
                conflict = not same_result(block, winner)
                changes.append(
                    Change.trusted(
                        pass_=PASS,
                        action="conflict" if conflict else "dedupe",
                        reason=(
                            "a second result for the same call with different content; the complete, non-error one is kept"
                            if conflict
                            else "the same result was recorded twice; one copy is kept"
                        ),
                        call_id=block.raw_call_id or block.call_id,
                        before=trace.origin(block),
                        dropped=block_json(block),
                        detail={"kept": block_json(winner), "kept_at": _at(trace, winner)}
                        if conflict
                        else {"kept_at": _at(trace, winner)},
                    )
                )
                continue
            blocks.append(block)
        if len(blocks) == len(message.blocks):
            out.append(message)
        elif blocks:
            # Text left behind once its results went is the user's, not a tool's (as in move_results).
            speaker = (
                "human"
                if message.speaker == "tool" and not any(isinstance(b, ToolResponseBlock) for b in blocks)
                else message.speaker
            )
            new = replace(message, blocks=tuple(blocks), speaker=speaker)
            trace.derive(new, message)
            out.append(new)
    out.extend(messages[done:])
    return tuple(out), changes


def _at(trace: Trace, block: ToolResponseBlock) -> dict[str, int | None] | None:
    origin = trace.origin(block)
    return origin.model_dump() if origin else None
