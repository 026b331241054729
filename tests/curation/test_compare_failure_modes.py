"""Seed 000's failure modes, every strategy, every provider: which 400s each strategy leaves.

The table is the answer a user wants before choosing a repair; it is pinned as a snapshot
(reviewed by hand: see the assertions below for the facts it must show).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from library_cases import SEEDS
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from toolhist.curation import STRATEGIES
from toolhist.curation.compare import compare, compare_frame
from toolhist.peers import run
from toolhist.peers.env import PeersMissing
from toolhist.providers import PROVIDERS, validate


def table(seed: str) -> dict[str, dict[str, list[str]]]:
    session = SEEDS[seed]()
    out: dict[str, dict[str, list[str]]] = {name: {} for name in STRATEGIES}
    for provider in PROVIDERS:
        for name, result in compare(session, provider).items():
            # A strategy that did not run leaves nothing and fixes nothing: never an empty list.
            out[name][provider] = sorted(result.errors) if result.status == "ran" else [f"({result.status})"]
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
            if result.status == "not run":  # its library is not installed: validate cannot run it either
                with pytest.raises(PeersMissing):
                    validate(session, provider, strategy=name)
                continue
            left = validate(session, provider, strategy=name)
            assert [v.rule for v in result.violations] == [v.rule for v in left]


def test_a_strategy_that_did_not_run_says_so_with_no_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24: litellm and openai-agents showed 0 changes and 0 errors left when they never ran."""
    monkeypatch.setenv("TOOLHIST_PEERS_HOME", str(tmp_path))  # a real, empty peers home
    monkeypatch.setattr(run, "_WORKERS", {})  # workers an earlier test started stay out of this one
    results = compare(SEEDS["B-unanswered"](), "openai-chat", ["toolhist", "litellm", "openai-agents"])
    assert results["toolhist"].status == "ran"
    for name, version in (("litellm", "1.106.2"), ("openai-agents", "0.24.0")):
        result = results[name]
        assert (result.status, result.changes, result.messages, result.install, result.passes) == (
            "not run",
            None,
            None,
            "toolhist peers install",
            False,
        )
        assert result.describe() == (
            f"not run: {name} {version} is not installed; install it with `toolhist peers install`"
        )
    frame: Any = compare_frame(SEEDS["B-unanswered"](), ["openai-chat"], ["toolhist", "litellm"])
    assert frame.loc["litellm", "openai-chat"] == "(not run)"


def test_compare_frame_is_strategy_by_provider() -> None:
    frame: Any = compare_frame(SEEDS["B-unanswered"](), ["openai-chat", "anthropic"])
    assert list(frame.index) == list(STRATEGIES)
    assert list(frame.columns) == ["openai-chat", "anthropic"]
    assert frame.loc["toolhist", "openai-chat"] == ""
    assert frame.loc["none", "openai-chat"] == "oai.call_unanswered"
