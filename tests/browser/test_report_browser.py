"""The HTML report in a real browser: opens from disk, shows the timeline picture, runs nothing, fetches nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Request, expect

import toolhist
from toolhist.check import judged_verdict
from toolhist.curation import curate
from toolhist.diff import diff
from toolhist.judgement import judge
from toolhist.providers import PROVIDERS
from toolhist.report import report
from toolhist.views.timeline import events_frame

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parent.parent.parent
ARTIFACTS = ROOT / "test-artifacts"
LOG = ROOT / "tests" / "corpus" / "logs" / "claude-code" / "drmaciver-hello-world-script.jsonl"


def open_report(browser: Browser, path: Path) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    requests: list[str] = []

    def record(request: Request) -> None:
        if not request.url.startswith("file://"):
            requests.append(request.url)

    page.on("request", record)
    page.goto(path.as_uri())
    return page, requests


def test_report_opens_offline_and_runs_no_tool_content(browser: Browser, tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    session = toolhist.load(ROOT / "sample_logs" / "xss_tool_result.json")
    path.write_text(report(session), encoding="utf-8")
    page, requests = open_report(browser, path)
    expect(page.locator("#timeline svg.th-timeline")).to_be_visible()
    frame = events_frame(session, [v for p in PROVIDERS for v in judged_verdict(judge(session), p)])
    assert list(frame["kind"])[:2] == ["call", "result"]  # one call, its result, then violating messages
    expect(page.locator("#timeline-table tbody tr")).to_have_count(len(frame))
    expect(page.locator("#timeline-table tbody tr").first).to_contain_text("fetch_url")
    expect(page.locator("#messages")).to_contain_text("<script>window.__toolhist_xss")
    assert page.evaluate("typeof window.__toolhist_xss") == "undefined"
    assert page.locator("script").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-xss.png"), full_page=True)
    page.context.close()
    assert requests == []


def test_the_first_screen_shows_the_verdicts_and_the_timeline_picture(browser: Browser) -> None:
    """A real Claude Code log that Mistral rejects: the picture, the coloured diff, the marked lines."""
    session = toolhist.load(LOG)
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "report.html"  # kept with the screenshots, to open by hand
    path.write_text(report(session, ["mistral", "anthropic"]), encoding="utf-8")
    page, requests = open_report(browser, path)
    picture = page.locator("#timeline svg.th-timeline")
    expect(picture).to_be_in_viewport()  # on the first screen, no scrolling
    expect(page.locator('#verdicts .th-card.rejects[data-provider="mistral"]')).to_be_in_viewport()
    box = picture.bounding_box()
    assert box is not None
    assert box["width"] >= 800
    assert box["height"] >= 100
    found = judged_verdict(judge(session), "mistral")
    frame = events_frame(session, found)
    expect(picture.locator("circle.violation")).to_have_count(int((frame["violations"] != "").sum()))
    expect(picture.locator(".mark")).to_have_count(len(frame))
    page.screenshot(path=str(ARTIFACTS / "report.png"))  # the first screen, as a reader opens it
    # the curation diff: rows coloured by status
    curation = curate(session, "mistral")
    d = diff(session, curation.session, curation.changes)
    changed = page.locator("#provider-mistral tr.th-changed")
    expect(changed).to_have_count(d.counts()["changed"])
    expect(changed.first.locator("td").first).to_have_css("background-color", "rgb(255, 243, 205)")
    # the payload: the marked lines, and the jump list takes the reader to the first
    marked = page.locator("#provider-mistral span.l.m")
    expect(marked.first).to_have_css("background-color", "rgb(253, 224, 224)")
    first = marked.first.get_attribute("id")
    page.locator(f'a[href="#{first}"]').click()
    expect(marked.first).to_be_in_viewport()
    assert page.evaluate("location.hash") == f"#{first}"
    page.screenshot(path=str(ARTIFACTS / "report-full.png"), full_page=True)
    page.context.close()
    assert requests == []
