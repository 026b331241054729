"""Pass ``sanitize_tool_names``: tool names every provider's pattern accepts.

Anthropic, Bedrock and Mistral take ``[a-zA-Z0-9_-]{1,64}``; Gemini ``[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}``;
OpenAI rejects an empty name. MCP-style ``server.tool`` names and names from another provider fail
those patterns. A name is rewritten the same way in calls, results and declarations (the
strategy renames declarations with `rename_declarations`), so pairs and declarations still match.
An empty name becomes ``unknown_tool``.
"""

from __future__ import annotations

import hashlib
import re

from toolhist._trusted import replace
from toolhist.curation.base import Change, Pass, Trace
from toolhist.model import Block, Message, ToolCallBlock, ToolResponseBlock, ToolSpec

PASS = "sanitize_tool_names"
_STRICT = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_GEMINI = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$")
PATTERNS: dict[str, re.Pattern[str]] = {
    "anthropic": _STRICT,
    "bedrock": _STRICT,
    "mistral": _STRICT,
    "gemini": _GEMINI,
}


def safe_name(name: str, provider: str) -> str:
    """``name`` as ``provider`` accepts it; unchanged when it already does."""
    pattern = PATTERNS.get(provider)
    if not name:
        return "unknown_tool"
    if pattern is None or pattern.fullmatch(name):
        return name
    allowed = "a-zA-Z0-9_.:-" if provider == "gemini" else "a-zA-Z0-9_-"
    cleaned = re.sub(f"[^{allowed}]", "_", name)
    if provider == "gemini" and not re.match(r"[a-zA-Z_]", cleaned):
        cleaned = "_" + cleaned
    suffix = "_" + hashlib.sha256(name.encode()).hexdigest()[:8]
    return cleaned[: 64 - len(suffix)] + suffix


def sanitize_tool_names(provider: str, renamed: dict[str, str], *, declared: bool = True) -> Pass:
    """The pass for ``provider``; fills ``renamed`` (old → new) for the declarations.

    Gemini checks the names of the declarations only (``gem.fn_name_format``; its renderer derives
    none), so for Gemini a history that declares no tools (``declared=False``) keeps its names.
    """

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        if provider == "gemini" and not declared:
            return messages, []
        if all(safe_name(name, provider) == name for name in trace.facts(messages).names):
            return messages, []  # every name as the provider takes it
        out: list[Message] = []
        changes: list[Change] = []
        safe: dict[str, str] = {}  # names repeat across a history: check each once
        for message in messages:
            blocks: list[Block] | None = None  # built only once a block of this message changes
            for k, block in enumerate(message.blocks):
                new_block: Block = block
                if isinstance(block, ToolCallBlock):
                    old = block.name
                    new = safe.get(old) or safe.setdefault(old, safe_name(old, provider))
                    if new != old:
                        new_block = replace(block, name=new)
                elif isinstance(block, ToolResponseBlock) and block.tool_name is not None:
                    old = block.tool_name
                    new = safe.get(old) or safe.setdefault(old, safe_name(old, provider))
                    if new != old:
                        new_block = replace(block, tool_name=new)
                if new_block is not block:
                    renamed[old] = new
                    changes.append(_change(block, new_block, old, new, trace))
                    trace.derive(new_block, block)
                    if blocks is None:
                        blocks = list(message.blocks[:k])
                if blocks is not None:
                    blocks.append(new_block)
            if blocks is not None:
                new_message = replace(message, blocks=tuple(blocks))
                trace.derive(new_message, message)
                out.append(new_message)
            else:
                out.append(message)
        return tuple(out), changes

    return run


def _change(old: Block, new: Block, before: str, after: str, trace: Trace) -> Change:
    call_id = (
        old.id
        if isinstance(old, ToolCallBlock)
        else old.call_id
        if isinstance(old, ToolResponseBlock)
        else None
    )
    return Change.trusted(
        pass_=PASS,
        action="rename",
        reason="the tool name does not match the provider's name pattern",
        call_id=call_id,
        before=trace.origin(old),
        detail={"old_name": before, "new_name": after},
    ).with_subject(new)


def rename_declarations(
    tools: tuple[ToolSpec, ...], provider: str, renamed: dict[str, str]
) -> tuple[ToolSpec, ...]:
    """The declarations with the same renames as the calls (and any other invalid name fixed too)."""
    out = []
    for spec in tools:
        new = renamed.get(spec.name) or safe_name(spec.name, provider)
        out.append(spec if new == spec.name else replace(spec, name=new))
    return tuple(out)
