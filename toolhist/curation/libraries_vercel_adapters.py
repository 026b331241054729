"""The AI SDK's provider adapters, for strategies ``vercel-ai`` and ``vercel-ai-model``.

After ``convertToLanguageModelPrompt`` (`libraries_vercel`), each provider package turns the
standardised prompt into its request body. What that changes in a history, read in ``vercel/ai`` at
the versions ``tests/js/package-lock.json`` pins (``@ai-sdk/openai`` 3.0.141, ``@ai-sdk/anthropic``
3.0.140) and proven against them by ``tests/peers/test_aisdk_differential.py``:

- `tool_outputs`: how a result is written (``output`` ``text`` / ``error-text`` / ``json`` /
  ``content``), which depends on the route (UI messages hold the tool's raw output; model messages
  the output part) and on the adapter;
- `function_calls`: a tool-call part holds JSON input, so Codex's freeform calls go as function calls;
- `join_assistant_text` (OpenAI Chat) and `anthropic_assistant_turns`, `anthropic_reasoning`
  (Anthropic).
"""

from __future__ import annotations

import json

from pydantic import JsonValue

from toolhist.curation.base import Change, Pass, Trace
from toolhist.curation.util import rewrite_blocks
from toolhist.model import (
    Block,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

ROUTES = ("ui", "model")


def stringify(value: JsonValue) -> str:
    """``JSON.stringify`` (``stringifyWithBigIntAndCycles`` in provider-utils) for JSON values."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _text_parts(value: JsonValue) -> list[str] | None:
    if isinstance(value, list) and all(
        isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str) for p in value
    ):
        return [str(p["text"]) for p in value if isinstance(p, dict)]
    return None


def output_part(block: ToolResponseBlock, route: str) -> tuple[str, JsonValue]:
    """The result's AI SDK ``output`` part (``type``, ``value``) on ``route``.

    UI messages (``packages/ai/src/ui/convert-to-model-messages.ts`` → ``createToolModelOutput`` in
    ``packages/ai/src/prompt/create-tool-model-output.ts``): a tool part in ``output-error`` gives
    ``error-text`` with its ``errorText``; an output that is a string gives ``text``, anything else
    ``json``. Model messages hold the output part itself: toolhist reads a failed result as
    ``error-text``, a string as ``text``, a list of text parts as ``content`` (the SDK's own
    content-part output) and anything else as ``json`` (``tests/peers/ai_sdk.py`` writes the same).
    """
    if block.error is not None:
        return "error-text", block.result if isinstance(block.result, str) else block.error
    if isinstance(block.result, str):
        return "text", block.result
    texts = _text_parts(block.result)
    if route == "model" and texts is not None:
        return "content", [{"type": "text", "text": t} for t in texts]
    return "json", block.result


STRUCTURED_RESULTS = frozenset({"gemini", "bedrock"})
"""Providers whose AI SDK adapter sends a tool result as a structured value, not a string:
``@ai-sdk/google`` (``convert-to-google-generative-ai-messages.ts``: ``functionResponse.response``
holds the output) and ``@ai-sdk/amazon-bedrock`` (``toolResult.content`` blocks), as their wire
formats want. `tool_outputs` leaves their results as the history has them: the differential runs the
OpenAI and Anthropic adapters only, so nothing proves a rewrite for these two."""


def sent_result(kind: str, value: JsonValue, provider: str) -> JsonValue:
    """What the adapter sends for an output part.

    ``text``/``error-text`` as the string; ``json`` stringified; ``content`` stringified by OpenAI
    Chat (``convert-to-openai-chat-messages.ts``, ``case 'content'``) and sent as parts by Responses
    (``input_text``) and Anthropic (``text``).
    """
    if kind in ("text", "error-text"):
        return value
    if kind == "content" and provider == "anthropic":
        return value
    if kind == "content" and provider == "openai-responses" and isinstance(value, list):
        return [{"type": "input_text", "text": p["text"]} for p in value if isinstance(p, dict)]
    return stringify(value)


def tool_outputs(route: str, provider: str) -> Pass:
    """The pass writing every result as ``provider``'s adapter sends it on ``route``.

    See `output_part` and `sent_result`; a failed one stays failed (Anthropic ``is_error: true``
    for ``error-text``).
    """

    def tool_outputs(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        if provider in STRUCTURED_RESULTS:
            return messages, []

        def sent_as(block: Block) -> tuple[Block, Change] | None:
            if not isinstance(block, ToolResponseBlock):
                return None
            kind, value = output_part(block, route)
            sent = sent_result(kind, value, provider)
            flagged = block.error is None or block.provider_data.get("is_error") is True
            if sent == block.result and (flagged or provider != "anthropic"):
                return None
            flag = {"is_error": True} if block.error is not None and provider == "anthropic" else {}
            update: dict[str, object] = {"result": sent, "provider_data": flag}
            if block.error is not None:
                update["error"] = sent if isinstance(sent, str) else block.error
            written = block.model_copy(update=update)
            change = Change(
                pass_="tool_outputs",
                action="fill",
                reason=f"the AI SDK holds this result as a '{kind}' output, which its {provider} adapter "
                + (
                    "sends as JSON text"
                    if isinstance(sent, str) and kind in ("json", "content")
                    else "sends as it is"
                ),
                call_id=block.call_id,
                before=trace.origin(block),
            ).with_subject(written)
            return written, change

        return rewrite_blocks(messages, trace, sent_as)

    return tool_outputs


def function_calls(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
    """A tool-call part's ``input`` is JSON, so a freeform call goes as a function call.

    A Codex ``custom_tool_call`` is sent as a function call with ``{"input": text}`` (``ToolCallPart``
    in ``packages/provider-utils/src/types/content-part.ts``; Responses ``function_call`` in
    ``convert-to-openai-responses-input.ts``).
    """

    def plain(block: Block) -> tuple[Block, Change] | None:
        if not (isinstance(block, ToolCallBlock) and block.freeform_input is not None):
            return None
        sent = block.model_copy(update={"freeform_input": None, "provider_data": {}})
        change = Change(
            pass_="function_calls",
            action="fill",
            reason="an AI SDK tool-call part holds JSON input: the freeform call goes as a function "
            'call with {"input": text}',
            call_id=block.id,
            before=trace.origin(block),
        ).with_subject(sent)
        return sent, change

    return rewrite_blocks(messages, trace, plain)


def anthropic_reasoning(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """``@ai-sdk/anthropic`` sends reasoning only with an Anthropic signature, whoever wrote the log.

    ``convert-to-anthropic-messages-prompt.ts``, ``case 'reasoning'``: a ``signature`` makes a
    ``thinking`` block, ``redactedData`` a ``redacted_thinking`` block, and reasoning with neither
    is left out (a warning, "unsupported reasoning metadata").
    """
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        if not any(isinstance(b, ThinkingBlock) for b in message.blocks):
            out.append(message)
            continue
        blocks: list[Block] = []
        for block in message.blocks:
            if not isinstance(block, ThinkingBlock):
                blocks.append(block)
                continue
            kept = bool(block.data) if block.redacted else bool(block.signature)
            if kept and block.source_provider == "anthropic":
                blocks.append(block)
            elif kept:
                signed = block.model_copy(update={"source_provider": "anthropic"})
                trace.derive(signed, block)
                blocks.append(signed)
                changes.append(
                    Change(
                        pass_="anthropic_reasoning",
                        action="fill",
                        reason="the AI SDK's Anthropic adapter sends reasoning with an Anthropic signature as a "
                        "thinking block, whatever wrote it",
                        before=trace.origin(block),
                    ).with_subject(signed)
                )
            else:
                changes.append(
                    Change(
                        pass_="anthropic_reasoning",
                        action="drop",
                        reason="the AI SDK's Anthropic adapter sends only reasoning with an Anthropic signature",
                        before=trace.origin(block),
                    )
                )
        if blocks == list(message.blocks) and all(
            x is y for x, y in zip(blocks, message.blocks, strict=True)
        ):
            out.append(message)
            continue
        rebuilt = message.model_copy(update={"blocks": tuple(blocks)})
        trace.derive(rebuilt, message)
        out.append(rebuilt)
    return tuple(out), changes


def join_assistant_text(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """``@ai-sdk/openai`` Chat: an assistant message's text parts go out as one string, joined.

    Source: vercel/ai, ``packages/openai/src/chat/convert-to-openai-chat-messages.ts`` (assistant
    ``case 'text': text += part.text``). Only the ``openai-chat`` provider; the Responses and
    Anthropic adapters keep the parts apart.
    """
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        texts = [b for b in message.blocks if isinstance(b, TextBlock)]
        if message.speaker != "ai" or len(texts) < 2:
            out.append(message)
            continue
        joined = TextBlock(text="".join(t.text for t in texts))
        trace.derive(joined, texts[0])
        first = message.blocks.index(texts[0])
        blocks = tuple(b for b in message.blocks if not isinstance(b, TextBlock))
        rebuilt = message.model_copy(update={"blocks": (*blocks[:first], joined, *blocks[first:])})
        trace.derive(rebuilt, message)
        out.append(rebuilt)
        changes.append(
            Change(
                pass_="join_assistant_text",
                action="merge",
                reason="the AI SDK's OpenAI Chat adapter sends an assistant message's text parts as one string",
                before=trace.origin(message),
            ).with_subject(rebuilt)
        )
    return tuple(out), changes


def anthropic_assistant_turns(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """``@ai-sdk/anthropic``: one assistant message per run, tool uses last, the final text trimmed.

    Source: vercel/ai, ``packages/anthropic/src/convert-to-anthropic-messages-prompt.ts`` (3.0.140):
    ``groupIntoBlocks`` makes consecutive assistant messages one Anthropic message;
    ``moveToolUseBlocksToEnd`` puts its ``tool_use`` blocks after the other blocks of each stretch
    between thinking blocks (signed thinking stays where it is; unsigned reasoning is not sent); and
    the last text part of the last message, when the prompt ends with it, is sent ``.trim()``-ed
    ("Anthropic does not allow trailing whitespace in pre-filled assistant responses").
    """
    out: list[Message] = []
    changes: list[Change] = []
    k = 0
    while k < len(messages):
        run = [messages[k]]
        while (
            messages[k].speaker == "ai"
            and k + len(run) < len(messages)
            and messages[k + len(run)].speaker == "ai"
        ):
            run.append(messages[k + len(run)])
        k += len(run)
        if run[0].speaker != "ai":
            out.append(run[0])
            continue
        blocks = [b for m in run for b in m.blocks]
        ordered: list[Block] = []
        segment: list[Block] = []
        for block in [*blocks, None]:
            if block is None or (isinstance(block, ThinkingBlock) and block.signature):
                ordered += [b for b in segment if not isinstance(b, ToolCallBlock)]
                ordered += [b for b in segment if isinstance(b, ToolCallBlock)]
                segment = []
                if block is not None:
                    ordered.append(block)
            else:
                segment.append(block)
        if len(run) == 1 and ordered == blocks:
            out.append(run[0])
            continue
        merged = run[0].model_copy(update={"blocks": tuple(ordered)})
        for m in run:
            trace.derive(merged, m)
        out.append(merged)
        changes.append(
            Change(
                pass_="anthropic_assistant_turns",
                action="merge" if len(run) > 1 else "reorder",
                reason="the AI SDK's Anthropic adapter sends consecutive assistant messages as one, with its "
                "tool uses after the text of each stretch between thinking blocks",
                before=trace.origin(run[0]),
            ).with_subject(merged)
        )
    last = out[-1] if out else None
    if last is not None and last.speaker == "ai" and last.blocks and isinstance(last.blocks[-1], TextBlock):
        text = last.blocks[-1]
        if text.text != text.text.strip():
            trimmed = text.model_copy(update={"text": text.text.strip()})
            trace.derive(trimmed, text)
            rebuilt = last.model_copy(update={"blocks": (*last.blocks[:-1], trimmed)})
            trace.derive(rebuilt, last)
            out[-1] = rebuilt
            changes.append(
                Change(
                    pass_="anthropic_assistant_turns",
                    action="fill",
                    reason="the AI SDK's Anthropic adapter trims the final assistant text (Anthropic rejects "
                    "trailing whitespace in a pre-filled assistant response)",
                    before=trace.origin(text),
                    detail={"old_text": text.text, "new_text": trimmed.text},
                ).with_subject(trimmed)
            )
    return tuple(out), changes


def drop_reasoning(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
    """``@ai-sdk/openai`` Responses sends a reasoning part only as a reasoning item it can name.

    The name is an ``itemId`` in ``providerOptions.openai``, which a history read from a log does not
    carry, so none is sent (``convert-to-openai-responses-input.ts``, ``case 'reasoning'``).
    """
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        kept = tuple(b for b in message.blocks if not isinstance(b, ThinkingBlock))
        if len(kept) == len(message.blocks):
            out.append(message)
            continue
        changes.extend(
            Change(
                pass_="drop_reasoning",
                action="drop",
                reason="the AI SDK's Responses adapter sends reasoning only as an item it has the id of",
                before=trace.origin(b),
            )
            for b in message.blocks
            if isinstance(b, ThinkingBlock)
        )
        rebuilt = message.model_copy(update={"blocks": kept})
        trace.derive(rebuilt, message)
        out.append(rebuilt)
    return tuple(out), changes
