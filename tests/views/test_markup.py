"""`toolhist.views.markup` and `toolhist.views.svg`: the static pictures the report and Jupyter share."""

from __future__ import annotations

import re

import pandas as pd

import toolhist
from toolhist.providers import PROVIDERS, validate
from toolhist.views.markup import highlight, json_code, payload_grid, table, verdict_cards
from toolhist.views.svg import timeline_svg
from toolhist.views.timeline import events_frame

XSS = "sample_logs/xss_tool_result.json"


def test_highlight_colours_json_tokens_of_the_escaped_line() -> None:
    assert highlight('  "key": "a <b> & \\"c\\"",') == (
        '  <span class="k">&quot;key&quot;</span>: '
        '<span class="s">&quot;a &lt;b&gt; &amp; \\&quot;c\\&quot;&quot;</span>,'
    )
    assert highlight('"n": -1.5e3, "t": true, "z": null') == (
        '<span class="k">&quot;n&quot;</span>: <span class="d">-1.5e3</span>, '
        '<span class="k">&quot;t&quot;</span>: <span class="b">true</span>, '
        '<span class="k">&quot;z&quot;</span>: <span class="b">null</span>'
    )
    assert (
        highlight('"2024": "x1"')
        == '<span class="k">&quot;2024&quot;</span>: <span class="s">&quot;x1&quot;</span>'
    )


def test_json_code_marks_lines_shows_gaps_and_links_each_mark() -> None:
    lines = pd.DataFrame(
        {"line": [2, 3, 7], "text": ["{", '"a": 1', "}"], "path": ["", "a", ""], "rules": ["", "r.one", ""]}
    )
    html = json_code(lines, anchor="p", total=9)
    assert re.findall(r'<span class="l( m| gap)?"', html) == [" gap", "", " m", " gap", "", " gap"]
    assert "… 1 line(s)" in html
    assert "… 3 line(s)" in html
    assert "… 2 line(s)" in html  # after line 7 of 9
    assert '<div class="th-jumps">marked lines: <a href="#p-L3">3</a></div>' in html
    assert '<span class="r">← r.one</span>' in html


def test_table_escapes_cells_and_classes_rows() -> None:
    html = table(("a", "b"), [("<x>", None), (1, "y")], row_classes=["th-changed", ""], table_id="t")
    assert html == (
        '<table id="t"><thead><tr><th>a</th><th>b</th></tr></thead><tbody>'
        '<tr class="th-changed"><td>&lt;x&gt;</td><td></td></tr><tr><td>1</td><td>y</td></tr></tbody></table>'
    )


def test_verdict_cards_and_grid() -> None:
    session = toolhist.load("sample_logs/mistral_ids_after_openai.json")
    results = {p: validate(session, p) for p in ("mistral", "kimi", "anthropic")}
    html = verdict_cards(results, ["mistral"])
    assert re.findall(r'class="th-card (\w+)" data-provider="([a-z]+)"', html) == [
        ("rejects", "mistral"),
        ("warns", "kimi"),
        ("accepts", "anthropic"),
    ]
    assert re.findall(r'<div class="how">([^<]+)</div>', html) == [
        "as sent",
        "as the next request",
        "as the next request",
    ]
    assert "<li>kimi.id_format x2 (warning)</li>" in html
    grid = payload_grid([("a", "<p>1</p>"), ("b", "<p>2</p>")])
    assert 'style="grid-template-columns: repeat(2, minmax(0, 1fr))"' in grid


def test_svg_draws_every_event_escaped_and_caps_a_long_history() -> None:
    session = toolhist.load(XSS)
    found = [v for p in PROVIDERS for v in validate(session, p)]
    frame = events_frame(session, found)
    svg = timeline_svg(frame, messages=len(session.messages))
    assert svg.count('class="mark ') == len(frame)
    assert svg.count('<circle class="violation"') == int((frame["violations"] != "").sum())
    assert "<script" not in svg
    assert not re.search(r"\b(href|src|on\w+)=", svg)
    plain = events_frame(session)  # no violation: only the first event is kept
    capped = timeline_svg(plain, messages=len(session.messages), max_events=1)
    assert 'data-events="1" data-violations="0"' in capped
    assert f"{len(plain) - 1:,} events not drawn (first 1 and every violation shown)" in capped
    ringed = timeline_svg(frame, messages=len(session.messages), max_events=1)  # violations are always drawn
    assert f'data-events="{len(frame)}"' in ringed
    assert "not drawn" not in ringed
