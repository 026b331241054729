"""Framework files in the app's Path box: an Inspect AI log's sample named ``LOG#SAMPLE_epoch_N`` (a
zip ``.eval`` or a ``.json`` log, neither an SQLite store) and a pydantic-ai history open as read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).parent.parent.parent / "app.py")
PAGES = Path(__file__).parent.parent.parent / "app_pages"
LOGS = Path(__file__).parent.parent / "corpus" / "logs"


@pytest.fixture
def at() -> AppTest:
    return AppTest.from_file(APP, default_timeout=60).run()


@pytest.mark.parametrize("name", ["inspect-mockllm-tools.eval", "inspect-mockllm-tools.json"])
def test_the_path_box_opens_an_inspect_sample(at: AppTest, tmp_path: Path, name: str) -> None:
    log = tmp_path / name
    shutil.copyfile(LOGS / "inspect-ai" / name, log)
    at.segmented_control(key="source").set_value("Path").run()
    at.text_input(key="path").set_value(f"{log}#2_epoch_1").run()
    assert not at.exception
    assert [e.value for e in at.error] == []
    assert next(t.value for t in at.text) == f"Session: {log}#2_epoch_1"
    assert "**Format:** `inspect-ai`" in at.markdown[0].value
    for page in ("1_Timeline.py", "2_Violations.py"):
        at.switch_page(str(PAGES / page)).run()
        assert not at.exception, page


def test_a_sample_that_is_not_in_the_log_says_why(at: AppTest, tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    shutil.copyfile(LOGS / "inspect-ai" / "inspect-mockllm-tools.json", log)
    at.segmented_control(key="source").set_value("Path").run()
    at.text_input(key="path").set_value(f"{log}#9").run()
    assert not at.exception
    assert "no sample '9'" in " ".join(c.value for c in at.code)


def test_the_path_box_opens_a_pydantic_ai_history(at: AppTest, tmp_path: Path) -> None:
    history = tmp_path / "history.json"
    shutil.copyfile(LOGS / "pydantic-ai" / "pydantic-ai-testmodel.json", history)
    at.segmented_control(key="source").set_value("Path").run()
    at.text_input(key="path").set_value(str(history)).run()
    assert not at.exception
    assert next(t.value for t in at.text) == f"Session: {history}"
    assert "**Format:** `pydantic-ai`" in at.markdown[0].value
