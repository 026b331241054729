"""Pass ``synthesize_calls``: a call for every result whose call is gone.

Compaction (llxprt's ``performCompression``, any agent's summariser) can summarise the assistant
turn away and keep its result: a result with nothing to answer, which every provider rejects. The
call is rebuilt just before the result's message, from what the result says: its id and tool name
(``unknown_tool`` when the result has none) and empty arguments, marked as reconstructed.
"""

from __future__ import annotations

from toolhist.curation.base import Change, Trace
from toolhist.curation.util import synthetic
from toolhist.model import Message, ToolCallBlock, ToolResponseBlock

PASS = "synthesize_calls"
UNKNOWN_TOOL = "unknown_tool"


def synthesize_calls(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
    """Insert an assistant turn with a reconstructed call before each result whose call is missing."""
    ids = trace.tool_ids(messages)
    known = set(ids.calls)
    if known.issuperset(ids.results):
        return messages, []  # every result's call is there (the walk below would rebuild the same tuple)
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        missing: list[ToolCallBlock] = []
        for result in message.blocks:
            if not isinstance(result, ToolResponseBlock) or result.call_id in known:
                continue
            known.add(result.call_id)
            at = trace.origin(result)
            call = ToolCallBlock(
                id=result.call_id,
                name=result.tool_name or UNKNOWN_TOOL,
                parameters={},
            )
            missing.append(call)
            changes.append(
                Change.trusted(
                    pass_=PASS,
                    action="synthesize",
                    reason="a result whose call is not in the history (compacted away?); its call was rebuilt from the result",
                    call_id=result.raw_call_id or result.call_id,
                    detail={
                        "tool_name": call.name,
                        "for_result_at": at.model_dump() if at else None,
                    },
                ).with_subject(call)
            )
        if missing:
            out.append(synthetic("ai", missing, "reconstructed_tool_call"))
        out.append(message)
    return tuple(out), changes
