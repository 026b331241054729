"""Bedrock Converse rules as data: slugs, the ValidationException texts, sources and repairs.

Texts and sources: ``research/providers.md`` §7a and §10. Bedrock writes indices as
``messages.<N>.content`` (and ``messages.[<N>]`` in one text); field-constraint errors use AWS's
generic ``Value '…' at '…member…' failed to satisfy constraint: …`` form.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from toolhist.providers.base import Rule

NAME = "bedrock"

ID_PATTERN = "[a-zA-Z0-9_.:-]+"
"""toolUseId pattern, as the current AWS API reference (ToolUseBlock, ToolResultBlock) states it. An older
snapshot showed ``[a-zA-Z0-9_-]+``; ids with ``.`` or ``:`` (Kimi's ``functions.read:0``) are accepted now."""
NAME_PATTERN = "[a-zA-Z0-9_-]+"
"""Tool name pattern (ToolSpecification.name, ToolUseBlock.name): 1-64 characters, no dots or colons."""


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """``re.fullmatch(pattern, …)`` looks its pattern up in re's cache on every call: once per id here."""
    return re.compile(pattern)


def field_constraint(value: Any, pattern: str) -> str | None:
    """The first AWS constraint an id or name breaks (1-64 characters of ``pattern``), or None."""
    if not isinstance(value, str) or not value:
        return "Member must have length greater than or equal to 1"
    if not _compiled(pattern).fullmatch(value):
        return f"Member must satisfy regular expression pattern: {pattern}"
    if len(value) > 64:
        return "Member must have length less than or equal to 64"
    return None


RULES: tuple[Rule, ...] = (
    Rule(
        "brk.first_user",
        NAME,
        "error",
        "the conversation starts with a user message",
        "A conversation must start with a user message. Try again with a conversation that starts with a "
        "user message.",
        "langgenius/dify#12340; strands-agents/harness-sdk#2085"
        "; dates: langgenius/dify#12340 (Claude 3.5 Sonnet, 2025-01); "
        "aws-solutions-library-samples/guidance-for-multi-provider-generative-ai-gateway-on-aws#123 "
        "(claude-3-5-sonnet-v2, 2025-05); strands-agents/harness-sdk#2085 (Nova 2 Lite, 2026-04)",
        "prepend a user turn",
        since="2025-01",
        observed="2026-04",
    ),
    Rule(
        "brk.alternate",
        NAME,
        "error",
        "an assistant message never follows an assistant message",
        "A conversation must alternate between user and assistant roles. Make sure the conversation "
        "alternates between user and assistant roles and try again.",
        "microsoft/semantic-kernel#10277, #10281 (two assistant messages in a row, Claude 3.5 Sonnet, 2025-01)"
        "; dates: langchain-ai/langchain-aws#192 (2024-09); cline/cline#431 (claude-3.5-sonnet via LiteLLM, "
        "2024-10); microsoft/semantic-kernel#10281 (maintainer: a Bedrock limitation, 2025-03). Nothing "
        "later found",
        "merge_turns",
        since="2024-09",
        observed="2025-03",
    ),
    Rule(
        "brk.consecutive_user",
        NAME,
        "warning",
        "user messages in a row (a tool-result message and a user text message): rejected in 2024, accepted now",
        "A conversation must alternate between user and assistant roles. Make sure the conversation "
        "alternates between user and assistant roles and try again.",
        "langchain-ai/langchain-aws#130 (2024-08), Portkey-AI/gateway#748 (2024-11), "
        "langchain-ai/langchainjs#6724 (2024-09): rejected. Accepted in the traffic corpus "
        "(anthropic.claude-3-haiku-20240307, 2026-01..02: crewAIInc/crewAI lib/crewai/tests/cassettes/agents/"
        "TestBedrockNativeToolCalling.test_bedrock_agent_kickoff_with_tools_mocked.yaml), so a warning"
        "; old evidence: the rejections are from 2024, the acceptances from 2026",
        "merge_turns",
        since="2024-08",
        observed="2024-11",
    ),
    Rule(
        "brk.result_missing",
        NAME,
        "error",
        "every toolUse is answered by a toolResult in the next (user) message",
        "Expected toolResult blocks at messages.{index}.content for the following Ids: {ids}",
        "zeroclaw-labs/zeroclaw PR#1476 [U: exact tail of the text]. A conversation ending on a toolUse is "
        "reported too, with the index one past the last message [U: Bedrock's answer for that case]"
        "; dates: zeroclaw-labs/zeroclaw PR#1476 quotes 'Expected toolResult blocks at messages.N.content "
        "for the following Ids: ...' (2026-02)",
        "close_orphans (synthetic toolResult) or move_results",
        since="2026-02",
        observed="2026-02",
    ),
    Rule(
        "brk.result_count",
        NAME,
        "error",
        "a message has no more toolResult blocks than the previous message had toolUse blocks",
        "The number of toolResult blocks at messages.{index}.content exceeds the number of toolUse blocks of "
        "previous turn.",
        "Just-Curieous/Curie#16; pydantic/pydantic-ai#2327; RooCodeInc/Roo-Code#10216"
        "; dates: Just-Curieous/Curie#16 (2025-03); langgenius/dify-official-plugins#765 (Nova and Claude "
        "3.5 parallel toolUse, 2025-04)",
        "dedupe_results; all results of parallel calls in one message (merge_turns)",
        since="2025-03",
        observed="2025-04",
    ),
    Rule(
        "brk.dup_ids",
        NAME,
        "error",
        "toolUse ids are unique within a message",
        "The toolUse blocks at messages.{index}.content contain duplicate Ids: {ids}",
        "bvcyber/Cyber-AutoAgent-ng#72"
        "; dates: bvcyber/Cyber-AutoAgent-ng#72 (us.anthropic.claude-sonnet-4-5 via ConverseStream, "
        "2026-01); RooCodeInc/Roo-Code PR#10497 quotes the toolResult form, 'The toolResult blocks at "
        "messages.X.content contain duplicate Ids' (2026-01)",
        "map_ids",
        since="2026-01",
        observed="2026-01",
    ),
    Rule(
        "brk.mixed_turn",
        NAME,
        "warning",
        "text and toolResult blocks in the same user message are rejected by some models (which ones is "
        "unverified: seen with Claude 3 Opus in 2024 and Llama 4 Maverick)",
        "messages.{index}.content: Conversation blocks and tool result blocks cannot be provided in the same "
        "turn.",
        "langchain-ai/langchain-aws#141; BerriAI/litellm#6053 (claude-3-opus); strands-agents/harness-sdk#1223 "
        "(llama4-maverick) [U: which models]"
        "; dates: langchain-ai/langchain-aws#141 (2024-08); BerriAI/litellm#6053 (2024-10); "
        "strands-agents/harness-sdk#1223 (llama4-maverick, 2025-11); quarkiverse/quarkus-langchain4j#1983 "
        "(the assistant form, 'Conversation blocks and tool use blocks', 2025-11)",
        "split_tool_calls (text in its own turn, with an assistant turn between)",
        since="2024-08",
        observed="2025-11",
    ),
    Rule(
        "brk.toolconfig",
        NAME,
        "error",
        "a request with toolUse or toolResult blocks defines toolConfig with its tools",
        "The toolConfig field must be defined when using the toolUse and toolResult content blocks.",
        "langgenius/dify#17545; aws-samples/bedrock-access-gateway PR#239"
        "; dates: langgenius/dify#17545 (2025-04); nearai/ironclaw PR#1710 (2026-03); "
        "aws-samples/bedrock-access-gateway PR#239 (Claude Opus 4.7, 2026-04); patriceckhart/zot PR#18 "
        "(2026-06)",
        "add_tool_declarations",
        since="2025-04",
        observed="2026-06",
    ),
    Rule(
        "brk.nonempty",
        NAME,
        "error",
        "a toolResult with status error has content",
        "The content field at messages.{index}.content.{block}.toolResult cannot be empty when status value "
        "is error.",
        "aws-samples/sample-multi-agent-orchestration-chat-on-agentcore#15"
        "; dates: aws-samples/sample-multi-agent-orchestration-chat-on-agentcore#15 (2026-06); empty "
        "toolResult content without status error is accepted (NousResearch/hermes-agent#55092, "
        "us.anthropic.claude-sonnet-4-5, 2026-09)",
        "fill_empty_content",
        since="2026-06",
        observed="2026-06",
    ),
    Rule(
        "brk.blank_text",
        NAME,
        "error",
        "text blocks are not empty or whitespace",
        "The text field in the ContentBlock object at messages.{index}.content.{block} is blank. Add text to "
        "the text field, and try again.",
        "aws-samples/bedrock-engineer#8"
        "; dates: aws-samples/bedrock-engineer#8 (2025-02); NousResearch/hermes-agent#55092 measured this "
        "400 for a message-level empty text block (us.anthropic.claude-sonnet-4-5, 2026-09)",
        "fill_empty_content",
        since="2025-02",
        observed="2026-09",
    ),
    Rule(
        "brk.empty_content",
        NAME,
        "error",
        "every message has at least one content block",
        "The content field in the Message object at messages.[{index}] is empty. Add a ContentBlock object "
        "to the content field and try again.",
        "research/providers.md §7a (ValidationException text)"
        "; Portkey-AI/gateway#995 (a null-content assistant message with tool calls sent to Bedrock, "
        "2025-03)",
        "fill_empty_content",
        since="2025-03",
        observed="2025-03",
    ),
    Rule(
        "brk.id_pattern",
        NAME,
        "error",
        f"toolUseId is 1-64 characters of {ID_PATTERN} (the current AWS API reference; an older snapshot "
        "did not allow . and :)",
        "Value '{id}' at 'messages.{index}.member.content.{block}.member.{kind}.toolUseId' failed to satisfy "
        "constraint: {constraint}",
        "AWS API reference ToolUseBlock/ToolResultBlock (Length 1-64, Pattern [a-zA-Z0-9_.:-]+; an older "
        "snapshot showed [a-zA-Z0-9_-]+); wording in AWS's field-constraint form as in "
        "aws-samples/remote-swe-agents PR#457 [U: exact text for toolUseId]"
        "; mixed: vercel/ai PR#13326 reports Moonshot ids like get_weather:0 rejected under [a-zA-Z0-9_-]+ "
        "(2026-03); run-llama/llama_index PR#22775 cites the AWS reference's [a-zA-Z0-9_.:-]+ (2026-08)",
        "map_ids",
        observed="2026-08",
    ),
    Rule(
        "brk.tool_name_pattern",
        NAME,
        "error",
        f"a declared toolSpec name is 1-64 characters of {NAME_PATTERN}",
        "Value '{name}' at 'toolConfig.tools.{index}.member.toolSpec.name' failed to satisfy constraint: "
        "{constraint}",
        "aws-samples/remote-swe-agents PR#457"
        "; dates: RooCodeInc/Roo-Code PR#10022 (2025-12); kagent-dev/kagent#1473 (2026-03); BerriAI/litellm "
        "PR#28874 (global.anthropic.claude-sonnet-4-5, 2026-05); aws-samples/remote-swe-agents PR#457 "
        "(2026-09)",
        "none in the history: rename the tool in the declarations and in every call",
        since="2025-12",
        observed="2026-09",
    ),
    Rule(
        "brk.reasoning_null",
        NAME,
        "error",
        "a reasoningText block has its text",
        "Value at 'messages.{index}.member.content.{block}.member.reasoningContent.reasoningText.text' failed "
        "to satisfy constraint: Member must not be null",
        "research/providers.md §7a (ValidationException text)"
        "; refly-ai/refly PR#2287 (global.anthropic.claude-sonnet-5 replays signature-only reasoning after "
        "tool calls, Opus 4.8 and Opus 5 do not, 2026-07); langchain-ai/langchainjs#11164 (claude-sonnet-5, "
        "2026-07)",
        "drop_foreign_thinking",
        since="2026-07",
        observed="2026-07",
    ),
)
