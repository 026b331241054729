"""Cursor's bubbles as messages: what the global store's rows and the older inline conversations share.

The rule (inferred, Cursor is closed source; `toolhist.agents.cursor.store` says from what): a user
bubble is a user message; consecutive assistant bubbles are one assistant message (thinking, text,
then a tool bubble's call), and a tool bubble's ``result`` is the tool message answering the call.
"""

from __future__ import annotations

import json
from typing import Any, Final

from toolhist.formats.base import Built, Pointer, ShapeError, opt_text, parse_arguments
from toolhist.model import (
    Block,
    Message,
    MessageMetadata,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

PLACEHOLDER_REASON: Final = (
    "an assistant bubble with no text, thinking or tool call (a streaming placeholder)"
)


def load_json(value: Any, ptr: Pointer) -> Any:
    """A row's JSON value (text or UTF-8 bytes); ShapeError naming ``ptr`` when it is not."""
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError:
            raise ShapeError(ptr, "not UTF-8 text") from None
    if not isinstance(value, str):
        raise ShapeError(ptr, f"expected JSON text, got {type(value).__name__}")
    try:
        return json.loads(value)
    except ValueError as exc:
        raise ShapeError(ptr, f"not valid JSON: {exc}") from None


def text_or_none(value: Any) -> str | None:
    """``value`` when it is a non-empty string."""
    return value if isinstance(value, str) and value else None


class Turn:
    """The assistant message being built from consecutive assistant bubbles."""

    def __init__(self, built: Built, model: str | None) -> None:
        self.built = built
        self.model = model
        self.blocks: list[Block] = []
        self.at: tuple[int, Pointer] | None = None

    def bubble(self, bubble: dict[str, Any], ptr: Pointer, index: int) -> None:
        """Add one bubble: a user message, or part of the assistant message being built."""
        kind = bubble.get("type")
        if kind == 1:
            self.close()
            info = bubble.get("modelInfo")
            named = text_or_none(info.get("modelName")) if isinstance(info, dict) else None
            self.model = named or self.model
            said = opt_text(bubble.get("text"), (*ptr, "text")) or ""
            meta = MessageMetadata(source_role="user")
            self.built.add(
                Message(speaker="human", blocks=(TextBlock(text=said),), metadata=meta), index, ptr
            )
            return
        if kind != 2:
            self.built.skips.add(f"bubble type {kind!r}")
            return
        thinking = bubble.get("thinking")
        blocks: list[Block] = []
        if isinstance(thinking, dict) and text_or_none(thinking.get("text")):
            blocks.append(
                ThinkingBlock(
                    text=thinking["text"],
                    signature=text_or_none(thinking.get("signature")),
                    source_provider="cursor",
                )
            )
        answer = opt_text(bubble.get("text"), (*ptr, "text"))
        if answer and answer.strip():
            blocks.append(TextBlock(text=answer))
        tool = bubble.get("toolFormerData")
        if not blocks and not isinstance(tool, dict):
            self.built.keep_unsent("empty assistant bubble", PLACEHOLDER_REASON, ptr)
            return
        if self.at is None:
            self.at = (index, ptr)
        self.blocks.extend(blocks)
        if isinstance(tool, dict):
            self._tool(tool, (*ptr, "toolFormerData"), index, bubble.get("bubbleId"))

    def _tool(self, tool: dict[str, Any], ptr: Pointer, index: int, bubble_id: Any) -> None:
        call_id = text_or_none(tool.get("toolCallId")) or f"cursor_{bubble_id}"
        name = opt_text(tool.get("name"), (*ptr, "name")) or "unknown"
        raw = tool.get("params") if tool.get("params") is not None else tool.get("rawArgs")
        params, error = parse_arguments(raw) if isinstance(raw, str) else (raw, None)
        self.blocks.append(
            ToolCallBlock(
                id=call_id,
                name=name,
                parameters=params,
                raw_id=text_or_none(tool.get("toolCallId")),
                raw_arguments=raw if isinstance(raw, str) else None,
                arguments_error=error,
                provider_data={"status": tool.get("status")},
            )
        )
        result = tool.get("result")
        if result is None:
            return
        self.close()
        failed = tool.get("status") == "error"
        said = result if isinstance(result, str) else json.dumps(result)
        answer = ToolResponseBlock(
            call_id=call_id, tool_name=name, result=said, error=said if failed else None, raw_call_id=call_id
        )
        meta = MessageMetadata(source_role="tool")
        self.built.add(Message(speaker="tool", blocks=(answer,), metadata=meta), index, (*ptr, "result"))

    def close(self) -> None:
        """Add the assistant message built so far, if any."""
        if self.blocks and self.at is not None:
            meta = MessageMetadata(source_role="assistant", model=self.model)
            self.built.add(Message(speaker="ai", blocks=tuple(self.blocks), metadata=meta), *self.at)
        self.blocks = []
        self.at = None
