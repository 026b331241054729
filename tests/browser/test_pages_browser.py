"""The inspector pages in a real browser: timeline highlight, curation, payloads, explain, deep links, XSS.

Screenshots go to test-artifacts/ (gitignored).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Dialog, Page, expect

from toolhist.check import check

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parent.parent.parent
ARTIFACTS = ROOT / "test-artifacts"
SAMPLES = ROOT / "sample_logs"
ANTHROPIC_SAMPLE = "llxprt_icontent.json"  # Anthropic rejects it: ant.result_missing at message 4
WAIT = 30_000


def shoot(page: Page, name: str) -> None:
    """A full screenshot: Streamlit scrolls an inner container, so grow the viewport to the content first."""
    height = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": 1400, "height": min(int(height), 6000)})
    page.wait_for_timeout(800)  # grids and WebGL paint after layout
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def plot_traces(page: Page) -> list[dict[str, object]]:
    """The plotted traces (name, x, y) as plotly.js holds them in the page."""
    page.wait_for_function(
        "document.querySelector('.js-plotly-plot') && document.querySelector('.js-plotly-plot').data"
    )
    found: list[dict[str, object]] = page.evaluate(
        """() => Array.from(document.querySelector(".js-plotly-plot")._fullData).map(t => ({
            name: t.name, x: Array.from(t.x || []), mode: t.mode, type: t.type}))"""
    )
    return found


def sidebar_link(page: Page, name: str) -> None:
    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=name).click()


def test_timeline_highlights_an_anthropic_violation(app_url: str, page: Page) -> None:
    page.goto(f"{app_url}/?sample={ANTHROPIC_SAMPLE}")
    expect(page.get_by_text(f"Session: {ANTHROPIC_SAMPLE}")).to_be_visible(timeout=WAIT)
    sidebar_link(page, "Timeline")  # client-side navigation: the open session carries over
    expect(page.get_by_role("heading", name="Timeline", exact=True)).to_be_visible(timeout=WAIT)
    # narrow the highlight to Anthropic through the deep link, as a reviewer would
    page.goto(f"{app_url}/Timeline?sample={ANTHROPIC_SAMPLE}&provider=anthropic&chart=interactive")
    expect(page.get_by_text("anthropic · ant.result_missing · error").first).to_be_visible(timeout=WAIT)
    expected = check(SAMPLES / ANTHROPIC_SAMPLE).results["anthropic"][0]
    expect(page.get_by_text(expected.error_text).first).to_be_visible(timeout=WAIT)
    traces = plot_traces(page)
    assert {t["type"] for t in traces} == {"scattergl"}
    ringed = next(t for t in traces if t["name"] == "violations")
    assert expected.message_index in list(ringed["x"])  # type: ignore[call-overload]
    shoot(page, "timeline-anthropic")
    assert page.outside_requests == []  # type: ignore[attr-defined]


def test_curation_diff_and_payloads(app_url: str, page: Page) -> None:
    page.goto(f"{app_url}/Curation?sample={ANTHROPIC_SAMPLE}&provider=anthropic&strategy=toolhist")
    expect(page.get_by_role("heading", name="Change log")).to_be_visible(timeout=WAIT)
    expect(page.get_by_role("heading", name="Violations left for anthropic")).to_be_visible(timeout=WAIT)
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Changes")
    import toolhist
    from toolhist.curation import curate

    changes = len(curate(toolhist.load(SAMPLES / ANTHROPIC_SAMPLE), "anthropic", strategy="toolhist").changes)
    expect(metric).to_contain_text(str(changes), timeout=WAIT)
    shoot(page, "curation")
    sidebar_link(page, "Payloads")
    expect(page.get_by_role("heading", name="Payloads", exact=True)).to_be_visible(timeout=WAIT)
    expect(page.get_by_role("button", name="Download JSON").first).to_be_visible(timeout=WAIT)
    expect(page.locator('[data-testid="stHeading"]').filter(has_text="anthropic").first).to_be_visible(
        timeout=WAIT
    )
    shoot(page, "payloads")
    assert page.outside_requests == []  # type: ignore[attr-defined]


def test_paste_a_400_and_land_on_the_culprit(app_url: str, page: Page) -> None:
    expected = check(SAMPLES / ANTHROPIC_SAMPLE).results["anthropic"][0]
    wrapped = "litellm.BadRequestError: AnthropicException - " + json.dumps(
        {"type": "error", "error": {"type": "invalid_request_error", "message": expected.error_text}}
    )
    page.goto(f"{app_url}/Explain?sample={ANTHROPIC_SAMPLE}")
    area = page.get_by_label("The error text", exact=False)
    expect(area).to_be_visible(timeout=WAIT)
    area.fill(wrapped)
    area.press("Control+Enter")
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Culprit message")
    expect(metric).to_contain_text(str(expected.message_index), timeout=WAIT)
    expect(page.locator('[data-testid="stCode"]').filter(has_text=expected.rule).first).to_be_visible(
        timeout=WAIT
    )
    shoot(page, "explain")
    page.get_by_role("link", name=f"Open message {expected.message_index} in the timeline").click()
    expect(page.get_by_role("heading", name="Timeline", exact=True)).to_be_visible(timeout=WAIT)
    expect(page.get_by_text(f"Message {expected.message_index} · ").first).to_be_visible(timeout=WAIT)
    assert f"msg={expected.message_index}" in page.url
    assert page.outside_requests == []  # type: ignore[attr-defined]


def test_deep_link_reopens_the_same_view(app_url: str, page: Page) -> None:
    page.goto(f"{app_url}/Timeline?sample=openai_chat_request.json&provider=openai-chat&msg=9")
    expect(page.get_by_text("Message 9 · assistant").first).to_be_visible(timeout=WAIT)
    expect(page.get_by_text("openai-chat · oai.call_unanswered · error").first).to_be_visible(timeout=WAIT)
    page.goto(f"{app_url}/Curation?sample=openai_chat_request.json&provider=gemini&strategy=none")
    expect(page.get_by_role("heading", name="Violations left for gemini")).to_be_visible(timeout=WAIT)
    expect(page.get_by_text("Strategy none changed nothing.")).to_be_visible(timeout=WAIT)
    page.goto(f"{app_url}/Violations?sample=openai_chat_request.json&provider=mistral&rule=mis.last_role")
    expect(page.get_by_role("heading", name="1 violation", exact=True)).to_be_visible(timeout=WAIT)
    expect(page.get_by_text("mistral · mis.last_role · error · messages[9].role")).to_be_visible(timeout=WAIT)
    shoot(page, "violations")
    page.get_by_role("link", name="Message 9 in the timeline").click()
    expect(page.get_by_text("Message 9 · assistant").first).to_be_visible(timeout=WAIT)
    expect(page.get_by_text("mistral · mis.last_role · error").first).to_be_visible(timeout=WAIT)
    assert page.outside_requests == []  # type: ignore[attr-defined]


def test_script_in_a_tool_result_shows_as_text(app_url: str, page: Page) -> None:
    dialogs: list[str] = []

    def record(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", record)
    page.goto(f"{app_url}/Timeline?sample=xss_tool_result.json&msg=3")
    expect(page.get_by_text("Message 3 · tool").first).to_be_visible(timeout=WAIT)
    expect(page.get_by_text("window.__toolhist_xss = 'script'", exact=False).first).to_be_visible(
        timeout=WAIT
    )
    for name in ("Violations", "Payloads", "Curation"):
        sidebar_link(page, name)
        expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible(timeout=WAIT)
    page.goto(f"{app_url}/?sample=xss_tool_result.json")
    expect(page.get_by_text("Session: xss_tool_result.json")).to_be_visible(timeout=WAIT)
    page.wait_for_timeout(1000)
    assert page.evaluate("window.__toolhist_xss === undefined")
    assert dialogs == []
    assert page.outside_requests == []  # type: ignore[attr-defined]  # the Markdown image fetched nothing
    shoot(page, "xss-home")
