"""Compaction invariants on random valid histories, for every provider and both renderings.

Histories come from the curation generator (`history_gen.broken_sessions`), curated for the target
provider first so they are valid; compaction must then keep them valid (errors after ⊆ errors
before), keep the last N pairs verbatim and never drop an error result's text.
"""

from __future__ import annotations

from collections import Counter

from history_gen import broken_sessions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhist
from toolhist.compaction import RENDERINGS, Rendering, compact
from toolhist.compaction.tiers import pairs
from toolhist.model import Session, TextBlock, ToolResponseBlock
from toolhist.providers import PROVIDERS, validate
from toolhist.tokens import counter_for, result_text


def _errors(session: Session, provider: str) -> Counter[str]:
    """Error-severity violations by rule (a multiset: one more of a rule already broken also fails)."""
    return Counter(v.rule for v in validate(session, provider) if v.severity == "error")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    broken_sessions(),
    st.sampled_from(PROVIDERS),
    st.sampled_from(RENDERINGS),
    st.integers(0, 4),
)
def test_compaction_keeps_valid_histories_valid(
    raw: Session, provider: str, rendering: Rendering, keep: int
) -> None:
    session = toolhist.curate(raw, provider).session
    before = _errors(session, provider)
    result = compact(session, provider, keep=keep, threshold=0, rendering=rendering)
    assert result.original is session
    assert not _errors(result.session, provider) - before


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_sessions(), st.sampled_from(PROVIDERS), st.integers(0, 4))
def test_native_keeps_last_pairs_verbatim_and_every_error(raw: Session, provider: str, keep: int) -> None:
    session = toolhist.curate(raw, provider).session
    result = compact(session, provider, keep=keep, threshold=0)
    found = pairs(session, counter_for(provider, None))
    recent = found[len(found) - keep :] if keep else []
    after = result.session
    assert len(after.messages) == len(session.messages)
    for pair in recent:
        m, b = pair.call_at
        assert after.messages[m].blocks[b] == pair.call
        m, b = pair.result_at
        assert after.messages[m].blocks[b] == pair.result
    for pair in found:
        if pair.is_error:
            m, b = pair.result_at
            assert after.messages[m].blocks[b] == pair.result


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_sessions(), st.sampled_from(PROVIDERS), st.integers(0, 4))
def test_text_embed_keeps_every_error_and_recent_result_text(raw: Session, provider: str, keep: int) -> None:
    session = toolhist.curate(raw, provider).session
    result = compact(session, provider, keep=keep, threshold=0, rendering="text-embed")
    texts = "\n".join(b.text for m in result.session.messages for b in m.blocks if isinstance(b, TextBlock))
    found = pairs(session, counter_for(provider, None))
    recent = found[len(found) - keep :] if keep else []
    for pair in found:
        if pair.is_error:
            assert pair.result.error is not None
            assert pair.result.error in texts
        if pair.is_error or pair in recent:
            assert result_text(pair.result) in texts
    assert not any(isinstance(b, ToolResponseBlock) for m in result.session.messages for b in m.blocks)
