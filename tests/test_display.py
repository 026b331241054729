"""Rich display in Jupyter: escaped, offline HTML for Session, Curation, Payload and violation lists."""

from __future__ import annotations

import re

import toolhist
from toolhist.display import Violations
from toolhist.providers import render, validate

XSS = "sample_logs/xss_tool_result.json"


def _offline(html: str) -> None:
    assert "<script" not in html
    assert not re.search(r"<[^>]*\b(src|href|on\w+)=", html)  # no attribute loads or runs anything


def test_session_html_is_escaped_and_offline() -> None:
    session = toolhist.load(XSS)
    html = session._repr_html_()
    _offline(html)
    assert "&lt;script" in html
    assert f"<td>messages</td><td>{len(session.messages)} (" in html


def test_curation_html_lists_every_change() -> None:
    session = toolhist.load("sample_logs/llxprt_icontent.json")
    curation = toolhist.curate(session, "anthropic")
    html = curation._repr_html_()
    _offline(html)
    assert f"{len(curation.changes)} change(s)" in html
    assert html.count("<tr>") == len(curation.changes) + 1  # header + one row per change


def test_payload_and_violations_html() -> None:
    session = toolhist.load(XSS)
    payload = render(session, "anthropic")
    html = payload._repr_html_()
    _offline(html)
    assert "&lt;script" in html
    found = Violations(validate(toolhist.load("sample_logs/openai_chat_request.json"), "openai-chat"))
    table = found._repr_html_()
    assert "oai.call_unanswered" in table
    assert table.count("<tr>") == len(found) + 1
