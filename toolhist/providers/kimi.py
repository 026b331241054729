"""Moonshot Kimi (``kimi``): rules, checks and the provider entry.

Kimi's API takes the Chat Completions shape and enforces OpenAI's pairing rules, answering with
OpenAI's texts in lower case (MoonshotAI/kimi-cli#2405), so the pairing and shape checks are the
OpenAI ones. The 40-character id limit is OpenAI's own and is not carried over: Kimi's own ids
(``functions.{name}:{index}``) are often longer.

What is Kimi's own (``research/providers.md`` §6, §10):

- ids: the model reads and writes ``functions.{name}:{index}``; foreign ids in the history are not a
  400 but the model imitates them and its parser then fails, so this is a warning;
- thinking models (K2 thinking, K2.5, K2.6, or ``thinking`` enabled) need ``reasoning_content`` on
  every assistant message that carries tool_calls;
- ``thinking`` and ``reasoning_effort`` cannot be sent together.
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
from toolhist.providers.chat_shared import render_chat, shared_pass
from toolhist.providers.edge_ids import KIMI_ID
from toolhist.providers.openai_chat import chat_rules, check_pairing, check_reasoning, check_shapes

NAME = "kimi"
_THINKING_MODEL = re.compile(r"thinking|k2(?:\.|p|-)?[56](?![0-9])")
"""K2 thinking models and K2.5 / K2.6 (``kimi-k2.5``, ``kimi-k2.6``, ``k2p5`` on Kimi for Coding)."""
_OPENAI_RULES = {
    "oai.tool_orphan",
    "oai.call_unanswered",
    "oai.tool_id_unknown",
    "oai.tool_id_missing",
    "oai.dup_tool_result",
    "oai.empty_tool_calls",
    "oai.empty_fn_name",
    "oai.null_content",
}
"""The OpenAI rules Kimi shares: not the 40-character id limit, not DeepSeek's reasoning rule."""


def _thinking(body: dict[str, Any]) -> bool:
    """Whether the request runs in thinking mode.

    ``thinking: {"type": "enabled"}`` turns it on; K2 thinking models always think; K2.5 and K2.6
    think unless ``thinking`` is disabled.
    """
    thinking = body.get("thinking")
    kind = thinking.get("type") if isinstance(thinking, dict) else None
    model = model_of(body)
    if kind == "enabled" or "thinking" in model:
        return True
    return bool(_THINKING_MODEL.search(model)) and kind != "disabled"


RULES: tuple[Rule, ...] = (
    *(r for r in chat_rules(NAME, lower=True) if r.id in _OPENAI_RULES),
    Rule(
        "kimi.id_format",
        NAME,
        "warning",
        "tool call ids in Kimi's own form functions.<name>:<index> (the model imitates the ids it sees)",
        "tool call id '{id}' is not in Kimi's form functions.<name>:<index>. Kimi accepts the request (no "
        "HTTP error), but the model imitates the ids in the history and its tool-call parser cannot read "
        "the calls it then writes: they come back as raw markers in content, with no tool_calls.",
        "MoonshotAI/Kimi-K2 docs/tool_call_guidance.md; HF moonshotai/Kimi-K2-Instruct discussion #48; "
        "vLLM blog 2025-10-28 'Chasing 100% Accuracy'"
        "; documentation and blog posts only (the request is accepted, no error text exists); the latest is "
        "the vLLM blog of 2025-10-28",
        "map_ids (edge_ids.kimi_id: functions.{name}:{index}, index counted over the whole request)",
        observed="2025-10",
    ),
    Rule(
        "kimi.reasoning",
        NAME,
        "error",
        "thinking mode: assistant messages with tool_calls must replay reasoning_content",
        "thinking is enabled but reasoning_content is missing in assistant tool call message at index {index}",
        "continuedev/continue#11600, #11711; bytedance/deer-flow#3043; LibreChat#11563; "
        "MoonshotAI/kimi-cli PR#2498 (empty string is kept as reasoning)"
        "; dates: cloudwego/eino-ext#700 (Kimi K2.5, 2026-02); agentscope-ai/QwenPaw#433 (Kimi-K2.5 via "
        "SiliconFlow, 2026-03); MoonshotAI/kimi-agent-sdk#169 (K2.6, 2026-04); VicBilibily/GCMP#162 (Kimi "
        "2.6, 2026-05)",
        "fill_reasoning_content (replay the reasoning; an empty string is accepted)",
        applies=_thinking,
        since="2026-02",
        observed="2026-05",
    ),
    Rule(
        "kimi.thinking_effort_conflict",
        NAME,
        "error",
        "send either thinking or reasoning_effort, not both",
        "cannot specify both 'thinking' and 'reasoning_effort'",
        "HKUDS/nanobot#3939; NousResearch/hermes-agent PR#32292"
        "; dates: HKUDS/nanobot#3939 (kimi-k2.5 and k2.6: either parameter alone is accepted, 2026-05); "
        "MoonshotAI/kimi-cli PR#2499 (stops sending reasoning_effort implicitly, 2026-07); K2.x evidence "
        "only: Kimi K3 sets its effort with reasoning_effort alone "
        "(platform.kimi.ai/docs/guide/use-reasoning-effort), so the rule holds K2 models (and a body that names "
        "none) to it [U: what K3 answers to both]",
        "none in the history: drop one of the two request fields",
        models=(r"k2",),
        unknown_model=True,
        since="2026-05",
        observed="2026-07",
    ),
)


_REASONING = rule_in(RULES, "kimi.reasoning")


def check(body: dict[str, Any]) -> Iterator[Finding]:
    """Every Kimi rule over a body."""
    messages = chat_messages_key(body)
    yield from shared_pass("pairing", messages, check_pairing)  # OpenAI Chat's, when it judged the list
    # no id length limit: OpenAI's shape findings less oai.id_len (the only one ``id_max`` makes)
    yield from (f for f in shared_pass("shapes", messages, check_shapes) if f.rule != "oai.id_len")
    if _REASONING.applies_to(body):  # else `violations` drops its findings: one per call, unmade
        yield from check_reasoning(messages, "kimi.reasoning")
    yield from _check_ids(messages)
    if body.get("thinking") is not None and body.get("reasoning_effort") is not None:
        yield Finding("kimi.thinking_effort_conflict", ("reasoning_effort",))


def _check_ids(messages: list[Any]) -> Iterator[Finding]:
    """Assistant tool call ids that are not ``functions.{name}:{index}``."""
    id_ok = KIMI_ID.fullmatch
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or m.get("role") != "assistant":
            continue  # most messages: no empty list and enumerate made for them
        calls = m.get("tool_calls")
        if not isinstance(calls, list):
            continue
        for k, c in enumerate(calls):
            call_id = c.get("id") if isinstance(c, dict) else None
            if isinstance(call_id, str) and not id_ok(call_id):
                yield Finding(
                    "kimi.id_format", ("messages", i, "tool_calls", k, "id"), {"id": call_id}, (call_id,)
                )


def render(session: Session) -> Payload:
    """The Kimi body (Chat Completions shape), ids as the session has them."""
    body, source_map, omitted = render_chat(session, NAME)
    return new_payload(NAME, body, source_map, tuple(omitted))


PROVIDER = Provider(
    name=NAME, title="Moonshot Kimi", rules=RULES, render=render, check=check, path_format=bracketed
)
