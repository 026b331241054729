"""``examples/walkthrough.ipynb`` runs top to bottom in a real kernel, and its outputs hold the views.

Not only "no exception": each output is read back and compared with what the library computes for
the same real log (the verdict cards, the ringed timeline events, the violations table, the explained
error and its culprit, the aligned diff, the marked payload lines, the compaction tiers, the report).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbclient
import nbformat
import pytest
from plotly.offline import get_plotlyjs

import toolhist
from toolhist.check import judged_verdict
from toolhist.compaction import compact
from toolhist.diff import diff
from toolhist.explain import explain
from toolhist.judgement import judge
from toolhist.providers import PROVIDERS, provider_for, render, validate
from toolhist.report import report
from toolhist.views.payloads import lines_frame
from toolhist.views.timeline import events_frame

read_notebook: Any = nbformat.read  # nbformat ships no type hints
ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
LOG = ROOT / "tests" / "corpus" / "logs" / "claude-code" / "drmaciver-hello-world-script.jsonl"
PASTED = (
    "Error code: 400 - {'object': 'error', 'message': 'Tool call id was toolu_01R3SZZYuAq6mou5RqHE4rzF "
    "but must be a-z, A-Z, 0-9, with a length of 9.', 'type': 'invalid_function_call', 'param': None, "
    "'code': '3280'}"
)


def execute() -> Any:
    """The walkthrough executed in a fresh kernel (from ``examples/``, as a user runs it)."""
    nb = read_notebook(EXAMPLES / "walkthrough.ipynb", as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}
    )
    client.execute()
    return nb


def stdout(cell: Any) -> str:
    return "".join(
        o["text"] for o in cell["outputs"] if o["output_type"] == "stream" and o["name"] == "stdout"
    )


def html(cell: Any) -> str:
    found = [o["data"]["text/html"] for o in cell["outputs"] if o["output_type"] == "execute_result"]
    assert len(found) == 1, cell["source"]
    return str(found[0])


@pytest.fixture(scope="module")
def executed() -> list[Any]:
    nb = execute()
    return [c for c in nb.cells if c.cell_type == "code"]


@pytest.fixture(scope="module")
def session() -> toolhist.Session:
    return toolhist.load(LOG)


def test_committed_without_outputs() -> None:
    nb = read_notebook(EXAMPLES / "walkthrough.ipynb", as_version=4)
    nbformat.validate(nb)
    assert all(c.get("outputs", []) == [] for c in nb.cells if c.cell_type == "code")
    assert LOG.relative_to(ROOT).as_posix() in "".join(c.source for c in nb.cells).replace('" / "', "/")


def test_no_cell_fails_and_every_view_is_shown(executed: list[Any]) -> None:
    assert len(executed) == 9
    assert [o["output_type"] for c in executed for o in c["outputs"] if o["output_type"] == "error"] == []


def test_the_session_shows_a_verdict_per_provider_and_the_timeline(
    executed: list[Any], session: toolhist.Session
) -> None:
    page = html(executed[0])
    results = {p: judged_verdict(judge(session), p) for p in PROVIDERS}
    cards = re.findall(r'<div class="th-card (\w+)" data-provider="([a-z-]+)">', page)
    assert [p for _, p in cards] == list(PROVIDERS)
    for kind, provider in cards:
        errors = sum(v.severity == "error" for v in results[provider])
        assert kind == ("rejects" if errors else ("warns" if results[provider] else "accepts")), provider
    assert ("rejects", "mistral") in cards  # the story: Mistral rejects this Claude Code session
    frame = events_frame(session, [v for found in results.values() for v in found])
    ringed = int((frame["violations"] != "").sum())
    assert f'data-events="{len(frame)}" data-violations="{ringed}"' in page
    assert "<script" not in page


def test_the_timeline_is_the_figure_with_its_picture_as_fallback(
    executed: list[Any], session: toolhist.Session
) -> None:
    page = html(executed[1])
    mistral = judged_verdict(judge(session), "mistral")
    frame = events_frame(session, mistral)
    ringed = sorted({int(m) for m in frame[frame["violations"] != ""]["message"]})
    assert ringed == sorted({v.message_index for v in mistral if v.message_index is not None})
    assert f'data-events="{len(frame)}" data-violations="{len(ringed)}"' in page
    assert page.count("Plotly.newPlot") == 1
    assert get_plotlyjs() in page  # plotly.js itself, inline (the kernel's first figure)
    assert not re.search(r"<script[^>]*\bsrc=", page)  # nothing from a CDN


def test_the_violations_table(executed: list[Any], session: toolhist.Session) -> None:
    page = html(executed[2])
    mistral = judged_verdict(judge(session), "mistral")
    assert len(re.findall(r'<tr>\s*<td id="T_\w+_row\d+_col0"', page)) == len(mistral)
    assert re.findall(r">(mis\.[a-z_]+)<", page) == [v.rule for v in mistral]
    assert "background-color: #f8d7da" in page  # error rows in red


def test_the_pasted_error_is_explained_and_its_culprit_found(
    executed: list[Any], session: toolhist.Session
) -> None:
    page = html(executed[3])
    found = explain(PASTED, session)
    assert (found.rule, found.message_index, found.wrappers) == ("mis.id_format", 1, ("python-repr",))
    assert f"<td>rule</td><td>{found.rule}</td>" in page
    assert (
        "<td>culprit</td><td>message 1, block 0 (ai): call Write(toolu_01R3SZZYuAq6mou5RqHE4rzF)</td>" in page
    )


def test_curation_is_the_aligned_coloured_diff(executed: list[Any], session: toolhist.Session) -> None:
    curation = toolhist.curate(session, "mistral")
    left = [v for v in validate(session, "mistral", strategy="toolhist") if v.severity == "error"]
    assert stdout(executed[4]) == f"{len(curation.changes)} changes; {len(left)} errors left\n"
    assert left == []
    d = diff(session, curation.session, curation.changes)
    assert re.findall(r'<tr class="th-(\w+)">', html(executed[4])) == [row.status for row in d.rows]


def test_payloads_side_by_side_with_the_offending_lines_marked(
    executed: list[Any], session: toolhist.Session
) -> None:
    page = html(executed[5])
    chosen = ["anthropic", "mistral", "openai-chat", "gemini"]
    assert re.findall(r'<div class="th-payload"><h4>([a-z-]+)</h4>', page) == chosen
    assert "grid-template-columns: repeat(4, minmax(0, 1fr))" in page
    for provider in chosen:
        frame = lines_frame(
            render(session, provider).body, provider_for(provider).path_format, validate(session, provider)
        )
        marked = [str(n) for n in frame[frame["rules"] != ""]["line"]]
        assert re.findall(rf'<span class="l m" id="{provider}-none-L(\d+)">', page) == marked, provider
    assert re.findall(r'id="mistral-none-L(\d+)"', page)  # Mistral's lines are marked
    curated = html(executed[6])
    assert "accepts; " in curated
    assert 'class="l m"' not in curated


def test_compaction_tiers(executed: list[Any], session: toolhist.Session) -> None:
    c = compact(session, "anthropic")
    page = html(executed[7])
    assert f"anthropic: {c.tokens_before:,} → {c.tokens_after:,} tokens" in page
    assert page.count(">total<") == 1


def test_a_report_is_written(executed: list[Any], session: toolhist.Session) -> None:
    page = report(session, ["mistral", "anthropic"])
    assert (
        stdout(executed[8])
        == f"hello-world-report.html {len(page)} characters; picture: True script: False\n"
    )
