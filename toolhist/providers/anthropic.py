"""Anthropic Messages (``anthropic``): checks over a request body and the provider entry.

The checks read the body the way the API does. The API folds consecutive ``user`` messages into
one turn, so the results of parallel calls may arrive in several user messages in a row (what a
client converting from OpenAI sends): they count as "the next message" together. Consecutive
assistant messages are folded too when the later ones only add tool_use blocks (parallel calls
split over two assistant messages, answered together: accepted by claude-sonnet-4-5 in 2026,
pydantic/pydantic-ai tests/cassettes/test_tool_search/test_cross_provider_capability_replay*). A
tool_use followed by an assistant message with text is still unanswered, which is what the API
reports (litellm, vercel/ai). A tool_use id reused in a later turn, each use answered in its own
turn, was accepted (same recordings): it is the warning ``ant.reused_tool_use_id``, not a duplicate.

Rules, texts and sources are in `toolhist.providers.anthropic_rules`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from toolhist.providers.anthropic_render import render
from toolhist.providers.anthropic_rules import NAME, budgeted_thinking, clear_thinking_edits, thinking_enabled
from toolhist.providers.anthropic_rules import RULES as BLOCK_RULES
from toolhist.providers.anthropic_turns import RULES as TURN_RULES
from toolhist.providers.anthropic_turns import check as check_turns
from toolhist.providers.base import Finding, PathT, Provider, dotted, drained

__all__ = ["NAME", "PROVIDER", "RULES", "check", "render"]

RULES = (*BLOCK_RULES, *TURN_RULES)
TOOL_USE_ID = re.compile(r"^[a-zA-Z0-9_-]+$")
SERVER_TOOL_USE_ID = re.compile(r"^srvtoolu_[a-zA-Z0-9_]+$")
TOOL_NAME_LIMIT = 128
"""The API's own pattern since 2025-06 (it was 64 before): see ant.tool_name_pattern's evidence."""
TOOL_NAME = re.compile(rf"^[a-zA-Z0-9_-]{{1,{TOOL_NAME_LIMIT}}}$")
THINKING_BLOCKS = ("thinking", "redacted_thinking")

IndexedBlock = tuple[int, dict[str, Any]]
"""A content block with its index; index -1 stands for string content (one text block)."""


def _blocks(message: Any) -> list[IndexedBlock]:
    """The content blocks of a message, skipping whatever is not an object."""
    if not isinstance(message, dict):
        return []
    content = message.get("content")
    if isinstance(content, str):
        return [(-1, {"type": "text", "text": content})]
    if isinstance(content, list):
        return [(j, b) for j, b in enumerate(content) if isinstance(b, dict)]
    return []


def _path(i: int, j: int) -> PathT:
    return ("messages", i, "content") if j < 0 else ("messages", i, "content", j)


def _role(message: Any) -> Any:
    return message.get("role") if isinstance(message, dict) else None


def _text_id(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def _uses(message: Any, blocks: list[IndexedBlock] | None = None) -> list[str]:
    found = _blocks(message) if blocks is None else blocks
    return [_text_id(b.get("id")) for _, b in found if b.get("type") == "tool_use"]


def _only_tool_uses(blocks: list[IndexedBlock]) -> bool:
    return bool(blocks) and all(b.get("type") == "tool_use" for _, b in blocks)


def every_block(messages: list[Any]) -> list[list[IndexedBlock]]:
    """`_blocks` of each message, made once for the passes that each walked them all (three at 100k).

    `_blocks` inline, list content asked first (most messages of an agent's history): a call per
    message was a third of this at 100,000 messages.
    """
    every: list[list[IndexedBlock]] = []
    add = every.append
    for message in messages:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):
            if len(content) == 1 and isinstance(block := content[0], dict):  # most: no comprehension
                add([(0, block)])
            else:
                add([(j, b) for j, b in enumerate(content) if isinstance(b, dict)])
        elif isinstance(content, str):
            add([(-1, {"type": "text", "text": content})])
        else:
            add([])
    return every


def check_walk(  # noqa: PLR0915 - four passes in one walk: split, it pays the per-message call it saves
    messages: list[Any], every: list[list[IndexedBlock]]
) -> tuple[list[Finding], ...]:
    """The pairing, result and per-block rules in one walk over the messages, each rule's own list.

    Four passes over every message and block (pairing, results, blocks, empty content) were most
    of checking a long body: the walk is one now, and each pass keeps its findings apart, so
    `check` yields them in the order the passes gave them (pairing, results, blocks, messages).
    ``every`` is `every_block` of ``messages``: pairing looks ahead at the user run after a call.

    - pairing: tool_use → tool_result in the next user message(s), results first;
    - results: orphan and duplicate tool_result blocks, server results without their
      server_tool_use (a reused id, ant.reused_tool_use_id, may be answered again after its new use);
    - blocks: unique and well-formed ids, non-empty text, signatures, tool_use last;
    - empty: empty content (the final assistant message excepted) and the first block naming a
      tool, for ant.tools_required.
    """
    pairing: list[Finding] = []
    results: list[Finding] = []
    found: list[Finding] = []
    empty: list[Finding] = []
    tooled: list[tuple[int, int]] = []  # the first block naming a tool (ant.tools_required)
    seen: set[str] = set()  # results: tool_result ids answered so far
    server_uses: set[str] = set()
    previous: set[str] = set()  # tool_use ids of the assistant messages right before this user run
    last_role: Any = None
    ids: set[str] = set()  # blocks: the tool_use ids of the current assistant turn
    earlier: set[str] = set()  # those of the turns before it
    count = len(messages)
    last = count - 1
    for i, message in enumerate(messages):
        if not isinstance(message, dict):  # no role, no blocks: nothing any pass finds
            continue
        role = message.get("role")
        blocks = every[i]
        assistant = role == "assistant"
        user = role == "user"
        content = message.get("content")
        if content in ("", []) and not (i == last and assistant):
            empty.append(Finding("ant.empty_content", ("messages", i), {"index": i}))
        if not tooled:
            for j, b in blocks:
                if b.get("type") in ("tool_use", "tool_result"):
                    tooled.append((i, j))
                    break
        if assistant:
            uses = [  # `_text_id` inline: a call per id was a tenth of the walk
                raw if isinstance(raw := b.get("id"), str) else str(raw)
                for _, b in blocks
                if b.get("type") == "tool_use"
            ]
            if uses:
                _pair(messages, every, i, uses, pairing)
            used = set(uses)
            previous = previous | used if last_role == "assistant" else used
            seen -= used
        elif user and ids:  # (an empty set stays: a user message with no call before it makes none)
            earlier |= ids
            ids = set()
        if role in ("user", "assistant"):
            last_role = role
        after_use: list[str] = []
        flagged = False
        for j, block in blocks:
            kind = block.get("type")
            if kind == "tool_result" and user:  # most blocks of a history: none of the cases before its own
                rid = block.get("tool_use_id")
                if not isinstance(rid, str):  # `_text_id`, inline
                    rid = str(rid)
                if rid in seen:
                    values = {"index": i, "block": j, "id": rid}
                    results.append(Finding("ant.dup_tool_result", _path(i, j), values, (rid,)))
                    continue
                seen.add(rid)
                if rid not in previous:
                    values = {"index": i, "block": j, "id": rid}
                    results.append(Finding("ant.result_orphan", _path(i, j), values, (rid,)))
                continue
            if kind == "tool_use":
                raw = block.get("id")
                call_id = raw if isinstance(raw, str) else str(raw)  # `_text_id`, inline
                if not isinstance(raw, str) or not TOOL_USE_ID.match(raw):
                    values = {"index": i, "block": j, "kind": kind, "pattern": TOOL_USE_ID.pattern}
                    found.append(Finding("ant.id_pattern", (*_path(i, j), "id"), values, (call_id,)))
                if call_id in ids:
                    found.append(
                        Finding("ant.dup_tool_use_id", _path(i, j), {"index": i, "block": j}, (call_id,))
                    )
                elif call_id in earlier:
                    values = {"index": i, "block": j}
                    found.append(Finding("ant.reused_tool_use_id", _path(i, j), values, (call_id,)))
                ids.add(call_id)
                if assistant:
                    after_use.append(call_id)
                continue  # none of the cases below
            if kind == "server_tool_use":
                raw = block.get("id")
                if not isinstance(raw, str) or not SERVER_TOOL_USE_ID.match(raw):
                    values = {"index": i, "block": j, "kind": kind, "pattern": SERVER_TOOL_USE_ID.pattern}
                    found.append(Finding("ant.id_pattern", (*_path(i, j), "id"), values, (_text_id(raw),)))
            if after_use and not flagged and assistant:
                flagged = True
                values = {"index": i, "ids": ", ".join(after_use)}
                found.append(Finding("ant.tool_use_last", _path(i, j), values, tuple(after_use)))
            if kind == "text":
                if _blank(block.get("text")):
                    found.extend(_check_text(i, j, block, blocks))
                continue  # none of the cases below
            if kind == "thinking":
                found.extend(_check_text(i, j, block, blocks))
            if kind in {"server_tool_use", "mcp_tool_use"}:  # mcp_tool_result answers mcp_tool_use
                server_uses.add(_text_id(block.get("id")))
            elif isinstance(kind, str) and kind.endswith("_tool_result") and kind != "tool_result":
                rid = _text_id(block.get("tool_use_id"))
                if rid not in server_uses:
                    values = {"index": i, "block": j, "id": rid, "kind": kind}
                    results.append(Finding("ant.server_result_orphan", _path(i, j), values, (rid,)))
    return pairing, results, found, empty, [Finding("ant.tools_required", _path(*at)) for at in tooled]


def _pair(
    messages: list[Any], every: list[list[IndexedBlock]], i: int, uses: list[str], out: list[Finding]
) -> None:
    """Pairing for the assistant message ``i`` that calls ``uses``: its answers in the next user run.

    The run's blocks are read where they are (`every`), not gathered into a list of their own first.
    """
    k = i + 1
    count = len(messages)
    while k < count and _role(messages[k]) == "assistant" and _only_tool_uses(every[k]):
        k += 1  # parallel calls split over assistant messages: one turn, answered by the same user run
    answered: set[str] = set()
    leading: set[str] = set()
    first_other: tuple[int, int] | None = None
    while k < count:
        message = messages[k]  # `_role`, inline: once per message of the run
        if not isinstance(message, dict) or message.get("role") != "user":
            break
        for j, block in every[k]:
            if block.get("type") == "tool_result":
                rid = block.get("tool_use_id")
                if not isinstance(rid, str):  # `_text_id`, inline
                    rid = str(rid)
                answered.add(rid)
                if first_other is None:
                    leading.add(rid)
            elif first_other is None:
                first_other = (k, j)
        k += 1
    if not answered.issuperset(uses):  # most calls are answered: no list of the missing made
        missing = [u for u in uses if u not in answered]
        values = {"index": i, "ids": ", ".join(missing)}
        out.append(Finding("ant.result_missing", ("messages", i), values, tuple(missing)))
    if first_other is None:
        return
    late = [u for u in uses if u in answered and u not in leading]
    if late:
        values = {"index": i, "ids": ", ".join(late)}
        out.append(Finding("ant.result_first", _path(*first_other), values, tuple(late)))


def _blank(text: Any) -> bool:
    """A string of nothing but whitespace: the only text `_check_text` can find something in."""
    return isinstance(text, str) and not text.strip()


def _substantive(block: dict[str, Any]) -> bool:
    """A block other than text, or text with a non-whitespace character."""
    text = block.get("text")
    return block.get("type") != "text" or (isinstance(text, str) and bool(text.strip()))


def _check_text(i: int, j: int, block: dict[str, Any], blocks: list[IndexedBlock]) -> Iterator[Finding]:
    """Blank text blocks (string content "" is ant.empty_content's) and unsigned thinking.

    An empty text block is rejected wherever it is; a whitespace-only one only in a message with
    nothing else in it (``blocks`` are the message's): ``[" ", tool_use]`` and ``[" ", "ok"]`` are
    accepted (see the rule's evidence in `toolhist.providers.anthropic_rules`).
    """
    kind = block.get("type")
    text = block.get("text")
    if (
        kind == "text"
        and isinstance(text, str)
        and not text.strip()
        and (not any(_substantive(b) for _, b in blocks) if text else j >= 0)
    ):
        requirement = "contain non-whitespace text" if text else "be non-empty"
        yield Finding("ant.empty_text", _path(i, j), {"requirement": requirement})
    if kind == "thinking":
        signature = block.get("signature")
        if signature is None:
            problem = ".thinking.signature: Field required"
        elif signature == "":
            problem = ": Invalid `signature` in `thinking` block"
        else:
            return
        yield Finding("ant.thinking_signature", _path(i, j), {"index": i, "block": j, "problem": problem})


def _turn_start(messages: list[Any]) -> int:
    """The index after the last user message that says something besides tool results (0: none)."""
    for i in range(len(messages) - 1, -1, -1):
        if _role(messages[i]) == "user" and any(
            b.get("type") != "tool_result" for _, b in _blocks(messages[i])
        ):
            return i + 1
    return 0


def _check_thinking(body: dict[str, Any], messages: list[Any]) -> Iterator[Finding]:
    if thinking_enabled(body):
        if not budgeted_thinking(body):
            return  # adaptive: the model may choose not to think, and that turn is replayed as it was
        # The assistant turn still open at the end of the request (it made tool calls and only tool
        # results came after them) must start with its thinking block: the turn starts at its first
        # assistant message. Later steps of the same turn need none (without interleaved thinking the
        # model thinks once, at the start of the turn).
        start = _turn_start(messages)
        turn = [i for i in range(start, len(messages)) if _role(messages[i]) == "assistant"]
        if not turn or not any(_uses(messages[i]) for i in turn):
            return
        owner = turn[0]
        blocks = _blocks(messages[owner])
        found = blocks[0][1].get("type") if blocks else None
        if found not in THINKING_BLOCKS:
            path = ("messages", owner, "content", 0, "type")
            yield Finding("ant.thinking_first", path, {"index": owner, "found": found})
        return
    for k in clear_thinking_edits(body):
        yield Finding("ant.clear_thinking_needs_thinking", ("context_management", "edits", k, "type"))
    if messages and _role(messages[-1]) == "assistant":
        final = len(messages) - 1
        if any(b.get("type") in THINKING_BLOCKS for _, b in _blocks(messages[final])):
            yield Finding("ant.thinking_disabled", ("messages", final, "content", 0), {"index": final})


def check_tools(body: dict[str, Any]) -> Iterator[Finding]:
    """Declared custom tool names (server tools have fixed names)."""
    tools = body.get("tools")
    for n, tool in enumerate(tools if isinstance(tools, list) else []):
        if not isinstance(tool, dict) or tool.get("type", "custom") not in ("custom", None):
            continue
        name = tool.get("name")
        if not isinstance(name, str) or not TOOL_NAME.match(name):
            yield Finding(
                "ant.tool_name_pattern", ("tools", n, "name"), {"index": n, "limit": TOOL_NAME_LIMIT}
            )


def check(body: dict[str, Any]) -> Iterator[Finding]:
    """Every Anthropic rule over a body."""
    raw = body.get("messages")
    messages: list[Any] = raw if isinstance(raw, list) else []
    pairing, results, found, empty, tooled = check_walk(messages, every_block(messages))
    yield from drained(pairing)
    yield from drained(results)
    yield from drained(found)
    # Message-level rules: first role, empty content, tools declared, thinking placement.
    if messages and _role(messages[0]) != "user":
        yield Finding("ant.first_user", ("messages", 0))
    yield from drained(empty)
    tools = body.get("tools")
    if not (isinstance(tools, list) and tools):
        yield from drained(tooled)
    yield from _check_thinking(body, messages)
    yield from check_tools(body)
    yield from check_turns(messages)


PROVIDER = Provider(
    name=NAME, title="Anthropic Messages", rules=RULES, render=render, check=check, path_format=dotted
)
