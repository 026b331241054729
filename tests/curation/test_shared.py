"""Sharing passes between curations of one session (`toolhist.curation.shared`) is invisible.

A curation that reuses what an earlier curation of the same session computed (another provider,
another tail, the same provider again) must equal, field for field, the curation of a copy of the
session that has never been curated (a new identity, so nothing is reused). Entries go when their
session does.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import Any

import pytest
from history_gen import broken_sessions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhist
from toolhist.curation import Curation, Position, curate, shared
from toolhist.model import (
    Message,
    Session,
    SessionSource,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)
from toolhist.providers import PROVIDERS, render, render_curation

EXAMPLES = min(int(os.environ.get("TOOLHIST_PROPERTY_EXAMPLES", "2000")), 300)
SAMPLES = sorted(
    p for p in (Path(__file__).parents[2] / "sample_logs").iterdir() if p.suffix in {".json", ".jsonl"}
)


def fingerprint(curation: Curation) -> tuple[Any, ...]:
    """Everything a caller can observe of a Curation, positions and fields sets included."""
    return (
        curation.to_json(),
        repr(curation.changes),
        [sorted(change.model_fields_set) for change in curation.changes],
        curation.session,
        repr(curation.session),
        render_curation(curation).body,
    )


def cold(session: Session) -> Session:
    """A new Session object holding the same messages: nothing remembered for ``session`` applies to it.

    (The same message objects, not re-read ones: provenance is by identity, so a history that holds
    one block object twice reports it at its first position, and a re-read copy would not.)
    """
    return session.model_copy()


def reread(session: Session) -> Session:
    """A copy with fresh objects throughout (for histories that hold no object twice)."""
    return Session.model_validate(session.model_dump())


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
@given(session=broken_sessions(), order=st.permutations(PROVIDERS), tail=st.integers(0, 2))
def test_warm_curations_equal_cold_ones(session: Session, order: list[str], tail: int) -> None:
    head = session.model_copy(update={"messages": session.messages[: len(session.messages) - tail]})
    rest = session.messages[len(head.messages) :]
    for provider in order:  # warm every entry, in a random order, with and without the tail
        curate(head, provider, tail=rest)
        curate(head, provider)
    for provider in PROVIDERS:
        assert fingerprint(curate(head, provider, tail=rest)) == fingerprint(
            curate(cold(head), provider, tail=rest)
        )
        assert fingerprint(curate(head, provider)) == fingerprint(curate(cold(head), provider))


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_samples_warm_equal_cold_and_shifted(path: Path) -> None:
    session = toolhist.load(str(path))
    for provider in PROVIDERS:
        curate(session, provider)
        render(session, provider, strategy="toolhist")
    # A session sharing the same message objects at other positions must not see their entries.
    shifted = session.model_copy(update={"messages": session.messages[1:]})
    for provider in PROVIDERS:
        assert fingerprint(curate(session, provider)) == fingerprint(curate(reread(session), provider))
        assert fingerprint(curate(shifted, provider)) == fingerprint(curate(reread(shifted), provider))


def test_entries_go_with_their_session() -> None:
    session = toolhist.load(str(SAMPLES[0]))
    for provider in PROVIDERS:
        curate(session, provider)
    slots = [slot for slot in shared._ENTRIES if slot[0] == id(session)]
    assert slots
    del session
    gc.collect()
    assert not [slot for slot in slots if slot in shared._ENTRIES]


def test_same_segment_input_from_another_start_is_not_reused() -> None:
    """The result moved by ``move_results`` sits at another position of the start in each curation.

    The tail's reasoning-only assistant turn is dropped before ``move_results`` runs, so the second
    curation reaches that segment with the very same message objects as the first; only the start
    (``session.messages`` + ``tail``) tells them apart, and the Change must say where the result was.
    """
    call_id = "hist_tool_" + "a" * 24  # canonical already: map_ids keeps every object as it is
    session = Session(
        messages=(
            Message(speaker="human", blocks=(TextBlock(text="go"),)),
            Message(speaker="ai", blocks=(ToolCallBlock(id=call_id, name="read", parameters={}),)),
            Message(speaker="human", blocks=(TextBlock(text="and?"),)),
        ),
        source=SessionSource(format="openai-chat"),
    )
    thought = Message(speaker="ai", blocks=(ThinkingBlock(text="hmm", source_provider="anthropic"),))
    late = Message(
        speaker="tool", blocks=(ToolResponseBlock(call_id=call_id, tool_name="read", result="ok"),)
    )
    first = curate(session, "openai-chat", tail=(thought, late))
    second = curate(session, "openai-chat", tail=(late,))
    moved = [c for c in second.changes if c.action == "move"]
    assert [c.before for c in moved] == [Position(message=3, block=0)]
    assert [c.before for c in first.changes if c.action == "move"] == [Position(message=4, block=0)]
    assert fingerprint(second) == fingerprint(curate(cold(session), "openai-chat", tail=(late,)))
