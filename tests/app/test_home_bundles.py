"""The home page's "Bundles" source under AppTest: bundles the guard wrote around the real SDKs.

A bundle opens as the request that was sent: the banner says who answered what, the answer is
explained against the session (rule and culprit), and the Explain page starts from that answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from guard_calls import write_bundles
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).parent.parent.parent / "app.py")
EXPLAIN = str(Path(__file__).parent.parent.parent / "app_pages" / "5_Explain.py")


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Path]]:
    folder = tmp_path_factory.mktemp("bundles")
    return folder, write_bundles(folder, ("anthropic", "openai-chat"))


@pytest.fixture
def at(bundles: tuple[Path, dict[str, Path]], monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("TOOLHIST_BUNDLES", str(bundles[0]))
    app = AppTest.from_file(APP, default_timeout=60).run()
    app.segmented_control(key="source").set_value("Bundles").run()
    assert not app.exception
    return app


def test_lists_the_bundles_with_their_rules(at: AppTest, bundles: tuple[Path, dict[str, Path]]) -> None:
    table = at.dataframe[0].value
    assert list(table.columns) == ["time (UTC)", "provider", "model", "status", "rule", "error", "file"]
    assert sorted(zip(table["provider"], table["status"], table["rule"], strict=True)) == [
        ("anthropic", 400, "ant.result_missing"),
        ("openai-chat", 400, "oai.call_unanswered"),
    ]
    assert sorted(table["file"]) == sorted(str(p) for p in bundles[1].values())


def test_opening_a_bundle_shows_the_answer_and_the_culprit(
    at: AppTest, bundles: tuple[Path, dict[str, Path]]
) -> None:
    path = str(bundles[1]["anthropic"])
    at.selectbox(key="bundle_pick").set_value(path).run()
    assert not at.exception
    texts = [t.value for t in at.text]
    assert texts[0] == f"Session: {path}"
    assert texts[1].startswith(
        "anthropic (claude-sonnet-4-6) answered 400 to this request, sent by anthropic "
    )
    assert texts[2] == (
        "The answer is anthropic rule ant.result_missing; culprit: message 2. "
        "Fix: close_orphans (synthetic tool_result) or move_results"
    )
    assert (
        "tool_use` ids were found without `tool_result` blocks immediately after: toolu_01"
        in at.code[0].value
    )
    assert "**Format:** `anthropic`" in at.markdown[0].value
    assert at.query_params["path"] == path


def test_explain_starts_from_the_recorded_answer(at: AppTest, bundles: tuple[Path, dict[str, Path]]) -> None:
    at.selectbox(key="bundle_pick").set_value(str(bundles[1]["openai-chat"])).run()
    at.switch_page(EXPLAIN).run()
    assert not at.exception
    assert str(at.text_area(key="ex_text").value).startswith('{"error":{"message":"An assistant message with')
    metrics = {m.label: m.value for m in at.metric}
    assert metrics == {"Provider": "openai-chat", "Culprit message": "1"}
    assert at.code[0].value == "oai.call_unanswered"  # the rule, whole


def test_a_folder_without_bundles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLHIST_BUNDLES", str(tmp_path))
    app = AppTest.from_file(APP, default_timeout=60).run()
    app.segmented_control(key="source").set_value("Bundles").run()
    assert not app.exception
    assert [i.value for i in app.info] == [
        "No bundles in that folder yet (`toolhist.guard` writes them when a provider answers 4xx).",
        "Choose a sample, upload a file, paste JSON or give a path.",
    ]
