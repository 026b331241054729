"""`toolhist.curation.facts`: a pass that returns at once on what a history holds would have changed nothing.

The passes that read `Trace.facts` skip their work when the facts say there is nothing for them;
these tests run the work anyway on damaged histories (hypothesis) and the samples, and check that
whenever the facts say "nothing", the full pass agrees, and that the facts are right.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from history_gen import broken_sessions
from hypothesis import HealthCheck, given, settings

import toolhist
from toolhist.curation.base import Trace
from toolhist.curation.content import _MAY_GO_EMPTY, _fill
from toolhist.curation.facts import facts_of
from toolhist.curation.split import _split
from toolhist.model import (
    Message,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)
from toolhist.providers import PROVIDERS

SAMPLES = sorted(
    p for p in (Path(__file__).parents[2] / "sample_logs").iterdir() if p.suffix in {".json", ".jsonl"}
)


def _agree(session: Session) -> None:
    messages = session.messages
    facts = facts_of(messages)
    for results_then_text in (True, False):
        out, changes = _split(messages, Trace.of(messages), results_then_text=results_then_text)
        if not facts.misplaced:
            assert changes == []
            assert list(out) == list(messages)
    if not (facts.blank_text or facts.empty_message or facts.kinds & _MAY_GO_EMPTY):
        for provider in PROVIDERS:
            for verbatim in (True, False):
                out, changes = _fill(messages, Trace.of(messages), provider, verbatim=verbatim, final_ok=True)
                assert changes == []
                assert out is messages


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_sessions())
def test_a_skipped_pass_would_change_nothing(session: Session) -> None:
    _agree(session)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_a_skipped_pass_would_change_nothing_on_the_samples(path: Path) -> None:
    _agree(toolhist.load(str(path)))


def test_facts_name_what_the_history_holds() -> None:
    call = ToolCallBlock(id="c1", name="read file")
    result = ToolResponseBlock(call_id="c1", tool_name="read file", result="ok")
    clean = (
        Message(speaker="human", blocks=(TextBlock(text="hi"),)),
        Message(speaker="ai", blocks=(call,)),
        Message(speaker="tool", blocks=(result,)),
    )
    facts = facts_of(clean)
    assert facts.kinds == {TextBlock, ToolCallBlock, ToolResponseBlock}
    assert facts.names == {"read file"}
    assert not facts.blank_text
    assert not facts.empty_message
    assert not facts.misplaced
    assert not facts.mixed_tool

    text_in_tool = (*clean[:2], Message(speaker="tool", blocks=(result, TextBlock(text="env"))))
    assert facts_of(text_in_tool).mixed_tool
    assert facts_of(text_in_tool).misplaced
    result_in_ai = (clean[0], Message(speaker="ai", blocks=(call, result)))
    assert facts_of(result_in_ai).misplaced
    assert not facts_of(result_in_ai).mixed_tool
    call_in_human = (Message(speaker="human", blocks=(call,)),)
    assert facts_of(call_in_human).misplaced
    blank = (Message(speaker="ai", blocks=(TextBlock(text="  "), ThinkingBlock(text="hm"))),)
    assert facts_of(blank).blank_text
    assert ThinkingBlock in facts_of(blank).kinds
    assert facts_of((Message(speaker="ai", blocks=()),)).empty_message


def test_facts_are_looked_at_once_per_tuple() -> None:
    session = toolhist.load(str(SAMPLES[0]))
    trace = Trace.of(session.messages)
    first = trace.facts(session.messages)
    assert trace.facts(session.messages) is first
    assert trace.facts(tuple(iter(session.messages))) is not first  # another tuple: looked at anew
