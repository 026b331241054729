"""OpenAI Chat Completions: role and message-shape rules some models or compatible servers enforce.

The pairing and shape rules every Chat server shares are in `toolhist.providers.openai_chat`. These
are the ones that hold for some models (o1-mini and o1-preview take no system message; Perplexity's sonar
models none after the first other message; DeepSeek R1 took no two user or assistant messages in a row)
or were seen on one compatible server (Groq takes no ``tool_calls`` outside an assistant message, Azure AI
Foundry wants every call's ``type``, one Azure deployment refused an image in a tool message). Where only
one server is known to reject, the rule is a warning and says which.

The renderer never writes these shapes (a call always goes out in an assistant message with
``type: "function"``; a legacy ``function`` result keeps the ``name`` it had), so they come from raw
request bodies, except the system message, which ``demote_system`` repairs for the models that refuse
it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolhist.providers.base import Finding, Rule

NAME = "openai-chat"
NO_SYSTEM_MODELS = (r"(^|/)o1-mini", r"(^|/)o1-preview")
"""o1-mini and o1-preview (and their dated snapshots): the two models that answer 400 to a system message.
o1, o3-mini, o3, o4-mini and later accept it (microsoft/agent-framework#1077, tested 2025-10-01)."""
PERPLEXITY_MODELS = (r"(^|/)sonar",)
"""Perplexity's sonar models (``sonar``, ``sonar-pro``, ``sonar-reasoning``, ``perplexity/sonar``)."""
ALTERNATING_ROLES = ("user", "assistant")

RULES: tuple[Rule, ...] = (
    Rule(
        "oai.system_role_unsupported",
        NAME,
        "error",
        "o1-mini and o1-preview take no system or developer message (other models do)",
        "Unsupported value: 'messages[{index}].role' does not support '{role}' with this model.",
        "microsoft/agent-framework#1077 (2025-10: o1-mini and o1-mini-2024-09-12 fail, o1, o3-mini, o3, o4-mini "
        "and gpt-4* succeed); janhq/jan#4392 (o1-mini and o1-preview, 2025-01); Lambdua/openai4j#62 (o1-mini, "
        "2024-09); CherryHQ/cherry-studio#1403 (code unsupported_value, param messages[0].role); a `developer` "
        "message is refused the same way: corpus pydantic/pydantic-ai:tests/models/cassettes/test_openai/"
        "test_openai_o1_mini_system_role[developer].yaml @b18b032910 #0 (o1-mini, 2025-02-24, a recorded 400)",
        "demote_system (the system text goes out as a user message)",
        models=NO_SYSTEM_MODELS,
        since="2024-09",
        observed="2025-10",
    ),
    Rule(
        "oai.function_name_missing",
        NAME,
        "error",
        "a legacy function message (role function) needs the function's name",
        "Missing parameter 'name': messages with role 'function' must have a 'name'.",
        "langchain-ai/langchainjs#6570 (2024); rsmeowry/chatgpt_rs#75 (2023-12). GPT-5 refuses role "
        "`function` altogether ('messages[N].role' does not support 'function' with this model: "
        "community.openai.com, 2025-08), which is not checked; old evidence: no report of this text after 2024 "
        "was found",
        "none in the history: send the result as a tool message with its tool_call_id, or add the name",
        since="2023-12",
        observed="2024-10",
    ),
    Rule(
        "oai.user_tool_calls",
        NAME,
        "warning",
        "tool_calls only on assistant messages: Groq rejects them on a user (or any other) message; OpenAI's "
        "answer is unverified",
        "'messages.{index}' : for 'role:{role}' the following must be satisfied[('messages.{index}' : property "
        "'tool_calls' is unsupported, did you mean 'tool_call_id'?)]",
        "julep-ai/julep#885 (Groq via LiteLLM, llama-3.1-70b, 2024-11); Groq's validator wording as in "
        "karthink/gptel#774 ('for 'role:assistant' the following must be satisfied', 2025-04). A warning: "
        "seen on Groq only; old evidence: the one rejection of this case is from 2024-11",
        "split_tool_calls (calls go out in an assistant message)",
        since="2024-11",
        observed="2024-11",
    ),
    Rule(
        "oai.call_type_missing",
        NAME,
        "warning",
        "every tool_calls entry carries type: function; Azure AI Foundry rejects a call without it, OpenAI's "
        "answer is unverified",
        "Missing required parameter: 'messages[{index}].tool_calls[{call}].type'.",
        "langchain-ai/langchain-azure#35 (gpt-4o-mini on Azure AI Foundry, 2025-02, HTTP 424 wrapping this "
        "text). A warning: seen on Azure only",
        "render through toolhist (the renderer always writes type: function)",
        since="2025-02",
        observed="2025-02",
    ),
    Rule(
        "oai.image_outside_user",
        NAME,
        "warning",
        "image_url parts outside user messages: Azure rejected an image in a tool message, OpenAI and other "
        "servers accept it",
        "Invalid 'messages[{index}]'. Image URLs are only allowed for messages with role 'user', but this "
        "message with role '{role}' contains an image URL.",
        "corpus crmne/ruby_llm:spec/fixtures/vcr_cassettes/chat_content_object_support_azure_openai_azure-gpt-4o_"
        "preserves_content_objects_returned_from_tools.yml @1214d8dd56 #1 (azure-gpt-4o, 2025-10-14, rejected). "
        "Mixed: the same recording accepted from OpenAI (gpt-4.1-nano 2025-08..2026-01, gpt-5-nano 2026-01..06), "
        "Azure gpt-4.1 (2025-12), OpenRouter, xAI and Ollama (crmne/ruby_llm chat_content_object_support_*). "
        "A warning: rejected by one deployment",
        "none in the body: send the image in a user message after the tool messages (the renderer writes "
        "tool results as text)",
        since="2025-10",
        observed="2025-10",
    ),
    Rule(
        "pplx.alternate",
        NAME,
        "error",
        "Perplexity (sonar models): after the leading system messages, no system message; user or tool messages "
        "alternate with assistant messages",
        "After the (optional) system message(s), user or tool message(s) should alternate with assistant "
        "message(s).",
        "corpus crmne/ruby_llm:spec/fixtures/vcr_cassettes/chat_basic_chat_functionality_perplexity_sonar_"
        "replaces_previous_system_messages_when_replace_true.yml @6d15549852 #1 (sonar, 2025-08-10: system, "
        "user, assistant, system, user; /work/wt/reports/traffic.md). Only a system message after the first "
        "other message is checked: the recorded case",
        "demote_system (a later system message goes out as a user message)",
        models=PERPLEXITY_MODELS,
        since="2025-08",
        observed="2025-08",
    ),
    Rule(
        "ds.alternate",
        NAME,
        "warning",
        "deepseek-reasoner (R1, 2025-01) rejected two user or two assistant messages in a row; whether the "
        "current deepseek-reasoner still does is unverified",
        "deepseek-reasoner does not support successive user or assistant messages (messages[{first}] and "
        "messages[{second}] in your input)",
        "Aider-AI/aider#2960 (R1, 2025-01). A warning: the evidence is from the R1 era; deepseek-reasoner has "
        "served newer models since",
        "merge_turns",
        models=(r"deepseek-reasoner",),
        since="2025-01",
        observed="2025-01",
    ),
)


def _role(message: Any) -> Any:
    return message.get("role") if isinstance(message, dict) else None


def _has_image(content: list[Any]) -> bool:
    return any(isinstance(p, dict) and p.get("type") == "image_url" for p in content)


def check(messages: list[Any]) -> Iterator[Finding]:
    """The rules above over a Chat body's messages (model-dependent ones are filtered by the rule)."""
    previous = -1  # the index of the last alternating message, -1: none since the last tool run
    previous_role: Any = None
    leading = True  # still in the system messages a request may open with
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role in ("system", "developer"):
            yield Finding("oai.system_role_unsupported", ("messages", i, "role"), {"index": i, "role": role})
            if not leading and role == "system":
                yield Finding("pplx.alternate", ("messages", i, "role"))
        else:
            leading = False
        content = message.get("content")
        if role != "user" and isinstance(content, list) and _has_image(content):
            yield Finding("oai.image_outside_user", ("messages", i, "content"), {"index": i, "role": role})
        if role == "function" and not message.get("name"):
            yield Finding("oai.function_name_missing", ("messages", i))
        calls = message.get("tool_calls")
        if role != "assistant" and "tool_calls" in message:
            yield Finding("oai.user_tool_calls", ("messages", i, "tool_calls"), {"index": i, "role": role})
        for k, call in enumerate(calls if role == "assistant" and isinstance(calls, list) else ()):
            if isinstance(call, dict) and "type" not in call:
                cid = call.get("id")
                yield Finding(
                    "oai.call_type_missing",
                    ("messages", i, "tool_calls", k),
                    {"index": i, "call": k},
                    (cid,) if isinstance(cid, str) else (),
                )
        if role in ALTERNATING_ROLES:
            if previous >= 0 and previous_role == role:
                yield Finding("ds.alternate", ("messages", i), {"first": previous, "second": i})
            previous, previous_role = i, role  # two names, not a tuple made per message
        elif role == "tool":
            previous = -1  # a tool run ends the assistant turn it answers
