"""AWS Bedrock Converse (``bedrock``): checks over a request body and the provider entry.

Converse is stricter than the Anthropic API it often fronts: assistant messages must alternate
with user messages, and every field has a schema constraint. Consecutive user messages were
rejected in 2024 reports but are accepted in recorded traffic since 2025 (a toolResult message
followed by a user text message: anthropic.claude-3-haiku, 2026-01..02, crewAIInc/crewAI
lib/crewai/tests/cassettes/agents/TestBedrockNativeToolCalling*), so they are a warning
(``brk.consecutive_user``) and a run of user messages answers the calls before it together. A
server tool's toolResult inside the assistant message that used it (Nova's built-in code
interpreter) answers that toolUse. Content blocks are single-key objects (``{"toolUse": {…}}``), which the checks read
without assuming anything about keys they do not know.

Rules, texts and sources are in `toolhist.providers.bedrock_rules`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolhist.providers.base import Finding, PathT, Provider, dotted
from toolhist.providers.bedrock_history import RULES as HISTORY_RULES
from toolhist.providers.bedrock_history import check as check_history
from toolhist.providers.bedrock_render import render
from toolhist.providers.bedrock_rules import ID_PATTERN, NAME, NAME_PATTERN, field_constraint
from toolhist.providers.bedrock_rules import RULES as BLOCK_RULES

__all__ = ["NAME", "PROVIDER", "RULES", "check", "render"]

RULES = (*BLOCK_RULES, *HISTORY_RULES)
CONVERSATION_KEYS = ("text", "image", "document", "video")


def _role(message: Any) -> Any:
    return message.get("role") if isinstance(message, dict) else None


def _blocks(message: Any) -> list[tuple[int, dict[str, Any]]]:
    content = message.get("content") if isinstance(message, dict) else None
    return [(j, b) for j, b in enumerate(content) if isinstance(b, dict)] if isinstance(content, list) else []


def _inner(block: dict[str, Any], key: str) -> dict[str, Any] | None:
    value = block.get(key)
    return value if isinstance(value, dict) else None


def _id(inner: dict[str, Any]) -> str:
    value = inner.get("toolUseId")
    return value if isinstance(value, str) else str(value)


def check_turns(messages: list[Any]) -> Iterator[Finding]:
    """First role, alternation, empty messages."""
    if messages and _role(messages[0]) != "user":
        yield Finding("brk.first_user", ("messages", 0))
    for i, message in enumerate(messages):
        if i and _role(message) == "assistant" and _role(messages[i - 1]) == "assistant":
            yield Finding("brk.alternate", ("messages", i))
        elif i and _role(message) == "user" and _role(messages[i - 1]) == "user":
            yield Finding("brk.consecutive_user", ("messages", i))
        if isinstance(message, dict) and message.get("content") == []:
            yield Finding("brk.empty_content", ("messages", i), {"index": i})


def _summary(message: Any) -> tuple[list[str], list[str], bool, bool]:
    """The toolUse ids, the toolResult ids, whether all blocks are toolResults, whether one is conversation.

    One walk over a message's blocks for all that `check_pairing` asks of it (it asks of most messages twice).
    """
    uses: list[str] = []
    results: list[str] = []
    only_results = True
    talk = False
    content = message.get("content") if isinstance(message, dict) else None
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        use = block.get("toolUse")
        if isinstance(use, dict):
            uses.append(_id(use))
        result = block.get("toolResult")
        if isinstance(result, dict):
            results.append(_id(result))
        only_results = only_results and "toolResult" in block
        talk = talk or not block.keys().isdisjoint(CONVERSATION_KEYS)
    return uses, results, only_results, talk


def check_pairing(messages: list[Any]) -> Iterator[Finding]:
    """Each toolUse answered in the next message; result counts; duplicate ids; mixed user turns."""
    summaries = [_summary(m) for m in messages]
    roles = [_role(m) for m in messages]
    for i, role in enumerate(roles):
        if role == "assistant":
            uses = summaries[i][0]
            dups = (
                list(dict.fromkeys(u for n, u in enumerate(uses) if u in uses[:n]))
                if len(set(uses)) < len(uses)  # the walk only where there is a repeat
                else []
            )
            if dups:
                yield Finding(
                    "brk.dup_ids",
                    ("messages", i, "content"),
                    {"index": i, "ids": ", ".join(dups)},
                    tuple(dups),
                )
            answered = set(summaries[i][1])  # a server tool's result in the same message
            k = i + 1
            while k < len(messages) and roles[k] == "user":
                answered.update(summaries[k][1])
                if not summaries[k][2]:
                    break  # results after a user text are not "at the start of the next turn"
                k += 1
            missing = [u for u in uses if u not in answered]
            if missing:
                missing = list(dict.fromkeys(missing))
            if missing:
                path: PathT = ("messages", i + 1, "content") if i + 1 < len(messages) else ("messages", i)
                yield Finding(
                    "brk.result_missing", path, {"index": i + 1, "ids": ", ".join(missing)}, tuple(missing)
                )
        elif role == "user":
            results = summaries[i][1]
            if not results:
                continue
            previous = summaries[i - 1][0] if i and roles[i - 1] == "assistant" else []
            if len(results) > len(previous):
                yield Finding("brk.result_count", ("messages", i, "content"), {"index": i}, tuple(results))
            if summaries[i][3]:
                yield Finding("brk.mixed_turn", ("messages", i, "content"), {"index": i}, tuple(results))


def _constraint(value: Any, pattern: str = ID_PATTERN) -> str | None:
    """The first AWS constraint an id or name breaks (1-64 characters of the pattern), or None."""
    return field_constraint(value, pattern)


def check_blocks(messages: list[Any]) -> Iterator[Finding]:
    """Per-block rules: ids, blank text, empty error results, reasoning without text.

    The walk over every block of the body, written out (no helper call per block and key).
    """
    for i, message in enumerate(messages):
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue
        for j, block in enumerate(content):
            if not isinstance(block, dict):
                continue
            for kind in ("toolUse", "toolResult"):
                inner = block.get(kind)
                if not isinstance(inner, dict):
                    continue
                constraint = field_constraint(inner.get("toolUseId"), ID_PATTERN)
                if constraint is not None:
                    call_id = _id(inner)
                    values = {"id": call_id, "index": i, "block": j, "kind": kind, "constraint": constraint}
                    yield Finding(
                        "brk.id_pattern", ("messages", i, "content", j, kind, "toolUseId"), values, (call_id,)
                    )
            text = block.get("text")
            if isinstance(text, str) and not text.strip():
                yield Finding("brk.blank_text", ("messages", i, "content", j), {"index": i, "block": j})
            result = block.get("toolResult")
            if isinstance(result, dict) and result.get("status") == "error" and not result.get("content"):
                yield Finding(
                    "brk.nonempty",
                    ("messages", i, "content", j, "toolResult"),
                    {"index": i, "block": j},
                    (_id(result),),
                )
            reasoning = block.get("reasoningContent")
            reasoning_text = reasoning.get("reasoningText") if isinstance(reasoning, dict) else None
            if isinstance(reasoning_text, dict) and reasoning_text.get("text") is None:
                path = ("messages", i, "content", j, "reasoningContent", "reasoningText", "text")
                yield Finding("brk.reasoning_null", path, {"index": i, "block": j})


def check_tools(body: dict[str, Any], messages: list[Any]) -> Iterator[Finding]:
    """A toolConfig whenever tool blocks are present, and well-formed tool names in it."""
    config = body.get("toolConfig")
    tools = config.get("tools") if isinstance(config, dict) else None
    if not (isinstance(tools, list) and tools):
        hit = next(
            (
                ("messages", i, "content", j)
                for i, m in enumerate(messages)
                for j, b in _blocks(m)
                if "toolUse" in b or "toolResult" in b
            ),
            None,
        )
        if hit is not None:
            yield Finding("brk.toolconfig", hit)
        return
    for n, tool in enumerate(tools):
        spec = _inner(tool, "toolSpec") if isinstance(tool, dict) else None
        if spec is None:
            continue
        constraint = _constraint(spec.get("name"), NAME_PATTERN)
        if constraint is not None:
            values = {"name": spec.get("name"), "index": n, "constraint": constraint}
            yield Finding("brk.tool_name_pattern", ("toolConfig", "tools", n, "toolSpec", "name"), values)


def check(body: dict[str, Any]) -> Iterator[Finding]:
    """Every Bedrock Converse rule over a body."""
    raw = body.get("messages")
    messages: list[Any] = raw if isinstance(raw, list) else []
    yield from check_turns(messages)
    yield from check_pairing(messages)
    yield from check_blocks(messages)
    yield from check_tools(body, messages)
    yield from check_history(body, messages)


PROVIDER = Provider(
    name=NAME, title="AWS Bedrock Converse", rules=RULES, render=render, check=check, path_format=dotted
)
