"""Long generated histories under AppTest: the chart window follows the selection, heavy work waits to be asked.

The sessions come from ``benchmarks/generate.py`` (an agent's OpenAI Chat body with the seed
failure modes at steady rates), written to a temporary file and opened through ``?path=``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from bench_modules import benchmark_module
from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.check import check
from toolhist.curation import STRATEGIES
from toolhist.curation.compare import compare
from toolhist.providers import render
from toolhist.views.body import jumps, sections
from toolhist.views.on_request import BUTTON, deferred, waiting
from toolhist.views.sent import verdict_line
from toolhist.views.timeline import events_frame

ROOT = Path(__file__).parent.parent.parent
CHART_WINDOW = 2500  # app_pages/1_Timeline.py
PAGE_ROWS = 500


def generator() -> ModuleType:
    """``benchmarks/generate.py`` (not a package: loaded from its path)."""
    return benchmark_module("generate")


@pytest.fixture(scope="module")
def long_session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = generator().write(6000, tmp_path_factory.mktemp("scale") / "long.json")
    return path


def page(name: str, path: Path, **params: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app_pages" / name), default_timeout=300)
    at.query_params["path"] = str(path)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def charted(at: AppTest) -> list[float]:
    """The message of every mark the timeline's picture draws (the default chart, an SVG)."""
    [svg] = [m.value for m in at.markdown if 'class="th-timeline"' in m.value]
    return [float(m) for ms in re.findall(r'data-messages="([^"]*)"', svg) for m in ms.split()]


def test_the_chart_window_follows_a_row_picked_in_the_table(long_session: Path) -> None:
    at = page("1_Timeline.py", long_session, provider="openai-chat")
    session = toolhist.load(long_session)
    frame = events_frame(session, check(long_session, ["openai-chat"]).results["openai-chat"])
    first = int(frame[frame["violations"] != ""]["message"].iloc[0])
    assert at.number_input(key="tl_window").value == first // CHART_WINDOW + 1
    # page through the table to the first event of message 5,000 or later and pick its row
    row = int(frame.index[frame["message"] >= 5000][0])
    at.number_input(key="tl_page").set_value(row // PAGE_ROWS + 1).run()
    offset = row % PAGE_ROWS
    at.session_state["tl_table"] = {"selection": {"rows": [offset], "columns": [], "cells": []}}
    at.run()
    assert not at.exception, at.exception
    picked = int(frame["message"].iloc[row])
    assert at.number_input(key="tl_msg").value == picked
    assert at.number_input(key="tl_window").value == picked // CHART_WINDOW + 1 == 3
    xs = charted(at)
    assert min(xs) >= 5000
    assert max(xs) < 6000
    assert f"Message {picked} · {session.messages[picked].speaker}" in " ".join(t.value for t in at.text)
    # moving the window by hand keeps it there (the inspected message is unchanged)
    at.number_input(key="tl_window").set_value(1).run()
    assert at.number_input(key="tl_window").value == 1
    assert max(charted(at)) < CHART_WINDOW
    assert at.number_input(key="tl_msg").value == picked


def test_strategies_are_compared_only_when_asked(long_session: Path) -> None:
    at = page("3_Curation.py", long_session, provider="openai-chat", strategy="toolhist")
    assert not any("errors left" in d.value.columns for d in at.dataframe)
    assert at.button(key="cu_compare_go").label == "Compare the built-in strategies"
    at.button(key="cu_compare_go").click().run()
    assert not at.exception, at.exception
    table = next(d.value for d in at.dataframe if "errors left" in d.value.columns)
    later = deferred(STRATEGIES, False, "toolhist")  # the library ones: their own button
    ran = [name for name in STRATEGIES if name not in later]
    library = compare(toolhist.load(long_session), "openai-chat", ran)
    assert list(table["strategy"]) == list(STRATEGIES)
    assert [None if n == "not run" else int(n) for n in table["changes"]] == [
        library[name].changes if name in library else None for name in STRATEGIES
    ]
    assert list(table["status"]) == [
        (library[name].describe() or "ran") if name in library else waiting(name) for name in STRATEGIES
    ]
    assert at.button(key="cu_libraries_go").label == BUTTON
    at.toggle(key="cu_only_changed").set_value(False).run()  # any later run keeps the comparison
    assert any("errors left" in d.value.columns for d in at.dataframe)


def test_switch_runs_none_and_toolhist_first_on_a_long_history(long_session: Path) -> None:
    """Every strategy on every leg took over half an hour on a 1 GB rollout: the rest wait to be asked."""
    import orjson

    from toolhist.switch import switch

    at = page("8_Switch.py", long_session, to="anthropic", back="(stay)")
    assert at.multiselect(key="sw_strategies").value == ["none", "toolhist"]
    built_in = [n for n in STRATEGIES if n not in deferred(STRATEGIES, False, "none")]
    rest = [n for n in built_in if n not in ("none", "toolhist")]
    assert [c.value for c in at.caption if c.value.startswith("Each strategy curates")] == [
        "Each strategy curates, renders and judges all 6,000 messages on every leg: on a history this long "
        f"none, toolhist run first; {', '.join(rest)} when picked, or:"
    ]
    verdicts = next(d.value for d in at.dataframe if "foreign tokens" in d.value.columns)
    assert list(verdicts["strategy"]) == ["none", "toolhist"]
    expected = switch(toolhist.load(long_session), 3000, "anthropic", strategies=["none", "toolhist"])
    whole = orjson.dumps(expected.legs[0].strategies["none"].body, option=orjson.OPT_INDENT_2)
    [head] = [c.value for c in at.code if c.language == "json"]
    assert whole.decode().startswith(head + "\n")
    assert len(head) <= 200_000 < len(whole)
    lines, total = head.count("\n") + 1, whole.count(b"\n") + 1
    assert [c.value for c in at.caption if c.value.startswith("The first ")] == [
        f"The first {lines:,} lines of {total:,}: the whole body is the download."
    ]
    at.button(key="sw_built_in_go").click().run()
    assert not at.exception, at.exception
    assert at.multiselect(key="sw_strategies").value == built_in
    assert not [c for c in at.caption if c.value.startswith("Each strategy curates")]


def test_switch_lists_many_violations_of_a_body_as_one_table(long_session: Path) -> None:
    """The return leg's body as given breaks a rule per message or so: one table, not a text line each."""
    from toolhist.switch import switch
    from toolhist.views.switch import TEXT_LINES

    at = page("8_Switch.py", long_session, to="openai-responses", back="openai-chat")
    assert not at.exception, at.exception
    expected = switch(
        toolhist.load(long_session),
        3000,
        "openai-responses",
        back_to="openai-chat",
        strategies=["none", "toolhist"],
    )
    shown = [leg.strategies["none"].violations for leg in expected.legs]
    assert len(shown[1]) > TEXT_LINES  # the return, as given, to openai-chat
    tables = [
        d.value for d in at.dataframe if "provider's text" in d.value.columns and "rule" in d.value.columns
    ]
    many = [found for found in shown if len(found) > TEXT_LINES]
    assert [list(t["provider's text"]) for t in tables] == [[v.error_text for v in found] for found in many]
    assert [list(t["message"]) for t in tables] == [[v.message_index for v in found] for found in many]
    assert [c.value for c in at.caption if c.value.endswith(" violations of this body")] == [
        f"{len(found):,} violations of this body" for found in many
    ]
    lines = [t.value for t in at.text if t.value.startswith(("error  ", "warning  "))]
    assert lines == [
        f"{v.severity}  {v.rule}  {v.path}: {v.error_text}"
        for found in shown
        if len(found) <= TEXT_LINES
        for v in found
    ]


def test_a_long_body_is_shown_a_window_of_messages_at_a_time(long_session: Path) -> None:
    """6,000 messages: no whole tree, a window of source messages opening on the first error, a jump to
    each violation (errors first), each provider's entries for a message beside each other, marked."""
    at = page("4_Payloads.py", long_session)
    session = toolhist.load(long_session)
    result = check(long_session)
    chosen = at.multiselect(key="pl_providers").value
    assert chosen == ["openai-chat", "anthropic", "gemini"]
    assert list(at.json) == []
    assert [t.value for t in at.text if t.value.startswith("as sent: ")] == [
        f"as sent: {verdict_line(result.results[p])}" for p in chosen
    ]
    found = {p: result.results[p] for p in chosen}
    targets = jumps(found)
    first = targets[0][1]
    assert targets[0][0].endswith("(error)")
    assert at.number_input(key="pl_from").value == max(0, first - 2)
    titles = [e.label for e in at.expander if e.label.startswith("Message ")]
    assert len(titles) == 10
    assert titles[0].startswith(f"Message {max(0, first - 2)} · ")
    # a jump to the last violation moves the window there
    label, message = targets[-1]
    at.selectbox(key="pl_jump").set_value(label).run()
    assert at.number_input(key="pl_from").value == max(0, message - 2)
    html = "".join(h.proto.body for h in at.get("html"))
    for provider in chosen:
        cut = sections(render(session, provider))
        for entry in cut.entries.get(message, ()):
            assert f'id="pl-{provider}-{cut.list_key}-{entry}-L' in html or not [
                v for v in found[provider] if v.message_index == message
            ]


def test_a_file_named_on_the_command_line_opens_on_the_home_page(
    long_session: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", ["app.py", str(long_session)])  # streamlit run app.py -- FILE
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    assert not at.exception, at.exception
    assert f"Session: {long_session}" in [t.value for t in at.text]
    assert {m.label: m.value for m in at.metric}["Messages"] == "6000"
    assert at.query_params["path"] == str(long_session)
    at.switch_page("app_pages/2_Violations.py").run()  # the other pages open the same file
    total = sum(len(found) for found in check(long_session).results.values())
    assert [h.value for h in at.subheader if h.value.endswith("violations")] == [f"{total:,} violations"]
