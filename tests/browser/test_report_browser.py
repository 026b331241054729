"""The HTML report in a real browser: opens from disk, shows the timeline, runs nothing, fetches nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Request, expect

import toolhist
from toolhist.report import report

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parent.parent.parent
ARTIFACTS = ROOT / "test-artifacts"


def test_report_opens_offline_and_runs_no_tool_content(browser: Browser, tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    path.write_text(report(toolhist.load(ROOT / "sample_logs" / "xss_tool_result.json")), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    requests: list[str] = []

    def record(request: Request) -> None:
        if not request.url.startswith("file://"):
            requests.append(request.url)

    page.on("request", record)
    page.goto(path.as_uri())
    expect(page.locator("#timeline")).to_be_visible()
    expect(page.locator("#timeline-table tbody tr")).to_have_count(2)  # one call, its result
    expect(page.locator("#timeline-table tbody tr").first).to_contain_text("fetch_url")
    expect(page.locator("#messages")).to_contain_text("<script>window.__toolhist_xss")
    assert page.evaluate("typeof window.__toolhist_xss") == "undefined"
    assert page.locator("script").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report.png"), full_page=True)
    context.close()
    assert requests == []
