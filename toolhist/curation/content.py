"""Pass ``fill_empty_content``: no empty text, no empty message.

Anthropic (``text content blocks must be non-empty``), Bedrock (``The text field in the
ContentBlock object … is blank``) and Gemini (``must include at least one parts field``) reject
empty or blank text and empty turns; OpenAI rejects an assistant message with neither content nor
tool calls. Empty or whitespace-only text blocks are dropped, then messages left with no blocks;
each is a Change carrying the dropped text, so nothing goes silently.
"""

from __future__ import annotations

from toolhist._trusted import replace
from toolhist.curation.base import Change, Trace, block_json
from toolhist.model import Block, Message, TextBlock, ThinkingBlock

PASS = "fill_empty_content"


def fill_empty_content(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """Drop blank text blocks and messages left empty."""
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        blocks: list[Block] = []
        for block in message.blocks:
            blank_text = isinstance(block, TextBlock) and not block.text.strip()
            empty_thinking = (
                isinstance(block, ThinkingBlock)
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
