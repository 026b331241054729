"""The Curation page shows the fewest changes (issue 24): the repair first, ids as sent, one id map,
and a strategy that did not run as "not run" with how to install it. Real AppTest runs of the page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.curation import curate
from toolhist.peers import run

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


def open_curation(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page("app_pages/3_Curation.py").run()
    assert not at.exception, at.exception
    return at


def frame_with(at: AppTest, column: str) -> Any:
    return next(d.value for d in at.dataframe if column in d.value.columns)


def test_the_one_repair_comes_first_and_names_its_rule() -> None:
    at = open_curation(sample="openai_chat_request.json", provider="openai-chat", strategy="toolhist")
    assert {m.label: m.value for m in at.metric}["Changes"] == "1"
    log = frame_with(at, "reason")
    assert list(log["fixes"]) == ["oai.call_unanswered"]
    assert list(log["action"]) == ["close"]
    assert any("repair a violation of the history as given" in c.value for c in at.caption)
    assert not [d for d in at.dataframe if "canonical id" in d.value.columns]  # no id map for toolhist


def test_the_positions_are_numbers_and_an_inserted_row_has_an_empty_before_cell() -> None:
    at = open_curation(sample="openai_chat_request.json", provider="openai-chat", strategy="toolhist")
    grid = next(d for d in at.dataframe if "after #" in d.value.columns)
    table = grid.value
    assert [None if b is pd.NA else int(b) for b in table["before #"]] == [*range(10), None]
    assert [int(a) for a in table["after #"]] == list(range(11))
    assert list(table["status"]) == ["same"] * 10 + ["inserted"]  # the result close_orphans adds
    # number columns sort 9 before 10 (text ones put "10" first); a missing number shows as an empty
    # cell (Streamlit's placeholder; without one it writes a grey "None")
    config = json.loads(grid.proto.columns)
    assert [config[c]["type_config"]["type"] for c in ("before #", "after #")] == ["number", "number"]
    assert grid.proto.HasField("placeholder")
    assert grid.proto.placeholder == ""


def test_the_after_side_shows_the_ids_that_are_sent() -> None:
    at = open_curation(sample="mistral_ids_after_openai.json", provider="mistral", strategy="toolhist")
    table = frame_with(at, "after #")
    session = toolhist.load(ROOT / "sample_logs" / "mistral_ids_after_openai.json")
    sent = next(c.detail["new_id"] for c in curate(session, "mistral").changes)
    after = " ".join(table["after"])
    assert isinstance(sent, str)
    assert sent in after
    assert "hist_tool_" not in after


def test_canonical_shows_one_id_map_table() -> None:
    at = open_curation(sample="openai_chat_request.json", provider="anthropic", strategy="canonical")
    table = frame_with(at, "canonical id")
    assert list(table.columns) == ["message", "source id", "canonical id", "sent to anthropic"]
    assert list(table["source id"]) == [
        "call_8fJx2LmQ0pV4tR7wN1sYb3Kd",
        "call_Zq5Hn9cWe1XuT6gA4mBv0Ros",
        "call_Ty3Dk8aPz6QwE2rUo9iLm5Sx",
        "call_Rk2Vb7nXc4LzA9qWe6tYu1Io",
    ]
    assert all(
        sent == "toolu_" + canonical.removeprefix("hist_tool_")
        for canonical, sent in zip(table["canonical id"], table["sent to anthropic"], strict=True)
    )
    log = frame_with(at, "reason")
    assert "rewrite_id" not in set(log["action"])  # the ids are the table, not a change each
    assert "hist_tool_" not in " ".join(frame_with(at, "after #")["after"])


def test_a_strategy_that_did_not_run_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLHIST_PEERS_HOME", str(tmp_path))  # a real, empty peers home
    monkeypatch.setattr(run, "_WORKERS", {})  # workers an earlier test started stay out of this one
    at = open_curation(sample="anthropic_request.json", provider="gemini", strategy="toolhist")
    compared = frame_with(at, "errors left").set_index("strategy")
    for name, version in (("litellm", "1.106.2"), ("openai-agents", "0.24.0")):
        row = compared.loc[name]
        assert row["status"] == (
            f"not run: {name} {version} is not installed; install it with `toolhist peers install`"
        )
        for column in ("changes", "messages", "errors left", "warnings left"):
            assert row[column] == "not run", column  # Streamlit drew an empty count as "None"
    assert compared.loc["toolhist", "status"] == "ran"
    assert compared.loc["toolhist", "changes"] == "0"  # Gemini takes this history as it is


def test_the_message_count_shows_a_change_only_when_there_is_one() -> None:
    grown = open_curation(sample="openai_chat_request.json", provider="openai-chat", strategy="toolhist")
    messages = {m.label: m for m in grown.metric}["Messages"]
    assert (messages.value, messages.delta) == ("11", "1")  # a result inserted
    color = (
        type(messages.proto)
        .DESCRIPTOR.fields_by_name["color"]
        .enum_type.values_by_number[messages.proto.color]
    )
    assert color.name == "GRAY"  # more or fewer messages is neither good nor bad: not green, not red
    same = open_curation(sample="openai_chat_request.json", provider="gemini", strategy="none")
    assert {m.label: (m.value, m.delta) for m in same.metric}["Messages"] == ("10", "")  # no "0" chip
