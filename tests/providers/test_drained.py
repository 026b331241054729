"""A walk's findings are let go as they are taken (`toolhist.providers.base.drained`).

Structural: the walk keeps each pass's findings in a list until their turn; a consumer that turns
each into a Violation must find the list shorter by one for every finding it took, so the findings
of a pass do not live beside all the Violations made from them.
"""

from __future__ import annotations

import gc

from hypothesis import given
from hypothesis import strategies as st

from toolhist.providers import provider_for
from toolhist.providers.base import Finding, drained


@given(st.lists(st.text(max_size=5), max_size=30))
def test_drained_gives_every_finding_in_order_and_keeps_none_taken(rules: list[str]) -> None:
    findings = [Finding(rule, ("messages", n)) for n, rule in enumerate(rules)]
    expected = list(findings)
    taken = []
    for n, finding in enumerate(drained(findings)):
        taken.append(finding)
        assert len(findings) == len(expected) - n - 1  # the one taken is no longer held
    assert taken == expected
    assert findings == []


def test_mistral_lets_its_id_findings_go_while_they_are_read() -> None:
    """The biggest pass of a real check (one finding per call id): a finding read is no longer in the walk's list."""
    calls = [
        {"id": f"call_{n:04d}xyz", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        for n in range(50)
    ]
    messages: list[dict[str, object]] = [{"role": "user", "content": "go"}]
    for call in calls:
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": call["id"], "content": "ok"})
    check = provider_for("mistral").check({"model": "mistral-large-latest", "messages": messages})
    first = next(f for f in check if f.rule == "mis.id_format")  # the check is still running
    assert [r for r in gc.get_referrers(first) if isinstance(r, list)] == []
    rest = [f for f in check if f.rule == "mis.id_format"]
    assert len(rest) == 99  # each id at its call and at its result, all still given
