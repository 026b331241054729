"""Pass ``move_results``: each call's result in the tool turn right after the call.

Every provider wants the results of an assistant turn's calls immediately after it (OpenAI: "must
be followed by tool messages responding to each 'tool_call_id'"; Anthropic: "immediately after";
Gemini: the very next turn). Results stored elsewhere — early, late, after a user message, in a
tool turn of another call — move there. Results already in the run of tool messages right after
their call stay exactly where they are (same objects), so a valid history is left untouched.

The Responses API is the exception: it pairs a ``function_call_output`` with its call by
``call_id`` anywhere later in the input (`toolhist.providers.openai_responses.check_walk`; Codex
writes outputs after other items of the turn), so there a result after its call stays where it is
(`late_ok`); only DeepSeek's Responses endpoint wants the outputs right after the calls
(``resp.adjacency``).
"""

from __future__ import annotations

from toolhist._trusted import replace
from toolhist.curation.base import Change, Pass, Trace
from toolhist.curation.util import synthetic
from toolhist.model import Block, Message, ToolCallBlock, ToolResponseBlock

PASS = "move_results"


def late_ok(provider: str, model: object) -> bool:
    """Whether ``provider`` (with ``model``) takes a result anywhere after its call (see the module docstring)."""
    if provider != "openai-responses":
        return False
    from toolhist.providers import provider_for

    return not provider_for(provider).rule("resp.adjacency").applies_to({"model": model})


def move_results_for(late: bool) -> Pass:
    """`move_results`, leaving a result after its call where it is when ``late``."""

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        return _move(messages, trace, late=late)

    return run


def move_results(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
    """Place every result in the tool run after its call's assistant turn (call order for moved ones)."""
    return _move(messages, trace, late=False)


def _move(
    messages: tuple[Message, ...], trace: Trace, *, late: bool
) -> tuple[tuple[Message, ...], list[Change]]:
    home: dict[str, int] = {}
    call_order: dict[str, int] = {}
    run_of: dict[int, int] = {}  # tool message index → the ai message whose run it is in
    answers: list[tuple[int, ToolResponseBlock]] = []
    for m, message in enumerate(messages):  # one look at every block (a 100,000-message history)
        i = 0
        for block in message.blocks:
            if isinstance(block, ToolCallBlock):
                if block.id not in home:
                    home[block.id] = m
                    call_order[block.id] = i
                i += 1
            elif isinstance(block, ToolResponseBlock):
                answers.append((m, block))
        if i and message.speaker == "ai":
            j = m + 1
            while j < len(messages) and messages[j].speaker == "tool":
                run_of[j] = m
                j += 1
    stray: dict[int, list[ToolResponseBlock]] = {}
    for m, block in answers:
        target = home.get(block.call_id)
        if target is None:
            continue  # no call anywhere: synthesize_calls runs first, so only for bare use
        if run_of.get(m) != target and not (late and m > target):
            stray.setdefault(target, []).append(block)
    moved = {id(b) for blocks in stray.values() for b in blocks}
    out: list[Message] = []
    changes: list[Change] = []
    for m, message in enumerate(messages):
        if message.speaker == "tool" and moved:
            kept: list[Block] = [b for b in message.blocks if id(b) not in moved]
            if len(kept) != len(message.blocks):
                if kept:
                    # Text left behind once its results moved away is the user's, not a tool's;
                    # inside a run of results (which moved results may join) it stays a tool
                    # message's for split_tool_text or merge_turns to put after the run.
                    results = any(isinstance(b, ToolResponseBlock) for b in kept)
                    speaker = "tool" if results or m in run_of else "human"
                    new = replace(message, blocks=tuple(kept), speaker=speaker)
                    trace.derive(new, message)
                    message = new  # noqa: PLW2901
                else:
                    message = None  # type: ignore[assignment]  # noqa: PLW2901
        if message is not None:
            out.append(message)
        if m in stray and not (m + 1 < len(messages) and run_of.get(m + 1) == m):
            out.append(_moved_message(stray.pop(m), call_order, trace, changes))
        elif (
            m in run_of
            and run_of[m] in stray
            and not (m + 1 < len(messages) and run_of.get(m + 1) == run_of[m])
        ):
            out.append(_moved_message(stray.pop(run_of[m]), call_order, trace, changes))
    return tuple(out), changes


def _moved_message(
    blocks: list[ToolResponseBlock], call_order: dict[str, int], trace: Trace, changes: list[Change]
) -> Message:
    ordered = sorted(blocks, key=lambda b: call_order.get(b.call_id, 0))
    for block in ordered:
        changes.append(
            Change.trusted(
                pass_=PASS,
                action="move",
                reason="the result was not in the tool turn right after its call; providers require it there",
                call_id=block.raw_call_id or block.call_id,
                before=trace.origin(block),
            ).with_subject(block)
        )
    return synthetic("tool", ordered, "results_moved_next_to_call")
