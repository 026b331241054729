"""The home page's "This machine" source under AppTest, on a fake home ($TOOLHIST_HOME)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_home import CLAUDE, CODEX, make_home
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).parent.parent.parent / "app.py")


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_home(tmp_path_factory.mktemp("home"))


@pytest.fixture
def at(home: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("TOOLHIST_HOME", str(home))
    app = AppTest.from_file(APP, default_timeout=60).run()
    app.segmented_control(key="source").set_value("This machine").run()
    assert not app.exception
    return app


def test_lists_every_session_newest_first(at: AppTest, home: Path) -> None:
    table = at.dataframe[0].value
    assert list(table.columns) == [
        "modified (UTC)",
        "agent",
        "project",
        "messages",
        "provider",
        "model",
        "problem",
        "file",
    ]
    assert list(table["agent"]) == [
        "claude-code",
        "claude-code",
        "llxprt",
        "cline",
        "cline",
        "roo",
        "kilo",
        "vscode",
        "vscode",
        "gemini-cli",
        "codex",
        "llxprt",
    ]
    assert table.iloc[0].to_dict() == {
        "modified (UTC)": "2026-01-10 11:00",
        "agent": "claude-code",
        "project": "/home/dev/shop-api",
        "messages": 20,
        "provider": "anthropic",
        "model": "claude-sonnet-4-5-20250929",
        "problem": "",
        "file": str(home / CLAUDE),
    }
    assert at.selectbox(key="machine_agent").options == [
        "All agents",
        "claude-code",
        "codex",
        "gemini-cli",
        "vscode",
        "cline",
        "roo",
        "kilo",
        "llxprt",
    ]
    assert at.selectbox(key="machine_pick").value is None
    assert "Choose a sample, upload a file, paste JSON or give a path." in [i.value for i in at.info]


def test_filter_by_agent_then_open_one_and_see_its_verdict(at: AppTest, home: Path) -> None:
    at.selectbox(key="machine_agent").set_value("codex").run()
    table = at.dataframe[0].value
    assert list(table["file"]) == [str(home / CODEX)]
    pick = at.selectbox(key="machine_pick")
    assert pick.options == [
        "2026-01-10 01:00 · codex · /home/dev/ledger · rollout-2025-10-02T09-12-00-0199a5e2-7c4b-7d31-9f0e-3b8c1a2d4e6f"
    ]
    pick.set_value(str(home / CODEX)).run()
    assert not at.exception
    texts = [t.value for t in at.text]
    assert texts[:2] == [
        f"Session: {home / CODEX}",
        "Ran on openai-responses (gpt-5-codex): the next request accepts",
    ]
    assert "**Format:** `codex`" in at.markdown[0].value
    assert at.query_params["path"] == str(home / CODEX)


def test_an_unreadable_session_says_why(at: AppTest, home: Path) -> None:
    at.selectbox(key="machine_agent").set_value("claude-code").run()
    broken = next(p for p in at.selectbox(key="machine_pick").options if "8e2f1a3b" in p)
    assert broken.endswith("· claude-code · - · 8e2f1a3b-5c4d-4e6f-9a7b-1c2d3e4f5a6b")
    path = next(str(p) for p in home.rglob("8e2f1a3b-*.jsonl"))
    at.selectbox(key="machine_pick").set_value(path).run()
    assert not at.exception
    assert [e.value for e in at.error] == ["toolhist cannot read this session."]
    assert at.code[0].value == (
        f"{path}: line 1: not valid JSON: Unterminated string starting at: line 1 column 40 (char 39)"
    )


def test_a_vscode_append_log_opens(at: AppTest, home: Path) -> None:
    at.selectbox(key="machine_agent").set_value("vscode").run()
    path = next(str(p) for p in home.rglob("9a1b2c3d-*.jsonl"))
    at.selectbox(key="machine_pick").set_value(path).run()
    assert not at.exception
    assert [t.value for t in at.text][:2] == [
        f"Session: {path}",
        "Ran on anthropic (copilot/claude-opus-4.6): the next request accepts",
    ]


def test_a_session_whose_provider_is_not_recorded(at: AppTest, home: Path) -> None:
    at.selectbox(key="machine_agent").set_value("llxprt").run()
    path = next(str(p) for p in home.rglob("checkpoint-alembic.json"))
    at.selectbox(key="machine_pick").set_value(path).run()
    assert not at.exception
    assert [t.value for t in at.text][
        1
    ] == "Ran on: not recorded in this llxprt session (every provider's verdict is below)"


def test_no_sessions_on_an_empty_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLHIST_HOME", str(tmp_path))
    app = AppTest.from_file(APP, default_timeout=60).run()
    app.segmented_control(key="source").set_value("This machine").run()
    assert next(i.value for i in app.info) == (
        "No agent sessions were found on this machine (`toolhist sessions --where` lists the folders)."
    )


def test_judge_every_listed_session(at: AppTest) -> None:
    at.selectbox(key="machine_agent").set_value("llxprt").run()
    at.toggle(key="machine_judge").set_value(True).run()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table.columns) == [
        "modified (UTC)",
        "agent",
        "project",
        "messages",
        "provider",
        "model",
        "verdict",
        "problem",
        "file",
    ]
    assert [tuple(r) for r in table[["messages", "provider", "verdict"]].itertuples(index=False)] == [
        (5, "openai-chat", "rejects (HTTP 400): oai.dup_tool_result"),
        (7, "", "provider unknown"),
    ]
