"""Bedrock Converse: rules on tool names inside the history and on what a request may end with.

The turn, pairing and block rules are in `toolhist.providers.bedrock`. These:

- a ``toolUse`` block's ``name`` has the same constraint as a declared tool's name (1-64 characters of
  ``[a-zA-Z0-9_-]``), checked where the history carries it, not only in ``toolConfig``;
- Claude on Bedrock takes no assistant prefill right after a tool result turn, and Claude 4.6 and later
  take none at all: the request must end with a user message. (A recorded conversation with tools that
  ends on a prefill after a plain user turn was accepted: crewAI's
  ``test_bedrock_agent_kickoff_with_tools_mocked.yaml`` @89e961e08e #6, while #5, the same history cut
  right after the tool round, was rejected.)
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
    "corpus crewAIInc/crewAI:lib/crewai/tests/cassettes/agents/TestBedrockNativeToolCalling."
    "test_bedrock_agent_kickoff_with_tools_mocked.yaml @89e961e08e #5 (anthropic.claude-3-haiku, 2026-01-22) "
    "and lib/crewai/tests/cassettes/llms/bedrock/test_bedrock_agent_kickoff_structured_output_with_tools.yaml "
    "@7e09e01215 #2 (anthropic.claude-3-sonnet, 2026-02-12): both end on an assistant text right after the "
    "toolResult turn, rejected (/work/wt/reports/traffic.md); #6 of the first, the same history with a plain "
    "user turn before the prefill, accepted; langchain-ai/langgraph#4940 (an Anthropic body with tools through "
    "Bedrock InvokeModel, assistant text right after the tool_result, 2025); enechange/collmbo PR#12 (2024-10)"
)


def _takes_prefill(body: dict[str, Any]) -> bool:
    """A model that otherwise takes prefill (Claude 4.6+ refuse it always: brk.prefill_unsupported)."""
    model = model_of(body)
    return not any(re.search(p, model) for p in PREFILL_REMOVED)


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
        "for a history name]"
        "; openclaw/openclaw#12892 (this text for a toolUse.name in the history, moonshotai.kimi-k2.5 on "
        "Bedrock, 2026-02); vercel/ai PR#17763 (a recorded live 400 for $READFILE in the history, Claude "
        "Sonnet 4.5, 2026-07)",
        "sanitize_tool_names (rename in declarations and calls together)",
        since="2026-02",
        observed="2026-07",
    ),
    Rule(
        "brk.prefill_tools",
        NAME,
        "error",
        "Claude: no assistant prefill right after a tool result turn (the conversation ends with a user message "
        "while a tool round is open)",
        PREFILL_TOOLS_TEXT,
        PREFILL_TOOLS_SOURCE,
        "append_user_turn (a user turn asks the model to continue)",
        models=CLAUDE,
        unknown_model=True,  # a Converse body names no model (it is in the URL): both recorded 400s were so
        since="2024-10",
        observed="2026-02",
        condition="the last message is an assistant message without toolUse, and the user turn before it holds "
        "a toolResult",
        applies=_takes_prefill,
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


def tool_use_name(use: dict[str, Any], i: int, j: int) -> Finding | None:
    """brk.tool_use_name for the toolUse ``use`` at block ``j`` of message ``i`` (None: its name is fine).

    Asked of every toolUse by `toolhist.providers.bedrock.check_blocks`, in its walk over the blocks.
    """
    constraint = field_constraint(use.get("name"), NAME_PATTERN)
    if constraint is None:
        return None
    call_id = use.get("toolUseId")
    values = {"name": use.get("name"), "index": i, "block": j, "constraint": constraint}
    at: PathT = ("messages", i, "content", j, "toolUse", "name")
    return Finding("brk.tool_use_name", at, values, (call_id,) if isinstance(call_id, str) else ())


def check(body: dict[str, Any], messages: list[Any]) -> Iterator[Finding]:
    """The final-message rules above over a Converse body's messages (brk.tool_use_name: `tool_use_name`).

    Model conditions are filtered by the rule.
    """
    last = messages[-1] if messages else None
    final_text = isinstance(last, dict) and last.get("role") == "assistant"
    if final_text and not any("toolUse" in b for _, b in _blocks(last)):
        path = ("messages", len(messages) - 1)
        if _after_results(messages):
            yield Finding("brk.prefill_tools", path)
        yield Finding("brk.prefill_unsupported", path)


def _after_results(messages: list[Any]) -> bool:
    """Whether the run of user messages before the last message holds a toolResult (the tool round is open)."""
    k = len(messages) - 2
    while k >= 0 and isinstance(messages[k], dict) and messages[k].get("role") == "user":
        if any("toolResult" in b for _, b in _blocks(messages[k])):
            return True
        k -= 1
    return False
