"""Pass ``drop_item_ids``: Responses function calls sent without an item id they cannot back up.

A Responses ``function_call`` item with an ``id`` (``fc_…``) claims to be the model's stored output,
and the API then wants the reasoning item that produced it: ``Item 'fc_…' of type
'function_call' was provided without its required 'reasoning' item``. When that reasoning is not
in the history (dropped by an agent, by compaction, or by `drop_foreign_thinking`), the call goes out
without its id: ids are optional on input, and the call and its ``call_id`` pairing are unchanged.
Ids with the wrong prefix (``Expected an ID that begins with 'fc'``) or repeated ids are dropped the
same way. Each drop is a Change holding the id.

Only a Responses body's own items carry their ids into the payload (the renderer sends a call's
item fields only when it renders a Responses body back); from any other source the calls go out
without ids, and there is nothing to drop.
"""

from __future__ import annotations

from toolhist._trusted import replace
from toolhist.curation.base import Change, Pass, Trace
from toolhist.model import Block, Message, ThinkingBlock, ToolCallBlock

PASS = "drop_item_ids"


def drop_item_ids(provider: str, source_format: str | None = "openai-responses") -> Pass:
    """The pass for ``provider`` (only ``openai-responses`` has item ids, sent from its own bodies only)."""

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        if provider != "openai-responses" or source_format != "openai-responses":
            return messages, []
        seen: set[str] = set()
        out: list[Message] = []
        changes: list[Change] = []
        for message in messages:
            blocks: list[Block] = []
            reasoning = False
            for block in message.blocks:
                if isinstance(block, ThinkingBlock):
                    reasoning = True
                item_id = block.provider_data.get("id") if isinstance(block, ToolCallBlock) else None
                if isinstance(block, ToolCallBlock) and isinstance(item_id, str):
                    why = None
                    if not item_id.startswith("fc_"):
                        why = "a function_call item id must begin with 'fc'"
                    elif item_id in seen:
                        why = "the item id repeats an earlier item's"
                    elif not reasoning:
                        why = "the reasoning item this call came with is not in the history; without its id the call needs none"
                    seen.add(item_id)
                    if why:
                        data = {k: v for k, v in block.provider_data.items() if k != "id"}
                        new = replace(block, provider_data=data)
                        trace.derive(new, block)
                        changes.append(
                            Change.trusted(
                                pass_=PASS,
                                action="strip",
                                reason=why,
                                call_id=block.raw_id or block.id,
                                before=trace.origin(block),
                                dropped={"id": item_id},
                            ).with_subject(new)
                        )
                        block = new  # noqa: PLW2901
                blocks.append(block)
            if any(a is not b for a, b in zip(blocks, message.blocks, strict=True)):
                new_message = replace(message, blocks=tuple(blocks))
                trace.derive(new_message, message)
                out.append(new_message)
            else:
                out.append(message)
        return tuple(out), changes

    return run
