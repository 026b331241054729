"""Pi's message content as canonical blocks, in the form the target API's converter sends it.

Pi keeps one provider-neutral content model (``packages/ai/src/types.ts``: ``text``, ``thinking``
with ``thinkingSignature``, ``toolCall``, ``image``); each provider file turns it into its wire
(badlogic/pi-mono at 83378aad7e74a0e2bb8f37c007a9685fb4609d8a, ``packages/ai/src/providers/``). What
rides in a signature depends on the API that made the message, so a block is read as that API's
converter reads it:

- ``anthropic-messages`` (``anthropic.ts`` ``convertMessages``): redacted thinking is
  ``redacted_thinking`` with the signature as its data; thinking with a signature is a
  ``thinking`` block; thinking without one is sent as plain text; blank text and thinking are
  not sent;
- the Responses APIs (``openai-responses-shared.ts`` ``convertResponsesMessages``): the signature is
  the whole ``reasoning`` item as JSON, replayed as that item; thinking without one is not sent;
  a tool call's id is ``call_id|item id`` and is sent as those two fields, and a result answers the
  ``call_id`` part;
- ``openai-completions`` (``openai-completions.ts``): the signature names the message field the
  reasoning goes back in (``reasoning_content``…); without one it is not sent;
- the Google APIs (``google-shared.ts``): the signature is the part's ``thoughtSignature``, and a
  tool call carries its own;
- any other API keeps thinking as thinking, named by that API.

The converters' other choices (dropping images for text-only models, a bridging assistant turn
for providers that need one, the cache markers) depend on model metadata a session file does not
hold, and are not reproduced.
"""

from __future__ import annotations

import json
from typing import Any

from toolhist.agents.pi.transform import GOOGLE_APIS, RESPONSES_APIS
from toolhist.formats.base import Pointer, ShapeError, obj, text
from toolhist.formats.openai_responses import read_item
from toolhist.model import Block, MediaBlock, TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock


def user_blocks(content: Any, ptr: Pointer) -> list[Block]:
    """A user message's content (a string, or text and image parts)."""
    if isinstance(content, str):
        return [TextBlock(text=content)]
    if not isinstance(content, list):
        raise ShapeError(ptr, "expected a string or a list of content parts")
    out: list[Block] = []
    for j, raw in enumerate(content):
        part = obj(raw, (*ptr, j))
        kind = part.get("type")
        if kind == "text":
            out.append(TextBlock(text=text(part.get("text"), (*ptr, j, "text"))))
        elif kind == "image":
            out.append(
                MediaBlock(
                    mime_type=part.get("mimeType") if isinstance(part.get("mimeType"), str) else None,
                    data=text(part.get("data"), (*ptr, j, "data")),
                )
            )
        else:
            raise ShapeError(
                (*ptr, j, "type"), f"unknown content part type {kind!r}; expected 'text' or 'image'"
            )
    return out


def assistant_blocks(content: list[Any], api: str | None, ptr: Pointer) -> tuple[list[Block], int]:
    """The blocks of an assistant message as ``api``'s converter sends them, and how many it leaves out."""
    out: list[Block] = []
    left_out = 0
    for j, raw in enumerate(content):
        where = (*ptr, j)
        block = obj(raw, where)
        kind = block.get("type")
        if kind == "text":
            value = text(block.get("text"), (*where, "text"))
            if value.strip():
                out.append(TextBlock(text=value))
            else:
                left_out += 1
        elif kind == "thinking":
            made = _thinking(block, api, where)
            out += made
            left_out += not made
        elif kind == "toolCall":
            out.append(_call(block, api, where))
        else:
            raise ShapeError(
                (*where, "type"), f"unknown content block {kind!r}; expected text, thinking or toolCall"
            )
    return out, left_out


def _thinking(block: dict[str, Any], api: str | None, ptr: Pointer) -> list[Block]:
    thinking = block.get("thinking", "")
    thinking = thinking if isinstance(thinking, str) else text(thinking, (*ptr, "thinking"))
    signature = block.get("thinkingSignature")
    signature = signature if isinstance(signature, str) and signature else None
    if api == "anthropic-messages":
        if block.get("redacted"):
            return [ThinkingBlock(redacted=True, data=signature, source_provider="anthropic")]
        if not thinking.strip():
            return []
        if signature is None:
            return [TextBlock(text=thinking)]
        return [ThinkingBlock(text=thinking, signature=signature, source_provider="anthropic")]
    if api in RESPONSES_APIS:
        if signature is None:
            return []
        try:
            item = json.loads(signature)
        except ValueError:
            raise ShapeError(
                (*ptr, "thinkingSignature"), "not the JSON reasoning item the Responses API replays"
            ) from None
        return list(
            read_item(obj(item, (*ptr, "thinkingSignature")), (*ptr, "thinkingSignature"), "openai-responses")
        )
    if not thinking.strip():
        return []
    if api == "openai-completions":
        if signature is None:
            return []
        return [
            ThinkingBlock(text=thinking, source_provider="openai-chat", provider_data={"field": signature})
        ]
    if api in GOOGLE_APIS:
        return [ThinkingBlock(text=thinking, signature=signature, source_provider="gemini")]
    return [ThinkingBlock(text=thinking, signature=signature, source_provider=api)]


def _call(block: dict[str, Any], api: str | None, ptr: Pointer) -> Block:
    raw_id = text(block.get("id"), (*ptr, "id"))
    name = text(block.get("name"), (*ptr, "name"))
    arguments = block.get("arguments")
    if api in RESPONSES_APIS:
        call_id, _, item_id = raw_id.partition("|")
        item: dict[str, Any] = {"type": "function_call"}
        if item_id:
            item["id"] = item_id
        item |= {"call_id": call_id, "name": name, "arguments": json.dumps(arguments, separators=(",", ":"))}
        (call,) = read_item(item, ptr, "openai-responses")
        return call
    extra: dict[str, Any] = {}
    signature = block.get("thoughtSignature")
    if isinstance(signature, str) and signature:
        extra["thoughtSignature"] = signature
    return ToolCallBlock(id=raw_id, name=name, parameters=arguments, raw_id=raw_id, provider_data=extra)


def result_block(message: dict[str, Any], api: str | None, ptr: Pointer) -> ToolResponseBlock:
    """A ``toolResult`` message as the result block the target API's converter sends."""
    raw_id = text(message.get("toolCallId"), (*ptr, "toolCallId"))
    call_id = raw_id.split("|")[0] if api in RESPONSES_APIS else raw_id
    content = message.get("content", [])
    if not isinstance(content, list):
        raise ShapeError((*ptr, "content"), "expected a list of content parts")
    texts = [p.get("text") for p in content if isinstance(p, dict) and p.get("type") == "text"]
    joined = "\n".join(t for t in texts if isinstance(t, str))
    result: Any = joined if len(texts) == len(content) else content
    name = message.get("toolName")
    return ToolResponseBlock(
        call_id=call_id,
        tool_name=name if isinstance(name, str) else None,
        result=result,
        error=joined if message.get("isError") is True else None,
        raw_call_id=raw_id,
    )
