"""The strategies that start a real library, and the official SDKs, run when the user asks (AppTest).

A first visit of Curation, Switch or Payloads on the bundled sample used to start every library (LiteLLM's
first import alone took 24 to 29 s): now it starts none, and one button runs them and shows their rows.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.curation import STRATEGIES
from toolhist.curation.compare import compare
from toolhist.curation.strategies import LIBRARY_STRATEGIES
from toolhist.views.on_request import BUTTON, deferred, installed, waiting

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
HEAVY = (
    "litellm",
    "agents",
    "pydantic_ai",
    "langchain_core",
    "anthropic",
    "openai",
    "google.genai",
    "mistralai",
)
"""The libraries whose first import made a first visit slow: the peers' (LiteLLM, the Agents SDK, in
their own workers), the frameworks' (in this process) and the official SDKs' (Payloads' check)."""

FIRST_VISIT = """
import json, sys
from streamlit.testing.v1 import AppTest
from toolhist.peers import run
at = AppTest.from_file(sys.argv[1], default_timeout=300)
at.run()
at.switch_page(sys.argv[2]).run()
print(json.dumps({
    "exceptions": [e.value for e in at.exception],
    "heavy": sorted(m for m in json.loads(sys.argv[3]) if m in sys.modules),
    "workers": sorted(library for library, _ in run._WORKERS),
}))
"""


def first_visit(page: str) -> dict[str, list[str]]:
    """What a fresh interpreter holds after the home page and then ``page`` ran once on the sample."""
    done = subprocess.run(
        [sys.executable, "-c", FIRST_VISIT, APP, page, json.dumps(HEAVY)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    answer: dict[str, list[str]] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


@pytest.mark.parametrize(
    "page", ["app_pages/3_Curation.py", "app_pages/8_Switch.py", "app_pages/4_Payloads.py"]
)
def test_a_first_visit_starts_no_library(page: str) -> None:
    got = first_visit(page)
    assert got == {"exceptions": [], "heavy": [], "workers": []}


def test_every_library_strategy_is_marked() -> None:
    # each starts a real library: the peers' (a worker), the frameworks' (an import in this process)
    assert LIBRARY_STRATEGIES == ("litellm", "openai-agents", "pydantic-ai", "langchain")
    assert not any(name.endswith("-port") for name in LIBRARY_STRATEGIES)  # the ports are toolhist's code


def open_page(page: str, **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def compared(at: AppTest) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "errors left" in d.value.columns).set_index("strategy")


def changes(table: pd.DataFrame) -> dict[str, int | None]:
    """Strategy → its changes, None where it did not run (the page says "not run", never zero)."""
    return {str(k): None if v == "not run" else int(v) for k, v in table["changes"].to_dict().items()}


def test_curation_runs_the_libraries_on_its_button() -> None:
    at = open_page("app_pages/3_Curation.py", sample="openai_chat_request.json", provider="anthropic")
    later = [name for name in LIBRARY_STRATEGIES if installed(name)]
    assert deferred(STRATEGIES, False, "toolhist") == later
    table = compared(at)
    assert list(table.index) == list(STRATEGIES)
    for name in later:
        assert table.loc[name, "status"] == waiting(name)
        assert changes(table)[name] is None
    assert waiting("litellm") == (
        "not run yet: it starts LiteLLM, whose first start takes seconds to tens of seconds; "
        "press “Compare with the libraries too”"
    )
    at.button(key="cu_libraries_go").click().run()
    assert not at.exception, at.exception
    table = compared(at)
    session = toolhist.load(ROOT / "sample_logs" / "openai_chat_request.json")
    library = compare(session, "anthropic", LIBRARY_STRATEGIES)
    for name in LIBRARY_STRATEGIES:
        assert table.loc[name, "status"] == (library[name].describe() or "ran")
        assert changes(table)[name] == library[name].changes
    assert not [b for b in at.button if b.key == "cu_libraries_go"]  # asked: no button, no caption
    assert not [c for c in at.caption if "start a real library each" in c.value]
    shown = list(table["status"])
    at.toggle(key="cu_only_changed").set_value(True).run()  # a later run shows the same rows, cached
    assert list(compared(at)["status"]) == shown


def test_a_library_strategy_picked_runs() -> None:
    at = open_page("app_pages/3_Curation.py", sample="openai_chat_request.json", provider="anthropic")
    at.selectbox(key="cu_strategy").set_value("pydantic-ai").run()
    assert not at.exception, at.exception
    table = compared(at)
    if installed("pydantic-ai"):
        assert table.loc["pydantic-ai", "status"] == "ran"
    assert table.loc["langchain", "status"] == (waiting("langchain") if installed("langchain") else "ran")


def test_switch_runs_the_libraries_on_its_button() -> None:
    at = open_page("app_pages/8_Switch.py", sample="switch_back_thinking.json", to="gemini", back="(stay)")
    built_in = [n for n in STRATEGIES if n not in LIBRARY_STRATEGIES or not installed(n)]
    assert at.multiselect(key="sw_strategies").value == built_in
    later = [n for n in STRATEGIES if n not in built_in]
    verdicts = next(d.value for d in at.dataframe if "foreign tokens" in d.value.columns)
    assert list(verdicts["strategy"]) == built_in
    assert [c.value for c in at.caption if c.value.startswith("Not run yet")] == [
        f"Not run yet: {', '.join(later)} (each starts a real library, whose first start takes seconds "
        "to tens of seconds). Pick them in Strategies, or:"
    ]
    assert at.button(key="sw_libraries_go").label == BUTTON
    at.button(key="sw_libraries_go").click().run()
    assert not at.exception, at.exception
    assert at.multiselect(key="sw_strategies").value == list(STRATEGIES)
    verdicts = next(d.value for d in at.dataframe if "foreign tokens" in d.value.columns)
    assert list(verdicts["strategy"]) == list(STRATEGIES)
    assert not [c for c in at.caption if c.value.startswith("Not run yet")]


def test_switch_keeps_the_strategies_chosen_across_pages() -> None:
    """Streamlit drops a widget's state when another page runs: the choice is kept by the page itself."""
    at = open_page("app_pages/8_Switch.py", sample="switch_back_thinking.json", to="gemini", back="(stay)")
    at.multiselect(key="sw_strategies").set_value(["none", "canonical"]).run()
    at.switch_page("app_pages/2_Violations.py").run()
    assert not at.exception, at.exception
    at.switch_page("app_pages/8_Switch.py").run()
    assert not at.exception, at.exception
    assert at.multiselect(key="sw_strategies").value == ["none", "canonical"]
    verdicts = next(d.value for d in at.dataframe if "foreign tokens" in d.value.columns)
    assert list(verdicts["strategy"]) == ["none", "canonical"]
