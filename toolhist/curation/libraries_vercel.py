"""Strategy ``vercel-ai``: what the Vercel AI SDK (``ai`` v6) sends for a history.

The pipeline is ``streamText({messages: await convertToModelMessages(uiMessages,
{ignoreIncompleteToolCalls: true})})``, read in the public ``vercel/ai`` repository:

- ``packages/ai/src/ui/convert-to-model-messages.ts`` ``convertToModelMessages``: with
  ``ignoreIncompleteToolCalls`` it removes tool parts still in state ``input-streaming`` or
  ``input-available`` (a call with no output yet); an assistant message left with nothing is not
  emitted (`ignore_incomplete_tool_calls`).
- ``packages/ai/src/prompt/convert-to-language-model-prompt.ts`` ``convertToLanguageModelPrompt``
  (the prompt standardisation every call goes through): ``convertToLanguageModelMessage`` removes
  empty text parts (`remove_empty_text_parts`); consecutive ``tool`` messages are combined into one
  (`combine_tool_messages`); a walk adds the ids of non-provider-executed calls and removes those of
  results, and **throws** ``MissingToolResultsError`` before a user or system message, or at the
  end, while any id is left (`missing_tool_results`); empty tool messages are filtered out
  (`filter_empty_tool_messages`).
- ``packages/ai/src/error/missing-tool-result-error.ts``: the error's name
  ``AI_MissingToolResultsError`` and its message, reproduced by `missing_results_message`.

How toolhist reads a history as AI SDK messages: as the persisted messages an app hands to
``convertToModelMessages``, where a call is *incomplete* (``input-available``) when no result for
its id comes after it anywhere in the history. The AI SDK has no tool approvals here and no
provider-executed calls beyond Anthropic ``server_tool_use`` (treated as ``providerExecuted``).

A throw is represented so a user can see it: the Curation keeps the history exactly as given (the
AI SDK sends nothing, so there is no repaired request to show) and holds one Change, pass
``missing_tool_results``, action ``keep``, whose reason carries the exact error text (also in
``detail["error_text"]``, with ``detail["error"] = "AI_MissingToolResultsError"`` and the ids).
``validate(..., strategy="vercel-ai")`` therefore reports the history as given when the AI SDK
would throw.

Not reproduced: tool approvals (``tool-approval-request`` / ``tool-approval-response`` parts, which
a history does not carry) and the provider adapters' own reshaping (e.g. ``@ai-sdk/anthropic``
moving tool-use blocks to the end of a message), which toolhist's renderers stand for.
"""

from __future__ import annotations

from typing import Literal

from toolhist.curation.base import Change, Curation, Pass, Position, Trace, block_json, run_passes
from toolhist.curation.libraries_common import unchanged
from toolhist.curation.libraries_vercel_adapters import (
    anthropic_assistant_turns,
    anthropic_reasoning,
    drop_reasoning,
    function_calls,
    join_assistant_text,
    tool_outputs,
)
from toolhist.curation.util import rewrite_blocks
from toolhist.model import (
    Block,
    Message,
    MessageMetadata,
    Session,
    TextBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

NAME = "vercel-ai"
MODEL_NAME = "vercel-ai-model"
AI_SDK_PINS = {"ai": "6.0.325", "@ai-sdk/openai": "3.0.141", "@ai-sdk/anthropic": "3.0.140"}
"""The AI SDK packages (npm) the port follows and ``tests/peers/test_aisdk_differential.py`` proves
it against, exactly as ``tests/js/package.json`` pins them (ai 6.0.x, the line issue 18 measured)."""
PINNED = ", ".join(f"{k} {v}" for k, v in AI_SDK_PINS.items())
ERROR_NAME = "AI_MissingToolResultsError"


def missing_results_message(call_ids: list[str]) -> str:
    """``MissingToolResultsError``'s message, as missing-tool-result-error.ts builds it."""
    many = len(call_ids) > 1
    return (
        f"Tool result{'s are' if many else ' is'} missing for tool call{'s' if many else ''} "
        f"{', '.join(call_ids)}."
    )


class MissingToolResults(Exception):
    """The AI SDK's ``MissingToolResultsError``, raised inside a pass and turned into a Change."""

    def __init__(self, call_ids: list[str], at: Position | None) -> None:
        super().__init__(missing_results_message(call_ids))
        self.call_ids = call_ids
        self.at = at
        """Where the user or system message the AI SDK threw before was in the input; ``None`` at the end."""


def model_message_roles(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """AI SDK messages keep roles apart: a tool message holds only ``tool-result`` parts.

    Source: vercel/ai, ``packages/provider-utils/src/types/model-message.ts`` (``ToolModelMessage``
    content is ``ToolContent``: tool results and approval responses only; tool calls are
    ``AssistantContent``). A canonical tool message that also stores the calls (seed 000 mode A) or
    user text is therefore, in an AI SDK app, an assistant message with the calls, the tool message
    with the results, then a user message with the text, in that order (the shape
    ``tests/peers/ai_sdk.model_messages`` hands the real SDK).
    """
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        calls = tuple(b for b in message.blocks if isinstance(b, ToolCallBlock))
        texts = tuple(b for b in message.blocks if isinstance(b, TextBlock))
        if message.speaker != "tool" or not (calls or texts):
            out.append(message)
            continue
        results = tuple(b for b in message.blocks if isinstance(b, ToolResponseBlock))
        pieces: list[tuple[Literal["ai", "tool", "human"], tuple[Block, ...]]] = [
            ("ai", calls),
            ("tool", results),
            ("human", texts),
        ]
        made = [
            Message(speaker=speaker, blocks=blocks, metadata=message.metadata)
            for speaker, blocks in pieces
            if blocks
        ]
        for piece in made:
            trace.derive(piece, message)
        out.extend(made)
        changes.append(
            Change(
                pass_="model_message_roles",
                action="split",
                reason="an AI SDK tool message holds only tool results: the calls stored with them go in an "
                "assistant message before it, text in a user message after it",
                before=trace.origin(message),
            ).with_subject(made[0])
        )
    return tuple(out), changes


def _answers(messages: tuple[Message, ...]) -> dict[tuple[int, int], tuple[int, int]]:
    """Call position → the position of the first result for its id after it not taken by an earlier call."""
    waiting: dict[str, list[tuple[int, int]]] = {}
    answers: dict[tuple[int, int], tuple[int, int]] = {}
    for mi, message in enumerate(messages):
        for bi, block in enumerate(message.blocks):
            if isinstance(block, ToolCallBlock):
                waiting.setdefault(block.id, []).append((mi, bi))
            elif isinstance(block, ToolResponseBlock) and waiting.get(block.call_id):
                answers[waiting[block.call_id].pop(0)] = (mi, bi)
    return answers


def ui_message_history(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """The history as an AI SDK app holds it: UI messages, where a result lives inside its call's tool part.

    Source: vercel/ai, ``packages/ai/src/ui/ui-messages.ts`` (a ``ToolUIPart`` carries ``input`` and,
    once answered, ``output``) and ``packages/ai/src/ui/convert-to-model-messages.ts`` (an assistant
    UI message becomes one assistant model message with its parts in order, then one tool message
    with the outputs in the calls' order).

    - each call takes the first result for its id after it (not taken by an earlier call with that
      id); that result is sent right after the call's assistant message, wherever it was;
    - a result no call takes (an orphan, or a second result for one call) has no place in UI messages
      and is not sent;
    - calls stored in a tool message (seed 000 mode A) are an assistant message, its text a user one.
    """
    answers = _answers(messages)
    taken = set(answers.values())
    out: list[Message] = []
    changes: list[Change] = []
    for mi, message in enumerate(messages):
        if message.speaker in ("system", "human"):
            out.append(message)
            continue
        calls = [(bi, b) for bi, b in enumerate(message.blocks) if isinstance(b, ToolCallBlock)]
        if message.speaker == "ai":
            said = tuple(b for b in message.blocks if not isinstance(b, ToolResponseBlock))
        else:
            said = tuple(b for _, b in calls)
        if said:
            if said == message.blocks:
                out.append(message)
            else:
                piece = Message(speaker="ai", blocks=said, metadata=message.metadata)
                trace.derive(piece, message)
                out.append(piece)
        outputs = [answers[(mi, bi)] for bi, _ in calls if (mi, bi) in answers]
        if outputs:
            blocks = tuple(messages[m].blocks[b] for m, b in outputs)
            out.append(Message(speaker="tool", blocks=blocks, metadata=MessageMetadata(source_role="tool")))
            for (m, _), block in zip(outputs, blocks, strict=True):
                between = messages[mi + 1 : m]
                if not isinstance(block, ToolResponseBlock):  # pragma: no cover - answers are results
                    continue
                if m != mi and any(other.speaker != "tool" for other in between):
                    changes.append(
                        Change(
                            pass_="ui_message_history",
                            action="move",
                            reason=f"the result for {block.call_id} lives in its call's tool part, so the AI SDK "
                            "sends it right after the call",
                            call_id=block.call_id,
                            before=trace.origin(block),
                        ).with_subject(block)
                    )
        for bi, block in enumerate(message.blocks):
            if isinstance(block, ToolResponseBlock) and (mi, bi) not in taken:
                others = [messages[m].blocks[b] for m, b in taken]
                twin = any(isinstance(o, ToolResponseBlock) and o.call_id == block.call_id for o in others)
                changes.append(
                    Change(
                        pass_="ui_message_history",
                        action="dedupe" if twin else "drop",
                        reason=(
                            f"a second result for {block.call_id}: the call's tool part holds one output"
                            if twin
                            else f"no call before it has id {block.call_id}, so UI messages have no tool part "
                            "to hold this result"
                        ),
                        call_id=block.call_id,
                        before=trace.origin(block),
                        dropped=block_json(block),
                    )
                )
        texts = tuple(b for b in message.blocks if isinstance(b, TextBlock))
        if message.speaker == "tool" and texts:
            note = Message(speaker="human", blocks=texts, metadata=message.metadata)
            trace.derive(note, message)
            out.append(note)
    return tuple(out), changes


def tool_call_ids_present(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """An AI SDK tool-call part always has a ``toolCallId`` string, so an empty id is sent as ``""``.

    Source: vercel/ai, ``packages/provider-utils/src/types/content-part.ts`` (``ToolCallPart.toolCallId:
    string``) and ``packages/openai/src/chat/convert-to-openai-chat-messages.ts`` (``id:
    part.toolCallId``). A canonical call read without any id (``raw_id`` None) would otherwise be
    rendered for Chat without an ``id`` key, which the AI SDK never sends.
    """

    def fill(block: Block) -> tuple[Block, Change] | None:
        if not (isinstance(block, ToolCallBlock) and block.raw_id is None and not block.id):
            return None
        filled = block.model_copy(update={"raw_id": ""})
        change = Change(
            pass_="tool_call_ids_present",
            action="fill",
            reason="the AI SDK's tool-call part always carries toolCallId: a call without an id "
            "is sent with the empty id",
            before=trace.origin(block),
        ).with_subject(filled)
        return filled, change

    return rewrite_blocks(messages, trace, fill)


def ignore_incomplete_tool_calls(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """``convertToModelMessages(…, {ignoreIncompleteToolCalls: true})``: drop calls without a result.

    Source: vercel/ai, ``packages/ai/src/ui/convert-to-model-messages.ts``.

    A tool part whose state is ``input-available`` (no output) is filtered out before conversion;
    an assistant message whose parts are all gone produces no model message at all.
    """
    # each call is judged on its own part's state: answered only by the result paired with it
    # (`_answers`, as `ui_message_history` paired them), so of two calls sharing an id (an empty one)
    # the second, still ``input-available``, goes even though the first was answered
    answers = _answers(messages)
    incomplete = {
        (mi, bi)
        for mi, message in enumerate(messages)
        for bi, block in enumerate(message.blocks)
        if isinstance(block, ToolCallBlock) and (mi, bi) not in answers
    }
    if not incomplete:
        return messages, []
    out: list[Message] = []
    changes: list[Change] = []
    for mi, message in enumerate(messages):
        kept = tuple(b for bi, b in enumerate(message.blocks) if (mi, bi) not in incomplete)
        for bi, block in enumerate(message.blocks):
            if isinstance(block, ToolCallBlock) and (mi, bi) in incomplete:
                changes.append(
                    Change(
                        pass_="ignore_incomplete_tool_calls",
                        action="drop",
                        reason=f"call {block.id} ({block.name}) has no result, so its tool part is still "
                        "'input-available'; convertToModelMessages with ignoreIncompleteToolCalls leaves "
                        "it out",
                        call_id=block.id,
                        before=trace.origin(block),
                        dropped=block_json(block),
                    )
                )
        if len(kept) == len(message.blocks):
            out.append(message)
        elif kept:
            rebuilt = message.model_copy(update={"blocks": kept})
            trace.derive(rebuilt, message)
            out.append(rebuilt)
    return tuple(out), changes


def remove_empty_text_parts(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """``convertToLanguageModelMessage``: empty text parts of user and assistant messages are removed.

    Source: vercel/ai, ``packages/ai/src/prompt/convert-to-language-model-prompt.ts``.

    Only ``text === ''`` counts (whitespace stays), and an assistant text part that carries provider
    options is kept. The message itself stays even when nothing is left in it.
    """
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        if message.speaker not in ("human", "ai"):
            out.append(message)
            continue
        empty = [
            bi
            for bi, b in enumerate(message.blocks)
            if isinstance(b, TextBlock)
            and b.text == ""
            and (message.speaker == "human" or not b.provider_data)
        ]
        if not empty:
            out.append(message)
            continue
        for bi in empty:
            block = message.blocks[bi]
            changes.append(
                Change(
                    pass_="remove_empty_text_parts",
                    action="drop",
                    reason="the AI SDK removes empty text parts from user and assistant messages",
                    before=trace.origin(block),
                    dropped=block_json(block),
                )
            )
        rebuilt = message.model_copy(
            update={"blocks": tuple(b for bi, b in enumerate(message.blocks) if bi not in empty)}
        )
        trace.derive(rebuilt, message)
        out.append(rebuilt)
    return tuple(out), changes


def combine_tool_messages(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """``convertToLanguageModelPrompt``: consecutive tool messages become one tool message.

    Source: vercel/ai, ``packages/ai/src/prompt/convert-to-language-model-prompt.ts``. Providers that
    take results in one user turn (Anthropic, Bedrock, Gemini) then see all of them together.
    """
    out: list[Message] = []
    changes: list[Change] = []
    run: list[Change] = []  # this run's Changes, all about the message the run ends up as
    for message in messages:
        previous = out[-1] if out else None
        if message.speaker != "tool" or previous is None or previous.speaker != "tool":
            out.append(message)
            run = []
            continue
        merged = previous.model_copy(update={"blocks": (*previous.blocks, *message.blocks)})
        trace.derive(merged, previous)
        out[-1] = merged
        run.append(
            Change(
                pass_="combine_tool_messages",
                action="merge",
                reason="the AI SDK combines consecutive tool messages into one",
                before=trace.origin(message),
            )
        )
        for change in run:
            change.with_subject(merged)
        changes.append(run[-1])
    return tuple(out), changes


def _provider_executed(block: ToolCallBlock) -> bool:
    return block.provider_data.get("type") == "server_tool_use"


def missing_tool_results(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """The ``MissingToolResultsError`` walk of ``convertToLanguageModelPrompt``.

    Source: vercel/ai, ``packages/ai/src/prompt/convert-to-language-model-prompt.ts`` and
    ``packages/ai/src/error/missing-tool-result-error.ts``.

    Assistant messages add the ids of their (non-provider-executed) calls, tool messages remove the
    ids they answer, and a user or system message, or the end of the prompt, with ids left throws.
    The ids are listed in the order the calls were added (a JavaScript ``Set``).
    """
    pending: dict[str, None] = {}
    for message in messages:
        if message.speaker == "ai":
            for call in message.tool_calls():
                if not _provider_executed(call):
                    pending[call.id] = None
        elif message.speaker == "tool":
            for response in message.tool_responses():
                pending.pop(response.call_id, None)
        elif pending:
            raise MissingToolResults(list(pending), trace.origin(message))
    if pending:
        raise MissingToolResults(list(pending), None)
    return messages, []


def filter_empty_tool_messages(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """``convertToLanguageModelPrompt``'s last step: tool messages with no content are not sent.

    Source: vercel/ai, ``packages/ai/src/prompt/convert-to-language-model-prompt.ts`` (the filter is
    there for tool messages that held only approval responses).
    """
    kept = tuple(m for m in messages if m.speaker != "tool" or m.blocks)
    changes = [
        Change(
            pass_="filter_empty_tool_messages",
            action="drop",
            reason="the AI SDK does not send a tool message with no content",
            before=trace.origin(m),
            dropped=block_json(m),
        )
        for m in messages
        if m.speaker == "tool" and not m.blocks
    ]
    return kept, changes


STANDARDISE = (
    remove_empty_text_parts,
    combine_tool_messages,
    missing_tool_results,
    filter_empty_tool_messages,
)
"""``convertToLanguageModelPrompt``: what every ``generateText`` / ``streamText`` call does to the messages."""
PASSES = (ui_message_history, tool_call_ids_present, ignore_incomplete_tool_calls, *STANDARDISE)
"""Strategy ``vercel-ai``: UI messages through ``convertToModelMessages(…, {ignoreIncompleteToolCalls: true})``."""
MODEL_PASSES = (model_message_roles, tool_call_ids_present, *STANDARDISE)
"""Strategy ``vercel-ai-model``: model messages handed to ``generateText`` as they are."""


def _curate(
    session: Session, provider: str, tail: tuple[Message, ...], name: str, passes: tuple[Pass, ...]
) -> Curation:
    """What the AI SDK sends to ``provider``, or why it throws instead.

    The prompt standardisation, then what the provider's adapter does (`libraries_vercel_adapters`).
    """
    route = "ui" if name == NAME else "model"
    passes = (*passes, function_calls, tool_outputs(route, provider))
    if provider == "openai-chat":
        passes = (*passes, join_assistant_text)
    elif provider == "openai-responses":
        passes = (*passes, drop_reasoning)
    elif provider == "anthropic":
        passes = (*passes, anthropic_reasoning, anthropic_assistant_turns)
    try:
        return run_passes(session, provider, name, passes, tail)
    except MissingToolResults as error:
        messages = (*session.messages, *tail)
        trace = Trace.of(messages)
        first = next(
            (b for m in messages for b in m.tool_calls() if b.id == error.call_ids[0]),
            None,
        )
        text = str(error)
        change = Change(
            pass_="missing_tool_results",
            action="keep",
            reason=f"the AI SDK throws {ERROR_NAME} and sends nothing: {text}",
            call_id=error.call_ids[0],
            before=trace.origin(first) if first is not None else None,
            after=trace.origin(first) if first is not None else None,
            detail={
                "error": ERROR_NAME,
                "error_text": text,
                "tool_call_ids": list(error.call_ids),
                "at_message": error.at.message if error.at is not None else None,
            },
        )
        kept = unchanged(session, provider, name, tail)
        return kept.model_copy(update={"changes": (change,)})


def curate(session: Session, provider: str, tail: tuple[Message, ...]) -> Curation:
    """Strategy ``vercel-ai``: the UI-messages route (`PASSES`)."""
    return _curate(session, provider, tail, NAME, PASSES)


def curate_model(session: Session, provider: str, tail: tuple[Message, ...]) -> Curation:
    """Strategy ``vercel-ai-model``: the model-messages route (`MODEL_PASSES`)."""
    return _curate(session, provider, tail, MODEL_NAME, MODEL_PASSES)
