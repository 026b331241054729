"""llxprt strategies on random broken histories: no crash, nothing mutated, every block accounted for.

These do not say llxprt's output is valid (it often is not: that is the point of reproducing it);
they say the reproduction is honest: whatever leaves or enters the history has a Change, positions
exist, and the same input always gives the same body (llxprt's random ids are seeded here).
"""

from __future__ import annotations

import json
import os

import pytest
from history_gen import broken_sessions
from hypothesis import HealthCheck, given, settings

from toolhist.curation import curate
from toolhist.curation.base import Position
from toolhist.model import Session, ToolCallBlock
from toolhist.providers import PROVIDERS, render

SETTINGS = settings(
    max_examples=int(os.environ.get("TOOLHIST_LLXPRT_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


def _at(position: Position | None) -> tuple[int, int | None] | None:
    return None if position is None else (position.message, position.block)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("strategy", ["llxprt-v864", "llxprt-head"])
@SETTINGS
@given(s=broken_sessions())
def test_llxprt_accounts_for_every_block(strategy: str, provider: str, s: Session) -> None:
    before = s.model_dump()
    c = curate(s, provider, strategy=strategy)
    body = render(s, provider, strategy=strategy).body
    assert s.model_dump() == before
    assert render(s, provider, strategy=strategy).body == body  # deterministic, random ids included
    json.dumps([change.to_json() for change in c.changes])
    touched = {_at(ch.before) for ch in c.changes} | {
        (ch.before.message, None) for ch in c.changes if ch.before
    }
    out_blocks = [b for m in c.session.messages for b in m.blocks]
    for m, message in enumerate(s.messages):
        for b, block in enumerate(message.blocks):
            # Provenance is by identity: one block object reused at two positions (a duplicate made by
            # copying the reference) is reported at its first position, so a twin counts.
            twins = [
                (m2, b2)
                for m2, other in enumerate(s.messages)
                for b2, x in enumerate(other.blocks)
                if x is block
            ]
            accounted = any(t in touched or (t[0], None) in touched for t in twins)
            assert block in out_blocks or accounted, (m, b, block)
    made = {_at(ch.after) for ch in c.changes if ch.after is not None}
    in_blocks = [b for m in s.messages for b in m.blocks]
    rewritten = {str(ch.detail["new_id"]) for ch in c.changes if ch.action == "rewrite_id"}
    for m, message in enumerate(c.session.messages):
        if message.metadata.synthetic and message not in s.messages:
            assert message.metadata.reason
        for b, block in enumerate(message.blocks):
            renamed = getattr(block, "id", None) or getattr(block, "call_id", None)
            assert block in in_blocks or (m, b) in made or (m, None) in made or renamed in rewritten, (m, b)
    for change in c.changes:
        if change.before is not None:
            assert change.before.message < len(s.messages)
        if change.after is not None:
            assert change.after.message < len(c.session.messages)


@pytest.mark.parametrize("strategy", ["llxprt-v864", "llxprt-head"])
@SETTINGS
@given(s=broken_sessions())
def test_llxprt_output_is_a_fixed_point_of_steps_1_to_4(strategy: str, s: Session) -> None:
    """After getCuratedForProvider, no tool message holds calls and every result sits right after its call."""
    c = curate(s, "openai-chat", strategy=strategy)
    seen: set[str] = set()
    for i, message in enumerate(c.session.messages):
        if message.speaker == "tool":
            assert not any(isinstance(b, ToolCallBlock) for b in message.blocks)
            assert message.metadata.reason == "reordered_tool_responses"
            previous = c.session.messages[i - 1]
            assert {r.call_id for r in message.tool_responses()} <= {
                call.id for call in previous.tool_calls()
            }
        for response in message.tool_responses():
            assert response.call_id not in seen  # deduplicated
            seen.add(response.call_id)
