"""Counts a user checks first.

How many calls and results, which calls were never answered and which results answer no call.
Pairing is by canonical id and by order (a result answers a call only if it comes after it), the
way every strict provider sees it.
"""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, ConfigDict

from toolhist.model import Session, ToolCallBlock, ToolResponseBlock


class Summary(BaseModel):
    """What ``toolhist summary`` prints."""

    model_config = ConfigDict(frozen=True, use_attribute_docstrings=True)

    file: str | None
    """The file read, when it came from a file."""
    format: str
    """The reader id that read it."""
    messages: int
    """Number of canonical messages (a system prompt field counts as one)."""
    by_speaker: dict[str, int]
    """Messages per speaker: system, human, ai, tool."""
    tool_calls: int
    """Tool call blocks."""
    tool_results: int
    """Tool response blocks."""
    unanswered_calls: list[str]
    """Ids of calls with no later result."""
    unmatched_results: list[str]
    """Call ids of results with no earlier call."""
    duplicate_results: list[str]
    """Call ids answered more than once."""
    tools_declared: int | None
    """Declared tools, or None when the source declared none."""
    notes: list[str]
    """What the reader kept verbatim or could not model."""
    unsent: dict[str, int] = {}
    """Records the agent keeps but does not send (``Session.unsent``), counted by kind."""
    skipped: dict[str, int] = {}
    """Records the reader does not know (``SessionSource.skipped``), counted by kind."""


def summarize(session: Session) -> Summary:
    """Count messages, calls and results, and pair them in order."""
    calls_seen: set[str] = set()
    answered: Counter[str] = Counter()
    call_order: list[str] = []
    unmatched: list[str] = []
    calls = results = 0
    for message in session.messages:
        for block in message.blocks:
            if isinstance(block, ToolCallBlock):
                calls += 1
                calls_seen.add(block.id)
                call_order.append(block.id)
            elif isinstance(block, ToolResponseBlock):
                results += 1
                if block.call_id in calls_seen:
                    answered[block.call_id] += 1
                else:
                    unmatched.append(block.call_id)
    by_speaker = dict.fromkeys(("system", "human", "ai", "tool"), 0)
    for message in session.messages:
        by_speaker[message.speaker] += 1
    return Summary(
        file=session.source.path,
        format=session.source.format,
        messages=len(session.messages),
        by_speaker=by_speaker,
        tool_calls=calls,
        tool_results=results,
        unanswered_calls=[c for c in call_order if answered[c] == 0],
        unmatched_results=unmatched,
        duplicate_results=[c for c, n in answered.items() if n > 1],
        tools_declared=None if session.tools is None else len(session.tools),
        notes=list(session.source.notes),
        unsent=dict(sorted(Counter(u.kind for u in session.unsent).items())),
        skipped=dict(session.source.skipped),
    )
