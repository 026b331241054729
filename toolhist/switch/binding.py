"""Anthropic's prefix check: a thinking block stays valid only while everything before it is unchanged.

platform.claude.com/docs/en/build-with-claude/preserved-thinking (fetched 2026-09-26): on Claude
Fable 5.1 and Claude Opus 5.5 a replayed thinking block is checked against its prefix, the top-level
``system``, the ``tools`` and every message before it. A strategy that rewrites anything there (an
id mapped, a result moved, a turn merged or dropped, a system prompt rebuilt) invalidates that block
and every thinking block after it. Accounts created on or after 2026-08-31 get a 400 by default
(``messages.{i}.content.{j}: Invalid `signature` in `thinking` block. The block is bound to a
different conversation.``), as does any request that sets
``thinking.block_binding.prefix_mismatch_behavior`` to ``"error"``; older accounts are let through
(``thinking_mismatch_allowed``), and ``"drop_block"`` drops the blocks instead. Claude Mythos 5.1 and
models before Fable 5.1 run no prefix check.

When the session comes back to Anthropic, the strategy's body is compared with the body of the
history as it stood (`none`, which for a captured body is what was sent): the first thinking block
Anthropic made whose prefix differs is where the check fails.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolhist.switch.made_by import Token

CHECKED_MODELS = re.compile(r"fable-5-1|opus-5-5")
"""The models the docs name as running the prefix check."""

TEXT = (
    "{path}: Invalid `signature` in `thinking` block. The block is bound to a different conversation. "
    'Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".'
)


@dataclass(frozen=True)
class Rebound:
    """A thinking block whose prefix the strategy changed: the first one the prefix check fails."""

    path: str
    """The block in the strategy's body (``messages.3.content.0``)."""
    changed: str
    """What changed before it: ``system``, ``tools`` or ``messages.N`` (the first message that differs)."""
    error_text: str
    """Anthropic's text (``ant.thinking_signature``) for accounts where the check is enforced."""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for ``switch --json``."""
        return {"path": self.path, "changed": self.changed, "error_text": self.error_text}


def _thinking(messages: list[Any]) -> list[tuple[int, int, str]]:
    """(message, block, signature or data) of every thinking block of an assistant message."""
    out: list[tuple[int, int, str]] = []
    for i, message in enumerate(messages):
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list) or message.get("role") != "assistant":
            continue
        for j, block in enumerate(content):
            if not isinstance(block, dict):
                continue
            token = block.get("signature") if block.get("type") == "thinking" else block.get("data")
            if block.get("type") in ("thinking", "redacted_thinking") and isinstance(token, str) and token:
                out.append((i, j, token))
    return out


def _first_difference(ours: list[Any], theirs: list[Any]) -> int | None:
    for n, (a, b) in enumerate(zip(ours, theirs, strict=False)):
        if a != b:
            return n
    return None if len(ours) == len(theirs) else min(len(ours), len(theirs))


def rebound(
    body: Mapping[str, Any], reference: Mapping[str, Any], tokens: Mapping[str, Token], model: str | None
) -> Rebound | None:
    """The first Anthropic-made thinking block of ``body`` whose prefix differs from ``reference``'s.

    None when the model runs no prefix check, when no block moved off its prefix, or when the body
    does not turn thinking on (a request without thinking does not read the blocks).
    """
    if not model or not CHECKED_MODELS.search(model.lower()) or not isinstance(body.get("thinking"), dict):
        return None
    ours = body.get("messages")
    theirs = reference.get("messages")
    if not isinstance(ours, list) or not isinstance(theirs, list):
        return None
    where = {token: i for i, _, token in _thinking(theirs)}
    for i, j, token in _thinking(ours):
        made = tokens.get(token)
        if made is None or made.made_by != "anthropic" or token not in where:
            continue
        path = f"messages.{i}.content.{j}"
        for field in ("system", "tools"):
            if body.get(field) != reference.get(field):
                return Rebound(path, field, TEXT.format(path=path))
        differs = _first_difference(ours[:i], theirs[: where[token]])
        if differs is not None:
            return Rebound(path, f"messages.{differs}", TEXT.format(path=path))
    return None
