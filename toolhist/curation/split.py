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


RESULTS_THEN_TEXT_SPLIT = frozenset({"mistral"})
"""Targets for which a tool message's results followed by text (and media) must be split at once.

Every renderer already sends that shape as the target takes it, so there is nothing to repair: one
user turn with the results first for Anthropic, Bedrock (Converse's own shape, the one `merge_turns`
builds) and Gemini; the tool messages, then a user message for OpenAI Chat and Kimi; the
``function_call_output`` items, then a user message for Responses. Cline stores every turn so
(``[tool] Result:`` texts with the user's environment details after them), and its histories were
accepted as they are. Mistral is the exception: a user message right after the tool messages is
``mis.user_after_tool``, which needs the text as its own message for `merge_turns` to bridge.

The shape holds only while that message ends the results of its turn: when `move_results` or
`close_orphans` put more results after it, its text would split them from their call, and
`split_tool_text` moves the text after them."""


def split_tool_calls(provider: str) -> Pass:
    """The pass for ``provider``: a tool message's trailing text stays put unless ``provider`` needs it split."""

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        if not trace.facts(messages).misplaced:  # every block in a speaker that carries it
            return messages, []
        return _split(messages, trace, results_then_text=provider not in RESULTS_THEN_TEXT_SPLIT)

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


def _text_only(message: Message) -> bool:
    """A tool message left with text only (its results moved to their call by `move_results`)."""
    return bool(message.blocks) and all(isinstance(b, TextBlock | MediaBlock) for b in message.blocks)


def split_tool_text(provider: str) -> Pass:
    """Pass ``split_tool_calls`` again, after the results have their places: text left inside a run of results.

    A tool message kept as results-then-text (see `RESULTS_THEN_TEXT_SPLIT`), or left with text
    only once `move_results` took its results away, that more tool messages follow has its text
    moved to a ``human`` message after the run, where the renderer would otherwise cut the run in
    two. Bedrock and Gemini merge the run into one turn with the results first (`merge_turns`), so
    nothing moves for them. A text-only tool message that ends its run is the user's: it becomes a
    ``human`` message (its results' move is the Change).
    """
    hold = provider not in ("bedrock", "gemini")

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        if not trace.facts(messages).mixed_tool:  # tool messages of results only: no text to move
            return messages, []
        out: list[Message] = []
        changes: list[Change] = []
        held: list[Block] = []
        for k, message in enumerate(messages):
            following = k + 1 < len(messages) and messages[k + 1].speaker == "tool"
            text_only = message.speaker == "tool" and _text_only(message)
            if (
                message.speaker == "tool"
                and hold
                and following
                and (_results_then_text(message) or text_only)
            ):
                results = [b for b in message.blocks if isinstance(b, ToolResponseBlock)]
                if len(results) < len(message.blocks):
                    rest = [b for b in message.blocks if not isinstance(b, ToolResponseBlock)]
                    if results:
                        out.append(_keep(message, results, trace))
                    held.extend(rest)
                    changes += _moved(
                        rest,
                        trace,
                        "human",
                        "text inside a tool message that more results follow; it would cut those results off from their call, so it goes after them",
                    )
                    continue
            if text_only and not (following and not hold):
                spoken = replace(message, speaker="human")
                trace.derive(spoken, message)
                message = spoken  # noqa: PLW2901 - copy-on-write
            out.append(message)
            if held and not following:
                out.append(synthetic("human", held, "content_split_from_tool_message"))
                held = []
        return tuple(out), changes

    return run
