"""Issue 24's honest pages, under AppTest: Curation says why its two counts differ on a log that ends
on pending calls, and Explain shows a rule id whole."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.check import check
from toolhist.curation import curate

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
    at = opened("pages/3_Curation.py", path=str(PENDING_LOG), provider="anthropic", strategy="toolhist")
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Errors before"], metrics["Changes"]) == ("0", "2")  # Home's count beside the repairs
    captions = [c.value for c in at.caption]
    assert "2 change(s) repair a violation of the history as given (column fixes): listed first." in captions
    assert (
        "The log ends on 2 pending tool call(s): Errors before judges it as the next request, where the agent "
        "sends their results, while the history as given has no results for them, which is what 2 close "
        "change(s) repair."
    ) in captions
    session = toolhist.load(PENDING_LOG)
    assert [c.fixes for c in curate(session, "anthropic").changes] == [("ant.result_missing",)] * 2


def test_curation_says_nothing_of_pending_calls_when_there_are_none() -> None:
    for params in (
        {"path": str(FINISHED_LOG), "provider": "anthropic"},
        {"sample": "openai_chat_request.json", "provider": "openai-chat"},  # a body: as sent, no next request
    ):
        at = opened("pages/3_Curation.py", strategy="toolhist", **params)
        assert not [c.value for c in at.caption if "pending tool call" in c.value]


def test_explain_shows_the_rule_id_whole() -> None:
    at = opened("pages/5_Explain.py", sample="openai_chat_request.json")
    found = check(ROOT / "sample_logs" / "openai_chat_request.json").results["openai-chat"]
    at.text_area(key="ex_text").input(found[0].error_text).run()
    assert not at.exception
    assert "Rule" not in [m.label for m in at.metric]  # a metric cuts "oai.call_unanswered" short
    assert "Rule" in [c.value for c in at.caption]
    assert at.code[0].value == "oai.call_unanswered"
