"""Pass ``split_tool_calls``: every block in a message of the speaker that can carry it.

Seed 000 failure mode A: a cancelled turn stored as one ``tool`` message holding the call *and*
its response (llxprt's ``toIContent`` makes any user Content with a functionResponse a tool
message). Providers need the call in an assistant turn and the result in a tool turn, so:

- calls found outside an ``ai`` message move to a new ``ai`` message just before it;
- results found outside a ``tool`` message move to a new ``tool`` message (before the rest of a
  human message: results answer earlier calls, the text is the new input; after an ai message);
- text, media and other blocks found in a ``tool`` message move to a ``human`` message just after
  it (tool messages of every provider carry results only).

Nothing is dropped; each moved block is a Change.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolhist._trusted import replace
from toolhist.curation.base import Change, Pass, Trace
from toolhist.curation.util import synthetic
from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

PASS = "split_tool_calls"


def _keep(message: Message, blocks: Sequence[Block], trace: Trace) -> Message:
    if len(blocks) == len(message.blocks):
        return message
    new = replace(message, blocks=tuple(blocks))
    trace.derive(new, message)
    return new


def _moved(blocks: Sequence[Block], trace: Trace, where: str, reason: str) -> list[Change]:
    return [
        Change.trusted(
            pass_=PASS,
            action="split",
            reason=reason,
            call_id=b.id
            if isinstance(b, ToolCallBlock)
            else b.call_id
            if isinstance(b, ToolResponseBlock)
            else None,
            before=trace.origin(b),
            detail={"to": where},
        ).with_subject(b)
        for b in blocks
    ]


def split_tool_calls(provider: str) -> Pass:
    """The pass for ``provider``.

    For Bedrock, text after all the results of a tool message stays: that is Converse's own shape
    (one user turn, ``toolResult`` blocks first), and the one `merge_turns` builds for it.
    """

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        return _split(messages, trace, results_then_text=provider == "bedrock")

    return run


def _results_then_text(message: Message) -> bool:
    kinds = [isinstance(b, ToolResponseBlock) for b in message.blocks]
    return (
        bool(kinds)
        and kinds[0]
        and all(isinstance(b, ToolResponseBlock | TextBlock | MediaBlock) for b in message.blocks)
        and kinds == sorted(kinds, reverse=True)
    )


def _split(
    messages: tuple[Message, ...], trace: Trace, *, results_then_text: bool
) -> tuple[tuple[Message, ...], list[Change]]:
    """Move calls into ai messages, results into tool messages, other content out of tool messages."""
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        calls = [b for b in message.blocks if isinstance(b, ToolCallBlock)]
        results = [b for b in message.blocks if isinstance(b, ToolResponseBlock)]
        if message.speaker == "ai":
            if not results:
                out.append(message)
                continue
            rest = [b for b in message.blocks if not isinstance(b, ToolResponseBlock)]
            if rest:
                out.append(_keep(message, rest, trace))
            out.append(synthetic("tool", results, "results_split_from_ai_message"))
            changes += _moved(
                results,
                trace,
                "tool",
                "a tool result inside an assistant message; providers take results in a tool turn",
            )
        elif message.speaker == "tool":
            others: list[Block] = [
                b for b in message.blocks if not isinstance(b, ToolResponseBlock | ToolCallBlock)
            ]
            if not calls and (not others or (results_then_text and _results_then_text(message))):
                out.append(message)
                continue
            thinking = [b for b in others if isinstance(b, ThinkingBlock)]
            content: list[Block] = [b for b in others if not isinstance(b, ThinkingBlock)]
            if calls:
                out.append(synthetic("ai", [*thinking, *calls], "extracted_tool_call_from_tool_message"))
                changes += _moved(
                    [*thinking, *calls],
                    trace,
                    "ai",
                    "a tool call stored inside a tool message (seed 000 failure mode A); the call belongs in an assistant turn",
                )
            elif thinking:
                content = list(others)
            if results:
                out.append(_keep(message, list(results), trace))
            if content:
                out.append(synthetic("human", content, "content_split_from_tool_message"))
                changes += _moved(
                    content,
                    trace,
                    "human",
                    "content other than results inside a tool message; tool turns carry results only",
                )
        else:
            if not calls and not results:
                out.append(message)
                continue
            rest = [b for b in message.blocks if not isinstance(b, ToolResponseBlock | ToolCallBlock)]
            if results:
                out.append(synthetic("tool", results, "results_split_from_" + message.speaker + "_message"))
                changes += _moved(
                    results,
                    trace,
                    "tool",
                    f"a tool result inside a {message.speaker} message; providers take results in a tool turn",
                )
            if rest:
                out.append(_keep(message, rest, trace))
            if calls:
                out.append(synthetic("ai", calls, "calls_split_from_" + message.speaker + "_message"))
                changes += _moved(
                    calls,
                    trace,
                    "ai",
                    f"a tool call inside a {message.speaker} message; calls belong in an assistant turn",
                )
    return tuple(out), changes
