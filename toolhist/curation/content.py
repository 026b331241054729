"""Pass ``fill_empty_content``: no empty text, no empty message, where the target refuses them.

Anthropic (``text content blocks must be non-empty``, ``all messages must have non-empty content
except for the optional final assistant message``) and Bedrock (``The text field in the
ContentBlock object … is blank``) refuse blank text; the OpenAI formats, Gemini, Mistral and Kimi
take it. So:

- whitespace-only text is dropped for Bedrock, and for Anthropic only in a message with nothing
  else of substance (Anthropic takes a newline beside a ``tool_use``: `toolhist.providers.anthropic`'s
  ``ant.empty_text`` and its evidence);
- an empty text is dropped only where it would be sent and refused, or leave its turn empty: the
  Anthropic, Bedrock, Gemini and Responses renderers leave it out of a body they build when its
  turn has other blocks (and say so), so it stays there unless those blocks are reasoning the target
  is not sent; alone it is sent, and Anthropic (but for a final assistant turn) and Bedrock refuse
  it; a body sent back to its own provider as it was keeps every empty text;
- an empty thinking block (no text, signature or data) is dropped where the renderer would send it
  (Anthropic and Bedrock reasoning read from them); the Responses API takes an empty reasoning item
  (Codex replays them), Gemini an empty thought part;
- then messages left with no blocks are dropped, for every target, and so are messages of only
  another format's items (`OPAQUE_TURN_EMPTY`: the renderer would send them as an empty turn).

Each drop is a Change carrying what was dropped, so nothing goes silently.
"""

from __future__ import annotations

from toolhist._trusted import replace
from toolhist.curation.base import Change, Pass, Trace, block_json
from toolhist.model import Block, Message, OpaqueBlock, TextBlock, ThinkingBlock

PASS = "fill_empty_content"
BLANK_TEXT_REFUSED = frozenset({"anthropic", "bedrock"})
"""Targets that refuse blank text (``ant.empty_text``, ``brk.blank_text``). Gemini takes a blank or
empty text part (``gem.part_oneof``'s evidence: accepted in recorded traffic) and a thought part
with nothing but its signature."""


LEFT_OUT_BESIDE_OTHERS = frozenset({"anthropic", "bedrock", "gemini", "openai-responses"})
"""Targets whose renderer leaves an empty text out of a body it builds when the message has other
blocks (and says so in the payload's notes); alone, the empty text is sent."""
EMPTY_ALONE_REFUSED = frozenset({"anthropic", "bedrock"})
"""Targets that refuse a turn whose only content is an empty text (``ant.empty_content``,
``brk.blank_text``); Gemini and the Responses API take it."""


OPAQUE_TURN_EMPTY = frozenset({"openai-chat", "kimi", "anthropic", "gemini"})
"""Targets whose renderer sends a turn of only foreign items (Codex's ``tool_search_call``, kept
verbatim) as an empty turn (``oai.null_content``, ``ant.empty_content``, ``gem.parts_nonempty``);
the Mistral and Bedrock renderers leave such a turn out, the Responses one sends the items."""


_MAY_GO_EMPTY = frozenset({ThinkingBlock, OpaqueBlock})
"""Blocks `_fill` may drop, or whose message it may drop, whatever their text."""


def _foreign_item(block: Block, provider: str) -> bool:
    return isinstance(block, OpaqueBlock) and block.source_format != provider


def fill_empty_content(provider: str, source_format: str | None = None, model: object = None) -> Pass:
    """The pass for ``provider``: drop what it refuses as empty, then messages left with nothing.

    ``source_format`` == ``provider`` means the body goes back as it was (no empty text left out);
    ``model`` decides whether an empty final assistant turn is taken (`final_taken`).
    """
    taken = final_taken(provider, model)

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        facts = trace.facts(messages)
        if not (facts.blank_text or facts.empty_message or facts.kinds & _MAY_GO_EMPTY):
            return messages, []  # no blank text, no reasoning or foreign item, no empty message
        return _fill(messages, trace, provider, verbatim=source_format == provider, final_ok=taken)

    return run


def _nothing_else(message: Message) -> bool:
    """Whether ``message`` holds nothing a renderer sends but empty texts (and reasoning)."""
    return all(
        isinstance(b, ThinkingBlock) or (isinstance(b, TextBlock) and not b.text) for b in message.blocks
    )


FINAL_EMPTY_TAKEN = {"anthropic": "ant.prefill_unsupported"}
"""Targets that take an empty final assistant turn (Anthropic: "except for the optional final
assistant message"), unless the model refuses a final assistant turn at all (the rule named: a turn
is appended after it, and it is final no more)."""


def final_taken(provider: str, model: object) -> bool:
    """Whether ``provider`` with ``model`` takes an empty final assistant turn as it is."""
    rule = FINAL_EMPTY_TAKEN.get(provider)
    if rule is None:
        return False
    from toolhist.providers import provider_for

    return not provider_for(provider).rule(rule).applies_to({"model": model})


def _substantive(block: Block) -> bool:
    """Whether Anthropic counts ``block`` beside whitespace text (then the whitespace is taken).

    Text with a non-whitespace character, a call, a result or another block; reasoning does not
    count, since the renderer may leave it out.
    """
    if isinstance(block, TextBlock):
        return bool(block.text.strip())
    return not isinstance(block, ThinkingBlock)


def _blank(block: TextBlock, message: Message, provider: str, *, verbatim: bool, final: bool) -> bool:
    """Whether the renderer would send ``block`` as blank text that ``provider`` refuses, or leave its turn empty."""
    if block.text.strip():
        return False
    if block.text:  # whitespace: sent as it is
        if provider == "anthropic":
            return not any(_substantive(b) for b in message.blocks)
        return provider in BLANK_TEXT_REFUSED
    if verbatim and provider in BLANK_TEXT_REFUSED:  # a body sent back as it was keeps its empty text
        return True
    if provider not in LEFT_OUT_BESIDE_OTHERS or not _nothing_else(message):
        return False  # sent and taken, or left out beside the rest of its turn (and said so)
    if any(isinstance(b, ThinkingBlock) for b in message.blocks):
        return True  # left out beside reasoning the target may not be sent: the turn would go out empty
    return provider in EMPTY_ALONE_REFUSED and not (final and message.speaker == "ai")


def _fill(
    messages: tuple[Message, ...], trace: Trace, provider: str, *, verbatim: bool, final_ok: bool
) -> tuple[tuple[Message, ...], list[Change]]:
    blank_refused = provider in BLANK_TEXT_REFUSED
    out: list[Message] = []
    changes: list[Change] = []
    last = len(messages) - 1
    for k, message in enumerate(messages):
        blocks: list[Block] = []
        for block in message.blocks:
            blank_text = isinstance(block, TextBlock) and _blank(
                block, message, provider, verbatim=verbatim, final=final_ok and k == last
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
        if not blocks or (provider in OPAQUE_TURN_EMPTY and all(_foreign_item(b, provider) for b in blocks)):
            changes.append(
                Change.trusted(
                    pass_=PASS,
                    action="drop",
                    reason="an empty message; providers reject turns without content"
                    if not blocks
                    else f"the message holds only items of another format, which {provider} is not sent: "
                    "it would go out empty (they are kept here)",
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
    if not changes:  # nothing dropped: the same messages, as the same tuple (later passes see it unchanged)
        return messages, changes
    return tuple(out), changes
