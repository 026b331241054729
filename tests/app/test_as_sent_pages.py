"""As sent first and honest pages, under AppTest: each behaviour of issue 24's parts 2 and 6.

Every page opens on the session as sent and says so; the repaired view is a switch; a provider's
verdict reads the same on Home, Payloads and Curation; a failed read is all any page shows; Explain
names a culprit only for ids the session holds; ids are shown as written; the Timeline opens on the
chosen provider's first error; a compaction's saving is a saving; long id lists are tables.
"""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.check import check
from toolhist.providers import render
from toolhist.views.body import omitted_groups
from toolhist.views.sent import AS_SENT, verdict_line

ROOT = Path(__file__).parent.parent.parent
APP = str(ROOT / "app.py")
SAMPLE = "openai_chat_request.json"  # openai-chat rejects it (message 9); Mistral warns earlier, on ids
CORPUS = ROOT / "tests" / "corpus" / "logs"


def app(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def to(at: AppTest, page: str) -> AppTest:
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def texts(at: AppTest) -> list[str]:
    return [t.value for t in at.text]


def frame_with(at: AppTest, column: str):  # type: ignore[no-untyped-def]
    return next(d.value for d in at.dataframe if column in d.value.columns)


def captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


def test_payloads_opens_as_sent_after_curation_chose_a_repair() -> None:
    at = app(sample=SAMPLE)
    result = check(ROOT / "sample_logs" / SAMPLE)
    home = {row["provider"]: row["verdict"] for row in frame_with(at, "verdict").to_dict("records")}
    assert home["openai-chat"] == "rejects (HTTP 400)"
    to(at, "app_pages/3_Curation.py")
    assert at.query_params["strategy"] == "toolhist"  # Curation's own choice, in the URL
    assert at.markdown[0].value.startswith("**As sent**, openai-chat rejects (HTTP 400): 1 error")
    to(at, "app_pages/4_Payloads.py")
    assert at.toggle(key="pl_repaired").value is False
    assert captions(at)[0].startswith(AS_SENT)
    chosen = at.multiselect(key="pl_providers").value
    shown = [t for t in texts(at) if t.startswith("as sent: ")]
    assert shown == [f"as sent: {verdict_line(result.results[p])}" for p in chosen]
    assert "as sent: rejects (HTTP 400): 1 error" in shown  # openai-chat, as Home says


def test_the_repaired_view_is_a_switch_and_says_so() -> None:
    at = to(app(sample=SAMPLE), "app_pages/4_Payloads.py")
    assert not at.warning
    at.toggle(key="pl_repaired").set_value(True).run()
    assert at.query_params["repair"] == "toolhist"
    assert at.warning[0].value.startswith("**Repaired view**: the history as strategy `toolhist` repairs")
    assert [t for t in texts(at) if t.startswith("repaired by toolhist: ")] == [
        "repaired by toolhist: accepts"
    ] * len(at.multiselect(key="pl_providers").value)
    at.toggle(key="pl_repaired").set_value(False).run()
    assert "repair" not in at.query_params
    assert not at.warning


def test_a_link_names_a_repair_explicitly() -> None:
    at = to(app(sample=SAMPLE, repair="toolhist"), "app_pages/4_Payloads.py")
    assert at.toggle(key="pl_repaired").value is True
    assert at.selectbox(key="pl_strategy").value == "toolhist"


def test_a_failed_read_is_all_every_page_shows(tmp_path: Path) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text('{"hello": "world"}')
    at = app(sample=SAMPLE)
    at.segmented_control(key="source").set_value("Path").run()
    at.text_input(key="path").input(str(bad)).run()
    assert at.error[0].value == "This input cannot be read as a session."
    detail = at.code[0].value
    assert "unknown format" in detail
    assert detail.endswith("choose that reader in the Format box (sidebar of Home).")
    assert not at.metric
    assert not at.get("progress")
    del at.query_params["path"]  # as a page reached from the sidebar: no link, the session held
    for page in (
        "app_pages/1_Timeline.py",
        "app_pages/2_Violations.py",
        "app_pages/4_Payloads.py",
        "app_pages/5_Explain.py",
    ):
        to(at, page)
        assert [e.value for e in at.error] == ["This input cannot be read as a session. (opened on Home)"]
        assert "unknown format" in at.code[0].value
        assert not at.metric
        assert not at.dataframe
        assert not at.text
        assert not at.get("progress")


def test_explain_says_an_id_is_not_in_this_session() -> None:
    at = to(app(sample=SAMPLE), "app_pages/5_Explain.py")
    at.text_area(key="ex_text").input(
        "Invalid parameter: 'tool_call_id' of 'call_FromAnotherRun00000000' not found in 'tool_calls' of "
        "previous message."
    ).run()
    assert {m.label: m.value for m in at.metric}["Culprit message"] == "unknown"
    assert at.warning[0].value.startswith("Not in this session")
    assert list(frame_with(at, "call id (as written)")["call id (as written)"]) == [
        "call_FromAnotherRun00000000"
    ]
    assert not [s for s in at.subheader if s.value == "The culprit message"]


GEMINI_FC = "Please ensure that function call turn comes immediately after a user turn or after a function response turn."


def test_explain_leads_a_text_that_names_no_message_to_the_sessions_own_error() -> None:
    # Gemini's texts name no message: the session's gemini verdict says where (`toolhist.explain.in_verdict`)
    at = to(app(sample="llxprt_icontent.json"), "app_pages/5_Explain.py")
    at.text_area(key="ex_text").input(GEMINI_FC).run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Culprit message"] == "unknown"  # the text names none
    assert [i.value for i in at.info] == [
        "The text names no message. This session's gemini verdict has 1 gem.fc_position error(s), in "
        "message(s) 4; the first is message 4."
    ]
    assert [s.value for s in at.subheader] == ["The first gem.fc_position error in this session"]
    assert next(t.value for t in at.text if t.value.startswith("Message ")).startswith("Message 4 · ")
    assert not at.warning


def test_explain_says_when_the_session_does_not_break_the_rule_the_text_names() -> None:
    at = to(app(sample=SAMPLE), "app_pages/5_Explain.py")
    at.text_area(key="ex_text").input(GEMINI_FC).run()
    assert {m.label: m.value for m in at.metric}["Culprit message"] == "unknown"
    assert (
        "The text names no message of this session, and its gemini verdict has no gem.fc_position error: "
        "the 400 may be about another history." in captions(at)
    )
    assert not at.subheader
    assert not at.info


def test_explain_with_an_empty_box_checks_nothing_more() -> None:
    at = to(app(sample=SAMPLE), "app_pages/5_Explain.py")
    options = at.selectbox(key="ex_example").options
    # one example per provider and rule (Home checked every provider), not one per violation
    labels = [o.rsplit(" · message", 1)[0] for o in options]
    assert len(labels) == len(set(labels))
    result = check(ROOT / "sample_logs" / SAMPLE)
    assert set(labels) == {
        f"{v.provider} · {v.rule}" for f in result.results.values() for v in f if v.severity == "error"
    }


def test_ids_are_shown_as_written(tmp_path: Path) -> None:
    source = CORPUS / "codex" / "kvsankar-escalation-interrupted.fixture.jsonl"
    log = tmp_path / "rollout.jsonl"
    log.write_text(source.read_text().replace("call_esc_004", "call_ESC_004"))
    at = app(path=str(log))
    line = next(t for t in texts(at) if t.startswith("Judged as the next request"))
    assert line.endswith("placeholder results for 1 pending call(s): call_ESC_004")


def test_long_id_lists_are_tables() -> None:
    calls = [
        {"id": f"call_Pending{n:02d}", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        for n in range(12)
    ]
    body = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "tool_calls": calls},
            {"role": "user", "content": "and?"},
        ],
    }
    at = app()
    at.segmented_control(key="source").set_value("Paste").run()
    at.text_area(key="paste").input(json.dumps(body)).run()
    assert "Unanswered calls: 12" in texts(at)
    assert list(frame_with(at, "call id")["call id"]) == [c["id"] for c in calls]


def test_the_timeline_opens_on_the_first_error_of_the_default_provider() -> None:
    at = to(app(sample=SAMPLE), "app_pages/1_Timeline.py")
    result = check(ROOT / "sample_logs" / SAMPLE)
    first_mistral = min(v.message_index for v in result.results["mistral"] if v.message_index is not None)
    first_error = min(
        v.message_index
        for v in result.results["openai-chat"]
        if v.severity == "error" and v.message_index is not None
    )
    assert first_mistral < first_error  # the warning the page used to open on
    assert at.multiselect(key="tl_providers").value == ["openai-chat"]
    assert at.number_input(key="tl_msg").value == first_error


def test_a_compaction_saving_reads_as_a_saving() -> None:
    at = to(app(sample="gemini_cli_session.jsonl"), "app_pages/6_Compaction.py")
    at.number_input(key="co_keep").set_value(0).run()
    at.number_input(key="co_threshold").set_value(0).run()
    before = int(next(m for m in at.metric if m.label == "Tokens before").value)
    metric = next(m for m in at.metric if m.label == "Tokens after")
    after = int(metric.value)
    assert after < before
    assert metric.proto.delta == f"{after - before:,}"
    assert metric.proto.color == metric.proto.MetricColor.GREEN  # fewer tokens is good news
    assert metric.proto.direction == metric.proto.MetricDirection.DOWN


def test_the_model_the_log_names_is_named() -> None:
    log = CORPUS / "claude-code" / "drmaciver-hello-world-script.jsonl"
    session = toolhist.load(log)
    assert any(o.startswith("model: the source named none") for o in render(session, "anthropic").omitted)
    at = app(path=str(log))
    assert any(
        t.startswith("Ran on anthropic (claude-opus-4-5-20251101;") for t in texts(at)
    )  # Home names it
    at = to(at, "app_pages/4_Payloads.py")
    examples = [e for d in at.dataframe if "example" in d.value.columns for e in d.value["example"]]
    assert (
        "model: the source names claude-opus-4-5-20251101 in its log, not in a request field; "
        "set one before sending"
    ) in examples
    assert not any("named none" in e for e in examples)
    assert omitted_groups(["message 2 block 0: x", "message 4 block 0: x", "message 4 block 1: x"]).to_dict(
        "records"
    ) == [{"kind": "message N block N: x", "count": 3, "messages": "2, 4", "example": "message 2 block 0: x"}]


def test_home_keeps_a_pasted_session_after_another_page() -> None:
    body = (ROOT / "sample_logs" / SAMPLE).read_text()
    at = app()
    at.segmented_control(key="source").set_value("Paste").run()
    at.text_area(key="paste").input(body).run()
    assert "Session: <pasted text>" in texts(at)
    to(at, "app_pages/2_Violations.py")
    at.switch_page("home.py").run()  # the home page: app.py only navigates
    assert not at.exception
    assert at.segmented_control(key="source").value == "Paste"
    assert "Session: <pasted text>" in texts(at)
    assert "Showing the session opened earlier; paste another to replace it." in captions(at)
