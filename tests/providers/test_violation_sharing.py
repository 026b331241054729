"""Equal strings of one verdict are one object (`toolhist.providers.base.violations`), with the same values.

Mistral's id rule names a call at its call and again at its result: at 100,000 messages the
verdicts Home keeps held 171,000 error texts for 118,000 distinct values. Structural (identity),
and every text and call-id tuple exactly what the rule's template and the finding give.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from history_gen import broken_sessions
from hypothesis import HealthCheck, given, settings

import toolhist
from toolhist.model import Session
from toolhist.providers import PROVIDERS, provider_for, render
from toolhist.providers.base import Violation, violations

SAMPLE = Path(__file__).parents[2] / "sample_logs" / "mistral_ids_after_openai.json"


def _expected(provider: str, body: dict[str, Any]) -> list[tuple[str, str, tuple[str, ...]]]:
    """(rule, error text, call ids) of each finding, made afresh from the rule's template."""
    target = provider_for(provider)
    out = []
    for finding in target.check(body):
        rule = target.rule(finding.rule)
        if rule.applies_to(body):
            out.append((rule.id, rule.template.format(**finding.values), tuple(finding.call_ids)))
    return out


def _shared_and_exact(session: Session, provider: str) -> list[Violation]:
    payload = render(session, provider)
    found = violations(provider_for(provider), payload.body, payload.source_map)
    assert [(v.rule, v.error_text, v.call_ids) for v in found] == _expected(provider, payload.body)
    texts: dict[str, str] = {}
    ids: dict[tuple[str, ...], tuple[str, ...]] = {}
    for v in found:
        assert texts.setdefault(v.error_text, v.error_text) is v.error_text
        assert ids.setdefault(v.call_ids, v.call_ids) is v.call_ids
    return found


def test_a_call_named_twice_shares_its_text_and_ids() -> None:
    session = toolhist.load(str(SAMPLE))
    found = _shared_and_exact(session, "mistral")
    ids = [v for v in found if v.rule == "mis.id_format"]
    texts = [v.error_text for v in ids]
    assert len(set(texts)) < len(texts)  # the sample names a call at its call and at its result
    for provider in PROVIDERS:
        _shared_and_exact(session, provider)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_sessions())
def test_generated_histories(session: Session) -> None:
    for provider in PROVIDERS:
        _shared_and_exact(session, provider)
