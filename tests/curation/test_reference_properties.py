"""The reference strategy's guarantee (DESIGN §5), over generated broken histories (hypothesis).

For every provider: ``validate(s, P, strategy="toolhist")`` has no error-level violation; curation
is idempotent; the input is never mutated; every text block and every distinct tool result of the
input reaches the payload, or a Change names why it did not. 2,000 histories per provider.

And the fewest changes (issue 24): a history the provider accepts (``validate(s, P) == []``) gets
no Change at all; the repair passes themselves, run without that check, leave a plain history the
provider accepts alone; every rule a Change says it repairs is a violation of the history as
given, and the Changes that repair an error come first.
"""

from __future__ import annotations

import json
import os

import pytest
from history_gen import broken_sessions, plain_sessions
from hypothesis import HealthCheck, given, settings

from toolhist.curation import curate
from toolhist.curation.reference import repair
from toolhist.model import Session, TextBlock, ThinkingBlock, ToolResponseBlock
from toolhist.providers import PROVIDERS, render, validate

EXAMPLES = int(os.environ.get("TOOLHIST_PROPERTY_EXAMPLES", "2000"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


@pytest.mark.parametrize("provider", PROVIDERS)
@SETTINGS
@given(session=broken_sessions())
def test_reference_leaves_no_error(provider: str, session: Session) -> None:
    before = session.model_dump()
    errors = [
        (v.rule, v.path, v.error_text)
        for v in validate(session, provider, strategy="toolhist")
        if v.severity == "error"
    ]
    if not curate(session, provider).session.messages:
        # Nothing left to send (a history of blank messages): no repair can make a request of it,
        # and the Changes say what was dropped (DESIGN §5). Mistral names it; others send [].
        assert errors in ([], [("mis.empty", "messages", "Conversation must have at least one message")])
        return
    assert errors == []
    assert session.model_dump() == before  # never mutated


@pytest.mark.parametrize("provider", PROVIDERS)
@settings(SETTINGS, max_examples=max(EXAMPLES // 4, 50))
@given(session=broken_sessions())
def test_reference_is_idempotent(provider: str, session: Session) -> None:
    once = curate(session, provider)
    twice = curate(once.session, provider)
    assert twice.session == once.session
    assert [c.to_json() for c in twice.changes] == []
    assert once.original is session


@pytest.mark.parametrize("provider", PROVIDERS)
@settings(SETTINGS, max_examples=max(EXAMPLES // 4, 50))
@given(session=broken_sessions())
def test_nothing_is_lost_silently(provider: str, session: Session) -> None:
    curation = curate(session, provider)
    payload = render(session, provider, strategy="toolhist")
    rendered = set(payload.source_map.values())
    explained = json.dumps([c.to_json() for c in curation.changes], ensure_ascii=False)
    curated_results = {
        (b.raw_call_id, json.dumps(b.result, sort_keys=True), b.error)
        for m in curation.session.messages
        for b in m.tool_responses()
    }
    for message in session.messages:
        for block in message.blocks:
            if isinstance(block, TextBlock) and block.text.strip():
                kept = any(
                    isinstance(b, TextBlock) and b.text == block.text
                    for m in curation.session.messages
                    for b in m.blocks
                )
                assert kept or json.dumps(block.text, ensure_ascii=False)[1:-1] in explained
            if isinstance(block, ToolResponseBlock):
                key = (block.raw_call_id, json.dumps(block.result, sort_keys=True), block.error)
                assert (
                    key in curated_results or json.dumps(block.result, ensure_ascii=False)[1:-1] in explained
                )
    # Everything the curated history holds goes out, except what the format cannot carry
    # (thinking in Chat Completions) or what its clients leave out (empty assistant text in
    # Responses: toolhist keeps blank text where the provider takes it), which the payload lists
    # as omitted.
    for m, message in enumerate(curation.session.messages):
        for b, block in enumerate(message.blocks):
            noted = any(f"message {m} block {b}" in note for note in payload.omitted)
            if isinstance(block, ToolResponseBlock):
                assert (m, b) in rendered, (m, b)
            if isinstance(block, TextBlock):
                sent = (m, b) in rendered or (message.speaker == "system" and (m, None) in rendered)
                assert sent or (noted and not block.text.strip()), (m, b)
            if isinstance(block, ThinkingBlock) and (m, b) not in rendered:
                assert noted, (m, b)


@pytest.mark.parametrize("provider", PROVIDERS)
@settings(SETTINGS, max_examples=max(EXAMPLES // 4, 50))
@given(session=broken_sessions())
def test_an_accepted_history_gets_no_change(provider: str, session: Session) -> None:
    found = validate(session, provider)
    curation = curate(session, provider)
    if not found:
        assert curation.changes == ()
        assert curation.session.messages == session.messages
        assert render(session, provider, strategy="toolhist").body == render(session, provider).body
        return
    # Each Change names only rules the history as given breaks, and the error repairs come first.
    rules = {v.rule: v.severity for v in found}
    for change in curation.changes:
        assert set(change.fixes) <= set(rules), (change.pass_, change.fixes)
    kinds = [
        0 if any(rules[r] == "error" for r in c.fixes) else 1 if c.fixes else 2 for c in curation.changes
    ]
    assert kinds == sorted(kinds)


@pytest.mark.parametrize("provider", PROVIDERS)
@settings(SETTINGS, max_examples=max(EXAMPLES // 4, 50))
@given(session=plain_sessions())
def test_the_passes_leave_a_plain_accepted_history_alone(provider: str, session: Session) -> None:
    """Not the accepted-history check: the passes themselves change nothing the provider takes."""
    if validate(session, provider):
        return
    assert [(c.pass_, c.action) for c in repair(session, provider, ()).changes] == []
