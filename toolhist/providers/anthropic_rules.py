"""Anthropic Messages rules as data: slugs, the API's own error texts, sources and repairs.

Texts and sources: ``research/providers.md`` §3 and §10. Placeholders are filled by the checks in
`toolhist.providers.anthropic`; indices follow Anthropic's ``messages.<N>.content.<M>`` convention.
"""

from __future__ import annotations

from typing import Any

from toolhist.providers.base import Rule

NAME = "anthropic"

MISSING_TEXT = (
    "messages.{index}: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. "
    "Each `tool_use` block must have a corresponding `tool_result` block in the next message."
)
"""The current wording. The docs name it for text-before-results too, so ant.result_first sends it."""

THINKING_TYPES = ("enabled", "adaptive")


def thinking_enabled(body: dict[str, Any]) -> bool:
    """Whether the request turns extended thinking on (``thinking.type`` enabled or adaptive)."""
    thinking = body.get("thinking")
    return isinstance(thinking, dict) and thinking.get("type") in THINKING_TYPES


def budgeted_thinking(body: dict[str, Any]) -> bool:
    """Extended thinking with a budget (``thinking.type`` enabled), where the model always thinks first.

    With ``adaptive`` thinking the model decides per turn whether to think, and the turn it did not
    think on is replayed without a thinking block (the docs' own tool walkthrough, below).
    """
    thinking = body.get("thinking")
    return isinstance(thinking, dict) and thinking.get("type") == "enabled"


def thinking_not_enabled(body: dict[str, Any]) -> bool:
    """The complement: ant.thinking_disabled only speaks when thinking is off."""
    return not thinking_enabled(body)


CLEAR_THINKING = "clear_thinking_20251015"
"""The context-editing strategy (beta ``context-management-2025-06-27``) that manages thinking blocks."""


def clear_thinking_edits(body: dict[str, Any]) -> list[int]:
    """Indices in ``context_management.edits`` of the ``clear_thinking_20251015`` edits.

    What the edit does (platform.claude.com/docs/en/build-with-claude/context-editing; the SDK type
    ``anthropic.types.beta.BetaClearThinking20251015EditParam``, keep: ``{type: thinking_turns, value}``,
    ``{type: all}`` or ``"all"``): the API clears thinking blocks of assistant turns older than the last
    ``keep`` ones, server-side, before the prompt reaches the model; the client keeps its full history.
    Without the edit and with thinking on, the API keeps only the last assistant turn's thinking. So an
    earlier turn's thinking may be sent or left out either way (no rule asks for it), and ``keep: "all"``
    (what Claude Code 2.x sends on every thinking request) only keeps for the model what the request
    holds: it never lets the open turn go without the thinking ``ant.thinking_first`` asks for.
    """
    cm = body.get("context_management")
    edits = cm.get("edits") if isinstance(cm, dict) else None
    if not isinstance(edits, list):
        return []
    return [k for k, e in enumerate(edits) if isinstance(e, dict) and e.get("type") == CLEAR_THINKING]


RULES: tuple[Rule, ...] = (
    Rule(
        "ant.result_missing",
        NAME,
        "error",
        "every tool_use needs a tool_result in the very next (user) message",
        MISSING_TEXT,
        "anthropics/claude-code#1237, #2697, #5989; Kilo-Org/kilocode#5163; docs handle-tool-calls. The older "
        "wording 'Did not find 1 `tool_result` block(s) at the beginning of this message…' (claude-code#37) "
        "is recognised by explain only. A request ending on a tool_use is reported here too [U: the API may "
        "answer that case with its prefill error instead, vercel/ai#4283]"
        "; dates: OpenHands/OpenHands#7512 (claude-3-7-sonnet, 2025-03); anthropics/claude-code#1237 "
        "(2025-05), #2697 (2025-06), #5989 (2025-08); Kilo-Org/kilocode#5163 (claude-opus-4-5 on Vertex, "
        "2026-01)",
        "close_orphans (synthetic tool_result) or move_results",
        since="2025-03",
        observed="2026-01",
    ),
    Rule(
        "ant.result_first",
        NAME,
        "error",
        "in the message after a tool_use, the tool_result blocks come first and any text after them",
        MISSING_TEXT,
        "platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls (text before a tool_result "
        "'will cause a 400 error'; the docs name this same message)"
        "; documentation only for this wording (the page is undated); the older wording for results not at "
        "the start of the message, 'Did not find 1 `tool_result` block(s) at the beginning of this "
        "message', was reported until 2025-02: anthropics/anthropic-sdk-typescript#653 (2025-01), "
        "anthropics/claude-code#37 (2025-02)",
        "results_first",
        since="2025-01",
        observed="2025-02",
    ),
    Rule(
        "ant.result_orphan",
        NAME,
        "error",
        "every tool_result must answer a tool_use of the assistant message just before it",
        "messages.{index}.content.{block}: unexpected `tool_use_id` found in `tool_result` blocks: {id}. "
        "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
        "anthropics/claude-code#13460, #18947; RooCodeInc/Roo-Code#11029; decocms/studio#1803"
        "; dates: continuedev/continue#4751 (Claude 3.7, 2025-03); anthropics/claude-code#13460 (2025-12), "
        "#18947 (2026-01); router-for-me/CLIProxyAPI#497 (claude-opus-4.5 via OpenRouter, 2025-12); "
        "tghamm/Anthropic.SDK#184 (2026-02)",
        "move_results (or synthesize_calls when the call is gone)",
        since="2025-03",
        observed="2026-02",
    ),
    Rule(
        "ant.server_result_orphan",
        NAME,
        "error",
        "a server tool result block needs its server_tool_use block before it",
        "messages.{index}.content.{block}: unexpected `tool_use_id` found in `{kind}` blocks: {id}. "
        "Each `{kind}` block must have a corresponding `server_tool_use` block before it.",
        "anthropics/claude-code#64383, #65726"
        "; dates: anthropics/claude-code#62577 (advisor_tool_result, 2026-05), #64383 (2026-06), #95406 "
        "(2026-09); vercel/ai#17366 (a web search result, a live claude-sonnet-4-5 400 recorded, 2026-07)",
        "none in general: drop the server result together with its call, or keep them together",
        since="2026-05",
        observed="2026-09",
    ),
    Rule(
        "ant.dup_tool_use_id",
        NAME,
        "error",
        "tool_use ids are unique within a turn (reuse in a later turn: ant.reused_tool_use_id)",
        "messages.{index}.content.{block}: `tool_use` ids must be unique",
        "trycua/cua#524; anthropics/claude-code#20901, #28515 (duplicates within one assistant turn: "
        "messages.1.content.1). An id reused in a later turn is the warning ant.reused_tool_use_id"
        "; dates: anthropics/claude-code#20901 (2026-01); BerriAI/litellm#23510 (claude-opus-4.6 via "
        "OpenRouter, 2026-03)",
        "map_ids (unique ids; results follow their call)",
        since="2026-01",
        observed="2026-03",
    ),
    Rule(
        "ant.reused_tool_use_id",
        NAME,
        "warning",
        "a tool_use id reused in a later turn (each use answered in its own turn)",
        "messages.{index}.content.{block}: `tool_use` ids must be unique",
        "anomalyco/opencode#1150 (2025-07, after switching models mid-session: rejected with this text, the "
        "turn structure not shown). Accepted by claude-sonnet-4-5 (traffic corpus, 2026-08: ids made by "
        "Gemini reused across turns, pydantic/pydantic-ai tests/cassettes/test_tool_search/"
        "test_cross_provider_capability_replay[google-gemini-3-flash-preview-anthropic-claude-sonnet-4-5].yaml), "
        "so a warning",
        "map_ids (unique ids; results follow their call)",
        since="2025-07",
        observed="2025-07",
    ),
    Rule(
        "ant.dup_tool_result",
        NAME,
        "error",
        "one tool_result per tool_use id",
        "messages.{index}.content.{block}: each tool_use must have a single result. Found multiple "
        "`tool_result` blocks with id: {id}",
        "RooCodeInc/Roo-Code PR#9248 (the rejection); wording as client code quotes it (litellm tests, "
        "several agents); the messages.N.content.M prefix is inferred from Anthropic's other texts [U]. "
        "A second result for an id the assistant used again (ant.reused_tool_use_id) is not a duplicate: "
        "accepted in the traffic corpus (claude-sonnet-4-5, 2026-08)"
        "; dates: RooCodeInc/Roo-Code PR#9248 (2025-11); sipeed/picoclaw PR#1793 quotes 'each tool_use must "
        "have a single result. Found multiple `tool_result` blocks with id' (2026-03); QwenLM/qwen-code "
        "PR#8163: DeepSeek's Anthropic endpoint rejects it, GLM's accepts (2026-08)",
        "dedupe_results",
        since="2025-11",
        observed="2026-03",
    ),
    Rule(
        "ant.id_pattern",
        NAME,
        "error",
        "tool_use ids match ^[a-zA-Z0-9_-]+$, server_tool_use ids ^srvtoolu_[a-zA-Z0-9_]+$",
        "messages.{index}.content.{block}.{kind}.id: String should match pattern '{pattern}'",
        "CommandCodeAI/command-code#323; BlockRunAI/ClawRouter#17; maximhq/bifrost#5097 (Kimi "
        "functions.Bash:0); server_tool_use: ding113/claude-code-hub#470"
        "; dates: tailcallhq/forgecode#1142 (via OpenRouter, 2025-07); ding113/claude-code-hub#470 "
        "(server_tool_use, ^srvtoolu_, 2025-12); BlockRunAI/ClawRouter#17 (2026-02); "
        "CommandCodeAI/command-code#323 (2026-05); maximhq/bifrost#5097 (2026-07)",
        "map_ids",
        since="2025-07",
        observed="2026-07",
    ),
    Rule(
        "ant.tool_name_pattern",
        NAME,
        "error",
        "a custom tool's declared name matches ^[a-zA-Z0-9_-]{1,128}$ (1-64 until mid-2025)",
        "tools.{index}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{{1,{limit}}}$'",
        "research/providers.md §3c (tool definition wording)"
        "; apify/tester-mcp-client#11 (2025-03) and modelcontextprotocol/typescript-sdk#413 (2025-04) show "
        "a {1,64} pattern; since 2025-06 the API answers with '^[a-zA-Z0-9_-]{1,128}$' (jedisct1/openapi-mcp#9, "
        "2025-06; modelcontextprotocol/modelcontextprotocol#1345, 2025-08; changelogs and probes quoting it "
        "for dotted names on claude-sonnet-5, 2026-04..05), so names of 65-128 characters are accepted now "
        "and the check uses 128; explain knows both texts",
        "none in the history: rename the tool in the declarations and in every call",
        since="2025-03",
        observed="2026-05",
    ),
    Rule(
        "ant.tools_required",
        NAME,
        "warning",
        "a request with tool_use or tool_result blocks must declare tools",
        "Requests which include `tool_use` or `tool_result` blocks must define tools.",
        "BerriAI/litellm#4689 (2024-07); litellm PR#27620. A warning: requests with tool blocks and no tools "
        "were accepted by claude-3-5-haiku-20241022 directly (traffic corpus, 2026-01, crewAIInc/crewAI "
        "lib/crewai/tests/cassettes/llms/anthropic) and on Bedrock (2025-07, crmne/ruby_llm)"
        "; old evidence: the only rejection found is from 2024-07",
        "add_tool_declarations",
        since="2024-07",
        observed="2024-07",
    ),
    Rule(
        "ant.empty_content",
        NAME,
        "error",
        "every message has content, except an optional final assistant message",
        "messages.{index}: all messages must have non-empty content except for the optional final "
        "assistant message",
        "anthropics/claude-code#3196, #6774"
        "; dates: dspinellis/ai-cli-lib#16 (claude-3-sonnet, 2024-03); anthropics/claude-code#3196 "
        "(2025-07), #6774 (2025-08); corespeed-io/zypher-agent PR#122 (2026-01); traffic corpus: "
        "Mirascope/mirascope "
        "python/tests/e2e/input/cassettes/test_call_with_empty_string/anthropic_claude_sonnet_4_0.yaml "
        "@e5402d7ef7 (claude-sonnet-4-0, recorded 2025-12) and "
        "typescript/tests/e2e/input/cassettes/empty-call/anthropic/handles-empty-string-content.har "
        "@11a5e9c826 (claude-haiku-4-5, recorded 2026-01), both rejected with this text",
        "fill_empty_content",
        since="2024-03",
        observed="2026-01",
    ),
    Rule(
        "ant.empty_text",
        NAME,
        "error",
        "no empty text block, and no message whose only content is whitespace text",
        "messages: text content blocks must {requirement}",
        "coasys/ad4m PR#996 ('be non-empty'); Mintplex-Labs/anythingllm-docs#80 (2024-08); "
        "anthropics/claude-code#23440, anomalyco/opencode#31259 (whitespace-only message, 'contain "
        "non-whitespace text'); experientiallabs/experiential PR#804 and LibreChat-AI/agents "
        "PR#124 (direct API probes, 2026: [' '] alone 400, [' ', 'ok'] and ['\\n\\n', tool_use] 200, ['', x] 400); "
        "held-out corpus (recorded, measured locally): simonw/llm-anthropic:tests/cassettes/test_anthropic/"
        "test_tools.yaml @07b14b3f05 #1 (claude-haiku-4-5, 2026-04: [' ', tool_use, tool_use] accepted)",
        "fill_empty_content",
        since="2024-08",
        observed="2026-07",
        condition="a whitespace-only text block counts only when nothing else in its message has content",
    ),
    Rule(
        "ant.first_user",
        NAME,
        "warning",
        "the first message is a user message (a 2024 rule; whether the API still enforces it is unverified)",
        'messages: first message must use the "user" role',
        "tonyljx/TextWordExplain#2; langbot-app/LangBot#867 (2024). Current docs do not state it [U]"
        "; old evidence: both reports are from 2024 and no later one was found",
        "prepend a user turn (merge_turns)",
        since="2024",
        observed="2024",
    ),
    Rule(
        "ant.tool_use_last",
        NAME,
        "warning",
        "tool_use blocks end their assistant message: text or server blocks after a tool_use break pairing",
        MISSING_TEXT,
        "vercel/ai#13013 (server_tool_use after tool_use gives this text); vercel/ai PR#16312; Zoo-Code "
        "PR#1705 [U: which blocks after a tool_use the API tolerates]"
        "; dates: vercel/ai#13013 (ai 6.0.105, 2026-03)",
        "results_first (move the tool_use blocks to the end of the message)",
        since="2026-03",
        observed="2026-03",
    ),
    Rule(
        "ant.thinking_first",
        NAME,
        "error",
        "with budgeted thinking on (type enabled), the assistant turn whose tool round is still open starts "
        "with a thinking block",
        "messages.{index}.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. "
        "When `thinking` is enabled, a final `assistant` message must start with a thinking block "
        "(preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include "
        "thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult "
        "our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking",
        "Kilo-Org/kilocode#5219; mastra-ai/mastra#7799"
        "; dates: OpenRouterTeam/ai-sdk-provider#162 (claude-sonnet-4, 2025-08); n8n-io/n8n#22550 (Claude "
        "Opus 4.5, 2025-12); router-for-me/CLIProxyAPI#1109 (2026-01); anthropics/claude-code#20705 "
        "(2026-01) also shows a newer wording, 'If an assistant message contains any thinking blocks, the "
        "first block must be thinking or redacted_thinking. Found text.' (ant.thinking_not_first)"
        "; not with adaptive thinking (issue 29): platform.claude.com/docs/en/build-with-claude/"
        "thinking-tool-workflows (2026) says adaptive mode 'may skip the thinking block' on simpler requests "
        "and the assistant content goes back unchanged, so a turn the model chose not to think on is "
        "replayed without one, and 2026 coding agents' recorded adaptive requests doing so were accepted; "
        "the same page's non-interleaved flow ('Response 2: [tool_use] no thinking block') is why only the "
        "first assistant message of the open turn is held to it (measured on the pydantic/pydantic-ai "
        "cassettes' every version, locally: 14 accepted budgeted-thinking tool histories, none flagged)",
        "replay the model's thinking block, or disable thinking; drop_foreign_thinking cannot make a signature",
        applies=budgeted_thinking,
        since="2025-08",
        observed="2026-01",
        condition="thinking.type is enabled (a budget), not adaptive; the first assistant message of the turn "
        "after the last user text, when that turn made tool calls",
    ),
    Rule(
        "ant.thinking_disabled",
        NAME,
        "error",
        "with thinking off, an assistant message in the final position carries no thinking",
        "messages.{index}.content.0: When thinking is disabled, an `assistant` message in the final position "
        "cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request.",
        "tailcallhq/forgecode#1853"
        "; dates: tailcallhq/forgecode#1195 (via OpenRouter, 2025-07), #1853 (claude-sonnet-4-5, 2025-11); "
        "microsoft/vscode#282326 (Copilot, 2025-12)",
        "drop_foreign_thinking, or enable thinking",
        applies=thinking_not_enabled,
        since="2025-07",
        observed="2025-12",
    ),
    Rule(
        "ant.clear_thinking_needs_thinking",
        NAME,
        "error",
        "a clear_thinking_20251015 context-management edit needs thinking on (enabled or adaptive)",
        "`clear_thinking_20251015` strategy requires `thinking` to be enabled",
        "anthropics/claude-code#11229 (Claude Code 2.0.36, 2025-11-07) and #11971 (2025-11-19) paste it "
        "verbatim; router-for-me/CLIProxyAPI quotes the 2026 wording '`clear_thinking_20251015` strategy "
        "requires `thinking` to be enabled or adaptive' in the code that injects Claude Code's "
        "context_management only when thinking.type is enabled or adaptive (an absent thinking field "
        "counts as off); docs: platform.claude.com/docs/en/build-with-claude/context-editing ('manages "
        "thinking blocks when extended thinking is enabled'). Claude Code 2.x sends "
        "{edits: [{type: clear_thinking_20251015, keep: all}]} with thinking adaptive (issue 29), so a "
        "repair that turns thinking off must take the edit out too (disable_thinking does)",
        "enable thinking, or remove the clear_thinking_20251015 edit (disable_thinking does both ways)",
        applies=thinking_not_enabled,
        since="2025-11",
        observed="2025-11",
        condition="thinking is absent, disabled or of another type, and context_management.edits holds a "
        "clear_thinking_20251015 edit",
    ),
    Rule(
        "ant.thinking_signature",
        NAME,
        "error",
        "a thinking block carries its signature (missing: schema error; empty: invalid). A signature made "
        "by another provider is rejected too, which no check on a raw body can see (toolhist switch does)",
        "messages.{index}.content.{block}{problem}",
        "ding113/claude-code-hub#518; kaitranntt/ccs#415 (Invalid `signature`); '.thinking.signature: Field "
        "required' as client code quotes it for an unsigned block"
        "; dates: langchain-ai/langchain PR#33391 (enforced since 2025-10-07); anthropics/claude-code#10627 "
        "(2025-10); kaitranntt/ccs#415 (claude-opus-4-5, 2026-02); code-yeongyu/oh-my-openagent#2775 "
        "(claude-opus-4-6, an unsigned synthetic block, 2026-03); anthropics/anthropic-sdk-python#1598 "
        "(Anthropic's answer, 2026-08); platform.claude.com/docs/en/build-with-claude/preserved-thinking "
        "(fetched 2026-09-26): a tampered or undecryptable signature 'always returns a 400'; a block from "
        "another Claude model the target cannot read is dropped, not rejected; on Claude Fable 5.1 and Opus "
        "5.5 a block whose earlier history was edited is rejected ('The block is bound to a different "
        "conversation') for accounts created on or after 2026-08-31, or with "
        "thinking.block_binding.prefix_mismatch_behavior 'error'",
        "drop_foreign_thinking",
        since="2025-10",
        observed="2026-08",
    ),
)
