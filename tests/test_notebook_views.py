"""`toolhist.notebook`: each page as a notebook output, escaped, offline, plotly.js sent once per kernel."""

from __future__ import annotations

import json
import re

import pytest
from plotly.offline import get_plotlyjs

import toolhist
from toolhist import notebook
from toolhist.check import judged_verdict
from toolhist.explain import explain
from toolhist.judgement import judge
from toolhist.providers import PROVIDERS, validate
from toolhist.views.timeline import events_frame

XSS = "sample_logs/xss_tool_result.json"
MISTRAL = "sample_logs/mistral_ids_after_openai.json"


@pytest.fixture(autouse=True)
def fresh_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notebook, "_sent_plotlyjs", False)


def test_plotlyjs_goes_with_the_first_figure_of_a_kernel_only() -> None:
    session = toolhist.load(MISTRAL)
    first = notebook.timeline(session)._repr_mimebundle_()["text/html"]
    second = notebook.timeline(session)._repr_mimebundle_()["text/html"]
    forced = notebook.timeline(session, include_plotlyjs=True)._repr_mimebundle_()["text/html"]
    bundle = get_plotlyjs()
    assert (bundle in first, bundle in second, bundle in forced) == (True, False, True)
    assert not re.search(r"<script[^>]*\bsrc=", first)  # inline, nothing from a CDN


def test_session_text_cannot_close_the_script() -> None:
    """A tool result holding ``</script><script>…`` stays data inside the figure's JSON."""
    session = toolhist.load(XSS)
    view = notebook.timeline(session)
    page = view._repr_mimebundle_()["text/html"]
    ours = page.count("<script")
    assert ours == 4  # the PlotlyConfig and loader guard, plotly.js, the loader restored, the drawing
    assert page.count("</script>") == ours
    assert "window.__toolhist_xss" not in page.split("<script", 1)[0]  # the picture: nothing from a result
    script = page.rsplit("<script>", 1)[1]
    figure, rest = script.split("var fig = ", 1)[1].split(", messages = ", 1)
    assert "<" not in figure  # the figure's JSON: no "<" at all
    assert json.loads(figure)["data"]
    shown = rest.split(";\n", 1)[0]
    assert "<" not in shown
    messages = json.loads(shown)
    frame = events_frame(session, [v for p in PROVIDERS for v in judged_verdict(judge(session), p)])
    assert sorted(int(m) for m in messages) == sorted(set(frame["message"].tolist()))
    assert any("<script>window.__toolhist_xss" in text for text in messages.values())


def test_violations_are_a_styled_frame_with_escaped_cells() -> None:
    session = toolhist.load(MISTRAL)
    page = notebook.violations(session, ["mistral", "anthropic"]).to_html()
    found = judged_verdict(judge(session), "mistral") + judged_verdict(judge(session), "anthropic")
    assert re.findall(r">(mis\.[a-z_]+|ant\.[a-z_]+)<", page) == [v.rule for v in found]
    assert "background-color: #f8d7da" in page
    xss = notebook.violations(toolhist.load(XSS)).to_html()
    assert "<script>window" not in xss


def test_payloads_side_by_side_and_escaped() -> None:
    session = toolhist.load(XSS)
    page = notebook.payloads(session, ["anthropic", "openai-chat"])._repr_html_()
    assert re.findall(r'<div class="th-payload"><h4>([a-z-]+)</h4>', page) == ["anthropic", "openai-chat"]
    assert "<script" not in page
    assert "&lt;script&gt;window.__toolhist_xss" in page
    only = notebook.payloads(toolhist.load(MISTRAL), ["mistral"], only_marked=True)._repr_html_()
    assert re.findall(r'<span class="l( m)?"', only) == [""] * 2 + [" m"] + [""] * 4 + [" m"] + [""] * 2
    assert only.count('<span class="l gap">') == 3  # before, between and after the marked lines


def test_explain_names_the_rule_and_the_culprit() -> None:
    session = toolhist.load(MISTRAL)
    text = validate(session, "mistral")[0].error_text
    page = notebook.explain(text, session)._repr_html_()
    found = explain(text, session)
    assert f"<td>rule</td><td>{found.rule}</td>" in page
    assert f"<td>culprit</td><td>message {found.message_index}, block {found.block_index} (ai): " in page
    unknown = notebook.explain("something else went wrong")._repr_html_()
    assert "<td>rule</td><td>unknown (" in unknown
    assert "culprit" not in unknown


def test_compaction_and_verdicts() -> None:
    session = toolhist.load(MISTRAL)
    page = notebook.compaction(session, "anthropic")._repr_html_()
    assert page.count(">total<") == 1
    cards = notebook.verdicts(session, ["mistral", "anthropic"])._repr_html_()
    assert re.findall(r'<div class="th-card (\w+)" data-provider="([a-z-]+)">', cards) == [
        ("rejects", "mistral"),
        ("accepts", "anthropic"),
    ]


def test_violations_table_is_redacted() -> None:
    """A notebook is saved with its outputs: a secret quoted by an error text or a call id is not shown."""
    key = "sk-ant-api03-" + "A" * 40
    session = toolhist.load(
        [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": key, "type": "function", "function": {"name": "get", "arguments": "{}"}}
                ],
            },
        ]
    )
    page = notebook.violations(session, ["openai-chat", "anthropic"]).to_html()
    assert key not in page
    # three rows name the id; two of their error texts quote it too
    assert page.count("[REDACTED:anthropic-key]") == 5
