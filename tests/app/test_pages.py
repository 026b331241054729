"""Every page on every sample under AppTest, with the key numbers checked against the library itself."""

from __future__ import annotations

import base64
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.check import check
from toolhist.curation import STRATEGIES, curate
from toolhist.curation.compare import compare
from toolhist.diff import diff
from toolhist.explain import explain
from toolhist.providers import PROVIDERS, render, validate
from toolhist.providers.base import Violation
from toolhist.views.on_request import deferred, waiting

ROOT = Path(__file__).parent.parent.parent
APP = str(ROOT / "app.py")
SAMPLES = sorted(p.name for pattern in ("*.json", "*.jsonl") for p in (ROOT / "sample_logs").glob(pattern))
PAGES = [
    "app_pages/0_Conversation.py",
    "app_pages/1_Timeline.py",
    "app_pages/2_Violations.py",
    "app_pages/3_Curation.py",
    "app_pages/4_Payloads.py",
    "app_pages/5_Explain.py",
]


def open_page(page: str | None, **params: str) -> AppTest:
    """The app with ``params`` in the URL, switched to ``page`` (None: the home page)."""
    at = AppTest.from_file(APP, default_timeout=90)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    if page is not None:
        at.switch_page(page).run()
        assert not at.exception, at.exception
    return at


def array(value: Any) -> list[Any]:
    """A figure array as plotly serialises it: a list, or a base64 typed array."""
    if isinstance(value, dict) and "bdata" in value:
        return list(np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"]))
    return list(value)


def pictures(at: AppTest) -> list[str]:
    """The Timeline's server-drawn charts (markdown bodies holding the timeline SVG)."""
    return [m.value for m in at.markdown if 'class="th-timeline"' in m.value]


def frame_with(at: AppTest, column: str) -> Any:
    return next(d.value for d in at.dataframe if column in d.value.columns)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def texts(at: AppTest) -> list[str]:
    return [t.value for t in at.text]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("sample", SAMPLES)
def test_every_page_runs_on_every_sample(page: str, sample: str) -> None:
    at = open_page(page, sample=sample)
    assert not at.error, [e.value for e in at.error]
    assert at.query_params["sample"] == sample  # the address bar reopens this view


@pytest.mark.parametrize("sample", SAMPLES)
def test_home_matrix_counts_are_the_checks(sample: str) -> None:
    at = open_page(None, sample=sample)
    result = check(ROOT / "sample_logs" / sample)
    expected = Counter((v.rule, p) for p, found in result.results.items() for v in found)
    if not expected:
        assert not any("severity" in d.value.columns for d in at.dataframe)
        return
    matrix = next(
        d.value for d in at.dataframe if "severity" in d.value.columns and "anthropic" in d.value.columns
    )
    assert list(matrix.columns[:-1]) == list(PROVIDERS)
    seen = {(rule, p): int(matrix.loc[rule, p]) for rule in matrix.index for p in PROVIDERS}
    assert {k: n for k, n in seen.items() if n} == dict(expected)


@pytest.mark.parametrize("sample", SAMPLES)
def test_timeline_counts_and_rings_every_violation(sample: str) -> None:
    at = open_page("app_pages/1_Timeline.py", sample=sample)
    session = toolhist.load(ROOT / "sample_logs" / sample)
    summary = toolhist.summarize(session)
    got = metrics(at)
    assert got["Messages"] == str(summary.messages)
    assert got["Tool calls"] == str(summary.tool_calls)
    assert got["Tool results"] == str(summary.tool_results)
    table = frame_with(at, "call_id")
    assert (table["kind"] == "call").sum() == summary.tool_calls
    assert (table["kind"] == "result").sum() == summary.tool_results
    result = check(ROOT / "sample_logs" / sample)
    # the page rings the default provider's violations (the one it ran on, else the first that
    # rejects it); the others are added in the sidebar
    at.multiselect(key="tl_providers").set_value(list(result.results)).run()
    table = frame_with(at, "call_id")
    located = {
        v.message_index for found in result.results.values() for v in found if v.message_index is not None
    }
    assert not at.get("plotly_chart")  # the default chart is the server's picture: no Plotly to load
    if not len(table):  # no call, no result, no violation: nothing to draw
        assert not located
        assert not pictures(at)
        return
    [svg] = pictures(at)
    assert {int(m) for m in re.findall(r'<circle class="violation" data-message="(\d+)"', svg)} == located
    assert sum(len(m.split()) for m in re.findall(r'data-messages="([^"]*)"', svg)) == len(table)
    # the interactive chart, one switch away, rings the same messages
    at.toggle(key="tl_interactive").set_value(True).run()
    assert at.query_params["chart"] == "interactive"
    assert not pictures(at)
    traces = json.loads(at.get("plotly_chart")[0].proto.spec)["data"]
    assert {trace["type"] for trace in traces} == {"scattergl"}  # WebGL only: 10,000 messages stay fast
    ringed = next(t for t in traces if t["name"] == "violations")
    assert {int(x) for x in array(ringed["x"])} == located


def test_the_interactive_chart_is_remembered_across_pages() -> None:
    at = open_page("app_pages/1_Timeline.py", sample="openai_chat_request.json", provider="openai-chat")
    assert at.toggle(key="tl_interactive").value is False
    assert len(pictures(at)) == 1
    at.toggle(key="tl_interactive").set_value(True).run()
    at.switch_page("app_pages/2_Violations.py").run()
    at.switch_page("app_pages/1_Timeline.py").run()
    assert not at.exception
    assert at.toggle(key="tl_interactive").value is True
    assert len(at.get("plotly_chart")) == 1
    at.toggle(key="tl_interactive").set_value(False).run()
    assert "chart" not in at.query_params
    assert len(pictures(at)) == 1
    assert not at.get("plotly_chart")


def test_timeline_selection_opens_the_message() -> None:
    at = open_page(
        "app_pages/1_Timeline.py",
        sample="openai_chat_request.json",
        provider="openai-chat",
        chart="interactive",
    )
    assert "Message 9 · assistant · messages[9]" in texts(at)  # the first message with a violation
    assert "openai-chat · oai.call_unanswered · error · messages[9].role" in texts(at)
    at.session_state["tl_chart"] = {
        "selection": {
            "points": [{"customdata": [2, 3, "result", "ok", "call_8fJx2LmQ0pV4tR7wN1sYb3Kd", ""]}],
            "point_indices": [2],
            "box": [],
            "lasso": [],
        }
    }
    at.run()
    assert "Message 3 · tool · messages[3]" in texts(at)
    assert at.query_params["msg"] == "3"
    at.session_state["tl_table"] = {"selection": {"rows": [4], "columns": [], "cells": []}}
    at.run()
    assert "Message 5 · assistant · messages[5]" in texts(at)


def test_timeline_deep_link_message_and_provider() -> None:
    at = open_page("app_pages/1_Timeline.py", sample="llxprt_icontent.json", provider="anthropic", msg="4")
    assert at.multiselect(key="tl_providers").value == ["anthropic"]
    assert "Message 4 · tool · [4]" in texts(at)
    expected = [
        v.error_text for v in check(ROOT / "sample_logs" / "llxprt_icontent.json").results["anthropic"]
    ]
    assert set(expected) <= {c.value for c in at.code}


@pytest.mark.parametrize("sample", SAMPLES)
def test_violations_table_is_every_violation(sample: str) -> None:
    at = open_page("app_pages/2_Violations.py", sample=sample)
    result = check(ROOT / "sample_logs" / sample)
    found = [v for vs in result.results.values() for v in vs]
    if not found:
        assert at.success
        return
    table = frame_with(at, "error text")
    assert len(table) == len(found)
    assert list(table["error text"]) == [v.error_text for v in found]
    assert list(table["path"]) == [v.path for v in found]
    assert [None if m is None or str(m) == "<NA>" else int(m) for m in table["message"]] == [
        v.message_index for v in found
    ]


def test_a_missing_block_or_partner_is_an_empty_cell() -> None:
    """Streamlit writes a missing number as a grey "None" unless the table gives a placeholder."""
    at = open_page("app_pages/2_Violations.py", sample="openai_chat_request.json", provider="anthropic")
    grid = next(d for d in at.dataframe if "error text" in d.value.columns)
    assert grid.value["block"].isna().any()  # a cell that would have read "None"
    assert grid.proto.HasField("placeholder")
    assert grid.proto.placeholder == ""
    at = open_page("app_pages/1_Timeline.py", sample="openai_chat_request.json", provider="openai-chat")
    grid = next(d for d in at.dataframe if "call_id" in d.value.columns)
    unanswered = grid.value[grid.value["status"] == "unanswered"]
    assert list(unanswered["partner"].isna()) == [True]  # call_Rk2Vb7nXc4LzA9qWe6tYu1Io
    assert grid.proto.HasField("placeholder")
    assert grid.proto.placeholder == ""


def test_violations_filter_by_provider_and_link_to_the_message() -> None:
    at = open_page("app_pages/2_Violations.py", sample="openai_chat_request.json", provider="anthropic")
    table = frame_with(at, "error text")
    assert set(table["provider"]) == {"anthropic"}
    link = next(p for p in at.get("page_link") if "timeline" in p.proto.label)
    assert link.proto.label == "Message 9 in the timeline"


def test_violations_opens_on_the_first_error_not_a_warning_listed_before_it() -> None:
    at = open_page("app_pages/2_Violations.py", sample="anthropic_request.json")
    table = frame_with(at, "error text")
    assert list(table["severity"][:3]) == ["warning", "warning", "error"]
    first = table.iloc[2]
    assert f"{first['provider']} · {first['rule']} · error · {first['path']}" in texts(at)
    at.multiselect(key="vi_rule").set_value(["mis.user_after_tool"]).run()  # warnings only: the first one
    only = frame_with(at, "error text").iloc[0]
    assert f"{only['provider']} · mis.user_after_tool · warning · {only['path']}" in texts(at)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("sample", SAMPLES)
def test_curation_counts_are_the_library_s(sample: str, strategy: str) -> None:
    at = open_page("app_pages/3_Curation.py", sample=sample, provider="anthropic", strategy=strategy)
    session = toolhist.load(ROOT / "sample_logs" / sample)
    curation = curate(session, "anthropic", strategy=strategy)
    aligned = diff(curation.original, curation.sent_session(), curation.changes)  # the ids that are sent
    got = metrics(at)
    assert got["Changes"] == str(len(curation.changes))
    left = validate(session, "anthropic", strategy=strategy)
    assert got["Errors left"] == str(sum(v.severity == "error" for v in left))
    table = frame_with(at, "after #")
    assert len(table) == len(aligned.rows)
    assert list(table["status"]) == [row.status for row in aligned.rows]
    if curation.changes:
        log = frame_with(at, "reason")
        assert list(log["reason"]) == [c.reason for c in curation.changes]
    compared = frame_with(at, "errors left")
    assert list(compared["strategy"]) == list(STRATEGIES)
    # the library strategies wait for their button (tests/app/test_on_request.py), but the one picked
    later = deferred(STRATEGIES, False, strategy)
    assert strategy not in later
    ran = [name for name in STRATEGIES if name not in later]
    library = compare(session, "anthropic", ran)
    # A strategy that did not run (its library not installed, or not yet) has no counts, never zeros.
    counts = [None if n == "not run" else int(n) for n in compared["changes"]]
    assert counts == [library[name].changes if name in library else None for name in STRATEGIES]
    errors = [None if n == "not run" else int(n) for n in compared["errors left"]]
    assert errors == [
        sum(library[name].errors.values()) if name in library and library[name].status == "ran" else None
        for name in STRATEGIES
    ]
    assert list(compared["status"]) == [
        (library[name].describe() or "ran") if name in library else waiting(name) for name in STRATEGIES
    ]


@pytest.mark.parametrize("sample", SAMPLES)
def test_payloads_are_the_rendered_bodies(sample: str) -> None:
    at = open_page("app_pages/4_Payloads.py", sample=sample, strategy="none")
    session = toolhist.load(ROOT / "sample_logs" / sample)
    chosen = at.multiselect(key="pl_providers").value
    assert 2 <= len(chosen) <= 4
    bodies = [json.loads(j.value) for j in at.json]
    assert bodies == [render(session, p).body for p in chosen]


def test_payloads_mark_the_offending_lines_and_show_the_id_map() -> None:
    at = open_page(
        "app_pages/4_Payloads.py", sample="openai_chat_request.json", provider="anthropic", repair="canonical"
    )
    at.multiselect(key="pl_providers").set_value(["openai-chat", "mistral"]).run()
    assert not at.exception
    # canonical sends every id in the target's form at the edge: Mistral's 9-character ids, an id map;
    # toolhist's curated history already holds the ids it sends (its rewrite_id Changes), so it has none
    assert any("original" in d.value.columns for d in at.dataframe)
    sample = toolhist.load(ROOT / "sample_logs" / "openai_chat_request.json")
    assert render(sample, "mistral", strategy="toolhist").id_map == {}
    at.toggle(key="pl_repaired").set_value(False).run()
    # the window opens on the first error (message 9): its expander names the rule, its lines are marked
    marked = [e.label for e in at.expander if e.label.startswith("Message 9 ")]
    rules = sorted(
        {
            v.rule
            for p in ("openai-chat", "mistral")
            for v in check(ROOT / "sample_logs" / "openai_chat_request.json").results[p]
            if v.message_index == 9
        }
    )
    assert "oai.call_unanswered" in rules
    assert marked == [
        "Message 9 · assistant · tool_call · :red[marked: " + ", ".join(f"`{r}`" for r in rules) + "]"
    ]
    html = "".join(h.proto.body for h in at.get("html"))
    assert 'id="pl-openai-chat-messages-9-L2"' in html  # messages[9].role: the entry's second line
    assert "← oai.call_unanswered" in html


# The bundled samples every provider accepts: a Kilo Code history of the XML-tools era (its tool use is
# text in the messages, so there are no calls to pair). Explain is tried on every other sample's first
# error; that these have none is itself checked, so the list cannot hide a sample that stopped failing.
ACCEPTED_BY_ALL = ("kilo_xml_era.json",)


def _errors(sample: str) -> list[Violation]:
    result = check(ROOT / "sample_logs" / sample)
    return [v for vs in result.results.values() for v in vs if v.severity == "error"]


@pytest.mark.parametrize("sample", ACCEPTED_BY_ALL)
def test_the_samples_explain_is_not_tried_on_are_accepted_by_every_provider(sample: str) -> None:
    assert _errors(sample) == []


@pytest.mark.parametrize("sample", [s for s in SAMPLES if s not in ACCEPTED_BY_ALL])
def test_explain_names_the_rule_and_the_culprit(sample: str) -> None:
    errors = _errors(sample)
    assert errors, f"{sample}: no provider rejects it (list it in ACCEPTED_BY_ALL if that is right)"
    at = open_page("app_pages/5_Explain.py", sample=sample)
    at.text_area(key="ex_text").input(errors[0].error_text).run()
    assert not at.exception
    expected = explain(errors[0].error_text, toolhist.load(ROOT / "sample_logs" / sample))
    got = metrics(at)
    assert at.code[0].value == expected.rule  # the whole id, not a metric that cuts it short
    culprit = "unknown" if expected.message_index is None else str(expected.message_index)
    assert got["Culprit message"] == culprit


def test_explain_unknown_text_is_an_answer() -> None:
    at = open_page("app_pages/5_Explain.py", sample="openai_chat_request.json")
    at.text_area(key="ex_text").input("something else went wrong").run()
    assert not at.exception
    assert at.warning[0].value == "No known provider rule matches this text."


def test_an_upload_is_shared_with_the_other_pages() -> None:
    body = {
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "tool", "tool_call_id": "c1", "content": "x"},
        ]
    }
    at = open_page(None)
    at.segmented_control(key="source").set_value("Upload").run()
    at.file_uploader(key="upload").upload("mine.json", json.dumps(body).encode(), "application/json").run()
    assert not at.exception
    assert "sample" not in at.query_params  # an upload is not a sample: the other pages must not reopen one
    at.switch_page("app_pages/1_Timeline.py").run()
    assert not at.exception
    assert "mine.json" in texts(at)
    events = frame_with(at, "call_id")
    assert events[events["kind"] == "result"]["status"].tolist() == ["unmatched"]


def test_bad_deep_links_are_messages_not_tracebacks(tmp_path: Path) -> None:
    at = AppTest.from_file(str(ROOT / "app_pages" / "1_Timeline.py"), default_timeout=60)
    at.query_params["sample"] = "nope.json"
    at.query_params["msg"] = "99999"
    at.run()
    assert not at.exception
    assert at.warning[0].value == "There is no bundled sample by that name; showing openai_chat_request.json."
    result = check(ROOT / "sample_logs" / "openai_chat_request.json")
    # out of range: the page opens as without a link, on the first error of the provider it shows
    # (the sample's own, openai-chat), the 400 the user came for
    assert at.multiselect(key="tl_providers").value == ["openai-chat"]
    first = min(
        v.message_index
        for v in result.results["openai-chat"]
        if v.severity == "error" and v.message_index is not None
    )
    assert at.number_input(key="tl_msg").value == first == 9
    broken = tmp_path / "broken.json"
    broken.write_text('{"messages": [')
    at = AppTest.from_file(str(ROOT / "app_pages" / "1_Timeline.py"), default_timeout=60)
    at.query_params["path"] = str(broken)
    at.run()
    assert not at.exception
    assert at.error[0].value == "This input cannot be read as a session."


def test_script_in_a_tool_result_is_text() -> None:
    at = open_page("app_pages/1_Timeline.py", sample="xss_tool_result.json", msg="3")
    shown = "\n".join(c.value for c in at.code)
    assert "<script>window.__toolhist_xss = 'script'; alert('xss')</script>" in shown
    assert not any("<script>" in m.value for m in at.markdown)
    assert not at.get("html")


def test_a_matrix_cell_opens_those_violations() -> None:
    at = open_page(None, sample="openai_chat_request.json")
    matrix = next(d.value for d in at.dataframe if "severity" in d.value.columns)
    row = list(matrix.index).index("mis.id_format")
    at.session_state["matrix"] = {"selection": {"rows": [], "columns": [], "cells": [[row, "mistral"]]}}
    at.run()
    assert not at.exception
    table = frame_with(at, "error text")
    assert set(table["provider"]) == {"mistral"}
    assert set(table["rule"]) == {"mis.id_format"}
    found = check(ROOT / "sample_logs" / "openai_chat_request.json").results["mistral"]
    assert len(table) == sum(v.rule == "mis.id_format" for v in found)


def test_a_path_deep_link_opens_the_file_on_every_page(tmp_path: Path) -> None:
    f = tmp_path / "body.json"
    f.write_text((ROOT / "sample_logs" / "llxprt_icontent.json").read_text())
    at = open_page(None, path=str(f))
    assert at.segmented_control(key="source").value == "Path"
    assert f"Session: {f}" in texts(at)
    at.switch_page("app_pages/1_Timeline.py").run()
    assert not at.exception
    assert at.query_params["path"] == str(f)
    assert metrics(at)["Messages"] == "7"
    at.switch_page("home.py").run()  # the home page: app.py only navigates
    at.segmented_control(key="source").set_value("Upload").run()
    assert "path" not in at.query_params  # an upload cannot be linked to


def test_curation_row_shows_before_and_after_side_by_side() -> None:
    at = open_page(
        "app_pages/3_Curation.py",
        sample="llxprt_icontent.json",
        provider="anthropic",
        strategy="toolhist",
        msg="4",
    )
    shown = texts(at)
    assert "Message 4 · tool · [4]" in shown  # before: the deep link's message
    assert "anthropic · ant.result_missing · error · messages.5" in shown  # what Anthropic said about it
    table = frame_with(at, "after #")
    row = table[table["before #"] == 4].iloc[0]
    assert (
        f"Message {int(row['after #'])} · " + ("tool" if "result" in row["after"] else "assistant") in shown
    )
    at.session_state["cu_aligned"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert "Message 0 · user · [0]" in texts(at)
    assert at.query_params["msg"] == "0"


def test_a_long_history_is_charted_one_window_at_a_time(tmp_path: Path) -> None:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    for k in range(2000):  # 6,001 messages, one unanswered call at message 4,000
        call = {"id": f"call_{k:05d}", "type": "function", "function": {"name": "grep", "arguments": "{}"}}
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        if k != 1333:
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": "ok"})
        messages.append({"role": "user", "content": f"next {k}"})
    f = tmp_path / "long.json"
    f.write_text(json.dumps({"model": "gpt-4.1", "messages": messages}))
    at = AppTest.from_file(str(ROOT / "app_pages" / "1_Timeline.py"), default_timeout=120)
    at.query_params["path"] = str(f)
    at.query_params["provider"] = "openai-chat"
    at.run()
    assert not at.exception
    assert metrics(at)["Messages"] == str(len(messages))
    assert at.number_input(key="tl_window").value == 2  # the window holding the first violation
    [svg] = pictures(at)
    drawn = [int(m) for ms in re.findall(r'data-messages="([^"]*)"', svg) for m in ms.split()]
    assert min(drawn) >= 2500
    assert max(drawn) < 5000
    assert 'data-message="4000"' in svg  # the unanswered call, ringed
    at.number_input(key="tl_window").set_value(1).run()
    [svg] = pictures(at)
    assert max(int(m) for ms in re.findall(r'data-messages="([^"]*)"', svg) for m in ms.split()) < 2500
    at.toggle(key="tl_interactive").set_value(True).run()  # the interactive chart draws the same window
    traces = json.loads(at.get("plotly_chart")[0].proto.spec)["data"]
    assert max(x for t in traces if t.get("x") is not None for x in array(t["x"]) if x is not None) < 2500
