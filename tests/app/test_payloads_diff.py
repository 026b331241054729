"""The Payloads page marks what differs between two providers' bodies per message, and a repaired
view names the message as sent each row came from (issue 24). Real AppTest runs of the page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Expander

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
PAGE = "app_pages/4_Payloads.py"


def payloads(providers: list[str], **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(PAGE).run()
    at.multiselect(key="pl_providers").set_value(providers).run()
    at.number_input(key="pl_from").set_value(0).run()
    assert not at.exception, at.exception
    return at


def message(at: AppTest, title: str) -> Expander:
    [found] = [e for e in at.expander if e.label.startswith(title)]
    return found


def test_two_bodies_differ_where_their_formats_do_and_nowhere_else() -> None:
    at = payloads(["openai-chat", "anthropic"], sample="openai_chat_request.json")
    assert (
        at.sidebar.selectbox(key="pl_diff_a:openai-chat|anthropic").value,
        at.sidebar.selectbox(key="pl_diff_b:openai-chat|anthropic").value,
    ) == ("openai-chat", "anthropic")
    same = message(at, "Message 1 · user")  # a user's text: the same JSON in both formats
    assert [c.value for c in same.caption][
        -1
    ] == "openai-chat and anthropic get the same lines for this message."
    assert not same.code
    calls = message(at, "Message 2 · assistant")  # two tool calls: tool_calls/function vs content/tool_use
    assert "What differs: lines only openai-chat gets (-), only anthropic gets (+)" in [
        c.value for c in calls.caption
    ]
    [code] = calls.code
    assert code.language == "diff"
    lines = code.value.splitlines()
    assert lines[:3] == ["--- openai-chat", "+++ anthropic", "@@ -1,21 +1,20 @@"]
    assert '-  "tool_calls": [' in lines
    assert lines.count('+      "type": "tool_use",') == 2
    assert '-        "arguments": "{\\"path\\": \\"tests/test_login.py\\"}"' in lines
    assert '+        "path": "tests/test_login.py"' in lines
    assert '       "id": "call_8fJx2LmQ0pV4tR7wN1sYb3Kd",' in lines  # the same id: context, not marked


def test_choosing_one_provider_twice_marks_nothing() -> None:
    at = payloads(["openai-chat", "anthropic"], sample="openai_chat_request.json")
    at.sidebar.selectbox(key="pl_diff_b:openai-chat|anthropic").set_value("openai-chat").run()
    assert not at.exception
    assert not [c for c in at.caption if c.value.startswith("What differs")]
    assert not [c for c in at.code if c.language == "diff"]


def test_a_repaired_row_names_the_message_as_sent() -> None:
    at = payloads(
        ["openai-chat", "anthropic", "mistral"],
        sample="provider_switch_duplicate_results.json",
        repair="toolhist",
    )
    titles = [e.label.split(" · :")[0] for e in at.expander if e.label.startswith("Repaired message")]
    # toolhist moves the results of messages 2 and 6 as sent into one tool turn: later rows shift
    assert titles == [
        "Repaired message 0 · source message 0",
        "Repaired message 1 · source message 1",
        "Repaired message 2 · source message 3",
        "Repaired message 3 · source: openai-chat 4, anthropic 4, mistral inserted",
        "Repaired message 4 · source message 5",
        "Repaired message 5 · source message 7",
    ]


def test_a_long_message_is_diffed_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = [
        {"id": f"call_{n:04d}", "type": "function", "function": {"name": "ls", "arguments": "{}"}}
        for n in range(400)
    ]
    body = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "list"},
            {"role": "assistant", "content": None, "tool_calls": calls},
            *({"role": "tool", "tool_call_id": c["id"], "content": "a"} for c in calls),
        ],
    }
    path = tmp_path / "wide.json"
    path.write_text(json.dumps(body))
    monkeypatch.setenv("TOOLHIST_OPEN", str(tmp_path))
    at = payloads(["openai-chat", "anthropic"], path=str(path))
    wide = message(at, "Message 1 · assistant")
    [toggle] = wide.toggle
    # openai-chat: 4 + 8 per call + 2 = 3,206 lines; anthropic: 3 + 6 per call + 2 = 2,405
    assert toggle.label == "Mark what differs (5,611 lines)"
    assert not wide.code
    toggle.set_value(True).run()
    [code] = message(at, "Message 1 · assistant").code
    assert code.value.splitlines()[:3] == ["--- openai-chat", "+++ anthropic", "@@ -1,3206 +1,2405 @@"]
