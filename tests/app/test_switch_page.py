"""The Switch page (AppTest): seed 000's scenario shows the 400 and the strategy that avoids it."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.switch import switch

ROOT = Path(__file__).parent.parent.parent
APP = str(ROOT / "app.py")
PAGE = "app_pages/8_Switch.py"
SAMPLE = "switch_back_thinking.json"
OURS = ["none", "toolhist", "vercel-ai"]


def open_switch(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def frames(at: AppTest, column: str) -> list[list[object]]:
    return [
        [v if isinstance(v, str) else int(v) for v in row]
        for d in at.dataframe
        if column in d.value.columns
        for row in d.value.itertuples(index=False)
    ]


def test_seed_000_switch_and_back_on_the_page() -> None:
    at = open_switch(sample=SAMPLE, to="gemini", back="anthropic")
    at.number_input(key="sw_at").set_value(5).run()
    at.number_input(key="sw_back_at").set_value(7).run()
    at.multiselect(key="sw_strategies").set_value(OURS).run()
    assert not at.exception, at.exception
    heads = [h.value for h in at.subheader]
    assert heads == ["Switch to gemini at message 5", "Back to anthropic at message 7"]
    texts = [t.value for t in at.text]
    assert (
        "Before the switch the messages were made on anthropic (a request body in its own format)." in texts
    )
    assert "messages 0-4 anthropic, 5-6 gemini" in texts
    assert texts.count("Accepted by: toolhist") == 1
    verdicts = frames(at, "foreign tokens")
    expected = switch(
        toolhist.load(ROOT / "sample_logs" / SAMPLE),
        5,
        "gemini",
        back_to="anthropic",
        back_at=7,
        strategies=OURS,
    )
    back = expected.legs[1]
    assert verdicts[3:] == [
        ["none", "400", "400 ant.thinking_first", back.strategies["none"].changes, 0, ""],
        ["toolhist", "accepted", "", back.strategies["toolhist"].changes, 0, ""],
        ["vercel-ai", "400", "400 ant.thinking_signature", back.strategies["vercel-ai"].changes, 1, ""],
    ]
    (foreign,) = frames(at, "made by")
    assert foreign == [
        "vercel-ai",
        "messages.5.content.0.signature",
        "thought_signature",
        "gemini",
        5,
        "rejected",
        "messages.5.content.0: Invalid `signature` in `thinking` block",
    ]


def test_stay_shows_one_leg_and_every_body_is_code() -> None:
    at = open_switch(sample=SAMPLE, to="openai-chat", back="(stay)")
    at.multiselect(key="sw_strategies").set_value(["none"]).run()
    assert [h.value for h in at.subheader] == ["Switch to openai-chat at message 4"]
    assert at.code[0].language == "json"
    assert '"role": "user"' in at.code[0].value


def test_a_prefix_edited_before_anthropic_thinking_is_named_for_fable_and_opus_5_5() -> None:
    at = open_switch(sample=SAMPLE, to="gemini", back="anthropic")
    at.number_input(key="sw_at").set_value(5).run()
    at.text_input(key="sw_back_model").input("claude-opus-5-5").run()
    at.multiselect(key="sw_strategies").set_value(["none", "toolhist", "canonical"]).run()
    assert not at.exception, at.exception
    rows = frames(at, "prefix changed")
    # toolhist changes nothing Anthropic takes (issue 24); canonical rewrites messages.1
    assert [(r[0], r[-1]) for r in rows[3:]] == [
        ("none", ""),
        ("toolhist", ""),
        ("canonical", "messages.3.content.0 (messages.1)"),
    ]
    assert any(
        t.value.startswith("canonical: the prefix of messages.3.content.0 changed (messages.1)")
        for t in at.text
    )
