"""Issue 24's honest pages, under AppTest: Curation says why its two counts differ on a log that ends
on pending calls, Explain shows a rule id whole, and the Conversation page finds the subagent files
older Claude Code releases keep beside the session."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.check import check
from toolhist.curation import curate
from toolhist.views.transcript import threads

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
CLAUDE = ROOT / "tests" / "corpus" / "logs" / "claude-code"
PENDING_LOG = CLAUDE / "marot-spotter-4d5611e5-main.jsonl"  # ends on two pending Bash calls
FINISHED_LOG = CLAUDE / "drmaciver-hello-world-script.jsonl"  # ends on the model's answer


def opened(page: str | None, **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    if page is not None:
        at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def home_row(at: AppTest, provider: str) -> tuple[str, int]:
    verdicts = at.dataframe[0].value
    row = verdicts[verdicts["provider"] == provider].iloc[0]
    return str(row["verdict"]), int(row["errors"])


def test_curation_says_why_a_pending_log_has_no_errors_but_repairs() -> None:
    home = opened(None, path=str(PENDING_LOG))
    assert home_row(home, "anthropic") == ("accepts", 0)  # Home: the next request, results included
    at = opened("app_pages/3_Curation.py", path=str(PENDING_LOG), provider="anthropic", strategy="toolhist")
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Errors before"], metrics["Changes"]) == ("0", "2")  # Home's count beside the repairs
    captions = [c.value for c in at.caption]
    assert "2 change(s) repair a violation of the history as given (column fixes): listed first." in captions
    assert (
        "The log ends on 2 pending tool call(s): Errors before judges it as the next request, where the agent "
        "sends their results, while the history as given has no results for them, which is what 2 close "
        "change(s) repair."
    ) in captions
    assert (
        "Each row judges the history its strategy hands on, as given: the calls the log leaves pending count "
        "as unanswered there (Errors before, above, judges the next request, which sends their results)."
    ) in captions
    session = toolhist.load(PENDING_LOG)
    assert [c.fixes for c in curate(session, "anthropic").changes] == [("ant.result_missing",)] * 2


def test_curation_says_nothing_of_pending_calls_when_there_are_none() -> None:
    for params in (
        {"path": str(FINISHED_LOG), "provider": "anthropic"},
        {"sample": "openai_chat_request.json", "provider": "openai-chat"},  # a body: as sent, no next request
    ):
        at = opened("app_pages/3_Curation.py", strategy="toolhist", **params)
        assert not [c.value for c in at.caption if "pending" in c.value]


def test_explain_shows_the_rule_id_whole() -> None:
    at = opened("app_pages/5_Explain.py", sample="openai_chat_request.json")
    found = check(ROOT / "sample_logs" / "openai_chat_request.json").results["openai-chat"]
    at.text_area(key="ex_text").input(found[0].error_text).run()
    assert not at.exception
    assert "Rule" not in [m.label for m in at.metric]  # a metric cuts "oai.call_unanswered" short
    assert "Rule" in [c.value for c in at.caption]
    assert at.code[0].value == "oai.call_unanswered"


SESSION_ID = "4d5611e5-241a-462a-8d15-5122611a9569"  # the marot pair's sessionId (both files' lines)
SUBAGENT_LOG = CLAUDE / "marot-spotter-subagent-a2898e3.jsonl"


def older_project(tmp_path: Path) -> Path:
    """A project folder as older Claude Code releases keep it: subagent files beside the sessions.

    The marot pair, named as Claude Code names them; another session's file (a real log with its own
    sessionId) named ``agent-…`` too, which must not be taken for this session's subagent.
    """
    project = tmp_path / "projects" / "-home-USER-projects-spotter"
    project.mkdir(parents=True)
    (project / f"{SESSION_ID}.jsonl").write_bytes(PENDING_LOG.read_bytes())
    (project / "agent-a2898e3.jsonl").write_bytes(SUBAGENT_LOG.read_bytes())
    (project / "agent-0ther.jsonl").write_bytes(FINISHED_LOG.read_bytes())
    return project


def test_subagent_files_beside_the_session_are_its_threads(tmp_path: Path) -> None:
    project = older_project(tmp_path)
    main, agent = project / f"{SESSION_ID}.jsonl", project / "agent-a2898e3.jsonl"
    assert [(t.key, t.label) for t in threads(toolhist.load(main), str(main))] == [
        ("main", "main thread"),
        (f"file:{agent}", "subagent file agent-a2898e3.jsonl"),
    ]
    assert [(t.key, t.label) for t in threads(toolhist.load(agent), str(agent))] == [
        ("main", "this subagent's thread"),
        (f"file:{main}", f"the session's main file {SESSION_ID}.jsonl"),
    ]


def test_the_conversation_page_opens_a_subagent_file_beside_the_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = older_project(tmp_path)
    monkeypatch.setenv("TOOLHIST_OPEN", str(project))
    at = opened("app_pages/0_Conversation.py", path=str(project / f"{SESSION_ID}.jsonl"))
    picker = at.sidebar.selectbox(key="cv_thread")
    agent = f"file:{project / 'agent-a2898e3.jsonl'}"
    assert picker.options == ["main thread", "subagent file agent-a2898e3.jsonl"]
    picker.set_value(agent).run()
    assert not at.exception
    assert at.query_params["thread"] == agent
    html = next(
        str(h.proto.body)
        for h in at.get("html")
        if "th-conv" in str(h.proto.body) and "<style>" not in str(h.proto.body)
    )
    assert "Very thorough exploration." in html  # the subagent's task prompt, its first line


def test_home_offers_a_subagent_file_beside_the_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Home's "This machine" picker finds the older layout's subagent files too (not another session's)."""
    home = tmp_path / "home"
    project = older_project(home / ".claude")
    monkeypatch.setenv("TOOLHIST_HOME", str(home))
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.segmented_control(key="source").set_value("This machine").run()
    main = str(project / f"{SESSION_ID}.jsonl")
    at.selectbox(key="machine_pick").set_value(main).run()
    assert not at.exception
    picker = at.selectbox(key="machine_subagent")
    assert picker.options == ["the session", "subagent agent-a2898e3.jsonl"]  # not agent-0ther's
    picker.set_value(str(project / "agent-a2898e3.jsonl")).run()
    assert not at.exception
    assert at.query_params["path"] == str(project / "agent-a2898e3.jsonl")
