"""The home page under AppTest: default sample, every sample, paste, upload, deep link, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from toolhist.providers import PROVIDERS

APP = str(Path(__file__).parent.parent.parent / "app.py")
SAMPLES = sorted(
    p.name for pattern in ("*.json", "*.jsonl") for p in (Path(APP).parent / "sample_logs").glob(pattern)
)


def start() -> AppTest:
    return AppTest.from_file(APP, default_timeout=60)


def codes(at: AppTest) -> list[str]:
    return [c.value for c in at.code]


def test_first_run_opens_the_default_sample() -> None:
    at = start().run()
    assert not at.exception
    assert at.selectbox(key="sample").value == "openai_chat_request.json"
    assert [m.value for m in at.metric] == ["10", "4", "3", "1", "0"]
    assert {m.proto.format for m in at.metric} == {"%,d"}  # the browser writes 404,580, not 404580
    assert "Unanswered calls: call_Rk2Vb7nXc4LzA9qWe6tYu1Io" in [t.value for t in at.text]
    assert "Judged as sent (a request body)" in [t.value for t in at.text]
    assert "**Format:** `openai-chat`" in at.markdown[0].value
    verdicts = at.dataframe[0].value
    counts = {"type_config": {"type": "number", "format": "%,d"}}  # 12,904 errors, not 12904
    assert json.loads(at.dataframe[0].proto.columns)["errors"] == counts
    assert json.loads(at.dataframe[1].proto.columns)["mistral"] == counts  # the rule-by-provider matrix
    row = verdicts[verdicts["provider"] == "openai-chat"].iloc[0]
    assert (row["verdict"], row["errors"], row["rules"], row["checked"]) == (
        "rejects (HTTP 400)",
        1,
        "oai.call_unanswered",
        "body as sent",
    )
    messages = next(d.value for d in at.dataframe if "preview" in d.value.columns)
    assert len(messages) == 10
    # the roles the file and the Conversation page say (the library's names are human and ai)
    assert list(messages["role"]) == [
        "system", "user", "assistant", "tool", "tool", "assistant", "tool", "assistant", "user", "assistant"
    ]  # fmt: skip
    summary = next(d.value for d in at.dataframe if "value" in d.value.columns)
    assert list(summary[""][2:6]) == ["  system", "  user", "  assistant", "  tool"]
    assert list(summary["value"][2:6]) == ["1", "2", "4", "3"]
    assert messages.iloc[2]["preview"] == (
        "call read_file(call_8fJx2LmQ0pV4tR7wN1sYb3Kd) · call run_shell(call_Zq5Hn9cWe1XuT6gA4mBv0Ros)"
    )


@pytest.mark.parametrize(
    ("name", "fmt", "messages"),
    [
        ("anthropic_request.json", "anthropic", "8"),
        ("bedrock_converse.json", "bedrock", "8"),
        ("gemini_request.json", "gemini", "8"),
        ("llxprt_icontent.json", "icontent", "7"),
        ("openai_chat_request.json", "openai-chat", "10"),
        ("openai_responses_input.json", "openai-responses", "8"),
    ],
)
def test_each_sample_shows_its_format(name: str, fmt: str, messages: str) -> None:
    at = start().run()
    at.selectbox(key="sample").set_value(name).run()
    assert not at.exception
    assert f"`{fmt}`" in at.markdown[0].value
    assert at.metric[0].value == messages
    assert at.query_params["sample"] == name  # the URL now names the sample: shareable


def test_an_agent_log_is_judged_as_its_next_request() -> None:
    at = start().run()
    at.selectbox(key="sample").set_value("gemini_cli_session.jsonl").run()
    assert not at.exception
    assert (
        "Judged as the next request the agent would send: its history + a placeholder user turn "
        "(the log ends with the model's answer)"
    ) in [t.value for t in at.text]
    assert "Ran on gemini (gemini-2.5-pro; message 8 metadata)" in [t.value for t in at.text]
    verdicts = at.dataframe[0].value
    row = verdicts[verdicts["provider"] == "gemini"].iloc[0]
    assert (row["verdict"], row["errors"], row["checked"]) == ("accepts", 0, "rendered by toolhist")


def test_every_sample_is_in_the_gallery() -> None:
    at = start().run()
    assert at.selectbox(key="sample").options == SAMPLES


def test_deep_link_preselects_a_sample() -> None:
    at = start()
    at.query_params["sample"] = "anthropic_request.json"
    at.run()
    assert at.selectbox(key="sample").value == "anthropic_request.json"
    assert "`anthropic`" in at.markdown[0].value


def test_unknown_deep_link_warns_and_falls_back() -> None:
    at = start()
    at.query_params["sample"] = "![x](http://example.invalid/p.png)"
    at.run()
    assert not at.exception
    assert at.warning[0].value == "There is no bundled sample by that name; showing openai_chat_request.json."
    assert "![x](http://example.invalid/p.png)" in codes(at)  # shown literally, never as Markdown
    assert at.selectbox(key="sample").value == "openai_chat_request.json"


def test_pasting_truncated_json_shows_the_location() -> None:
    at = start().run()
    at.segmented_control(key="source").set_value("Paste").run()
    at.text_area(key="paste").input(
        '{"messages": [\n  {"role": "user", "content": "hi"},\n  {"role": "assis'
    ).run()
    assert not at.exception
    assert at.error[0].value == "This input cannot be read as a session."
    assert codes(at) == ["<pasted text>:3:18: not valid JSON: unexpected end of data"]


def test_pasting_a_body_reads_it() -> None:
    at = start().run()
    at.segmented_control(key="source").set_value("Paste").run()
    at.text_area(key="paste").input('[{"role": "tool", "tool_call_id": "call_1", "content": "x"}]').run()
    assert not at.exception
    assert "`openai-chat`" in at.markdown[0].value
    assert "Results answering no earlier call: call_1" in [t.value for t in at.text]


def test_uploading_invalid_bytes_names_the_file() -> None:
    at = start().run()
    at.segmented_control(key="source").set_value("Upload").run()
    at.file_uploader(key="upload").upload("broken.json", b'["caf\xe9"]', "application/json").run()
    assert not at.exception
    assert at.error[0].value == "This input cannot be read as a session."
    assert codes(at) == ["broken.json:1:6: not valid UTF-8 (byte 0xe9 at offset 5)"]


def test_path_input_reads_a_file_and_reports_a_missing_one(tmp_path: Path) -> None:
    f = tmp_path / "body.json"
    f.write_text('{"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}')
    at = start().run()
    at.segmented_control(key="source").set_value("Path").run()
    at.text_input(key="path").input(str(f)).run()
    assert "`gemini`" in at.markdown[0].value
    at.text_input(key="path").input(str(tmp_path / "missing.json")).run()
    assert at.error[0].value == "Cannot read that path."
    assert codes(at) == [f"{tmp_path / 'missing.json'}: no such file"]


def test_forced_format_is_used() -> None:
    at = start().run()
    at.sidebar.selectbox(key="format").set_value("anthropic").run()
    assert at.error[0].value == "This input cannot be read as a session."
    assert codes(at)[0].startswith("openai_chat_request.json:")


def test_unsent_and_skipped_records_are_shown(tmp_path: Path) -> None:
    # A Codex rollout with a ghost snapshot (kept, not sent) and a line kind the reader does not know.
    lines = [
        {"timestamp": "t", "type": "session_meta", "payload": {"id": "s", "cli_version": "0.63.0"}},
        {
            "timestamp": "t",
            "type": "response_item",
            "payload": {"type": "ghost_snapshot", "ghost_commit": {}},
        },
        {
            "timestamp": "t",
            "type": "response_item",
            "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
        },
        {"timestamp": "t", "type": "token_usage_record", "payload": {"input_tokens": 3}},
    ]
    f = tmp_path / "rollout.jsonl"
    f.write_text("".join(json.dumps(line) + "\n" for line in lines))
    at = start().run()
    at.segmented_control(key="source").set_value("Path").run()
    at.text_input(key="path").input(str(f)).run()
    assert not at.exception
    assert "`codex`" in at.markdown[0].value
    assert [i.value for i in at.info][:1] == ["Kept in the log, not sent to the model"]
    assert [w.value for w in at.warning] == ["Skipped: records this reader does not know"]
    assert codes(at)[:2] == ["ghost_snapshot x1", "line type 'token_usage_record' x1"]
    unsent = next(d.value for d in at.dataframe if "why not sent" in d.value.columns)
    assert unsent[["before message", "kind", "line", "source"]].to_dict(orient="records") == [
        {"before message": 0, "kind": "ghost_snapshot", "line": 2, "source": "payload"}
    ]


@pytest.mark.parametrize(
    ("sample", "first"),
    [
        ("anthropic_request.json", "anthropic"),  # a request body: the provider it was written for
        ("gemini_cli_session.jsonl", "gemini"),  # an agent log: the provider its metadata names
        ("bedrock_converse.json", "bedrock"),
    ],
)
def test_the_provider_it_ran_on_is_checked_first(
    monkeypatch: pytest.MonkeyPatch, sample: str, first: str
) -> None:
    """Home fills its verdict table as each provider is checked: the one the session ran on first.

    The real `toolhist.check.verdict` runs; the wrapper only records the order it is called in.
    """
    import streamlit as st

    from toolhist.views import kept, state

    order: list[str] = []
    from toolhist.check import verdict as real

    def recorded(document: object, session: object, provider: str, *args: object) -> object:
        order.append(provider)
        return real(document, session, provider, *args)  # type: ignore[arg-type]

    at = start().run()
    st.cache_resource.clear()  # verdicts computed by another test would not be computed again
    # and the app's note of what is cached (`toolhist.views.kept`), which the clear above leaves: an
    # earlier test in the same worker that checked this sample made Home take its verdicts as ready
    monkeypatch.setattr(kept, "_entries", {})
    monkeypatch.setattr(state, "verdict", recorded)
    at.selectbox(key="sample").set_value(sample).run()
    assert not at.exception
    assert order[0] == first
    assert sorted(order) == sorted(PROVIDERS)
    table = at.dataframe[0].value
    assert list(table["provider"]) == list(PROVIDERS)  # the final table in the usual order, every row filled
    assert not table["verdict"].str.contains("checking|waiting").any()
