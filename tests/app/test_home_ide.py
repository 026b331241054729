"""Copilot CLI, VS Code logs, Continue and Cursor sessions in the app: "This machine" lists and opens them,
the Path box opens a file (or Cursor's ``state.vscdb#COMPOSER``), and the Timeline and Violations pages
show the session."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_home_ide import CONTINUE_RUN, COPILOT, CURSOR_DB, CURSOR_T, VSCODE, make_ide_home
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).parent.parent.parent / "app.py")
PAGES = Path(__file__).parent.parent.parent / "app_pages"
NEWEST = "98251e54-8aed-4515-b2b4-08895453eedd"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_ide_home(tmp_path_factory.mktemp("ide") / "home")


@pytest.fixture
def at(home: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("TOOLHIST_HOME", str(home))
    return AppTest.from_file(APP, default_timeout=60).run()


@pytest.mark.parametrize(
    ("agent", "rel", "ran_on"),
    [
        (
            "copilot-cli",
            COPILOT,
            "Ran on anthropic (claude-opus-4.7-1m-internal): the next request accepts",
        ),
        (
            "cursor",
            f"{CURSOR_DB}#{NEWEST}",
            "Ran on anthropic (claude-4.5-sonnet-thinking): the next request accepts",
        ),
        (
            "continue",
            CONTINUE_RUN,
            "Ran on anthropic (Claude Sonnet 4.5): the next request accepts",
        ),
    ],
)
def test_this_machine_opens_each_agents_session(
    at: AppTest, home: Path, agent: str, rel: str, ran_on: str
) -> None:
    at.segmented_control(key="source").set_value("This machine").run()
    at.selectbox(key="machine_agent").set_value(agent).run()
    path = str(home / rel)
    assert path in list(at.dataframe[0].value["file"])
    at.selectbox(key="machine_pick").set_value(path).run()
    assert not at.exception
    texts = [t.value for t in at.text]
    assert texts[:2] == [f"Session: {path}", ran_on]
    assert at.query_params["path"] == path


@pytest.mark.parametrize(
    ("rel", "fmt"),
    [
        (COPILOT, "copilot-cli"),
        (VSCODE, "vscode-jsonl"),
        (CONTINUE_RUN, "continue"),
        (CURSOR_T, "cursor-transcript"),
    ],
)
def test_the_path_box_opens_each_format_and_the_pages_show_it(
    at: AppTest, home: Path, rel: str, fmt: str
) -> None:
    at.segmented_control(key="source").set_value("Path").run()
    at.text_input(key="path").set_value(str(home / rel)).run()
    assert not at.exception
    assert next(t.value for t in at.text) == f"Session: {home / rel}"
    assert f"**Format:** `{fmt}`" in " ".join(m.value for m in at.markdown)
    for page in ("1_Timeline.py", "2_Violations.py"):
        at.switch_page(str(PAGES / page)).run()
        assert not at.exception, page
