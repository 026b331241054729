"""Rich display in Jupyter: escaped, offline HTML for Session, Curation, Payload and violation lists."""

from __future__ import annotations

import re
from html import escape

import toolhist
from toolhist.check import judged_verdict
from toolhist.diff import diff
from toolhist.display import Violations
from toolhist.judgement import judge
from toolhist.providers import PROVIDERS, render, validate
from toolhist.views.timeline import events_frame

XSS = "sample_logs/xss_tool_result.json"
LOG = "tests/corpus/logs/claude-code/drmaciver-hello-world-script.jsonl"  # a real Claude Code log


def _offline(html: str) -> None:
    assert "<script" not in html
    # nothing loads or runs: no src, no event handler, a link only to an anchor on the page
    assert not re.search(r"<[^>]*\b(src|on\w+)=", html)
    assert re.findall(r'href="([^"]*)"', html) == re.findall(r'href="(#[^"]*)"', html)


def test_session_html_is_escaped_and_offline() -> None:
    session = toolhist.load(XSS)
    html = session._repr_html_()
    _offline(html)
    assert "&lt;script" in html
    assert f"<td>messages</td><td>{len(session.messages)} (" in html


def test_session_html_has_a_verdict_card_per_provider_and_the_timeline_picture() -> None:
    session = toolhist.load("sample_logs/mistral_ids_after_openai.json")
    html = session._repr_html_()
    cards = re.findall(r'<div class="th-card (\w+)" data-provider="([a-z-]+)">', html)
    results = {p: judged_verdict(judge(session), p) for p in PROVIDERS}
    expected = []
    for p in PROVIDERS:
        errors = sum(v.severity == "error" for v in results[p])
        expected.append(("rejects" if errors else ("warns" if results[p] else "accepts"), p))
    assert cards == expected
    assert ("rejects", "mistral") in cards
    assert html.count("as sent</div>") == len(PROVIDERS)  # a request body: every verdict is on it as sent
    assert '<p class="th-judged">judged as sent (a request body)</p>' in html
    assert "<li>mis.id_format x2</li>" in html
    frame = events_frame(session, [v for found in results.values() for v in found])
    ringed = int((frame["violations"] != "").sum())
    assert f'data-events="{len(frame)}" data-violations="{ringed}"' in html
    assert html.count('class="violation"') == ringed


def test_curation_html_aligns_before_and_after_and_lists_every_change() -> None:
    session = toolhist.load("sample_logs/llxprt_icontent.json")
    curation = toolhist.curate(session, "anthropic")
    html = curation._repr_html_()
    _offline(html)
    assert f"{len(curation.changes)} change(s)" in html
    d = diff(session, curation.session, curation.changes)
    statuses = re.findall(r'<tr class="th-(\w+)">', html)
    assert statuses == [row.status for row in d.rows]
    assert len(statuses) == len(d.rows)
    log = html[html.index("<th>reason</th>") :]
    assert log.count("<tr>") == len(curation.changes)  # one body row per change


def test_payload_html_marks_the_offending_lines() -> None:
    session = toolhist.load(XSS)
    payload = render(session, "anthropic")
    html = payload._repr_html_()
    _offline(html)
    assert "&lt;script" in html
    session = toolhist.load("sample_logs/mistral_ids_after_openai.json")
    html = render(session, "mistral")._repr_html_()
    assert re.findall(r'<span class="l m" id="mistral-body-L(\d+)">', html) == ["38", "49"]
    assert re.findall(r'<a href="#mistral-body-L(\d+)">', html) == ["38", "49"]
    assert html.count("← mis.id_format</span>") == 2
    assert '<span class="k">&quot;tool_call_id&quot;</span>' in html  # keys highlighted


def test_violations_html() -> None:
    found = Violations(validate(toolhist.load("sample_logs/openai_chat_request.json"), "openai-chat"))
    table = found._repr_html_()
    _offline(table)
    assert "oai.call_unanswered" in table
    assert table.count("<tr>") == len(found) + 1


def test_an_agent_log_is_judged_as_the_next_request() -> None:
    session = toolhist.load(LOG)
    html = session._repr_html_()
    judged = judge(session)
    assert judged.judgement == "next-request"
    assert html.count("as the next request</div>") == len(PROVIDERS)
    assert f'<p class="th-judged">{escape(judged.describe())}</p>' in html
    # Mistral rejects the next request for its ids alone: the placeholder user turn ends it
    assert re.findall(r'data-provider="mistral">.*?<ul>(.*?)</ul>', html) == ["<li>mis.id_format x4</li>"]
