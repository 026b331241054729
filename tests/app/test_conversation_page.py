"""The Conversation page under AppTest: threads, deep links, paging, search, and Home on subagent files.

Every expected figure comes from the library (`toolhist.views.transcript`, the readers), never
from the page itself.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from bench_modules import benchmark_module
from fake_home import CLAUDE, SUBAGENT, make_home
from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.agents.claude_code.reader import read_sidechain
from toolhist.check import judged_verdict
from toolhist.judgement import judge
from toolhist.views.transcript import search, search_index

ROOT = Path(__file__).parent.parent.parent
APP = str(ROOT / "app.py")
PAGE = "app_pages/0_Conversation.py"
LOGS = ROOT / "tests" / "corpus" / "logs"
SIDECHAIN_LOG = LOGS / "claude-code" / "claude-code-log-sidechain-integrated.fixture.jsonl"
SUBAGENT_FILE = LOGS / "claude-code" / "marot-spotter-subagent-a2898e3.jsonl"
SESSION_FILE = LOGS / "claude-code" / "marot-spotter-4d5611e5-main.jsonl"  # the same session's main file
SESSION = "4d5611e5-241a-462a-8d15-5122611a9569"
AGENT_LOGS = [
    LOGS / "claude-code" / "drmaciver-hello-world-script.jsonl",
    LOGS / "codex" / "masonc15-demo-v0155-apply-patch.fixture.jsonl",
    LOGS / "gemini-cli" / "kvsankar-gemini-with-tool-error.fixture.jsonl",
    LOGS / "kilo" / "mike4567-cline-native-subagents.json",
    LOGS / "vscode" / "dealenx-mcp-tool-error-chat.json",
    SUBAGENT_FILE,
]


def conversation(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    return at


def transcript(at: AppTest) -> str:
    """The transcript's HTML (the one ``st.html`` that holds turns)."""
    bodies = [str(h.proto.body) for h in at.get("html")]
    return next(b for b in bodies if "th-conv" in b and "<style>" not in b)


def turns(at: AppTest) -> list[int]:
    return [int(m) for m in re.findall(r'data-msg="(\d+)"', transcript(at))]


def focus(at: AppTest) -> int | None:
    found = re.search(r'class="th-turn \w+(?: flagged)? focus" id="th-msg-(\d+)"', transcript(at))
    return int(found.group(1)) if found else None


@pytest.fixture(scope="module")
def long_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = benchmark_module("generate").write(3000, tmp_path_factory.mktemp("cv") / "long.json")
    return path


@pytest.mark.parametrize("path", AGENT_LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_agent_log_shows_every_message(path: Path) -> None:
    at = conversation(path=str(path))
    assert turns(at) == list(range(len(toolhist.load(path).messages)))


def test_a_sidechain_is_a_thread(tmp_path: Path) -> None:
    at = conversation(path=str(SIDECHAIN_LOG))
    main = toolhist.load(SIDECHAIN_LOG)
    assert turns(at) == list(range(len(main.messages)))
    assert transcript(at).count("not sent to the model") == 2
    caption = at.caption[0].value
    # the provider it ran on (anthropic), its verdict as check finds it
    found = judged_verdict(judge(main), "anthropic")
    assert caption.startswith(
        f"3 messages · 1 tool call · 2 records kept but not sent · anthropic: 0 error(s), {len(found)} warning(s)"
    )
    thread = at.selectbox(key="cv_thread")
    assert thread.options == [
        "main thread",
        "sidechain b674eedd-0d9d-49e7-8116-1f092cd750ed (2 lines)",
        "sidechain e1c84ba5 (1 lines)",
    ]
    thread.set_value("sidechain:b674eedd-0d9d-49e7-8116-1f092cd750ed").run()
    assert not at.exception
    side = read_sidechain(SIDECHAIN_LOG, "b674eedd-0d9d-49e7-8116-1f092cd750ed")
    assert turns(at) == list(range(len(side.messages)))
    assert "toolu_01BWgwmyj8gGuqFNHMPqqtN2" in transcript(at)
    assert at.query_params["thread"] == "sidechain:b674eedd-0d9d-49e7-8116-1f092cd750ed"
    at.selectbox(key="cv_thread").set_value("main").run()
    assert turns(at) == list(range(len(main.messages)))
    assert "thread" not in at.query_params


def test_a_subagent_file_beside_the_session_is_a_thread(tmp_path: Path) -> None:
    main = tmp_path / f"{SESSION}.jsonl"  # the layout Claude Code writes, with the real files
    shutil.copy(SESSION_FILE, main)
    agent = tmp_path / SESSION / "subagents" / "agent-a2898e3.jsonl"
    agent.parent.mkdir(parents=True)
    shutil.copy(SUBAGENT_FILE, agent)
    at = conversation(path=str(main), thread=f"file:{agent}")
    assert at.selectbox(key="cv_thread").value == f"file:{agent}"
    assert turns(at) == [0, 1]
    assert "pending: the agent sends its result next" in transcript(at)


def test_msg_link_lands_on_the_message_and_pages_move(long_log: Path) -> None:
    at = conversation(path=str(long_log), msg="2500")
    assert turns(at) == list(range(2499, 2549))
    assert focus(at) == 2500
    at.button(key="cv_next").click().run()
    assert turns(at) == list(range(2549, 2599))
    at.button(key="cv_prev").click().run()
    at.button(key="cv_prev").click().run()
    assert turns(at) == list(range(2449, 2499))
    at.number_input(key="cv_goto").set_value(17).run()
    assert turns(at) == list(range(16, 66))
    assert focus(at) == 17
    assert at.query_params["msg"] == "17"
    at.selectbox(key="cv_size").set_value(200).run()
    assert turns(at) == list(range(16, 216))


def test_search_lists_the_library_hits(long_log: Path) -> None:
    at = conversation(path=str(long_log))
    at.text_input(key="cv_query").input("AssertionError").run()
    session = toolhist.load(long_log)
    hits, total = search(session, search_index(session), "AssertionError", "text", limit=200)
    table = at.dataframe[0].value
    assert list(table["message"]) == [h.message for h in hits]
    assert list(table["text"]) == [h.snippet for h in hits]
    assert f"{total:,} matches in text" in [c.value for c in at.caption][1]
    at.radio(key="cv_field").set_value("id").run()
    at.text_input(key="cv_query").input("call_").run()
    assert len(at.dataframe[0].value) == 200
    _, ids = search(session, search_index(session), "call_", "id", limit=200)
    assert f"{ids:,} matches in call id; the first 200 listed" in [c.value for c in at.caption][1]


def test_home_opens_a_subagent_file_by_path() -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.segmented_control(key="source").set_value("Path").run()
    at.text_input(key="path").input(str(SUBAGENT_FILE)).run()
    assert not at.exception
    assert "**Format:** `claude-code`" in at.markdown[0].value
    assert {m.label: m.value for m in at.metric}["Messages"] == "2"
    assert {m.label: m.value for m in at.metric}["Tool calls"] == "1"


def test_home_offers_a_claude_code_sessions_subagent_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = make_home(tmp_path)
    monkeypatch.setenv("TOOLHIST_HOME", str(home))
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.segmented_control(key="source").set_value("This machine").run()
    at.selectbox(key="machine_pick").set_value(str(home / CLAUDE)).run()
    sub = at.selectbox(key="machine_subagent")
    assert sub.options == ["the session", "subagent agent-a1.jsonl"]
    sub.set_value(str(home / SUBAGENT)).run()
    assert not at.exception
    assert at.text[0].value == f"Session: {home / SUBAGENT}"
    assert at.query_params["path"] == str(home / SUBAGENT)


def test_the_violations_to_jump_from_are_the_checks() -> None:
    at = conversation(sample="openai_chat_request.json", provider="openai-chat")
    session = toolhist.load(ROOT / "sample_logs" / "openai_chat_request.json")
    found = [v for v in judged_verdict(judge(session), "openai-chat") if v.message_index is not None]
    table = at.dataframe[0].value
    assert list(table["rule"]) == [v.rule for v in found]
    assert list(table["message"]) == [v.message_index for v in found]
    assert "openai-chat · oai.call_unanswered · error" in transcript(at)


def test_home_links_a_log_s_sidechains_to_their_thread() -> None:
    """Home says where the sidechains the reader kept apart are read in the app, and the link opens one."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["path"] = str(SIDECHAIN_LOG)
    at.run()
    assert not at.exception, at.exception
    links = [link for link in at.get("page_link") if "sidechain" in link.proto.label]
    assert [(link.proto.label, link.proto.query_string) for link in links] == [
        (
            "Read its 2 sidechain(s) (subagent threads) on the Conversation page",
            "thread=sidechain%3Ab674eedd-0d9d-49e7-8116-1f092cd750ed",
        )
    ]
    plain = AppTest.from_file(APP, default_timeout=120)
    plain.query_params["path"] = str(SESSION_FILE)
    plain.run()
    assert not [link for link in plain.get("page_link") if "sidechain" in link.proto.label]
