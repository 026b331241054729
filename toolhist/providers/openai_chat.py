"""OpenAI Chat Completions (``openai-chat``): rules, checks and the provider entry.

The checks walk the body the way the server does: a ``tool`` message must answer an id of the
immediately preceding assistant ``tool_calls`` (sibling tool messages in between are fine), and
every id must be answered before the next non-tool message. Texts and sources:
``research/providers.md`` §1 and §10. DeepSeek's thinking-mode rule applies when the model says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from toolhist.model import Session
from toolhist.providers.base import (
    Finding,
    Payload,
    Provider,
    Rule,
    bracketed,
    model_of,
    new_payload,
    rule_in,
)
from toolhist.providers.chat_render import chat_messages_key
from toolhist.providers.chat_roles import RULES as ROLE_RULES
from toolhist.providers.chat_roles import check as check_roles
from toolhist.providers.chat_shared import render_chat, shared_pass

NAME = "openai-chat"


def _deepseek_thinking(body: dict[str, Any]) -> bool:
    """DeepSeek thinking mode: the reasoner model, V4, or ``thinking`` enabled on a deepseek model."""
    model = model_of(body)
    thinking = body.get("thinking")
    enabled = isinstance(thinking, dict) and thinking.get("type") == "enabled"
    return model.startswith("deepseek") and (enabled or "reasoner" in model or "v4" in model)


_OTHER_VENDOR = re.compile(
    r"deepseek|grok|gemini|gemma|claude|llama|qwen|qwq|mistral|mixtral|codestral|magistral|kimi|moonshot|glm|"
    r"phi-|command|sonar|nova|granite|nemotron|jamba|ernie|hunyuan|minimax|yi-|baichuan|olmo|smollm"
)
"""Model families served by other vendors through OpenAI-compatible endpoints (their own id rules)."""


def openai_served(body: dict[str, Any]) -> bool:
    """Whether the body's model is (or may be) served by OpenAI itself, so OpenAI's own field limits apply.

    A ``vendor/model`` name (OpenRouter) is OpenAI's only under ``openai/``; a bare name is OpenAI's
    unless it names another vendor's family (``deepseek-chat``, ``grok-4``, ``llama-3.3-70b``). A body
    without a model is checked as OpenAI's.
    """
    model = model_of(body)
    if "/" in model:
        return model.startswith("openai/")
    return not _OTHER_VENDOR.search(model)


def chat_rules(provider: str, *, lower: bool = False) -> tuple[Rule, ...]:
    """The OpenAI pairing and shape rules; Kimi sends the same texts in lower case."""

    def t(text: str) -> str:
        return text[0].lower() + text[1:] if lower else text

    return (
        Rule(
            "oai.tool_orphan",
            provider,
            "error",
            "a tool message must directly follow an assistant message with tool_calls",
            t(
                "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."
            ),
            "miurla/morphic#136; smarter-sh/smarter#264; microsoft/autogen PR#3178"
            "; dates: miurla/morphic#136 2024-05 (gpt-4-turbo), smarter-sh/smarter#264 2025-01 "
            "(gpt-4-turbo); Chevey339/kelivo#298 (OpenAI behind OpenRouter, 2026-01); sdcb/chats PR#132 "
            "(2026-04); itmisx/deepx-code#94 (DeepSeek's capitalised wording, 2026-06)",
            "move_results (or synthesize_calls when the call is gone)",
            since="2024-05",
            observed="2026-06",
        ),
        Rule(
            "oai.call_unanswered",
            provider,
            "error",
            "every tool_calls id must be answered by tool messages before any other message",
            t(
                "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
                "'tool_call_id'. The following tool_call_ids did not have response messages: {ids}"
            ),
            "router-for-me/CLIProxyAPI#2798; BerriAI/litellm#10083; MoonshotAI/kimi-cli#2405 (Kimi, lower case)"
            "; dates: BerriAI/litellm#10083 2025-04; QwenLM/qwen-code#606 (DashScope's double-quoted "
            "variant, 2025-09); langgenius/dify#32222 (DeepSeek, 2026-02); sdcb/chats PR#132 (2026-04); "
            "smallmain/vscode-unify-chat-provider#248 (2026-07)",
            "close_orphans (synthetic result) or move_results",
            since="2025-04",
            observed="2026-07",
        ),
        Rule(
            "oai.tool_id_unknown",
            provider,
            "error",
            "tool_call_id must be one of the ids in the preceding assistant tool_calls",
            t("Invalid parameter: 'tool_call_id' of '{id}' not found in 'tool_calls' of previous message."),
            "dapr/dapr-agents#145"
            "; dates: dapr/dapr-agents#145 fixed 2025-07, the only report found in OpenAI's wording; "
            "MiniMax answers the same case in its own words (agent0ai/agent-zero#1754, "
            "MiniMax-AI/MiniMax-M2#76, undated in the index)",
            "move_results",
            since="2025-07",
            observed="2025-07",
        ),
        Rule(
            "oai.tool_id_missing",
            provider,
            "error",
            "a tool message needs tool_call_id",
            t("Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'."),
            "langchain-ai/langchain#22600; vercel/ai#2178"
            "; dates: langchain-ai/langchain#22600 (gpt-3.5-turbo behind a relay, 2024-06); vercel/ai#2178 "
            "(2024-07); MadcowD/ell#325 (2024-10); HemulGM/DelphiOpenAI#54 (Azure gpt-4o, 2025-04). Nothing "
            "later found",
            "synthesize_calls (pair by position) or drop with a Change",
            since="2024-06",
            observed="2025-04",
        ),
        Rule(
            "oai.dup_tool_result",
            provider,
            "error",
            "one tool message per tool_call_id",
            t(
                "Invalid parameter: Duplicate value for 'tool_call_id' of '{id}', in messages[{first}] and messages[{second}]."
            ),
            "agno-agi/agno#5116; anomalyco/opencode#1211"
            "; dates: fatwang2/search2ai#30 (Azure, 2024-06); anomalyco/opencode#1211 (Copilot GPT-4.1, "
            "2025-07)",
            "dedupe_results",
            since="2024-06",
            observed="2025-07",
        ),
        Rule(
            "oai.empty_tool_calls",
            provider,
            "error",
            "tool_calls must not be an empty array (omit the key)",
            t(
                "Invalid 'messages[{index}].tool_calls': empty array. Expected an array with minimum length 1, "
                "but got an empty array instead."
            ),
            "openai/openai-python#2061; home-assistant/core PR#118577"
            "; dates: home-assistant/core PR#118577 (2024-05); openai/openai-python#2061 (gpt-4o-mini, "
            "2025-01); openai/openai-node PR#1341 (2025-02); chatboxai/chatbox#2079 (2025-02). Nothing "
            "later found",
            "drop_empty_tool_calls",
            since="2024-05",
            observed="2025-02",
        ),
        Rule(
            "oai.empty_fn_name",
            provider,
            "error",
            "function.name must be non-empty",
            t(
                "Invalid 'messages[{index}].tool_calls[{call}].function.name': empty string. Expected a string with "
                "minimum length 1, but got an empty string instead."
            ),
            "continuedev/continue#11645"
            "; dates: continuedev/continue#5091 (gpt-4o, 2025-04), #9784 (GPT-4o Mini, 2026-01), #11645 "
            "(GPT-4o Mini, 2026-03)",
            "none can: the tool is unknown; drop the call and its result with a Change",
            since="2025-04",
            observed="2026-03",
        ),
        Rule(
            "oai.id_len",
            provider,
            "error",
            "tool_calls[].id is at most 40 characters",
            t(
                "Invalid 'messages[{index}].tool_calls[{call}].id': string too long. Expected a string with maximum "
                "length 40, but got a string with length {length} instead."
            ),
            "vercel/ai#8132; anomalyco/opencode#12653; Portkey-AI/gateway#1062. OpenAI's own limit: other "
            "vendors' compatible endpoints issue and accept longer ids (traffic corpus: deepseek-chat 2025-06.."
            "2026-08, grok-4.3 2026, google/gemini-2.5-flash via OpenRouter; crmne/ruby_llm "
            "spec/fixtures/vcr_cassettes), so it applies to OpenAI models only (`openai_served`)"
            "; dates: langmanus/langmanus#119 (2025-03); camel-ai/camel#2215 (gpt-4o-mini, 2025-04); "
            "langgenius/dify#28987 (2025-12); openclaw/openclaw PR#875 (gpt-4o-mini via OpenRouter, "
            "2026-01)",
            "map_ids (canonical ids are shorter)",
            applies=openai_served,
            since="2025-03",
            observed="2026-01",
        ),
        Rule(
            "oai.null_content",
            provider,
            "error",
            "content may be null only on an assistant message with tool_calls",
            t("Invalid value for 'content': expected a string, got null."),
            "langchain-ai/langchainjs#4153; docker/docker-agent#63"
            "; dates: openai/openai-cookbook#503 (2023-06); microsoft/autogen#5699 (2025-02); "
            "docker/docker-agent#63 (2025-07); vercel/ai PR#13744 (OpenAI itself, an assistant message with "
            "null content and no tool calls, 2026-04)",
            "fill_empty_content",
            since="2023-06",
            observed="2026-04",
        ),
        Rule(
            "ds.reasoning_required",
            provider,
            "error",
            "DeepSeek thinking mode: assistant tool-call messages must replay reasoning_content",
            "Missing `reasoning_content` field in the assistant message at message index {index}. For more "
            "information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls",
            "hotovo/aider-desk#529; deepseek-ai/DeepSeek-V3#1053"
            "; dates: AstrBotDevs/AstrBot#4174 (the API allowed tool calls in thinking mode on 2025-12-01); "
            "anomalyco/opencode#5027 (deepseek-reasoner, 2025-12); continuedev/continue#11285 (DeepSeek "
            "Reasoner, 2026-03); QwenLM/qwen-code#3724 (DeepSeek-V4-Pro, 2026-04) quotes a newer wording, "
            "'The reasoning_content in the thinking mode must be passed back to the API.'",
            "fill_reasoning_content (empty string is accepted)",
            applies=_deepseek_thinking,
            since="2025-12",
            observed="2026-04",
        ),
    )


RULES = (*chat_rules(NAME), *ROLE_RULES)
_REASONING = rule_in(RULES, "ds.reasoning_required")


def check_pairing(messages: list[Any]) -> Iterator[Finding]:
    """Tool messages against the assistant tool_calls before them (the rules every chat API shares)."""
    open_ids: list[str] | None = None  # ids of the assistant message the current tool run answers
    owner = -1
    answered: dict[str, int] = {}
    for i, m in enumerate(messages):
        if not isinstance(m, dict):
            continue
        role = m.get("role")
        if role == "tool":
            if "tool_call_id" not in m:
                yield Finding("oai.tool_id_missing", ("messages", i, "tool_call_id"))
                continue
            call_id = str(m.get("tool_call_id"))
            if open_ids is None:
                yield Finding("oai.tool_orphan", ("messages", i, "role"), call_ids=(call_id,))
            elif call_id in answered:
                yield Finding(
                    "oai.dup_tool_result",
                    ("messages", i, "tool_call_id"),
                    {"id": call_id, "first": answered[call_id], "second": i},
                    (call_id,),
                )
            elif call_id not in open_ids:
                yield Finding(
                    "oai.tool_id_unknown", ("messages", i, "tool_call_id"), {"id": call_id}, (call_id,)
                )
            else:
                answered[call_id] = i
            continue
        if open_ids is not None:  # (when None, nothing was answered either)
            missing = _missing(open_ids, answered)
            if missing:
                yield Finding(
                    "oai.call_unanswered",
                    ("messages", owner, "role"),
                    {"ids": ", ".join(missing)},
                    tuple(missing),
                )
            open_ids, answered = None, {}
        calls = m.get("tool_calls")
        if role == "assistant" and isinstance(calls, list) and calls:
            open_ids = [str(c.get("id")) for c in calls if isinstance(c, dict)]
            owner = i
    missing = _missing(open_ids, answered)
    if missing:
        yield Finding(
            "oai.call_unanswered", ("messages", owner, "role"), {"ids": ", ".join(missing)}, tuple(missing)
        )


def _missing(open_ids: list[str] | None, answered: dict[str, int]) -> list[str]:
    return [c for c in open_ids or [] if c not in answered]


def check_shapes(messages: list[Any], *, id_max: int | None = 40) -> Iterator[Finding]:
    """Per-message shape rules: empty tool_calls, empty names, id length, null content."""
    for i, m in enumerate(messages):
        if not isinstance(m, dict):
            continue
        calls = m.get("tool_calls")
        if calls == []:
            yield Finding("oai.empty_tool_calls", ("messages", i, "tool_calls"), {"index": i})
        for k, c in enumerate(calls) if isinstance(calls, list) else ():
            if not isinstance(c, dict):
                continue
            fn = c.get("function")
            if isinstance(fn, dict) and fn.get("name") == "":
                yield Finding(
                    "oai.empty_fn_name",
                    ("messages", i, "tool_calls", k, "function", "name"),
                    {"index": i, "call": k},
                    (str(c.get("id")),),
                )
            cid = c.get("id")
            if id_max is not None and isinstance(cid, str) and len(cid) > id_max:
                yield Finding(
                    "oai.id_len",
                    ("messages", i, "tool_calls", k, "id"),
                    {"index": i, "call": k, "length": len(cid)},
                    (cid,),
                )
        # OpenAI's reference: an assistant message's content is "Required unless tool_calls or
        # function_call is specified"; the legacy function_call message with null content is accepted.
        if (
            "content" in m
            and m["content"] is None
            and not (m.get("role") == "assistant" and (calls or isinstance(m.get("function_call"), dict)))
        ):
            yield Finding("oai.null_content", ("messages", i, "content"))


def check_reasoning(messages: list[Any], rule: str) -> Iterator[Finding]:
    """Assistant tool-call messages without ``reasoning_content`` (DeepSeek / Kimi thinking mode)."""
    for i, m in enumerate(messages):
        if (
            isinstance(m, dict)
            and m.get("role") == "assistant"
            and m.get("tool_calls")
            and "reasoning_content" not in m
        ):
            yield Finding(rule, ("messages", i), {"index": i})


def check(body: dict[str, Any]) -> Iterator[Finding]:
    """Every OpenAI Chat rule over a body."""
    messages = chat_messages_key(body)
    yield from shared_pass("pairing", messages, check_pairing)  # Kimi runs the same two
    yield from shared_pass("shapes", messages, check_shapes)
    if _REASONING.applies_to(body):  # else `violations` drops its findings: one per call, unmade
        yield from check_reasoning(messages, "ds.reasoning_required")
    yield from check_roles(messages)


def render(session: Session) -> Payload:
    """The Chat Completions body, ids as the session has them."""
    body, source_map, omitted = render_chat(session, NAME)
    return new_payload(NAME, body, source_map, tuple(omitted))


PROVIDER = Provider(
    name=NAME, title="OpenAI Chat Completions", rules=RULES, render=render, check=check, path_format=bracketed
)
