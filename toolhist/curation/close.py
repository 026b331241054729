"""Pass ``close_orphans``: a result for every call that has none.

Every provider rejects an assistant turn whose calls are not all answered before the next turn.
A call without a result gets a synthetic one (``is_complete=False``, an error saying why), in a tool
turn right after the call's run. Two cases, told apart as llxprt #864 does, both recorded:

- *orphaned*: something other than tool results follows the call (the user moved on; the agent
  was interrupted or cancelled);
- *pending*: nothing follows the call, not even the ``tail`` being sent (the tool may still be
  running). A request cannot end on an unanswered call either, so it is closed too, and the Change
  says it was pending: send the real result as ``tail`` to keep it.
"""

from __future__ import annotations

from toolhist.curation.base import Change, Trace
from toolhist.curation.util import synthetic
from toolhist.model import Message, ToolCallBlock, ToolResponseBlock

PASS = "close_orphans"
INTERRUPTED = "Tool call interrupted or cancelled: no result was recorded."
PENDING = "Tool call still pending: no result was recorded before this request."


def close_orphans(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
    """Insert synthetic results for unanswered calls after each assistant turn's tool run."""
    answered = {b.call_id for m in messages for b in m.blocks if isinstance(b, ToolResponseBlock)}
    out: list[Message] = []
    changes: list[Change] = []
    later_non_tool = [False] * (len(messages) + 1)
    for m in range(len(messages) - 1, -1, -1):
        later_non_tool[m] = later_non_tool[m + 1] or messages[m].speaker != "tool"
    pending_results: list[ToolResponseBlock] = []
    for m, message in enumerate(messages):
        out.append(message)
        missing: list[ToolCallBlock] = []
        if message.speaker == "ai":
            missing = [c for c in message.blocks if isinstance(c, ToolCallBlock) and c.id not in answered]
        if missing:
            pending = not later_non_tool[m + 1]
            for call in missing:
                answered.add(call.id)
                block = ToolResponseBlock(
                    call_id=call.id,
                    tool_name=call.name,
                    result=None,
                    error=PENDING if pending else INTERRUPTED,
                    is_complete=False,
                )
                pending_results.append(block)
                changes.append(
                    Change.trusted(
                        pass_=PASS,
                        action="close",
                        reason=(
                            "pending call: nothing follows it, and a request cannot end on an unanswered call; "
                            "a synthetic result closes it (send the real result as tail to keep it)"
                            if pending
                            else "orphaned call: the conversation moved on without its result; a synthetic error result closes it"
                        ),
                        call_id=call.raw_id or call.id,
                        detail={"state": "pending" if pending else "orphaned"},
                    ).with_subject(block)
                )
        # Flush after the run of tool messages that follows the assistant turn.
        nxt = messages[m + 1] if m + 1 < len(messages) else None
        if pending_results and (nxt is None or nxt.speaker != "tool"):
            out.append(synthetic("tool", pending_results, "orphaned_tool_call"))
            pending_results = []
    return tuple(out), changes
