"""`in_verdict`: a pasted 400 that names its rule and no message is led to the session's own errors of it.

Gemini's texts never name a message, nor does OpenAI's "messages with role 'tool' must be a response to
a preceeding message with 'tool_calls'": `explain` finds no culprit in the text, and the session's
verdict for that provider says where the rule is broken (issue 24: paste a 400 and reach the culprit).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from toolhist import load
from toolhist.check import check
from toolhist.explain import Explanation, explain, in_verdict
from toolhist.providers.base import Violation

SAMPLES = Path(__file__).parent.parent / "sample_logs"
GEMINI_FC = "Please ensure that function call turn comes immediately after a user turn or after a function response turn."
ICONTENT = (
    SAMPLES / "llxprt_icontent.json"
)  # gemini: gem.fc_position and gem.fc_fr_mixed at 4, gem.fr_count at 5


def gemini_verdict() -> list[Violation]:
    return check(ICONTENT, ["gemini"]).results["gemini"]


def test_a_gemini_text_is_led_to_the_message_the_verdict_names() -> None:
    found = explain(GEMINI_FC, load(ICONTENT))
    assert (found.provider, found.rule, found.message_index, found.call_ids) == (
        "gemini",
        "gem.fc_position",
        None,
        (),
    )
    verdict = gemini_verdict()
    same = in_verdict(found, verdict)
    assert [(v.rule, v.severity, v.message_index) for v in same] == [("gem.fc_position", "error", 4)]
    assert same == [v for v in verdict if v.rule == "gem.fc_position"]


def test_a_text_that_names_a_message_or_ids_or_no_provider_is_not_led_anywhere() -> None:
    verdict = gemini_verdict()
    base = explain(GEMINI_FC, load(ICONTENT))
    assert in_verdict(base.model_copy(update={"message_index": 2}), verdict) == []
    assert in_verdict(base.model_copy(update={"call_ids": ("call_FromAnotherRun",)}), verdict) == []
    assert in_verdict(base.model_copy(update={"provider": None}), verdict) == []
    unknown = Explanation(provider=None, rule=None, error_text="something else", reason="no match")
    assert in_verdict(unknown, verdict) == []


def test_the_rule_the_text_names_and_nothing_else() -> None:
    found = explain(GEMINI_FC, load(ICONTENT))
    verdict = gemini_verdict()
    fr_count = found.model_copy(update={"rule": "gem.fr_count"})
    assert [(v.rule, v.message_index) for v in in_verdict(fr_count, verdict)] == [("gem.fr_count", 5)]
    assert in_verdict(found.model_copy(update={"rule": "gem.fr_position"}), verdict) == []  # not broken here
    assert in_verdict(found, []) == []


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_mutated_verdict_gives_its_located_errors_of_the_rule_in_its_order(data: st.DataObject) -> None:
    found = explain(GEMINI_FC, load(ICONTENT))
    real = next(v for v in gemini_verdict() if v.rule == "gem.fc_position")
    n = data.draw(st.integers(min_value=0, max_value=8))
    verdict = [
        real.model_copy(
            update={
                "rule": data.draw(st.sampled_from(["gem.fc_position", "gem.fr_count"])),
                "severity": data.draw(st.sampled_from(["error", "warning"])),
                "message_index": data.draw(st.one_of(st.none(), st.integers(min_value=0, max_value=50))),
            }
        )
        for _ in range(n)
    ]
    got = in_verdict(found, verdict)
    want = [
        v
        for v in verdict
        if v.rule == "gem.fc_position" and v.severity == "error" and v.message_index is not None
    ]
    assert [id(v) for v in got] == [id(v) for v in want]
