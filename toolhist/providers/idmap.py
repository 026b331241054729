"""Tool-call ids mapped to each provider's format at the edge (seed 001).

The history keeps its own ids; what a provider needs is applied when rendering for it:

- Kimi: ``functions.{name}:{index}``, the index counting calls in request order (the model parses
  its own ids with that grammar, and imitates foreign ones badly);
- Mistral: exactly 9 characters ``[a-zA-Z0-9]``, with explicit collision handling;
- Anthropic and Bedrock: ``^[a-zA-Z0-9_-]+$`` (Bedrock also at most 64 characters);
- OpenAI Chat: at most 40 characters; Responses: ``call_id`` at most 64;
- Gemini: ids are optional and kept as they are.

Results follow their call's mapping, so pairs stay pairs. A result whose call is not in the history
keeps an id mapped the same way (Mistral, Anthropic) so that the violation it causes is the pairing
one, not an id-format one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from toolhist._trusted import replace
from toolhist.ids import PREFIX, is_canonical
from toolhist.model import Block, Message, Session, ToolCallBlock, ToolResponseBlock


def _short(raw: str, limit: int, prefix: str) -> str:
    if len(raw) <= limit:
        return raw
    digest = hashlib.sha256(raw.encode()).hexdigest()
    return f"{prefix}{digest[: limit - len(prefix)]}"


_CANONICAL_PREFIX = {
    "openai-chat": "call_",
    "openai-responses": "call_",
    "anthropic": "toolu_",
    "bedrock": "tooluse_",
}
"""Seed 001's edge mapping: a canonical ``hist_tool_X`` goes out as the provider's own ``prefix + X``."""


def edge_mapper(provider: str) -> Callable[[ToolCallBlock | None, str, int, set[str]], str]:
    """(call or None, original id, call index in request order, ids taken) → the provider's id.

    A canonical ``hist_tool_X`` goes out as the provider's own prefix + X (seed 001), then through
    the provider's constraints; `toolhist.curation.sent_ids` uses it for the ids a provider refuses.
    """
    inner = _base_mapper(provider)
    prefix = _CANONICAL_PREFIX.get(provider)
    if prefix is None:
        return inner
    return lambda call, raw, index, taken: inner(
        call, prefix + raw[len(PREFIX) :] if is_canonical(raw) else raw, index, taken
    )


def _base_mapper(provider: str) -> Callable[[ToolCallBlock | None, str, int, set[str]], str]:
    from toolhist.providers.edge_ids import anthropic_safe_id, kimi_id, mistral_id

    if provider == "kimi":
        return lambda call, raw, index, taken: kimi_id(call.name if call else "unknown", index)
    if provider == "mistral":
        return lambda call, raw, index, taken: mistral_id(raw, taken)
    if provider == "anthropic":
        return lambda call, raw, index, taken: anthropic_safe_id(raw)
    if provider == "bedrock":
        return lambda call, raw, index, taken: _short(anthropic_safe_id(raw), 64, "tooluse_")
    if provider == "openai-chat":
        return lambda call, raw, index, taken: _short(raw, 40, "call_")
    if provider == "openai-responses":
        return lambda call, raw, index, taken: _short(raw, 64, "call_")
    return lambda call, raw, index, taken: raw


def map_ids(session: Session, provider: str) -> tuple[Session, dict[str, str]]:
    """The session with call ids in ``provider``'s format, and the mapping original → provider id.

    Copy-on-write: messages without tool blocks are the same objects. Copies are `replace`
    (no re-validation): a new id of the right type is all that changes.
    """
    mapper = edge_mapper(provider)
    mapping: dict[str, str] = {}
    taken: set[str] = set()
    index = 0
    messages: list[Message] = []
    for message in session.messages:
        blocks: list[Block] = []
        changed = False
        for block in message.blocks:
            if isinstance(block, ToolCallBlock):
                # A call repeated under the same id (seed 000's failure mode A) keeps one mapping.
                new = mapping.get(block.id) or mapper(block, block.id, index, taken)
                index += 1
                mapping.setdefault(block.id, new)
                taken.add(new)
                if new != block.id:
                    block = replace(block, id=new)  # noqa: PLW2901 - copy-on-write
                    changed = True
            elif isinstance(block, ToolResponseBlock):
                known = mapping.get(block.call_id)
                if known is None:
                    # No call to take a name and index from: Kimi keeps the id as it is.
                    known = block.call_id if provider == "kimi" else mapper(None, block.call_id, index, taken)
                    mapping[block.call_id] = known
                    taken.add(known)
                new = known
                if new != block.call_id:
                    block = replace(block, call_id=new)  # noqa: PLW2901 - copy-on-write
                    changed = True
            blocks.append(block)
        messages.append(replace(message, blocks=tuple(blocks)) if changed else message)
    return replace(session, messages=tuple(messages)), mapping
