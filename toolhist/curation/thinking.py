"""Pass ``drop_foreign_thinking``: reasoning only goes back to the provider that wrote it, signed.

Thinking signatures (Anthropic), thought signatures (Gemini), encrypted reasoning (Responses,
Bedrock) are bound to the provider and model that produced them; another provider rejects them
(``Invalid `signature` in `thinking` block``) or cannot take them, and Anthropic and Bedrock reject
a thinking block without its signature (``thinking.signature: Field required``). The renderers
already send back only the blocks that name the target as their source (the others are listed in
the payload's notes as omitted), so a foreign block needs no repair and stays in the curated
history; what this pass drops is a block the renderer *would* send and the target refuses: an
unsigned one where a signature is required. Chat-format targets do not send thinking blocks either.

An assistant turn holding nothing but reasoning would go out empty for every provider
(``content: null``, an empty Anthropic turn, a Responses reasoning item with nothing after it),
so such a turn is dropped. Every drop is a Change holding the dropped content.
"""

from __future__ import annotations

from pydantic import JsonValue

from toolhist._trusted import replace
from toolhist.curation.base import Change, Pass, Trace, block_json
from toolhist.curation.request import thinking_enabled
from toolhist.model import Block, Message, ThinkingBlock, ToolCallBlock

PASS = "drop_foreign_thinking"
REPLAYS = {
    "anthropic": "anthropic",
    "bedrock": "bedrock",
    "gemini": "gemini",
    "openai-responses": "openai-responses",
}
"""Targets whose payload carries thinking blocks, and the format a block must come from."""
SIGNED = ("anthropic", "bedrock")
"""Targets that reject a thinking block without its signature."""


def _why_not(block: ThinkingBlock, provider: str, origin: str | None) -> str | None:
    """Why the renderer would send ``block`` to ``provider`` and the provider refuse it, or None."""
    own = REPLAYS.get(provider)
    if own is None or origin != own:
        return None  # not sent: the renderer leaves out reasoning the target cannot take
    if provider in SIGNED and not block.signature and not (block.redacted and block.data):
        return f"{provider} rejects a thinking block without its signature"
    return None


def drop_final_thinking(provider: str, request: dict[str, JsonValue]) -> Pass:
    """Anthropic without thinking enabled: no thinking in the final assistant turn.

    ``When thinking is disabled, an `assistant` message in the final position cannot contain
    `thinking```. Which turn is final is known only after the other passes, so this runs last.
    """

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        if (
            provider != "anthropic"
            or thinking_enabled(request)
            or not messages
            or messages[-1].speaker != "ai"
        ):
            return messages, []
        last = messages[-1]
        # Only the thinking the renderer sends (Anthropic's own) reaches the request.
        kept = tuple(
            b for b in last.blocks if not (isinstance(b, ThinkingBlock) and b.source_provider == provider)
        )
        if len(kept) == len(last.blocks) or not kept:
            return messages, []
        changes = [
            Change.trusted(
                pass_=PASS,
                action="drop",
                reason="Anthropic rejects thinking in the final assistant turn when thinking is disabled",
                before=trace.origin(b),
                dropped=block_json(b),
            )
            for b in last.blocks
            if isinstance(b, ThinkingBlock) and b.source_provider == provider
        ]
        new = replace(last, blocks=kept)
        trace.derive(new, last)
        return (*messages[:-1], new), changes

    return run


def drop_foreign_thinking(provider: str, source_format: str | None) -> Pass:
    """The pass for ``provider``; a block that does not name its ``source_provider`` counts as foreign.

    (The renderers send back only blocks that name the target as their source; ``source_format``
    is kept in the signature for strategies that want to trust the session's format instead.)
    """

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        if (
            ThinkingBlock not in trace.facts(messages).kinds
        ):  # nothing it drops or moves; no turn of only reasoning
            return messages, []
        out: list[Message] = []
        changes: list[Change] = []
        for message in messages:
            blocks: list[Block] = []
            carry: ThinkingBlock | None = None
            for block in message.blocks:
                if (
                    carry is not None
                    and isinstance(block, ToolCallBlock)
                    and "thoughtSignature" not in block.provider_data
                ):
                    moved = block.model_copy(
                        update={"provider_data": {**block.provider_data, "thoughtSignature": carry.signature}}
                    )
                    trace.derive(moved, block)
                    changes.append(
                        Change.trusted(
                            pass_=PASS,
                            action="move",
                            reason="Gemini takes a thought signature on the part it belongs to; an empty thought part is not a valid part",
                            call_id=block.id,
                            before=trace.origin(carry),
                            dropped=block_json(carry),
                        ).with_subject(moved)
                    )
                    block = moved  # noqa: PLW2901
                    carry = None
                if carry is not None:
                    changes.append(_drop_carry(carry, trace))
                    carry = None
                if (
                    isinstance(block, ThinkingBlock)
                    and provider == "gemini"
                    and not block.text
                    and block.signature
                ):
                    carry = block
                    continue
                if isinstance(block, ThinkingBlock):
                    why = _why_not(block, provider, block.source_provider)
                    if why:
                        changes.append(
                            Change.trusted(
                                pass_=PASS,
                                action="drop",
                                reason=why,
                                before=trace.origin(block),
                                dropped=block_json(block),
                            )
                        )
                        continue
                blocks.append(block)
            if carry is not None:
                changes.append(_drop_carry(carry, trace))
            if message.speaker == "ai" and blocks and all(isinstance(b, ThinkingBlock) for b in blocks):
                changes.append(
                    Change.trusted(
                        pass_=PASS,
                        action="drop",
                        reason="an assistant turn holding only reasoning would go out empty; its reasoning is kept here",
                        before=trace.origin(message),
                        dropped=[block_json(b) for b in blocks],
                    )
                )
                continue
            if len(blocks) == len(message.blocks):
                out.append(message)
            elif blocks:
                new = replace(message, blocks=tuple(blocks))
                trace.derive(new, message)
                out.append(new)
            else:
                changes.append(
                    Change.trusted(
                        pass_=PASS,
                        action="drop",
                        reason="the message held only reasoning that cannot be sent",
                        before=trace.origin(message),
                    )
                )
        return tuple(out), changes

    return run


def _drop_carry(block: ThinkingBlock, trace: Trace) -> Change:
    return Change.trusted(
        pass_=PASS,
        action="drop",
        reason="an empty thought part (a signature with no text) is not a valid Gemini part, and no call follows to carry it",
        before=trace.origin(block),
        dropped=block_json(block),
    )
