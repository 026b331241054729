"""One message as a person reads it: who spoke, the text, each tool call's name and arguments, each result.

The Timeline, Curation and Explain pages inspect one message. They showed each block as the model's
JSON (``provider_data``, ``raw_id``, a ``hist_tool_…`` id toolhist made), which a new user read as
escaped noise (issue 24). Here each block is a heading and a text: the call ids as the log wrote them
(an id toolhist made for a call that had none says so), arguments pretty-printed, a result's text.
The JSON stays one click away (`raw_json`). Pure: a message in, strings out; the page shows them
through escaping elements only.
"""

from __future__ import annotations

import json

from toolhist.ids import PREFIX
from toolhist.model import (
    MediaBlock,
    Message,
    OpaqueBlock,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)
from toolhist.views.transcript import arguments_text, result_text

MADE = "(none in the log)"
"""What an id toolhist made for a call the log gave none reads as."""


def shown_id(raw: str | None, ident: str) -> str:
    """A call id as the log wrote it; one toolhist made (``hist_tool_…``) is `MADE`."""
    if raw:
        return raw
    return MADE if ident.startswith(PREFIX) else ident


def parts(message: Message) -> list[tuple[str, str]]:
    """Each block as (heading, text): what a person reads, no field names of the model."""
    out: list[tuple[str, str]] = []
    for block in message.blocks:
        if isinstance(block, TextBlock):
            out.append(("Text", block.text if block.text.strip() else "(empty)"))
        elif isinstance(block, ThinkingBlock):
            text = block.text or (
                "(redacted by the provider)" if block.redacted else "(encrypted: not readable)"
            )
            out.append(("Thinking", text))
        elif isinstance(block, ToolCallBlock):
            out.append(
                (
                    f"Tool call {block.name} · call id {shown_id(block.raw_id, block.id)}",
                    arguments_text(block),
                )
            )
        elif isinstance(block, ToolResponseBlock):
            name = f" {block.tool_name}" if block.tool_name else ""
            state = "" if block.is_complete else " · still running when the log ends"
            failed = " · failed" if block.error else ""
            text = result_text(block.result)
            if block.error:
                text = f"{block.error}\n{text}" if text else block.error
            heading = f"Result of{name} · call id {shown_id(block.raw_call_id, block.call_id)}{failed}{state}"
            out.append((heading, text))
        elif isinstance(block, MediaBlock):
            out.append(
                (f"Media {block.mime_type or ''}".rstrip(), block.filename or block.url or "(inline data)")
            )
        elif isinstance(block, OpaqueBlock):
            out.append((f"A {block.source_format} record toolhist keeps as it is", "(see the raw JSON)"))
    return out


def raw_json(message: Message) -> str:
    """The message as toolhist reads it, blocks and metadata: the JSON behind the readable view."""
    value = {
        "blocks": [block.model_dump(mode="json", exclude_defaults=True) for block in message.blocks],
        "metadata": message.metadata.model_dump(mode="json", exclude_defaults=True),
    }
    return json.dumps(value, indent=2, ensure_ascii=False)
