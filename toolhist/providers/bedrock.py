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

import re
from collections.abc import Iterator, Sequence
from typing import Any

from toolhist.providers.base import Finding, PathT, Provider, dotted, drained
from toolhist.providers.bedrock_history import RULES as HISTORY_RULES
from toolhist.providers.bedrock_history import check as check_history
from toolhist.providers.bedrock_history import tool_use_name
from toolhist.providers.bedrock_render import render
from toolhist.providers.bedrock_rules import ID_PATTERN, NAME, NAME_PATTERN, field_constraint
from toolhist.providers.bedrock_rules import RULES as BLOCK_RULES

__all__ = ["NAME", "PROVIDER", "RULES", "check", "render"]

RULES = (*BLOCK_RULES, *HISTORY_RULES)
CONVERSATION_KEYS = ("text", "image", "document", "video")


def _blocks(message: Any) -> list[tuple[int, dict[str, Any]]]:
    content = message.get("content") if isinstance(message, dict) else None
    return [(j, b) for j, b in enumerate(content) if isinstance(b, dict)] if isinstance(content, list) else []


def _inner(block: dict[str, Any], key: str) -> dict[str, Any] | None:
    value = block.get(key)
    return value if isinstance(value, dict) else None


def _id(inner: dict[str, Any]) -> str:
    value = inner.get("toolUseId")
    return value if isinstance(value, str) else str(value)


Summary = tuple[Sequence[str], Sequence[str], bool, bool]
"""A message's toolUse ids, its toolResult ids, whether all its blocks are toolResults, whether one is
conversation (text, image, document, video): all that `check_pairing` asks of a message."""


def check_pairing(roles: list[Any], summaries: list[Summary]) -> tuple[list[Finding], list[Finding]]:
    """The turn rules and the pairing rules over each message's role and `Summary`, each its own list.

    Turns: first role, alternation, empty messages. Pairing: each toolUse answered in the next
    message; result counts; duplicate ids; mixed user turns.
    """
    turns: list[Finding] = []
    pairing: list[Finding] = []
    count = len(roles)
    if count and roles[0] != "user":
        turns.append(Finding("brk.first_user", ("messages", 0)))
    before: Any = None  # the previous message's role
    for i, role in enumerate(roles):
        if i and role == "assistant" and before == "assistant":
            turns.append(Finding("brk.alternate", ("messages", i)))
        elif i and role == "user" and before == "user":
            turns.append(Finding("brk.consecutive_user", ("messages", i)))
        before = role
        if summaries[i] is _EMPTY:  # a message whose content is []
            turns.append(Finding("brk.empty_content", ("messages", i), {"index": i}))
        if role == "assistant":
            uses = summaries[i][0]
            dups = (
                list(dict.fromkeys(u for n, u in enumerate(uses) if u in uses[:n]))
                if len(set(uses)) < len(uses)  # the walk only where there is a repeat
                else []
            )
            if dups:
                values = {"index": i, "ids": ", ".join(dups)}
                pairing.append(Finding("brk.dup_ids", ("messages", i, "content"), values, tuple(dups)))
            answered = set(summaries[i][1])  # a server tool's result in the same message
            k = i + 1
            while k < count and roles[k] == "user":
                answered.update(summaries[k][1])
                if not summaries[k][2]:
                    break  # results after a user text are not "at the start of the next turn"
                k += 1
            missing = [u for u in uses if u not in answered]
            if missing:
                missing = list(dict.fromkeys(missing))
            if missing:
                path: PathT = ("messages", i + 1, "content") if i + 1 < count else ("messages", i)
                values = {"index": i + 1, "ids": ", ".join(missing)}
                pairing.append(Finding("brk.result_missing", path, values, tuple(missing)))
        elif role == "user":
            results = summaries[i][1]
            if not results:
                continue
            previous = summaries[i - 1][0] if i and roles[i - 1] == "assistant" else []
            if len(results) > len(previous):
                pairing.append(
                    Finding("brk.result_count", ("messages", i, "content"), {"index": i}, tuple(results))
                )
            if summaries[i][3]:
                pairing.append(
                    Finding("brk.mixed_turn", ("messages", i, "content"), {"index": i}, tuple(results))
                )
    return turns, pairing


_ID_OK = re.compile(ID_PATTERN)
ID_MAX = 64
"""`field_constraint`'s limit: an id of 1 to 64 characters of ``ID_PATTERN`` breaks none of its constraints,
which `check_blocks` asks inline (two calls per block were a third of its time at 100,000 messages)."""

_EMPTY: Summary = ([], [], True, False)
"""The `Summary` of a message whose content is ``[]`` (brk.empty_content's case), and no other."""


def _constraint(value: Any, pattern: str = ID_PATTERN) -> str | None:
    """The first AWS constraint an id or name breaks (1-64 characters of the pattern), or None."""
    return field_constraint(value, pattern)


def check_blocks(  # noqa: PLR0915 - the one-key fast path beside the general one: split, it pays a call per block
    messages: list[Any],
) -> tuple[list[Summary], list[Finding], list[Finding]]:
    """Each message's `Summary`, the per-block rules, and brk.tool_use_name: one walk over every block.

    Per-block rules: ids, blank text, empty error results, reasoning without text. The summaries
    (for `check_pairing`) and the history's tool names (`toolhist.providers.bedrock_history`) were
    walks of their own over the same blocks; each rule's findings are still their own list.
    """
    summaries: list[Summary] = []
    found: list[Finding] = []
    names: list[Finding] = []
    id_ok = _ID_OK.fullmatch
    good_names: set[str] = set()  # tool names brk.tool_use_name passed: a history calls a few, many times
    for i, message in enumerate(messages):
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            summaries.append(_PLAIN[True, False])
            continue
        if not content:
            summaries.append(_EMPTY)
            continue
        uses: list[str] = []
        results: list[str] = []
        only_results = True
        talk = False
        for j, block in enumerate(content):
            if not isinstance(block, dict):
                continue
            if len(block) == 1:  # a block of one key, as Converse's are: only that key's rules read it
                if "toolUse" in block:
                    only_results = False
                    use = block["toolUse"]
                    if isinstance(use, dict):
                        raw = use.get("toolUseId")
                        name = use.get("name")
                        if (
                            isinstance(raw, str)
                            and 0 < len(raw) <= ID_MAX
                            and id_ok(raw)
                            and isinstance(name, str)
                            and name in good_names
                        ):
                            uses.append(raw)  # `_use`, inline for an id and a name that break nothing
                        else:
                            _use(use, i, j, uses, found=found, names=names, good_names=good_names)
                    continue
                if "toolResult" in block:  # only_results stays; not conversation
                    result = block["toolResult"]
                    if isinstance(result, dict):
                        raw = result.get("toolUseId")
                        if (
                            isinstance(raw, str)
                            and 0 < len(raw) <= ID_MAX
                            and id_ok(raw)
                            and result.get("status") != "error"
                        ):
                            results.append(raw)  # `_result`, inline for an id that breaks nothing
                        else:
                            _result(result, i, j, results, found)
                    continue
                if "text" in block:
                    only_results = False
                    talk = True
                    text = block["text"]
                    if isinstance(text, str) and not text.strip():
                        found.append(
                            Finding("brk.blank_text", ("messages", i, "content", j), {"index": i, "block": j})
                        )
                    continue
            use = block.get("toolUse")
            if isinstance(use, dict):
                _use(use, i, j, uses, found=found, names=names, good_names=good_names)
            result = block.get("toolResult")
            if isinstance(result, dict):
                results.append(_id(result))
                constraint = field_constraint(result.get("toolUseId"), ID_PATTERN)
                if constraint is not None:
                    found.append(_id_finding(result, i, j, "toolResult", constraint))
            only_results = only_results and "toolResult" in block
            talk = talk or not block.keys().isdisjoint(CONVERSATION_KEYS)
            text = block.get("text")
            if isinstance(text, str) and not text.strip():
                found.append(
                    Finding("brk.blank_text", ("messages", i, "content", j), {"index": i, "block": j})
                )
            if isinstance(result, dict) and result.get("status") == "error" and not result.get("content"):
                at: PathT = ("messages", i, "content", j, "toolResult")
                found.append(Finding("brk.nonempty", at, {"index": i, "block": j}, (_id(result),)))
            reasoning = block.get("reasoningContent")
            reasoning_text = reasoning.get("reasoningText") if isinstance(reasoning, dict) else None
            if isinstance(reasoning_text, dict) and reasoning_text.get("text") is None:
                path = ("messages", i, "content", j, "reasoningContent", "reasoningText", "text")
                found.append(Finding("brk.reasoning_null", path, {"index": i, "block": j}))
        if uses or results:
            summaries.append((tuple(uses), tuple(results), only_results, talk))
        else:  # most messages: one shared summary per case
            summaries.append(_PLAIN[only_results, talk])
    return summaries, found, names


_PLAIN: dict[tuple[bool, bool], Summary] = {
    (a, b): ((), (), a, b) for a in (True, False) for b in (True, False)
}
"""The `Summary` of a message with no toolUse and no toolResult, one object per case.

A summary per message of a 1 GB Codex rollout (400,000 messages) was a tuple and two lists, ~80 MB
beside the rendered body at Bedrock's check, the peak of ``toolhist check`` (issue 26); ids are
kept as tuples, and a message without any shares one of these. None is `_EMPTY` (``content: []``).
"""


def _use(
    use: dict[str, Any],
    i: int,
    j: int,
    uses: list[str],
    *,
    found: list[Finding],
    names: list[Finding],
    good_names: set[str],
) -> None:
    """A toolUse's id (its pattern) and name (brk.tool_use_name), for `check_blocks`.

    ``good_names`` holds the names found fine so far (whether a name is depends on nothing else).
    """
    uses.append(_id(use))
    constraint = field_constraint(use.get("toolUseId"), ID_PATTERN)
    if constraint is not None:
        found.append(_id_finding(use, i, j, "toolUse", constraint))
    name = use.get("name")
    if isinstance(name, str) and name in good_names:
        return
    named = tool_use_name(use, i, j)
    if named is not None:
        names.append(named)
    elif isinstance(name, str):
        good_names.add(name)


def _result(result: dict[str, Any], i: int, j: int, results: list[str], found: list[Finding]) -> None:
    """A lone toolResult block's id (its pattern) and error content (brk.nonempty), for `check_blocks`."""
    results.append(_id(result))
    constraint = field_constraint(result.get("toolUseId"), ID_PATTERN)
    if constraint is not None:
        found.append(_id_finding(result, i, j, "toolResult", constraint))
    if result.get("status") == "error" and not result.get("content"):
        at: PathT = ("messages", i, "content", j, "toolResult")
        found.append(Finding("brk.nonempty", at, {"index": i, "block": j}, (_id(result),)))


def _id_finding(inner: dict[str, Any], i: int, j: int, kind: str, constraint: str) -> Finding:
    call_id = _id(inner)
    values = {"id": call_id, "index": i, "block": j, "kind": kind, "constraint": constraint}
    return Finding("brk.id_pattern", ("messages", i, "content", j, kind, "toolUseId"), values, (call_id,))


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
    """Every Bedrock Converse rule over a body: one walk over the blocks, one over the roles."""
    raw = body.get("messages")
    messages: list[Any] = raw if isinstance(raw, list) else []
    summaries, found, names = check_blocks(messages)
    roles = [
        m.get("role") if isinstance(m, dict) else None for m in messages
    ]  # `_role`, inline: every message
    turns, pairing = check_pairing(roles, summaries)
    yield from drained(turns)
    yield from drained(pairing)
    yield from drained(found)
    yield from check_tools(body, messages)
    yield from drained(names)
    yield from check_history(body, messages)


PROVIDER = Provider(
    name=NAME, title="AWS Bedrock Converse", rules=RULES, render=render, check=check, path_format=dotted
)
