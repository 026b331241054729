"""Bedrock Converse: rules on tool names inside the history and on what a request may end with.

The turn, pairing and block rules are in `toolhist.providers.bedrock`. These:

- a ``toolUse`` block's ``name`` has the same constraint as a declared tool's name (1-64 characters of
  ``[a-zA-Z0-9_-]``), checked where the history carries it, not only in ``toolConfig``;
- Claude on Bedrock takes no assistant prefill when tools are configured, and Claude 4.6 and later take
  none at all: the request must end with a user message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from toolhist.providers.anthropic_turns import (
    PREFILL_REMOVED,
    PREFILL_SOURCE,
    PREFILL_TEXT,
)
from toolhist.providers.base import Finding, PathT, Rule, model_of
from toolhist.providers.bedrock_rules import NAME, NAME_PATTERN, field_constraint

CLAUDE = (r"claude",)
PREFILL_TOOLS_TEXT = (
    "Your API request included an `assistant` message in the final position, which would pre-fill the "
    "`assistant` response. When using tools, pre-filling the `assistant` response is not supported."
)
PREFILL_TOOLS_SOURCE = (
    "langchain-ai/langgraph#4940 (an Anthropic Messages body with tools sent through Bedrock InvokeModel, "
    "ending on an assistant text message, 2025); enechange/collmbo PR#12 (Amazon Bedrock, 2024-10)"
)


def _tools_configured(body: dict[str, Any]) -> bool:
    """A toolConfig with tools, on a Claude model that otherwise takes prefill."""
    config = body.get("toolConfig")
    tools = config.get("tools") if isinstance(config, dict) else None
    model = model_of(body)
    return isinstance(tools, list) and bool(tools) and not any(re.search(p, model) for p in PREFILL_REMOVED)


RULES: tuple[Rule, ...] = (
    Rule(
        "brk.tool_use_name",
        NAME,
        "error",
        f"a toolUse block's name in the history is 1-64 characters of {NAME_PATTERN}, like a declared name",
        "Value '{name}' at 'messages.{index}.member.content.{block}.member.toolUse.name' failed to satisfy "
        "constraint: {constraint}",
        "AWS API reference ToolUseBlock (name: Length 1-64, Pattern [a-zA-Z0-9_-]+); wording in AWS's "
        "field-constraint form as for toolSpec.name in aws-samples/remote-swe-agents PR#457 [U: exact text "
        "for a history name]",
        "sanitize_tool_names (rename in declarations and calls together)",
    ),
    Rule(
        "brk.prefill_tools",
        NAME,
        "error",
        "Claude with toolConfig: the conversation does not end with an assistant message (no prefill)",
        PREFILL_TOOLS_TEXT,
        PREFILL_TOOLS_SOURCE,
        "append_user_turn (a user turn asks the model to continue)",
        models=CLAUDE,
        since="2024-10",
        observed="2025",
        condition="toolConfig has tools and the last message is an assistant message without toolUse",
        applies=_tools_configured,
    ),
    Rule(
        "brk.prefill_unsupported",
        NAME,
        "error",
        "Claude 4.6 and later: the conversation ends with a user message (no assistant prefill)",
        PREFILL_TEXT,
        PREFILL_SOURCE,
        "append_user_turn (a user turn asks the model to continue)",
        models=PREFILL_REMOVED,
        since="2026-02",
        observed="2026-09",
        condition="the last message is an assistant message without toolUse (a final toolUse is "
        "brk.result_missing)",
    ),
)


def _blocks(message: Any) -> list[tuple[int, dict[str, Any]]]:
    content = message.get("content") if isinstance(message, dict) else None
    return [(j, b) for j, b in enumerate(content) if isinstance(b, dict)] if isinstance(content, list) else []


def check(body: dict[str, Any], messages: list[Any]) -> Iterator[Finding]:
    """The rules above over a Converse body's messages (model conditions are filtered by the rule)."""
    for i, message in enumerate(messages):
        for j, block in _blocks(message):
            use = block.get("toolUse")
            if not isinstance(use, dict):
                continue
            constraint = field_constraint(use.get("name"), NAME_PATTERN)
            if constraint is not None:
                call_id = use.get("toolUseId")
                values = {"name": use.get("name"), "index": i, "block": j, "constraint": constraint}
                at: PathT = ("messages", i, "content", j, "toolUse", "name")
                yield Finding("brk.tool_use_name", at, values, (call_id,) if isinstance(call_id, str) else ())
    last = messages[-1] if messages else None
    final_text = isinstance(last, dict) and last.get("role") == "assistant"
    if final_text and not any("toolUse" in b for _, b in _blocks(last)):
        path = ("messages", len(messages) - 1)
        yield Finding("brk.prefill_tools", path)
        yield Finding("brk.prefill_unsupported", path)
