"""Seed 000's failure modes, every strategy, every provider: which 400s each strategy leaves.

The table is the answer a user wants before choosing a repair; it is pinned as a snapshot
(reviewed by hand: see the assertions below for the facts it must show).
"""

from __future__ import annotations

from typing import Any

import pytest
from library_cases import SEEDS
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from toolhist.curation import STRATEGIES
from toolhist.curation.compare import compare, compare_frame
from toolhist.providers import PROVIDERS, validate


def table(seed: str) -> dict[str, dict[str, list[str]]]:
    session = SEEDS[seed]()
    out: dict[str, dict[str, list[str]]] = {name: {} for name in STRATEGIES}
    for provider in PROVIDERS:
        for name, result in compare(session, provider).items():
            out[name][provider] = sorted(result.errors)
    return out


@pytest.fixture
def snapshot_json(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(JSONSnapshotExtension)


@pytest.mark.parametrize("seed", list(SEEDS))
def test_failure_mode_table(seed: str, snapshot_json: SnapshotAssertion) -> None:
    result = table(seed)
    assert result == snapshot_json
    # Facts the table must show, whatever else changes:
    assert all(rules == [] for rules in result["toolhist"].values())  # the reference repairs all
    assert any(rules for rules in result["none"].values())  # the raw history fails somewhere


def test_seed_a_is_what_issue_864_was_about() -> None:
    result = table("A")
    # Without repair, OpenAI rejects the cancelled call (the 400 of the issue).
    assert result["none"]["openai-chat"] == ["oai.call_unanswered"]
    # llxprt at #864 and at HEAD both still fail on the bundled history: the call is stored twice,
    # and step 1 leaves the extracted copy without a result.
    assert result["llxprt-v864"]["openai-chat"] == ["oai.call_unanswered"]
    assert result["llxprt-head"]["openai-chat"] == ["oai.call_unanswered"]


def test_compare_agrees_with_validate() -> None:
    session = SEEDS["B-duplicate"]()
    for provider in PROVIDERS:
        for name, result in compare(session, provider).items():
            left = validate(session, provider, strategy=name)
            assert [v.rule for v in result.violations] == [v.rule for v in left]


def test_compare_frame_is_strategy_by_provider() -> None:
    frame: Any = compare_frame(SEEDS["B-unanswered"](), ["openai-chat", "anthropic"])
    assert list(frame.index) == list(STRATEGIES)
    assert list(frame.columns) == ["openai-chat", "anthropic"]
    assert frame.loc["toolhist", "openai-chat"] == ""
    assert frame.loc["none", "openai-chat"] == "oai.call_unanswered"
