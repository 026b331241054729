"""The app's Verify page under AppTest: off by default, one request when turned on and pressed, the ledger.

Here and not in tests/app: it needs `offline.verify_env` (keys and base URLs on 127.0.0.1 only).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import streamlit as st
from fake_provider import serve
from offline import bases, verify_env_fixture  # noqa: F401  # the fixture "verify_env"
from streamlit.testing.v1 import AppTest

from toolhist.verify import export, read

pytestmark = pytest.mark.usefixtures("verify_env")
ROOT = Path(__file__).parent.parent.parent
APP = str(ROOT / "app.py")
SAMPLES = sorted(p.name for pattern in ("*.json", "*.jsonl") for p in (ROOT / "sample_logs").glob(pattern))


def home(fake: str, monkeypatch: pytest.MonkeyPatch, sample: str, **params: str) -> AppTest:
    """Home run once on ``sample`` (``params`` as the link's), the providers' hosts the fake's."""
    for name, value in bases(fake).items():
        monkeypatch.setenv(name, value)
    st.cache_resource.clear()
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params["sample"] = sample
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def verify_page(fake: str, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    at = home(fake, monkeypatch, "openai_chat_request.json", provider="openai-chat")
    at.switch_page("app_pages/9_Verify.py").run()
    assert not at.exception, at.exception
    return at


def test_sending_is_off_until_turned_on(verify_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with serve() as (fake, recorder):
        at = verify_page(fake, monkeypatch)
        assert at.toggle(key="vf_allow").value is False
        assert [b.key for b in at.button] == []
        assert [i.value for i in at.info] == ["Sending is off: nothing leaves this machine."]
        plan = at.code[0].value.splitlines()
        assert plan[1:4] == [
            "provider   openai-chat (Chat Completions), model gpt-4.1, strategy none",
            f"send       POST {fake}/v1/chat/completions",
            "body       2,907 bytes, ~791 tokens (exact (o200k_base))",
        ]
        assert "key        OPENAI_API_KEY" in plan
        assert "sk-test-openai" not in at.code[0].value
        at.toggle(key="vf_allow").set_value(True).run()  # on, but nothing pressed yet
        assert recorder.calls == []
    assert not verify_env.exists()
    shown = [re.sub(r"\\(.)", r"\1", c.value) for c in at.caption]  # the page escapes Markdown
    assert f"0 request(s) sent, kept in {verify_env}" in shown


def test_send_records_the_answer_and_the_export_is_structure_only(
    verify_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve() as (fake, recorder):
        at = verify_page(fake, monkeypatch)
        at.toggle(key="vf_allow").set_value(True).run()
        at.button(key="vf_send").click().run()
        assert not at.exception, at.exception
    assert [(p, s) for p, _, s in recorder.calls] == [("/v1/chat/completions", 400)]
    [row] = read(verify_env)[0]
    assert (row["predicted"]["errors"], row["answer"]["rule"], row["outcome"]) == (
        ["oai.call_unanswered"],
        "oai.call_unanswered",
        "confirmed",
    )
    assert [s.value for s in at.success] == ["Outcome: confirmed"]
    assert at.code[1].value.splitlines()[0] == "answer     400 invalid_request_error"
    table = at.dataframe[0].value
    assert table[["provider", "status", "predicted", "answered", "outcome"]].values.tolist() == [
        ["openai-chat", 400, "oai.call_unanswered", "oai.call_unanswered", "confirmed"]
    ]
    [download] = at.get("download_button")
    assert download.proto.label == "Export for a bug report (structure only: no text, ids or keys)"
    assert "call_Rk2Vb7nXc4LzA9qWe6tYu1Io" in row["answer"]["error_text"]  # kept at home…
    assert "call_Rk2Vb7nXc4LzA9qWe6tYu1Io" not in json.dumps(export([row]))  # …never exported


@pytest.mark.parametrize("sample", SAMPLES)
def test_the_page_runs_on_every_sample_and_sends_nothing(
    sample: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve() as (fake, recorder):
        for name, value in bases(fake).items():
            monkeypatch.setenv(name, value)
        at = AppTest.from_file(APP, default_timeout=90)
        at.query_params["sample"] = sample
        at.run()
        at.switch_page("app_pages/9_Verify.py").run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert recorder.calls == []
    provider = at.selectbox(key="vf_provider").value  # the one it ran on, else the first that rejects it
    if at.warning:  # a history that names no model: the page says how to name one, in its own words
        assert [w.value for w in at.warning] == ["This request cannot be planned yet."]
        assert at.code[0].value.endswith(
            f"the request names no model for {provider}; type one in the Model box"
        )
    else:
        assert re.fullmatch(
            rf"provider   {provider} \(.+\), model \S+, strategy none", at.code[0].value.splitlines()[1]
        )


def test_verify_sends_as_sent_whatever_curation_picked(
    verify_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The strategy chosen on Curation is a repair to look at; Verify confirms the history as sent."""
    with serve() as (fake, _):
        at = home(fake, monkeypatch, "openai_chat_request.json")
        at.switch_page("app_pages/3_Curation.py").run()
        assert at.selectbox(key="cu_strategy").value == "toolhist"
        at.switch_page("app_pages/9_Verify.py").run()
        assert not at.exception, at.exception
        assert at.selectbox(key="vf_strategy").value == "none"
        assert at.code[0].value.splitlines()[1].endswith("strategy none")


def test_a_log_without_a_model_in_its_bodies_sends_the_model_it_ran_on(
    verify_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Claude Code log names its model in its metadata, not in a request body: Verify plans with it, on
    the provider it ran on, and says where it came from; another model typed in the box wins."""
    with serve() as (fake, _):
        at = home(fake, monkeypatch, "claude_code_compacted_result.jsonl")
        at.switch_page("app_pages/9_Verify.py").run()
        assert not at.exception, at.exception
        assert at.selectbox(key="vf_provider").value == "anthropic"
        assert (
            at.code[0]
            .value.splitlines()[1]
            .startswith("provider   anthropic (Messages), model claude-sonnet-4-5-20250929")
        )
        shown = [re.sub(r"\\(.)", r"\1", c.value) for c in at.caption]
        assert (
            "Model claude-sonnet-4-5-20250929: the one the log ran on (message 6 metadata); type another above."
            in shown
        )
        at.text_input(key="vf_model").set_value("claude-haiku-4-5").run()
        assert (
            at.code[0]
            .value.splitlines()[1]
            .startswith("provider   anthropic (Messages), model claude-haiku-4-5")
        )
        at.selectbox(key="vf_provider").set_value("gemini").run()
        at.text_input(key="vf_model").set_value("").run()
        # another provider than the one it ran on: the log's model is not offered, the box is named
        assert [w.value for w in at.warning] == ["This request cannot be planned yet."]
        assert at.code[0].value.endswith("the request names no model for gemini; type one in the Model box")
