"""Tool call/result pairs and the four RFC 026 tiers of a history.

- Tier 1, system + original intent: the leading system messages and the first human message.
- Tier 2, historical summary: what lies between tier 1 and the recent pairs; older pairs here are
  what compaction replaces.
- Tier 3, recent context: from the assistant message of the first of the last N pairs (widened to
  the whole message, so parallel calls are never split) to the last message holding tool blocks.
- Tier 4, current turn: what follows the last tool block (the latest request or answer); in a
  history without tools, from the last human message on.

A pair is a call in an ``ai`` message and its first result in a later ``tool`` message. Anything
else (an unanswered call, an orphan or duplicate result, a call stored in a tool message) is not a
pair: compaction leaves it where it is, so it never hides or changes what is wrong with a history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from toolhist.compaction.categories import Category, categorize, exit_code
from toolhist.model import Message, Session, ToolCallBlock, ToolResponseBlock
from toolhist.tokens import TokenCounter, count_block

Tier = Literal[1, 2, 3, 4]
TIER_NAMES: Final[dict[Tier, str]] = {
    1: "system + original intent",
    2: "historical summary",
    3: "recent tool pairs",
    4: "current turn",
}


@dataclass(frozen=True)
class Pair:
    """A tool call and its result, where they are, and what they cost."""

    call: ToolCallBlock
    call_at: tuple[int, int]
    """(message, block) of the call."""
    result: ToolResponseBlock
    result_at: tuple[int, int]
    """(message, block) of the result."""
    category: Category
    tokens: int
    """Tokens of the call and result blocks (no framing)."""

    @property
    def is_error(self) -> bool:
        """The tool failed: an ``error`` text, a result its source flagged, or a command that exited non-zero.

        RFC 026 keeps execution errors in full; a failing test run is one even when the agent
        stored it as an ordinary result (``[exit code 2]``).
        """
        if self.result.error is not None or self.result.provider_data.get("is_error") is True:
            return True
        return self.category == "execution" and exit_code(self.result.result) not in (None, 0)


def pairs(session: Session, counter: TokenCounter) -> list[Pair]:
    """Every call/result pair in call order (a result pairs with the latest open call of its id)."""
    open_calls: dict[str, tuple[ToolCallBlock, tuple[int, int]]] = {}
    found: list[Pair] = []
    for m, message in enumerate(session.messages):
        speaker = message.speaker  # calls count in ai messages only, results in tool messages only
        if speaker == "ai":
            for b, block in enumerate(message.blocks):
                if isinstance(block, ToolCallBlock):
                    open_calls[block.id] = (block, (m, b))
        elif speaker == "tool":
            for b, block in enumerate(message.blocks):
                if isinstance(block, ToolResponseBlock):
                    opened = open_calls.pop(block.call_id, None)
                    if opened is not None:
                        call, at = opened
                        tokens = count_block(counter, call) + count_block(counter, block)
                        found.append(Pair(call, at, block, (m, b), categorize(call.name), tokens))
    found.sort(key=lambda p: p.call_at)
    return found


@dataclass(frozen=True)
class Layout:
    """The tier of every message, and which pairs are recent."""

    tiers: tuple[Tier, ...]
    """One tier per message of the session."""
    recent_from: int
    """Index into the pair list of the first recent pair (``len(pairs)`` when none is)."""


def _has_tools(message: Message) -> bool:
    return any(isinstance(b, ToolCallBlock | ToolResponseBlock) for b in message.blocks)


def layout(session: Session, found: Sequence[Pair], keep: int) -> Layout:
    """Tiers of ``session`` with the last ``keep`` pairs (whole assistant messages) as recent."""
    messages = session.messages
    count = len(messages)
    intent_end = 0
    while intent_end < count and messages[intent_end].speaker == "system":
        intent_end += 1
    if intent_end < count and messages[intent_end].speaker == "human":
        intent_end += 1

    recent_from = max(len(found) - keep, 0)
    while 0 < recent_from < len(found) and found[recent_from - 1].call_at[0] == found[recent_from].call_at[0]:
        recent_from -= 1  # never split the parallel calls of one assistant message

    last_with_tools = next((i for i in range(count - 1, -1, -1) if _has_tools(messages[i])), None)
    if last_with_tools is not None:
        current_from = max(last_with_tools + 1, intent_end)
    else:
        humans = [i for i, m in enumerate(messages) if m.speaker == "human" and i >= intent_end]
        current_from = humans[-1] if humans else count
    recent_start = found[recent_from].call_at[0] if recent_from < len(found) else current_from
    recent_start = max(recent_start, intent_end)

    tiers: list[Tier] = []
    for i in range(count):
        if i < intent_end:
            tiers.append(1)
        elif i >= current_from:
            tiers.append(4)
        elif i >= recent_start:
            tiers.append(3)
        else:
            tiers.append(2)
    return Layout(tiers=tuple(tiers), recent_from=recent_from)
