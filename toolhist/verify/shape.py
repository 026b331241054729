"""A history's structure without its content: counts and a hash a bug report can carry.

A wrong verdict is reported with the ledger's export (`toolhist.verify.ledger.export`), which must
carry no message text, no id and no key. What it can carry is the *shape* of the request: who spoke
in what order, which blocks each message held, and which result answers which call, with every id
replaced by its order of first appearance (``call1`` … ``result1``) and every text by its kind. Two
histories with the same tool structure have the same hash, so a maintainer can tell reports of one
case apart from reports of many, and rebuild the case from the shape string a user may add.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from toolhist.model import Session, ToolCallBlock, ToolResponseBlock


@dataclass(frozen=True)
class Shape:
    """The structure of the history a request carries."""

    messages: int
    tool_calls: int
    tool_results: int
    text: str
    """``human:text|ai:text,call1|tool:result1``: speakers, block kinds, ids as ordinals."""

    @property
    def hash(self) -> str:
        """First 16 hex digits of the SHA-256 of `text`."""
        return hashlib.sha256(self.text.encode()).hexdigest()[:16]


def shape_of(session: Session) -> Shape:
    """The shape of ``session``'s messages (ids numbered by first appearance, calls and results alike)."""
    order: dict[str, int] = {}

    def ordinal(ident: str) -> int:
        return order.setdefault(ident, len(order) + 1)

    parts: list[str] = []
    calls = results = 0
    for message in session.messages:
        kinds: list[str] = []
        for block in message.blocks:
            if isinstance(block, ToolCallBlock):
                calls += 1
                kinds.append(f"call{ordinal(block.id)}")
            elif isinstance(block, ToolResponseBlock):
                results += 1
                kinds.append(f"result{ordinal(block.call_id)}")
            else:
                kinds.append(block.type)
        parts.append(f"{message.speaker}:{','.join(kinds)}")
    return Shape(messages=len(session.messages), tool_calls=calls, tool_results=results, text="|".join(parts))
