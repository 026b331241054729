"""Home's Share section: the report is built on a click (never on a rerun), redacted, and offered as a file."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.report import report
from toolhist.views import share

ROOT = Path(__file__).parent.parent.parent
APP = str(ROOT / "app.py")
KEY = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2"  # an OpenAI key's shape, split so no scanner flags this file
HISTORY = {
    "model": "gpt-4.1",
    "messages": [
        {"role": "user", "content": f"use {KEY} to call the API"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
    ],
}


def downloads(at: AppTest) -> list[str]:
    return [d.proto.label for d in at.get("download_button")]


def test_the_report_is_built_on_a_click_and_is_the_cli_report_redacted() -> None:
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.segmented_control(key="source").set_value("Paste").run()
    at.text_area(key="paste").input(json.dumps(HISTORY)).run()
    assert not at.exception
    assert downloads(at) == []  # nothing built yet: reading a session does not pay for the report
    share._report.clear()
    at.button(key="share_build").click().run()
    assert not at.exception
    session = toolhist.load(json.dumps(HISTORY).encode(), name="<pasted text>")
    expected = report(session).encode()
    [label] = downloads(at)
    assert label == f"Download the report ({len(expected) / 1e3:,.0f} kB)"
    data = share._report(at.session_state["share_built"], "<pasted text>", session)  # the cached build
    assert data == expected
    assert KEY.encode() not in data
    assert b"[REDACTED:" in data
    assert b"<script" not in data
    at.run()  # a rerun keeps the download and builds nothing again
    assert downloads(at) == [label]
    assert not at.get("button") or "share_build" not in [b.key for b in at.button]


def test_the_report_of_a_sample_is_titled_with_its_file_name_as_the_cli_titles_it() -> None:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["sample"] = "openai_chat_request.json"
    at.run()
    share._report.clear()
    at.button(key="share_build").click().run()
    assert not at.exception
    sample = ROOT / "sample_logs" / "openai_chat_request.json"
    as_read = toolhist.load(sample.read_bytes(), name=sample.name)  # as the app reads a sample: no path
    data = share._report(at.session_state["share_built"], sample.name, as_read)  # the cached build
    cli = report(toolhist.load(str(sample))).encode()
    assert b"<title>toolhist report: openai_chat_request.json</title>" in cli
    assert data == cli
    assert b"<td>message 10, block 0</td>" in data  # a position in words, not "10.0"
