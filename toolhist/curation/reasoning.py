"""Pass ``model_requirements``: what some models demand of the history and others do not.

The rules apply when the request's model says so (the same predicates the provider checks use):

- ``fill_reasoning_content``: DeepSeek thinking mode and Kimi thinking models reject an assistant
  tool-call message without ``reasoning_content`` (``thinking is enabled but reasoning_content is
  missing…``); an empty string is accepted, so an empty reasoning block is added where the history
  has none (the real reasoning is not recoverable).
- ``add_signature_sentinel``: Gemini 3 rejects a function call of the current turn without its
  thought signature. A lost signature cannot be restored; Google documents the sentinel
  ``skip_thought_signature_validator`` for histories from elsewhere, and that is what is sent.
- ``append_user_turn``: newer Gemini models reject a request ending on a model turn; a
  placeholder user turn asks the model to continue.
"""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue

from toolhist._trusted import replace
from toolhist.curation.base import Change, Pass, Trace
from toolhist.curation.util import synthetic
from toolhist.model import Block, Message, TextBlock, ThinkingBlock

SENTINEL = "skip_thought_signature_validator"
CONTINUE = "Continue."


def _applies(provider: str, rule: str, request: dict[str, Any]) -> bool:
    from toolhist.providers import provider_for

    found = next((r for r in provider_for(provider).rules if r.id == rule), None)
    return bool(found and found.applies and found.applies(dict(request)))


def model_requirements(provider: str, request: dict[str, JsonValue]) -> Pass:
    """The pass for ``provider`` and the session's request fields (model, thinking…)."""
    reasoning = (provider == "openai-chat" and _applies(provider, "ds.reasoning_required", request)) or (
        provider == "kimi" and _applies(provider, "kimi.reasoning", request)
    )
    signatures = provider == "gemini" and _applies(provider, "gem.thought_sig", request)
    trailing = provider == "gemini" and _applies(provider, "gem.no_trailing_model", request)

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        changes: list[Change] = []
        out = list(messages)
        if reasoning:
            out = [_fill_reasoning(m, trace, changes) for m in out]
        if signatures:
            last_human = max((i for i, m in enumerate(out) if m.speaker == "human"), default=-1)
            out = [_sentinel(m, trace, changes) if i > last_human else m for i, m in enumerate(out)]
        if trailing and out and out[-1].speaker == "ai":
            turn = synthetic("human", [TextBlock(text=CONTINUE)], "append_user_turn")
            out.append(turn)
            changes.append(
                Change.trusted(
                    pass_="append_user_turn",
                    action="insert",
                    reason="this Gemini model rejects a request that ends on a model turn; a user turn asks it to continue",
                ).with_subject(turn)
            )
        return tuple(out), changes

    return run


def _fill_reasoning(message: Message, trace: Trace, changes: list[Change]) -> Message:
    if message.speaker != "ai" or not any(True for _ in message.tool_calls()):
        return message
    if any(
        isinstance(b, ThinkingBlock) and b.provider_data.get("field") == "reasoning_content"
        for b in message.blocks
    ):
        return message
    block = ThinkingBlock(text="", provider_data={"field": "reasoning_content"})
    new = replace(message, blocks=(block, *message.blocks))
    trace.derive(new, message)
    changes.append(
        Change.trusted(
            pass_="fill_reasoning_content",
            action="fill",
            reason="thinking mode requires reasoning_content on assistant tool-call messages; the reasoning is not in the history, so an empty one (accepted) is sent",
            call_id=next(message.tool_calls()).id,
        ).with_subject(block)
    )
    return new


def _sentinel(message: Message, trace: Trace, changes: list[Change]) -> Message:
    first = next(message.tool_calls(), None) if message.speaker == "ai" else None
    if first is None or first.provider_data.get("thoughtSignature"):
        return message
    signed = first.model_copy(update={"provider_data": {**first.provider_data, "thoughtSignature": SENTINEL}})
    trace.derive(signed, first)
    blocks: list[Block] = [signed if b is first else b for b in message.blocks]
    new = replace(message, blocks=tuple(blocks))
    trace.derive(new, message)
    changes.append(
        Change.trusted(
            pass_="add_signature_sentinel",
            action="fill",
            reason="Gemini 3 requires the thought signature of the first call of each step; it is not in the history, so Google's documented sentinel is sent",
            call_id=first.raw_id or first.id,
            before=trace.origin(first),
        ).with_subject(signed)
    )
    return new
