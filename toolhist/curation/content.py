"""Pass ``fill_empty_content``: no empty text, no empty message, for the targets that refuse them.

Anthropic (``text content blocks must be non-empty``) and Bedrock (``The text field in the
ContentBlock object … is blank``) reject empty or blank text, Gemini (``must include at least one
parts field``) an empty turn, OpenAI an assistant message with neither content nor tool calls. For
Anthropic and Bedrock, empty or whitespace-only text blocks are dropped; the OpenAI formats, Gemini,
Mistral and Kimi take blank text, so it stays, except an empty Gemini text, which the renderer leaves
out (a turn of nothing else would go out with no parts). An empty thinking block (no text, signature or data)
is dropped where the renderer would send it (Anthropic and Bedrock reasoning read from them); the
Responses API takes an empty reasoning item (Codex replays them), Gemini an empty thought part.
Then messages left with no blocks are dropped, for every target. Each drop is a Change carrying
what was dropped, so nothing goes silently.
"""

from __future__ import annotations

from toolhist._trusted import replace
from toolhist.curation.base import Change, Pass, Trace, block_json
from toolhist.model import Block, Message, TextBlock, ThinkingBlock

PASS = "fill_empty_content"
BLANK_TEXT_REFUSED = frozenset({"anthropic", "bedrock"})
"""Targets that refuse blank text (``ant.empty_text``, ``brk.blank_text``). Gemini takes a blank or
empty text part (``gem.part_oneof``'s evidence: accepted in recorded traffic) and a thought part
with nothing but its signature."""


def fill_empty_content(provider: str) -> Pass:
    """The pass for ``provider``: drop what it refuses as empty, then messages left with nothing."""

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        return _fill(messages, trace, provider)

    return run


def _fill(
    messages: tuple[Message, ...], trace: Trace, provider: str
) -> tuple[tuple[Message, ...], list[Change]]:
    blank_refused = provider in BLANK_TEXT_REFUSED
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        blocks: list[Block] = []
        for block in message.blocks:
            blank_text = isinstance(block, TextBlock) and (
                not block.text.strip() if blank_refused else provider == "gemini" and not block.text
            )
            empty_thinking = (
                blank_refused
                and isinstance(block, ThinkingBlock)
                and block.source_provider == provider
                and not block.text
                and not block.signature
                and not block.data
                and block.provider_data.get("field") != "reasoning_content"  # an accepted empty replay
            )
            if blank_text or empty_thinking:
                changes.append(
                    Change.trusted(
                        pass_=PASS,
                        action="drop",
                        reason=(
                            "blank text; providers reject empty text blocks"
                            if blank_text
                            else "an empty thinking block (no text, signature or data) carries nothing"
                        ),
                        before=trace.origin(block),
                        dropped=block_json(block),
                    )
                )
                continue
            blocks.append(block)
        if not blocks:
            changes.append(
                Change.trusted(
                    pass_=PASS,
                    action="drop",
                    reason="an empty message; providers reject turns without content",
                    before=trace.origin(message),
                    dropped=block_json(message),
                )
            )
            continue
        if len(blocks) == len(message.blocks):
            out.append(message)
        else:
            new = replace(message, blocks=tuple(blocks))
            trace.derive(new, message)
            out.append(new)
    return tuple(out), changes
