"""Claude Code threads: what the parentUuid chain misses, and what is kept apart.

Helpers of `toolhist.agents.claude_code.reader`, kept here so that module stays small:

- `_with_sibling_results`: parallel tool calls' results that sit on a side branch go back in;
- `_keep_sidechains`: each subagent thread is listed in ``Session.unsent``;
- `chosen_among`, `before_compaction`: the lines the thread left out, so the notes can name them.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, Protocol, TypeVar

from pydantic import JsonValue

from toolhist.formats.jsonl_stream import Collector
from toolhist.model import Unsent


class _Line(Protocol):
    """A parsed log line (``claude_code._Node``)."""

    entry: dict[str, Any]


N = TypeVar("N", bound=_Line)


SIDECHAIN_REASON = (
    "a subagent's own thread (isSidechain: true): it goes to the subagent's requests, never into the "
    "main thread's history (the main parentUuid thread does not pass through it)"
)


def keep_sidechains(built: Collector, chains: list[JsonValue]) -> None:
    """One `Unsent` record per sidechain, placed before the first main message after its first line."""
    lines = sorted(loc.line or 0 for loc in built.locations)
    for chain in chains:
        if not isinstance(chain, dict):
            continue
        first = chain.get("first_line")
        line = first if isinstance(first, int) else None
        built.unsent.append(
            Unsent(
                kind="sidechain",
                reason=SIDECHAIN_REASON,
                before=bisect_right(lines, line) if line is not None else len(built.messages),
                line=line,
                data=dict(chain),
            )
        )


def _is_results(node: _Line) -> bool:
    """A user line that holds only tool results."""
    content = node.entry.get("message", {}).get("content") if node.entry.get("type") == "user" else None
    return (
        isinstance(content, list)
        and bool(content)
        and all(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
    )


def with_sibling_results(chain: list[N], order: list[N]) -> list[N]:
    """The chain plus the tool-result lines of its parallel calls that sit on a side branch.

    Claude Code streams one response with parallel tool calls as several assistant lines (one per
    block, same ``message.id``), each parented on the previous; each result line is parented on
    the assistant line of its own call. The latest record's parentUuid chain then passes through
    only the last result, although the request that followed carried them all (the session went
    on; anthropics/claude-code#31330 reports resume losing such a result). A result line whose
    parent is on the chain and whose calls are all on the chain goes back in, just before the
    chain leaves that response, so it merges with the other results as it was sent.
    """
    on_chain = {id(n) for n in chain}
    # The chain's positions and calls are made when a line off the chain asks for them: a log
    # without side branches (most of them) never does, and they cost as much as the chain itself.
    position: dict[str, int] | None = None
    calls: set[Any] | None = None
    inserts: dict[int, list[N]] = {}
    for node in order:
        if id(node) in on_chain:
            continue
        if position is None:
            position = {n.entry["uuid"]: k for k, n in enumerate(chain)}
        parent = position.get(node.entry.get("parentUuid") or "")
        if parent is None or not _is_results(node):
            continue
        if calls is None:
            calls = {
                b.get("id")
                for n in chain
                if n.entry.get("type") == "assistant"
                for b in _blocks(n.entry["message"])
                if b.get("type") == "tool_use" and isinstance(b.get("id"), str)
            }
        answered = {
            b.get("tool_use_id")
            for b in _blocks(node.entry["message"])
            if isinstance(b.get("tool_use_id"), str)
        }
        if not answered <= calls:
            continue
        response = chain[parent].entry.get("message", {}).get("id")
        end = parent + 1
        while (
            end < len(chain)
            and chain[end].entry.get("type") == "assistant"
            and chain[end].entry["message"].get("id") == response
        ):
            end += 1
        inserts.setdefault(end, []).append(node)
    if not inserts:
        return chain
    out: list[N] = []
    for k in range(len(chain) + 1):
        out.extend(inserts.get(k, []))
        if k < len(chain):
            out.append(chain[k])
    return out


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    """A message's content blocks: none for string content.

    Content of another type is reported by the reader on its own line.
    """
    content = message.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def chosen_among(order: list[N], thread: list[N], kinds: tuple[str, ...]) -> list[N]:
    """The message lines the thread was chosen among: the main ones, or a lone subagent's own."""
    if not thread:
        return []
    side = bool(thread[-1].entry.get("isSidechain"))
    agent = thread[-1].entry.get("agentId")
    return [
        n
        for n in order
        if n.entry.get("type") in kinds
        and bool(n.entry.get("isSidechain")) == side
        and (not side or n.entry.get("agentId") == agent)
    ]


def before_compaction(
    nodes: dict[str, N], boundaries: list[JsonValue], thread: list[N], kinds: tuple[str, ...]
) -> set[int]:
    """The message lines (``id`` of their nodes) before a compaction on the thread, via logicalParentUuid."""
    if not boundaries:
        return set()
    on_thread = {n.entry["uuid"] for n in thread}
    seen: set[str] = set()
    for b in boundaries:
        if not isinstance(b, dict) or b.get("uuid") not in on_thread:
            continue
        uuid = b.get("logicalParentUuid")
        while isinstance(uuid, str) and uuid not in seen and uuid in nodes:
            seen.add(uuid)
            uuid = nodes[uuid].entry.get("parentUuid") or nodes[uuid].entry.get("logicalParentUuid")
    return {id(nodes[u]) for u in seen if nodes[u].entry.get("type") in kinds}
