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
from collections.abc import Mapping, Sequence
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


_AS_ALNUM = bytes(ord(_ALNUM[b % len(_ALNUM)]) for b in range(256))
"""Each byte's character of `_ALNUM` (byte modulo 62), for ``bytes.translate``."""


def _alnum(seed: str, n: int) -> str:
    """``n`` characters of `_ALNUM`, one per byte of the seed's digest (and of a second one past 32)."""
    raw = _digest(seed)
    if n > len(raw):
        raw += _digest(seed + "+")
    return raw[:n].translate(_AS_ALNUM).decode("ascii")


def mint(seed: str, provider: str, kind: TokenKind, name: str = "") -> str:
    """A fresh value in ``provider``'s style for ``kind``; the same seed gives the same value."""
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
    b64 = base64.b64encode(_digest(seed) + _digest(seed + "/")).decode()
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


def _carried(value: JsonValue, found: list[str]) -> None:
    """Reasoning tokens anywhere inside a kept field, under a carrier key, added to ``found`` in order.

    A plain recursion into dicts and lists only: every message of a session carries ``extra``
    (a reader's own notes), and a generator per message and per level cost a tenth of the ledger.
    """
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in CARRIER_KEYS and isinstance(inner, str) and inner:
                found.append(inner)
            elif isinstance(inner, (dict, list)):
                _carried(inner, found)
    elif isinstance(value, list):
        for inner in value:
            if isinstance(inner, (dict, list)):
                _carried(inner, found)


def values_of(message: Message) -> list[tuple[str, TokenKind]]:
    """The opaque values ``message`` carries and their kinds, in order (gateways' carriers first)."""
    out: list[tuple[str, TokenKind]] = []
    carried: list[str] = []
    _carried(dict(message.metadata.extra), carried)
    for value in carried:
        out.append((value, "signature"))
    for block in message.blocks:
        if isinstance(block, ThinkingBlock):
            if block.signature:
                kind: TokenKind = "thought_signature" if block.source_provider == "gemini" else "signature"
                out.append((block.signature, kind))
            if block.data:
                kind = "encrypted_content" if block.source_provider == "openai-responses" else "signature"
                out.append((block.data, kind))
            item = block.provider_data.get("id")
            if isinstance(item, str) and item:
                out.append((item, "item_id"))
        elif isinstance(block, ToolCallBlock):
            data = block.provider_data
            if data:
                for key in ("thoughtSignature", "thought_signature", "_thoughtSignature"):
                    signature = data.get(key)
                    if isinstance(signature, str) and signature:
                        out.append((signature, "thought_signature"))
                for key in ("id", "_id"):
                    item = data.get(key)
                    if isinstance(item, str) and item:
                        out.append((item, "item_id"))
            for call_id in {block.id, block.raw_id or block.id}:
                if call_id:
                    out.append((call_id, "call_id"))
    return out


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


def ledger(
    messages: Sequence[Message],
    makers: Sequence[str],
    *,
    known: Mapping[str, Token] | None = None,
    start: int = 0,
) -> dict[str, Token]:
    """Every opaque value of ``messages`` (message ``i`` made by ``makers[i]``), by value.

    A value seen in two messages keeps its first maker (a tool result's id is its call's).
    ``known`` is the ledger of ``messages[:start]`` already made (the switch's, for the return that
    begins with the same messages): it is copied and gone on from at ``start``.
    """
    if len(messages) != len(makers):
        raise ValueError(f"{len(messages)} messages but {len(makers)} makers")
    found: dict[str, Token] = {} if known is None else dict(known)
    for index in range(start, len(messages)):
        message = messages[index]
        if message.speaker != "ai":
            continue
        maker = makers[index]
        for value, kind in values_of(message):
            if value not in found:
                found[value] = Token(value, kind, maker, index)
    return found
