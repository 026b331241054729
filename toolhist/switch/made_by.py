"""Who made each opaque token of a history: reasoning signatures, encrypted reasoning, item and call ids.

A provider's reasoning state travels as opaque strings: Anthropic's thinking ``signature`` (and
``redacted_thinking.data``), Bedrock's ``reasoningContent`` signature, Gemini's ``thoughtSignature``,
the Responses API's ``encrypted_content`` and its ``rs_``/``fc_`` item ids. Each is bound to the
provider that issued it, and the request body alone cannot show who that was: a Gemini signature
replayed as an Anthropic one is still a non-empty string. So the switch what-if keeps a ledger, keyed
by the token's value, of who made each one. A value survives whatever a strategy does to the blocks
around it (moved, merged, copied into another field by a gateway's carrier), so looking a body's
tokens up by value follows provenance through any strategy, toolhist's or a real library's.

The messages the session holds after the switch were made by the provider it switched to, in the
what-if. `as_made_by` rewrites them into what that provider would have returned: its own kind of
reasoning block and tokens (fresh, deterministic values), and call ids in its own style, each
result following its call. Text and arguments are kept as they are.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import JsonValue

from toolhist._trusted import replace
from toolhist.model import Block, Message, ThinkingBlock, ToolCallBlock, ToolResponseBlock

TokenKind = Literal["signature", "thought_signature", "encrypted_content", "item_id", "call_id"]

REASONING_FORMAT = {
    "anthropic": "anthropic",
    "bedrock": "bedrock",
    "gemini": "gemini",
    "openai-responses": "openai-responses",
    "openai-chat": "openai-chat",
    "mistral": "openai-chat",
    "kimi": "openai-chat",
}
"""The ``source_provider`` a provider's own reasoning blocks carry (the reader format of its body)."""

_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


@dataclass(frozen=True)
class Token:
    """One opaque value and who made it."""

    value: str
    kind: TokenKind
    made_by: str
    """The provider that issued it (``unknown`` when the session does not say)."""
    message: int
    """The message of the switched history it belongs to."""


def _digest(seed: str) -> bytes:
    return hashlib.sha256(seed.encode()).digest()


def _alnum(seed: str, n: int) -> str:
    raw = _digest(seed)
    return "".join(_ALNUM[b % len(_ALNUM)] for b in (raw + _digest(seed + "+"))[:n])


def mint(seed: str, provider: str, kind: TokenKind, name: str = "") -> str:
    """A fresh value in ``provider``'s style for ``kind``; the same seed gives the same value."""
    b64 = base64.b64encode(_digest(seed) + _digest(seed + "/")).decode()
    if kind == "call_id":
        if provider == "anthropic":
            return "toolu_01" + _alnum(seed, 22)
        if provider == "bedrock":
            return "tooluse_" + _alnum(seed, 22)
        if provider == "mistral":
            return _alnum(seed, 9)
        if provider == "kimi":
            return f"functions.{name or 'tool'}:{_digest(seed)[0] % 10}"
        if provider == "gemini":
            return f"{name or 'call'}_{_alnum(seed, 8)}"  # Gemini issues no id: the agent names the call
        return "call_" + _alnum(seed, 24)
    if kind == "item_id":
        return ("fc_" if name == "function_call" else "rs_") + _digest(seed).hex()[:48]
    if kind == "encrypted_content":
        return "gAAAAA" + b64
    if kind == "thought_signature":
        return "CiQB" + b64
    return "Eu" + b64  # an Anthropic / Bedrock thinking signature


CARRIER_KEYS = frozenset(
    {"signature", "thoughtSignature", "thought_signature", "encrypted_content", "reasoning_opaque"}
)
"""Keys under which gateways carry a reasoning token in fields toolhist keeps verbatim (OpenRouter's
``reasoning_details``, Copilot's ``reasoning_opaque``, LiteLLM's ``thinking_blocks`` and
``provider_specific_fields``)."""


def _carried(value: JsonValue) -> Iterator[str]:
    """Reasoning tokens anywhere inside a kept field, under a carrier key."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in CARRIER_KEYS and isinstance(inner, str) and inner:
                yield inner
            else:
                yield from _carried(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _carried(inner)


def tokens_of(message: Message, index: int, made_by: str) -> Iterator[Token]:
    """The opaque values ``message`` carries, as made by ``made_by`` (gateways' carriers included)."""
    for carried in _carried(dict(message.metadata.extra)):
        yield Token(carried, "signature", made_by, index)
    for block in message.blocks:
        if isinstance(block, ThinkingBlock):
            if block.signature:
                kind: TokenKind = "thought_signature" if block.source_provider == "gemini" else "signature"
                yield Token(block.signature, kind, made_by, index)
            if block.data:
                kind = "encrypted_content" if block.source_provider == "openai-responses" else "signature"
                yield Token(block.data, kind, made_by, index)
            item = block.provider_data.get("id")
            if isinstance(item, str) and item:
                yield Token(item, "item_id", made_by, index)
        elif isinstance(block, ToolCallBlock):
            for key in ("thoughtSignature", "thought_signature", "_thoughtSignature"):
                value = block.provider_data.get(key)
                if isinstance(value, str) and value:
                    yield Token(value, "thought_signature", made_by, index)
            for key in ("id", "_id"):
                item = block.provider_data.get(key)
                if isinstance(item, str) and item:
                    yield Token(item, "item_id", made_by, index)
            for value in {block.id, block.raw_id or block.id}:
                if value:
                    yield Token(value, "call_id", made_by, index)


def _reasoning(block: ThinkingBlock, provider: str, seed: str) -> ThinkingBlock:
    """``block`` as ``provider`` would have returned it: its kind of reasoning, its own tokens."""
    fmt = REASONING_FORMAT[provider]
    if provider in ("anthropic", "bedrock"):
        token = mint(seed, provider, "signature")
        if block.redacted:
            return ThinkingBlock(redacted=True, data=token, source_provider=fmt)
        return ThinkingBlock(text=block.text, signature=token, source_provider=fmt)
    if provider == "gemini":
        return ThinkingBlock(
            text=block.text, signature=mint(seed, provider, "thought_signature"), source_provider=fmt
        )
    if provider == "openai-responses":
        summary: list[JsonValue] = [{"type": "summary_text", "text": block.text}] if block.text else []
        return ThinkingBlock(
            text=block.text,
            data=mint(seed, provider, "encrypted_content"),
            source_provider=fmt,
            provider_data={"type": "reasoning", "id": mint(seed, provider, "item_id"), "summary": summary},
        )
    return ThinkingBlock(text=block.text, source_provider=fmt, provider_data={"field": "reasoning_content"})


def as_made_by(
    messages: Sequence[Message], start: int, provider: str, model: str | None = None
) -> tuple[tuple[Message, ...], dict[str, str]]:
    """``messages`` with those from ``start`` on made by ``provider``; and each call id's new value.

    Reasoning blocks become ``provider``'s own (a provider without replayable reasoning keeps the
    text as ``reasoning_content``); call ids are minted in its style and results follow them; the
    first call of a Gemini step carries its thought signature, a Responses call its ``fc_`` item id
    (in ``provider_data`` under ``_`` keys, which no renderer sends as its own field).
    """
    ids: dict[str, str] = {}  # copies below are `toolhist._trusted.replace`: valid values, no validation
    out = list(messages[:start])
    for index in range(start, len(messages)):
        message = messages[index]
        blocks: list[Block] = []
        first_call = True
        for n, block in enumerate(message.blocks):
            seed = f"{provider}:{index}:{n}"
            if isinstance(block, ThinkingBlock):
                blocks.append(_reasoning(block, provider, seed))
            elif isinstance(block, ToolCallBlock):
                new_id = ids.setdefault(block.id, mint(seed, provider, "call_id", block.name))
                # Kept under "_" keys: the session keeps the format it was read in, whose renderer
                # would take plain keys as its own fields; B's fields are not A's.
                data: dict[str, JsonValue] = {}
                if provider == "gemini" and first_call:
                    data["_thoughtSignature"] = mint(seed, provider, "thought_signature")
                if provider == "openai-responses":
                    data["_id"] = mint(seed, provider, "item_id", "function_call")
                first_call = False
                blocks.append(replace(block, id=new_id, raw_id=new_id, provider_data=data))
            elif isinstance(block, ToolResponseBlock) and block.call_id in ids:
                new_id = ids[block.call_id]
                blocks.append(replace(block, call_id=new_id, raw_call_id=new_id))
            else:
                blocks.append(block)
        meta = replace(message.metadata, provider=provider, model=model)
        out.append(replace(message, blocks=tuple(blocks), metadata=meta))
    return tuple(out), ids


def ledger(messages: Sequence[Message], makers: Sequence[str]) -> dict[str, Token]:
    """Every opaque value of ``messages`` (message ``i`` made by ``makers[i]``), by value.

    A value seen in two messages keeps its first maker (a tool result's id is its call's).
    """
    found: dict[str, Token] = {}
    for index, (message, maker) in enumerate(zip(messages, makers, strict=True)):
        if message.speaker != "ai":
            continue
        for token in tokens_of(message, index, maker):
            found.setdefault(token.value, token)
    return found
