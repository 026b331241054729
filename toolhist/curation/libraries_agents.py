"""Strategy ``openai-agents-port`` (a port; ``openai-agents`` runs the real SDK): what the OpenAI Agents SDK (Python) sends when it resumes a history.

Read in the public ``openai/openai-agents-python`` repository, ``src/agents/run_internal/items.py``:

- ``normalize_resumed_input`` runs ``drop_orphan_function_calls`` over a resumed input list: a tool
  call item whose ``call_id`` has no output item of the matching type anywhere in the list is
  removed, and so is every reasoning item whose next non-reasoning item is a removed call
  (``_drop_reasoning_items_preceding_dropped_calls``; PR #3207), because the Responses API rejects
  reasoning "without its required following item" (`drop_orphan_function_calls`).
- ``deduplicate_input_items`` keeps the first item per ``_dedupe_key``: ``id:<type>:<id>`` for an item
  with an id (the ``__fake_id__`` placeholder does not count), else ``call_id:<type>:<call_id>``;
  message items are never deduplicated (`deduplicate_input_items`).
- ``function_rejection_item`` answers a call the user rejected with a ``function_call_output`` whose
  output is ``REJECTION_MESSAGE`` = ``"Tool execution was not approved."``
  (``DEFAULT_APPROVAL_REJECTION_MESSAGE``). A history carries no approval decisions, so the registered
  strategy rejects nothing; `curate_with_rejections` takes the rejected call ids explicitly.

The SDK works on Responses input items; toolhist reads each canonical block as the item it
renders to for the Responses API (a call block is a ``function_call`` item, a result a
``function_call_output``, a thinking block a ``reasoning`` item, text a message item), so
"immediately preceding" and "anywhere in the list" mean the blocks in history order. The items
then reach each provider through the SDK's model adapters, which toolhist's renderers stand for.

Not reproduced: ``drop_orphaned_messages_after_consumed_reasoning``, which the SDK applies only to
the items a run generates (``prepare_model_input_items``), not to a resumed history.
"""

from __future__ import annotations

from collections.abc import Collection

from toolhist.curation.base import Change, Curation, Pass, Trace, block_json, run_passes
from toolhist.curation.libraries_common import synthetic_result
from toolhist.model import Block, Message, Session, ThinkingBlock, ToolCallBlock, ToolResponseBlock

NAME = "openai-agents-port"
REJECTION_MESSAGE = "Tool execution was not approved."
"""``REJECTION_MESSAGE`` in run_internal/items.py (``DEFAULT_APPROVAL_REJECTION_MESSAGE``)."""
FAKE_RESPONSES_ID = "__fake_id__"
"""``agents.models.fake_id.FAKE_RESPONSES_ID``: a placeholder item id the dedupe ignores."""
CALL_TO_OUTPUT = {
    "function_call": "function_call_output",
    "custom_tool_call": "custom_tool_call_output",
    "shell_call": "shell_call_output",
    "apply_patch_call": "apply_patch_call_output",
    "computer_call": "computer_call_output",
    "local_shell_call": "local_shell_call_output",
    "tool_search_call": "tool_search_output",
}
"""``_TOOL_CALL_TO_OUTPUT_TYPE`` in run_internal/items.py."""


def item_type(block: Block) -> str:
    """The Responses item type a block goes out as (``message`` for text and media)."""
    if isinstance(block, ThinkingBlock):
        return "reasoning"
    if isinstance(block, ToolCallBlock):
        kind = block.provider_data.get("type")
        return kind if isinstance(kind, str) and kind in CALL_TO_OUTPUT else "function_call"
    if isinstance(block, ToolResponseBlock):
        kind = block.provider_data.get("type")
        return kind if isinstance(kind, str) and kind in CALL_TO_OUTPUT.values() else "function_call_output"
    return "message"


def dedupe_key(block: Block) -> str | None:
    """``_dedupe_key``: the item id when it has one, else its call id; ``None`` for message items."""
    kind = item_type(block)
    if kind == "message":
        return None
    item_id = (
        block.provider_data.get("id")
        if isinstance(block, ToolCallBlock | ToolResponseBlock | ThinkingBlock)
        else None
    )
    if isinstance(item_id, str) and item_id != FAKE_RESPONSES_ID:
        return f"id:{kind}:{item_id}"
    if isinstance(block, ToolCallBlock):
        return f"call_id:{kind}:{block.id}"
    if isinstance(block, ToolResponseBlock) and block.provider_data.get("_call_id") != "absent":
        return f"call_id:{kind}:{block.call_id}"
    return None


def _without(messages: tuple[Message, ...], gone: set[tuple[int, int]], trace: Trace) -> tuple[Message, ...]:
    """``messages`` minus the blocks at the ``(message, block)`` positions in ``gone``.

    Positions, not object identity, say what goes: one block object may sit at two places. A
    message left empty is not sent (items have no container; the blocks' own Changes say why).
    """
    out: list[Message] = []
    for mi, message in enumerate(messages):
        kept = tuple(b for bi, b in enumerate(message.blocks) if (mi, bi) not in gone)
        if len(kept) == len(message.blocks):
            out.append(message)
        elif kept:
            rebuilt = message.model_copy(update={"blocks": kept})
            trace.derive(rebuilt, message)
            out.append(rebuilt)
    return tuple(out)


def deduplicate_input_items(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """``deduplicate_input_items``: a second item with the same key is not sent (the first stays).

    Source: openai/openai-agents-python, ``src/agents/run_internal/items.py``
    (``deduplicate_input_items``, ``_dedupe_key``).

    The key is the item id, so two ``function_call_output`` items for one call collapse only when
    neither has an id of its own; two calls collapse when they share an ``fc_`` id or, without one,
    a ``call_id``. Text, whatever it says, is never deduplicated.
    """
    first: dict[str, Block] = {}
    gone: set[tuple[int, int]] = set()
    changes: list[Change] = []
    for mi, message in enumerate(messages):
        for bi, block in enumerate(message.blocks):
            key = dedupe_key(block)
            if key is None:
                continue
            if key not in first:
                first[key] = block
                continue
            gone.add((mi, bi))
            kept = first[key]
            same = block_json(kept) == block_json(block)
            call_id = block.id if isinstance(block, ToolCallBlock) else getattr(block, "call_id", None)
            changes.append(
                Change(
                    pass_="deduplicate_input_items",
                    action="dedupe" if same else "conflict",
                    reason=f"the Agents SDK sends one item per key ({key}) and keeps the first"
                    + ("" if same else "; the dropped one said something else"),
                    call_id=call_id,
                    before=trace.origin(block),
                    dropped=block_json(block),
                    detail={"key": key, "kept": block_json(kept), "dropped": block_json(block)},
                )
            )
    if not gone:
        return messages, []
    return _without(messages, gone, trace), changes


def drop_orphan_function_calls(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """``drop_orphan_function_calls``: calls with no output anywhere go, with the reasoning before them.

    Source: openai/openai-agents-python, ``src/agents/run_internal/items.py``
    (``drop_orphan_function_calls``, ``_completed_call_ids_by_type``,
    ``_drop_reasoning_items_preceding_dropped_calls``).

    Position does not matter: an output earlier than its call, or after a later user message, keeps
    the call. A reasoning item goes when the first non-reasoning item after it is a dropped call.
    """
    where = [(mi, bi) for mi, m in enumerate(messages) for bi in range(len(m.blocks))]
    items = [messages[mi].blocks[bi] for mi, bi in where]
    completed: dict[str, set[str]] = {}
    for block in items:
        if isinstance(block, ToolResponseBlock) and block.provider_data.get("_call_id") != "absent":
            completed.setdefault(item_type(block), set()).add(block.call_id)
    dropped = [
        n
        for n, block in enumerate(items)
        if isinstance(block, ToolCallBlock)
        and block.id not in completed.get(CALL_TO_OUTPUT[item_type(block)], set())
    ]
    if not dropped:
        return messages, []
    reasoning: set[int] = set()
    for n, block in enumerate(items):
        if not isinstance(block, ThinkingBlock):
            continue
        following = next(
            (k for k in range(n + 1, len(items)) if not isinstance(items[k], ThinkingBlock)), None
        )
        if following is not None and following in dropped:
            reasoning.add(n)
    changes: list[Change] = []
    for n, block in enumerate(items):
        if n in reasoning:
            changes.append(
                Change(
                    pass_="drop_orphan_function_calls",
                    action="drop",
                    reason="the Agents SDK drops a reasoning item whose following call it drops, since the "
                    "Responses API rejects reasoning without its required following item",
                    before=trace.origin(block),
                    dropped=block_json(block),
                )
            )
        elif n in dropped and isinstance(block, ToolCallBlock):
            changes.append(
                Change(
                    pass_="drop_orphan_function_calls",
                    action="drop",
                    reason=f"call {block.id} ({block.name}) has no output anywhere in the input; the Agents "
                    "SDK drops it so a resumed run does not replay a stale call",
                    call_id=block.id,
                    before=trace.origin(block),
                    dropped=block_json(block),
                )
            )
    gone = {where[n] for n in (*dropped, *reasoning)}
    return _without(messages, gone, trace), changes


def function_rejection_items(rejected: Collection[str]) -> Pass:
    """``function_rejection_item`` for each call id in ``rejected`` that has no output yet.

    Source: openai/openai-agents-python, ``src/agents/run_internal/items.py``
    (``function_rejection_item``, ``REJECTION_MESSAGE``).

    The rejection output goes where the SDK puts tool outputs: after the call's message and the
    tool messages right after it.
    """

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        answered = {r.call_id for m in messages for r in m.tool_responses()}
        out: list[Message] = []
        changes: list[Change] = []
        waiting: list[Message] = []
        for message in messages:
            if waiting and message.speaker != "tool":
                out.extend(waiting)
                waiting = []
            out.append(message)
            for call in message.tool_calls():
                if call.id in rejected and call.id not in answered:
                    answered.add(call.id)
                    reason = (
                        f"the user rejected call {call.id} ({call.name}); "
                        "the Agents SDK answers it with a rejection"
                    )
                    made = synthetic_result(call, REJECTION_MESSAGE, reason)
                    waiting.append(made)
                    changes.append(
                        Change(
                            pass_="function_rejection_item",
                            action="synthesize",
                            reason=reason,
                            call_id=call.id,
                            detail={"text": REJECTION_MESSAGE},
                        ).with_subject(made.blocks[0])
                    )
        out.extend(waiting)
        return tuple(out), changes

    return run


def curate_with_rejections(
    session: Session, provider: str, tail: tuple[Message, ...] = (), *, rejected: Collection[str] = ()
) -> Curation:
    """What the Agents SDK sends on resuming ``session``, the user having rejected the calls in ``rejected``."""
    passes: list[Pass] = [function_rejection_items(frozenset(rejected))] if rejected else []
    passes += [deduplicate_input_items, drop_orphan_function_calls]
    return run_passes(session, provider, NAME, passes, tail)


def curate(session: Session, provider: str, tail: tuple[Message, ...]) -> Curation:
    """The registered strategy: no approval decisions, so no rejections."""
    return curate_with_rejections(session, provider, tail)
