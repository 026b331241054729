"""`toolhist.curation.tool_ids`: a pass that returns at once on its tuple's ids would have changed nothing.

``map_ids``, ``dedupe_calls``, ``synthesize_calls`` and ``dedupe_results`` skip their walk when the
ids of the calls and results say there is nothing for them. Here each is also made to walk (the
ids it is told are padded so that every check says "something to do") and must give the same
messages and Changes, on damaged histories (hypothesis) and the samples.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from history_gen import broken_sessions
from hypothesis import HealthCheck, given, settings

import toolhist
from toolhist.curation.base import Pass, Trace
from toolhist.curation.dedupe import dedupe_results
from toolhist.curation.facts import facts_of
from toolhist.curation.pairing import dedupe_calls, map_ids
from toolhist.curation.synthesize import synthesize_calls
from toolhist.curation.tool_ids import ToolIds, tool_ids_of
from toolhist.model import Message, Session, TextBlock, ToolCallBlock, ToolResponseBlock

SAMPLES = sorted(
    p for p in (Path(__file__).parents[2] / "sample_logs").iterdir() if p.suffix in {".json", ".jsonl"}
)


def _padded(messages: tuple[Message, ...]) -> ToolIds:
    """The ids of ``messages`` with a call id no block has twice, and two results with no id: every pass walks.

    (A result with no id is one ``map_ids`` pairs by position; no call has the id added.)
    """
    ids = tool_ids_of(messages)
    return ToolIds([*ids.calls, "\0none", "\0none"], [*ids.results, "", ""])


def _run(step: Pass, messages: tuple[Message, ...]) -> tuple[list[object], list[object]]:
    out, changes = step(messages, Trace.of(messages))
    return [m.model_dump() for m in out], [c.model_dump() for c in changes]


def _agree(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    messages = session.messages
    fmt = session.source.format
    steps: list[Pass] = [map_ids(fmt, "keep"), dedupe_calls, synthesize_calls, dedupe_results]
    quick = [_run(step, messages) for step in steps]
    with monkeypatch.context() as patch:
        patch.setattr(Trace, "tool_ids", lambda self, given: _padded(given))
        walked = [_run(step, messages) for step in steps]
    assert quick == walked
    assert facts_of(messages).ids == tool_ids_of(messages)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(broken_sessions())
def test_a_pass_that_returns_at_once_would_have_changed_nothing(session: Session) -> None:
    with pytest.MonkeyPatch.context() as patch:
        _agree(session, patch)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_the_same_on_the_samples(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _agree(toolhist.load(str(path)), monkeypatch)


def test_the_passes_hand_on_the_tuple_when_the_ids_say_nothing_to_do() -> None:
    call = ToolCallBlock(id="c1", name="read")
    result = ToolResponseBlock(call_id="c1", tool_name="read", result="ok")
    clean = (
        Message(speaker="human", blocks=(TextBlock(text="hi"),)),
        Message(speaker="ai", blocks=(call,)),
        Message(speaker="tool", blocks=(result,)),
    )
    for step in (map_ids("openai-chat", "keep"), dedupe_calls, synthesize_calls, dedupe_results):
        out, changes = step(clean, Trace.of(clean))
        assert out is clean
        assert changes == []
    again = ToolResponseBlock(call_id="c1", tool_name="read", result="ok")
    twice = (*clean, Message(speaker="tool", blocks=(again,)))
    out, changes = dedupe_results(twice, Trace.of(twice))
    assert len(out) == 3
    assert [c.action for c in changes] == ["dedupe"]
