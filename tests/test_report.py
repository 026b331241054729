"""``toolhist.report`` and ``toolhist report``: self-contained, escaped, complete."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import toolhist
from toolhist.curation import curate
from toolhist.diff import diff
from toolhist.errors import UsageError
from toolhist.providers import PROVIDERS, render, validate
from toolhist.report import report
from toolhist.views.payloads import json_lines
from toolhist.views.timeline import events_frame

ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "sample_logs"
XSS = SAMPLES / "xss_tool_result.json"
MISTRAL = SAMPLES / "mistral_ids_after_openai.json"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("toolhist", path=str(Path(sys.executable).parent))
    assert exe is not None
    return subprocess.run([exe, *args], capture_output=True, text=True, check=False, timeout=120, cwd=ROOT)


def test_tool_result_markup_is_escaped() -> None:
    page = report(toolhist.load(XSS))
    assert "&lt;script&gt;window.__toolhist_xss" in page
    assert "<script" not in page.lower()
    assert "<img" not in page.lower()
    assert 'onerror="' not in page
    assert "onerror=&quot;window.__toolhist_xss" in page  # shown as text


def test_summary_lists_unsent_and_skipped_records(tmp_path: Path) -> None:
    rollout = tmp_path / "rollout.jsonl"
    rollout.write_text(
        '{"timestamp":"t","type":"session_meta","payload":{"id":"s","cli_version":"0.63.0"}}\n'
        '{"timestamp":"t","type":"response_item","payload":{"type":"ghost_snapshot","ghost_commit":{}}}\n'
        '{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user",'
        '"content":[{"type":"input_text","text":"hi"}]}}\n'
        '{"timestamp":"t","type":"wrapper_meta","payload":{}}\n'
    )
    page = report(toolhist.load(rollout), ["anthropic"])
    assert "<tr><td>kept, not sent</td><td>ghost_snapshot x1</td></tr>" in page
    assert (
        "<tr><td>skipped (unknown to the reader)</td><td>line type &#x27;wrapper_meta&#x27; x1</td></tr>"
        in page
    )


def test_no_external_resource() -> None:
    page = report(toolhist.load(XSS))
    attributes = re.findall(r"""\b(?:src|action|srcset|on[a-z]+)\s*=\s*["']""", page, re.IGNORECASE)
    assert attributes == []
    links = re.findall(r"""\bhref\s*=\s*["']([^"']*)""", page, re.IGNORECASE)
    assert links, "the marked payload lines are linked from the jump list"
    assert [link for link in links if not link.startswith("#")] == []  # anchors on the page only
    assert "xlink:" not in page
    styles = re.findall(r"<style>(.*?)</style>", page, re.DOTALL)
    assert len(styles) == 1
    assert "@import" not in styles[0]
    assert "url(" not in styles[0]
    assert "Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\"" in page


def test_sections_and_every_violation_escaped() -> None:
    session = toolhist.load(MISTRAL)
    page = report(session, ["mistral", "anthropic"])
    for section in ("summary", "timeline", "messages", "provider-mistral", "provider-anthropic"):
        assert f'id="{section}"' in page
    assert 'id="provider-gemini"' not in page
    found = validate(session, "mistral")
    assert found, "the sample is chosen because Mistral rejects it"
    for v in found:
        assert html.escape(v.error_text) in page
        assert f"<td>{html.escape(v.rule)}</td>" in page
    changes = curate(session, "mistral").changes
    assert changes
    for c in changes:
        assert f"<td>{html.escape(c.reason)}</td>" in page

    # the events table, then two payloads (as is, curated) per provider; a payload with marked lines is open
    def lines(provider: str, strategy: str = "none") -> int:
        return len(json_lines(render(session, provider, strategy=strategy).body))

    assert re.findall(r"<details( open)?><summary>([^<]*)</summary>", page) == [
        ("", "the events as a table"),
        (" open", f"as judged (strategy none): {lines('mistral')} lines, 2 marked"),
        ("", f"curated (toolhist): {lines('mistral', 'toolhist')} lines"),
        ("", f"as judged (strategy none): {lines('anthropic')} lines"),
    ]
    # Anthropic accepts it: its curated body is the body as judged, printed once
    assert not curate(session, "anthropic").changes
    assert render(session, "anthropic", strategy="toolhist").body == render(session, "anthropic").body
    assert page.count("<p>curated (toolhist): the same body, nothing changed.</p>") == 1
    assert "<p>0 error(s) left after curation.</p>" in page
    assert page.count("error(s) left after curation") == 2


def test_all_providers_by_default() -> None:
    page = report(toolhist.load(XSS))
    assert re.findall(r'id="provider-([a-z-]+)"', page) == list(PROVIDERS)


def test_unknown_provider_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown provider 'nope'"):
        report(toolhist.load(XSS), ["nope"])


def test_cli_writes_file(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    proc = run("report", str(XSS), "-o", str(out), "--provider", "openai-chat")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"wrote {out}\n"
    assert out.read_text(encoding="utf-8") == report(toolhist.load(XSS), ["openai-chat"])


def test_cli_unreadable_input_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    proc = run("report", str(bad), "-o", str(tmp_path / "r.html"))
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"toolhist: error: {bad}:")
    assert not (tmp_path / "r.html").exists()


def test_a_shared_report_names_the_file_not_the_directories_it_sits_in() -> None:
    session = toolhist.load(ROOT / "sample_logs" / "openai_chat_request.json")  # an absolute path
    page = report(session, ["openai-chat"])
    assert "<title>toolhist report: openai_chat_request.json</title>" in page
    assert "<td>file</td><td>openai_chat_request.json</td>" in page
    assert str(ROOT) not in page


def test_the_first_screen_is_the_verdicts_and_the_timeline_picture() -> None:
    session = toolhist.load(MISTRAL)
    page = report(session, ["mistral", "anthropic"])
    assert re.findall(r'<section id="([a-z-]+)"', page)[:4] == ["verdicts", "timeline", "summary", "messages"]
    assert re.findall(r'<div class="th-card (\w+)" data-provider="([a-z-]+)">', page) == [
        ("rejects", "mistral"),
        ("accepts", "anthropic"),
    ]
    found = validate(session, "mistral")
    frame = events_frame(session, found)
    ringed = [int(m) for m in frame[frame["violations"] != ""]["message"]]
    assert ringed == sorted({v.message_index for v in found if v.message_index is not None})
    svg = re.search(r"<svg [^>]*>.*?</svg>", page, re.DOTALL)
    assert svg is not None
    assert f'data-events="{len(frame)}" data-violations="{len(ringed)}"' in svg.group(0)
    assert svg.group(0).count('<circle class="violation"') == len(ringed)
    assert svg.group(0).count('class="mark call"') == int((frame["kind"] == "call").sum())
    assert svg.group(0).count('class="mark result"') == int((frame["kind"] == "result").sum())


def test_the_curation_diff_is_aligned_and_coloured() -> None:
    session = toolhist.load(MISTRAL)
    page = report(session, ["mistral"])
    curation = curate(session, "mistral")
    d = diff(session, curation.session, curation.changes)
    assert re.findall(r'<tr class="th-(\w+)">', page) == [row.status for row in d.rows]
    # The OpenAI call id Mistral refuses and its result (issue 24: the valid Mistral id and the blank
    # texts Mistral takes are no longer rewritten or dropped, which made 4 changed rows).
    assert d.counts()["changed"] == 2
    assert "tr.th-changed td { background: #fff3cd; }" in page


def test_the_payloads_mark_the_lines_a_violation_points_at() -> None:
    session = toolhist.load(MISTRAL)
    page = report(session, ["mistral"])
    marked = re.findall(r'<span class="l m" id="mistral-as-is-L(\d+)">', page)
    assert marked == ["38", "49"]
    assert re.findall(r'<a href="#mistral-as-is-L(\d+)">', page) == marked
    assert 'id="mistral-curated-L' not in page  # nothing left to mark after curation


def test_the_report_says_which_judgement_it_made() -> None:
    body = report(toolhist.load(XSS), ["anthropic"])
    assert "<p>judged as sent (a request body)</p>" in body
    assert "0 error(s), 0 warning(s), judged as sent (a request body) (strategy none)" in body
    log = report(toolhist.load(SAMPLES / "gemini_cli_session.jsonl"), ["mistral"])
    said = (
        "judged as the next request the agent would send: its history + a placeholder user turn "
        "(the log ends with the model&#x27;s answer)"
    )
    assert f"<p>{said}</p><p>ran on gemini (gemini-2.5-pro; message 8 metadata)</p>" in log
    assert "mis.last_role" not in log


def test_a_long_session_gives_a_bounded_report() -> None:
    """Each table keeps its first rows and the ones that matter, and says what it leaves out."""
    from bench_modules import benchmark_module

    from toolhist.report import ROWS

    session = toolhist.load(benchmark_module("generate").generate(3 * ROWS))
    page = report(session, ["mistral"])
    found = validate(session, "mistral")
    assert len(found) > ROWS  # Mistral refuses every OpenAI-style call id: more violations than rows
    messages = page.split('<section id="messages">')[1].split("</section>")[0]
    assert messages.count("<tr>") == ROWS + 1  # the header and ROWS messages
    assert (
        f"{ROWS:,} of {3 * ROWS:,} messages (the first, then those a violation points at) shown;" in messages
    )
    provider = page.split('<section id="provider-mistral">')[1]
    violations = provider.split("<table>")[1]
    assert violations.count("<tr>") == ROWS + 1
    assert (
        f"{ROWS:,} of {len(found):,} violations (errors first) shown; {len(found) - ROWS:,} more" in provider
    )
    changes = curate(session, "mistral").changes
    assert len(changes) > ROWS
    assert f"The aligned diff is left out: {len(changes):,} changes" in provider
    assert f"{ROWS:,} of {len(changes):,} changes shown" in provider
    assert "more not shown" not in report(toolhist.load(MISTRAL), ["mistral"])  # a short session: all of it
