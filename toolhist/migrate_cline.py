r"""`toolhist.migrate` for Cline's native calls answered by text: move the text into a ``tool_result``.

Cline writes a result it cannot match to its call as a user text ``[name for '…'] Result:\n…``
(``ToolResultUtils.pushToolResult``'s ``"cline"`` fallback) and then sends ``result missing`` in the
call's ``tool_result`` (`toolhist.agents.cline.send_path`). Here each such text becomes the call's
``tool_result``, with the same string as ``content``, as Cline writes a result it did match
(``createToolResultBlock``); results come first, in the calls' order. A Kilo-style bare marker
(``[name for '…'] Result:`` alone) takes the blocks after it up to the next marker or the
environment details, as for XML-era results. A call no text answers is left as it is (Cline keeps
sending ``result missing`` for it) and reported.
"""

from __future__ import annotations

from typing import Any

from toolhist.agents.cline.send_path import RESULT_MISSING
from toolhist.agents.cline.xml_calls import result_marker
from toolhist.migrate import Issue, _blocks, _ends_result, _take


def unanswered_native(message: dict[str, Any], following: Any) -> list[tuple[str, str]]:
    """(id, name) of the message's ``tool_use`` blocks that no ``tool_result`` in ``following`` answers."""
    if not isinstance(following, dict) or following.get("role") != "user":
        return []
    answered = {
        b.get("tool_use_id")
        for b in _blocks(following)
        if isinstance(b, dict) and b.get("type") == "tool_result"
    }
    return [
        (b["id"], b["name"])
        for b in _blocks(message)
        if isinstance(b, dict)
        and b.get("type") == "tool_use"
        and isinstance(b.get("id"), str)
        and isinstance(b.get("name"), str)
        and b["id"] not in answered
    ]


def pair_native(
    message: dict[str, Any], index: int, calls: list[tuple[str, str]], issues: list[Issue]
) -> int:
    """Answer ``calls`` with their ``[name …] Result:`` texts: tool_result blocks first, in call order."""
    open_calls = list(calls)
    made: dict[str, dict[str, Any]] = {}
    rest: list[Any] = []
    blocks = _blocks(message)
    j = 0
    while j < len(blocks):
        block = blocks[j]
        text = block.get("text") if isinstance(block, dict) and block.get("type") == "text" else None
        marker = result_marker(text) if isinstance(text, str) else None
        target = _take(open_calls, marker.name) if marker is not None and not marker.flattened else None
        j += 1
        if target is None:
            rest.append(block)
            continue
        assert isinstance(text, str)
        content: Any = text
        if text.rstrip().endswith("Result:"):  # Kilo's bare marker: the result is the blocks after it
            content = [block]
            while j < len(blocks) and not _ends_result(blocks[j]):
                content.append(blocks[j])
                j += 1
        made[target[0]] = {"type": "tool_result", "tool_use_id": target[0], "content": content}
    if not made:
        return 0
    for call_id, name in open_calls:
        issues.append(
            Issue(
                kind="unrecoverable",
                message_index=index,
                tool_name=name,
                call_id=call_id,
                detail=f"no result text answers this call: Cline sends {RESULT_MISSING!r} in its place",
            )
        )
    existing = {
        b.get("tool_use_id"): b for b in rest if isinstance(b, dict) and b.get("type") == "tool_result"
    }
    first = [made.get(call_id) or existing.get(call_id) for call_id, _ in calls]
    placed = [b for b in first if b is not None]
    message["content"] = placed + [b for b in rest if not any(b is p for p in placed)]
    return len(made)
