"""Sessions inside agents' SQLite stores in the app: "This machine" lists each with its locator and opens
it; the Path box and ``?path=`` take a locator ``STORE#SESSION_ID``; the pages show the session."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from fake_home_stores import OPENCODE_DB, ZED_DB, make_store_home
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).parent.parent.parent / "app.py")
PAGES = Path(__file__).parent.parent.parent / "app_pages"
OLDER = "ses_4a2f0c31bffeQ1xVw9Kc2mZtRd"
ZED_NEWEST = "8e2d6c4a-0f1b-4a3c-9d5e-7f9a1b3c5d7e"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_store_home(tmp_path_factory.mktemp("stores") / "home")


@pytest.fixture
def at(home: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("TOOLHIST_HOME", str(home))
    return AppTest.from_file(APP, default_timeout=60).run()


def test_this_machine_opens_a_session_of_a_store(at: AppTest, home: Path) -> None:
    at.segmented_control(key="source").set_value("This machine").run()
    at.selectbox(key="machine_agent").set_value("zed").run()
    locator = f"{home / ZED_DB}#{ZED_NEWEST}"
    assert next(iter(at.dataframe[0].value["file"])) == locator
    at.selectbox(key="machine_pick").set_value(locator).run()
    assert not at.exception
    texts = [t.value for t in at.text]
    assert texts[:2] == [f"Session: {locator}", "Ran on gemini (gemini-2.5-pro): the next request accepts"]
    assert "**Format:** `zed`" in at.markdown[0].value
    assert at.query_params["path"] == locator


def test_the_path_box_takes_a_locator_and_the_pages_show_that_session(at: AppTest, home: Path) -> None:
    locator = f"{home / OPENCODE_DB}#{OLDER}"
    at.segmented_control(key="source").set_value("Path").run()
    at.text_input(key="path").set_value(locator).run()
    assert not at.exception
    assert [t.value for t in at.text] == [
        f"Session: {home / OPENCODE_DB}#{OLDER}",
        "Judged as the next request the agent would send: its history + a placeholder user turn (the log "
        "ends with the model's answer)",
        "Ran on anthropic (claude-sonnet-4-5; message 3 metadata)",
    ]
    for page in ("1_Timeline.py", "2_Violations.py"):
        at.switch_page(str(PAGES / page)).run()
        assert not at.exception, page


def test_a_path_link_to_a_locator_reopens_it(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLHIST_HOME", str(home))
    app = AppTest.from_file(APP, default_timeout=60)
    app.query_params["path"] = f"{home / OPENCODE_DB}#{OLDER}"
    app.run()
    assert not app.exception
    assert next(t.value for t in app.text) == f"Session: {home / OPENCODE_DB}#{OLDER}"
    assert app.text_input(key="path").value == f"{home / OPENCODE_DB}#{OLDER}"


def test_a_locator_of_a_missing_session_says_why(at: AppTest, home: Path) -> None:
    at.segmented_control(key="source").set_value("Path").run()
    at.text_input(key="path").set_value(f"{home / OPENCODE_DB}#ses_gone").run()
    assert not at.exception
    assert "no session 'ses_gone' in this opencode store" in " ".join(c.value for c in at.code)


def test_redact_secrets_covers_a_session_read_from_a_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store is not text: with "Redact secrets" on, the session read from it is what is redacted."""
    home = make_store_home(tmp_path / "home")
    secret = "sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4"
    with sqlite3.connect(home / OPENCODE_DB) as db:
        changed = db.execute(
            "UPDATE part SET data = json_set(data, '$.text', ?) "
            "WHERE session_id = ? AND json_extract(data, '$.text') = 'Which routes does the API expose?'",
            (f"Which routes does the API expose? My key is {secret}", OLDER),
        ).rowcount
    assert changed == 1
    monkeypatch.setenv("TOOLHIST_HOME", str(home))
    shown = {}
    for redact in (False, True):
        app = AppTest.from_file(APP, default_timeout=60)
        app.query_params["path"] = f"{home / OPENCODE_DB}#{OLDER}"
        if redact:
            app.query_params["redact"] = "1"
        app.run()
        app.switch_page(str(PAGES / "0_Conversation.py")).run()
        assert not app.exception
        assert app.toggle(key="toolhist.redact.widget").value is redact
        shown[redact] = " ".join(h.proto.body for h in app.get("html"))
    assert f"My key is {secret}" in shown[False]
    assert secret not in shown[True]
    assert "My key is [REDACTED:openai-key]" in shown[True]
