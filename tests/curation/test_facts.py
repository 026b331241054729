"""`toolhist.curation.facts`: a pass that returns at once on what a history holds would have changed nothing.

The passes that read `Trace.facts` skip their work when the facts say there is nothing for them;
these tests run the work anyway on damaged histories (hypothesis) and the samples, and check that
whenever the facts say "nothing", the full pass agrees, and that the facts are right.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_modules import benchmark_module
from history_gen import broken_sessions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhist
from toolhist.curation import base, curate, facts
from toolhist.curation.base import Trace
from toolhist.curation.content import _MAY_GO_EMPTY, _fill
from toolhist.curation.facts import facts_from, facts_of
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


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(broken_sessions(), broken_sessions(), st.data())
def test_facts_from_another_tuple_are_the_facts_looked_at_whole(
    a: Session, b: Session, data: st.DataObject
) -> None:
    """Any tuple sharing messages with another (some dropped, others added, in any order) gets its own facts."""
    seen = a.messages
    kept = data.draw(st.lists(st.sampled_from(seen), max_size=len(seen)) if seen else st.just([]))
    extra = data.draw(st.lists(st.sampled_from(b.messages), max_size=3) if b.messages else st.just([]))
    messages = tuple(data.draw(st.permutations([*kept, *extra])))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(facts, "CHUNK", data.draw(st.integers(1, 4)))  # the chunked look for what was dropped
        assert facts_from(messages, seen, facts_of(seen)) == facts_of(messages)


def test_every_pass_is_told_the_facts_of_the_tuple_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """Across curations of the samples for every provider, `Trace.facts` equals a scan of the tuple."""
    told: list[tuple[tuple[Message, ...], facts.Facts]] = []

    def checked(messages: tuple[Message, ...], seen: tuple[Message, ...], known: facts.Facts) -> facts.Facts:
        found = facts_from(messages, seen, known)
        told.append((messages, found))
        return found

    monkeypatch.setattr(base, "facts_from", checked)
    for path in SAMPLES:
        session = toolhist.load(str(path))
        for provider in PROVIDERS:
            curate(session, provider)
    assert len(told) > len(SAMPLES)  # the passes changed tuples, and were told about the new ones
    assert [found for _, found in told] == [facts_of(messages) for messages, _ in told]


def test_a_curation_looks_at_each_message_about_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tuples after the shared segments are told from the input's facts: not scanned whole again.

    A curation of 4,000 generated messages for OpenAI Chat hands the facts three tuples (the input,
    after deduplication, after the moves and closes); scanning each whole looked at 3 x 4,000.
    """
    session = toolhist.load(benchmark_module("generate").write(4000, tmp_path / "long.json"))
    looked: list[int] = []

    def counted(messages: tuple[Message, ...]) -> facts.Facts:
        looked.append(len(messages))
        return facts_of(messages)

    monkeypatch.setattr(facts, "facts_of", counted)
    monkeypatch.setattr(base, "facts_of", counted)
    trace_facts = Trace.facts
    told: list[int] = []

    def telling(self: Trace, messages: tuple[Message, ...]) -> facts.Facts:
        told.append(len(messages))
        return trace_facts(self, messages)

    monkeypatch.setattr(Trace, "facts", telling)
    curation = curate(session, "openai-chat")
    assert curation.changes  # the passes changed something: more than one tuple
    assert len(set(told)) >= 3  # three tuples of different lengths
    assert sum(looked) < 1.5 * len(session.messages)
