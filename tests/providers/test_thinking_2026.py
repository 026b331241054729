"""Thinking rules against what 2026 agents send (issue 29): adaptive turns without thinking, turn-start ownership.

- ``thinking: {"type": "adaptive"}``: the model may skip thinking on a turn, and the agent replays that
  turn as it was (platform.claude.com/docs/en/build-with-claude/thinking-tool-workflows). Accepted:
  ``ant.thinking_first`` does not apply.
- ``thinking: {"type": "enabled"}`` without interleaved thinking: the model thinks once, at the start of
  the turn; later steps after tool results carry no thinking block (the same page's "Response 2:
  [tool_use] no thinking block"). Only the turn's first assistant message is held to it.
"""

from __future__ import annotations

from typing import Any

import pytest

import toolhist
from toolhist.curation.request import open_round_unsigned
from toolhist.model import ThinkingBlock

ENABLED = {"type": "enabled", "budget_tokens": 2048}
ADAPTIVE = {"type": "adaptive"}


def think() -> dict[str, Any]:
    return {"type": "thinking", "thinking": "plan", "signature": "EuSig"}


def use(i: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": i, "name": "Bash", "input": {"command": "ls"}}


def res(i: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": i, "content": "ok"}


def body(*messages: dict[str, Any], thinking: dict[str, Any]) -> dict[str, Any]:
    return {
        "model": "claude-opus-4-7",
        "max_tokens": 32000,
        "thinking": thinking,
        "tools": [{"name": "Bash", "input_schema": {"type": "object"}}],
        "messages": list(messages),
    }


def rules(b: dict[str, Any]) -> list[str]:
    return [v.rule for v in toolhist.validate_payload(b, "anthropic") if v.severity == "error"]


TURNS: list[dict[str, Any]] = [
    {"role": "user", "content": "list the files"},
    {"role": "assistant", "content": [use("toolu_a")]},  # the model chose not to think
    {"role": "user", "content": [res("toolu_a")]},
]


def test_adaptive_replays_a_turn_the_model_did_not_think_on() -> None:
    assert rules(body(*TURNS, thinking=ADAPTIVE)) == []


def test_budgeted_thinking_still_needs_the_open_turn_to_start_with_thinking() -> None:
    assert rules(body(*TURNS, thinking=ENABLED)) == ["ant.thinking_first"]


def test_adaptive_still_puts_thinking_first_in_a_message_that_has_it() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "list the files"},
        {"role": "assistant", "content": [{"type": "text", "text": "ok"}, think(), use("toolu_a")]},
        {"role": "user", "content": [res("toolu_a")]},
    ]
    assert rules(body(*messages, thinking=ADAPTIVE)) == ["ant.thinking_not_first"]


@pytest.mark.parametrize("thinking", [ENABLED, ADAPTIVE])
def test_later_steps_of_a_turn_need_no_thinking_block(thinking: dict[str, Any]) -> None:
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "total revenue?"},
        {"role": "assistant", "content": [think(), use("toolu_a")]},
        {"role": "user", "content": [res("toolu_a")]},
        {"role": "assistant", "content": [use("toolu_b")]},  # Response 2: no thinking block
        {"role": "user", "content": [res("toolu_b")]},
    ]
    assert rules(body(*messages, thinking=thinking)) == []


def test_a_closed_turn_is_not_held_to_it() -> None:
    messages: list[dict[str, Any]] = [
        *TURNS,
        {"role": "assistant", "content": "done"},
        {"role": "user", "content": "thanks"},
    ]
    assert rules(body(*messages, thinking=ENABLED)) == []


def test_the_toolhist_strategy_keeps_adaptive_thinking_and_drops_budgeted_thinking_only_when_it_must() -> (
    None
):
    adaptive = toolhist.load(body(*TURNS, thinking=ADAPTIVE))
    curation = toolhist.curate(adaptive, "anthropic")
    assert [c.pass_ for c in curation.changes if c.pass_ == "disable_thinking"] == []
    enabled = toolhist.load(body(*TURNS, thinking=ENABLED))
    assert [
        c.pass_ for c in toolhist.curate(enabled, "anthropic").changes if c.pass_ == "disable_thinking"
    ] == ["disable_thinking"]
    assert toolhist.validate(enabled, "anthropic", strategy="toolhist") == []


def test_open_round_unsigned_reads_the_turn_from_its_start() -> None:
    session = toolhist.load(
        body(
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [think(), use("toolu_a")]},
            {"role": "user", "content": [res("toolu_a")]},
            {"role": "assistant", "content": [use("toolu_b")]},
            {"role": "user", "content": [res("toolu_b")]},
            thinking=ENABLED,
        )
    )
    assert isinstance(session.messages[1].blocks[0], ThinkingBlock)
    assert not open_round_unsigned(session.messages)


KEEP_ALL = {"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]}
"""What Claude Code 2.x sends beside ``thinking: {"type": "adaptive"}`` on every request."""


@pytest.mark.parametrize("thinking", [None, {"type": "disabled"}])
def test_a_clear_thinking_edit_without_thinking_is_a_400(thinking: dict[str, Any] | None) -> None:
    b = {**body(*TURNS, thinking=ADAPTIVE), "context_management": KEEP_ALL}
    b.pop("thinking")
    if thinking is not None:
        b["thinking"] = thinking
    found = [v for v in toolhist.validate_payload(b, "anthropic") if v.severity == "error"]
    assert [(v.rule, v.path) for v in found] == [
        ("ant.clear_thinking_needs_thinking", "context_management.edits.0.type")
    ]
    # The text the API answered (anthropics/claude-code#11229) explains to the same rule.
    assert toolhist.explain(found[0].error_text).rule == "ant.clear_thinking_needs_thinking"
    assert (
        toolhist.explain(
            "`clear_thinking_20251015` strategy requires `thinking` to be enabled or adaptive"
        ).rule
        == "ant.clear_thinking_needs_thinking"
    )


@pytest.mark.parametrize("thinking", [ENABLED, ADAPTIVE])
def test_a_clear_thinking_edit_with_thinking_on_relaxes_and_adds_nothing(thinking: dict[str, Any]) -> None:
    """keep: "all" keeps what the request holds; it lets no open turn go without its thinking."""
    with_edit = {**body(*TURNS, thinking=thinking), "context_management": KEEP_ALL}
    assert rules(with_edit) == rules(body(*TURNS, thinking=thinking))
    other = {"edits": [{"type": "clear_tool_uses_20250919"}]}
    assert rules({**body(*TURNS, thinking=thinking), "context_management": other}) == rules(with_edit)


def test_disable_thinking_takes_the_clear_thinking_edit_out_too() -> None:
    keep_two = {"type": "clear_thinking_20251015", "keep": {"type": "thinking_turns", "value": 2}}
    tools = {"type": "clear_tool_uses_20250919"}
    for management, left in (
        (KEEP_ALL, None),
        ({"edits": [keep_two, tools]}, {"edits": [tools]}),
    ):
        session = toolhist.load({**body(*TURNS, thinking=ENABLED), "context_management": management})
        curation = toolhist.curate(session, "anthropic")
        change = next(c for c in curation.changes if c.pass_ == "disable_thinking")
        assert change.dropped == {"thinking": ENABLED, "context_management": management}
        sent = toolhist.render(curation.session, "anthropic").body
        assert "thinking" not in sent
        assert sent.get("context_management") == left
        assert toolhist.validate(session, "anthropic", strategy="toolhist") == []
