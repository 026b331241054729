"""The app's lazy, per-provider work gives exactly what the library gives in one call.

The pages check one provider at a time (`Opened.found`) and render a curated payload from the
cached `Curation` (`state.payload`); these tests hold both equal to `toolhist.check.check`,
`toolhist.providers.render` and `toolhist.providers.validate`, on every sample and on generated
broken histories. The cached functions run here without a Streamlit server (bare mode).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from history_gen import broken_sessions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

from toolhist.check import check
from toolhist.curation import STRATEGIES
from toolhist.model import Session
from toolhist.providers import PROVIDERS, render, validate
from toolhist.readers import load_document
from toolhist.views import state
from toolhist.views.diffs import compare_strategies
from toolhist.views.kept import keep_recent
from toolhist.views.summary import list_samples
from toolhist.views.timeline import timeline_figure

SAMPLES = Path(__file__).parent.parent.parent / "sample_logs"
SAMPLE_NAMES = [p.name for p in list_samples(SAMPLES)]


def opened(name: str, data: bytes, fmt: str | None = None) -> state.Opened:
    """What `state.read` builds, without the progress bar."""
    source = state.Input(name=name, data=data, fmt=fmt)
    document, session = load_document(data, fmt, name=name)
    return state.Opened(input=source, key=f"{source.digest}:{fmt or ''}", document=document, session=session)


@pytest.mark.parametrize("sample", SAMPLE_NAMES)
def test_provider_by_provider_is_check(sample: str) -> None:
    data = (SAMPLES / sample).read_bytes()
    assert opened(sample, data).result == check(data, name=sample)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_sessions(), hst.sampled_from(["openai-chat", "anthropic", "gemini", "bedrock"]))
def test_provider_by_provider_is_check_on_broken_bodies(session: Session, wire: str) -> None:
    # a body in one provider's wire format: that provider (and its relatives) is checked as sent
    data = json.dumps(render(session, wire).body).encode()
    got = opened("body.json", data, wire)  # reader formats share the wire formats' names
    expected = check(data, format=wire, name="body.json")
    assert got.result == expected
    assert [got.found(p) for p in PROVIDERS] == [expected.results[p] for p in PROVIDERS]


@pytest.mark.parametrize("provider", ["openai-chat", "anthropic", "gemini"])
@pytest.mark.parametrize("sample", SAMPLE_NAMES)
def test_curated_payloads_come_from_the_cached_curation(sample: str, provider: str) -> None:
    data = (SAMPLES / sample).read_bytes()
    o = opened(sample, data)
    for strategy in STRATEGIES:
        sent = state.payload(o.key, provider, strategy, o.session)
        assert sent == render(o.session, provider, strategy=strategy), strategy
        assert state.violations(o.key, provider, strategy, o.session) == validate(
            o.session, provider, strategy=strategy
        ), strategy


def test_one_strategy_at_a_time_is_the_comparison() -> None:
    data = (SAMPLES / "llxprt_icontent.json").read_bytes()
    o = opened("llxprt_icontent.json", data)

    whole = compare_strategies(o.session, "anthropic", list(STRATEGIES))
    rows = [state.compared(o.key, "anthropic", s, o.session) for s in STRATEGIES]
    assert [r.to_dict("records") for r in rows] == [[row] for row in whole.to_dict("records")]


def test_only_the_sessions_read_last_keep_their_cached_work() -> None:
    """Reading a third session clears every cached entry of the first (its parse and what came of it)."""
    names = ["openai_chat_request.json", "anthropic_request.json", "llxprt_icontent.json"]
    sources = [state.sample_input(name) for name in names]
    keys = [f"{source.digest}:" for source in sources]
    made = []
    for source, key in zip(sources, keys, strict=True):
        _, session = state._load(source.digest, None, source.name, source.source(), None, False)
        made.append(
            (
                session,
                state.curated(key, "anthropic", "toolhist", session),
                state.payload(key, "gemini", "none", session),
            )
        )
        dropped = keep_recent(key)
    assert state.SESSIONS_KEPT == 2
    assert keys[0] in dropped
    assert not {keys[1], keys[2]} & set(dropped)
    for n, (source, key) in enumerate(zip(sources, keys, strict=True)):
        _, session = state._load(source.digest, None, source.name, source.source(), None, False)
        again = (
            session,
            state.curated(key, "anthropic", "toolhist", session),
            state.payload(key, "gemini", "none", session),
        )
        kept = n > 0
        assert [a is b for a, b in zip(again, made[n], strict=True)] == [kept] * 3
        assert again[1] == made[n][1]  # recomputed, the same result
        assert again[2] == made[n][2]


def test_the_timeline_chart_is_built_once_per_view_and_goes_with_its_session() -> None:
    """`state.figure` is `timeline_figure` of the same window, kept while nothing it shows changes."""
    data = (SAMPLES / "llxprt_icontent.json").read_bytes()
    o = opened("llxprt_icontent.json", data)
    chosen = ("anthropic",)
    frame = state.events(o.key, chosen, o)
    first = state.figure(o.key, chosen, "turn", 1, None, frame)
    assert first.to_json() == timeline_figure(frame, axis="turn", selected=1).to_json()
    assert state.figure(o.key, chosen, "turn", 1, None, frame) is first  # a rerun that moves nothing
    moved = state.figure(o.key, chosen, "turn", 2, None, frame)  # another message inspected
    assert moved is not first
    assert moved.to_json() == timeline_figure(frame, axis="turn", selected=2).to_json()
    keep_recent(o.key)
    for other in ("another session", "a third session"):
        keep_recent(other)
    again = state.figure(o.key, chosen, "turn", 1, None, frame)
    assert again is not first  # cleared with its session, then built again: the same chart
    assert again.to_json() == first.to_json()


def test_a_text_too_long_to_locate_errors_in_is_not_kept_with_the_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`Document.line_of` locates nothing in a text past `MAX_MAPPED_CHARS`: the cached parse drops it."""
    source = state.sample_input("anthropic_request.json")
    assert source.data is not None
    document, session = load_document(source.data, None, name=source.name)
    assert document.text is not None
    monkeypatch.setattr(state, "MAX_MAPPED_CHARS", len(document.text) - 1)
    digest = source.digest + ":text-dropped"  # an entry of its own, not one another test made
    kept, read = state._load(digest, None, source.name, source.data, None, False)
    assert kept.text is None
    assert kept.value == document.value
    assert read == session
    monkeypatch.setattr(state, "MAX_MAPPED_CHARS", len(document.text))
    kept, _ = state._load(digest + ":kept", None, source.name, source.data, None, False)
    assert kept.text == document.text
