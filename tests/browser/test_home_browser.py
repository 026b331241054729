"""The home page in a real browser: the sample opens, an upload error is shown, nothing leaves the machine."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import FilePayload, Page, expect

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).parent.parent.parent / "test-artifacts"


def test_opens_on_the_sample_and_shows_the_verdict(app_url: str, page: Page) -> None:
    page.goto(app_url)
    expect(page.get_by_text("Session: openai_chat_request.json")).to_be_visible(timeout=30_000)
    expect(page.locator('[data-testid="stMarkdown"]').filter(has_text="Format:")).to_contain_text(
        "openai-chat"
    )
    expect(page.get_by_text("Unanswered calls: call_Rk2Vb7nXc4LzA9qWe6tYu1Io")).to_be_visible()
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Messages")
    expect(metric).to_contain_text("10")
    grids = page.locator('[data-testid="stDataFrame"]')
    expect(grids).to_have_count(4)  # verdicts, violations, messages, summary
    expect(grids.last.locator("canvas").first).to_be_visible()
    nav = page.locator('[data-testid="stSidebarNav"]').get_by_role("link")
    expect(nav).to_have_text(
        [
            "Home",
            "Conversation",
            "Timeline",
            "Violations",
            "Curation",
            "Payloads",
            "Explain a 400",
            "Compaction",
            "Fleet",
            "Switch",
            "Verify",
        ]
    )
    # Streamlit scrolls an inner container, so full_page alone stops at the viewport: grow it to the content.
    height = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": 1400, "height": int(height)})
    page.wait_for_timeout(1000)  # the data grids paint their canvases after layout
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "home.png"), full_page=True)
    assert page.outside_requests == []  # type: ignore[attr-defined]


def test_deep_link_opens_another_sample(app_url: str, page: Page) -> None:
    page.goto(f"{app_url}/?sample=gemini_request.json")
    expect(page.get_by_text("Session: gemini_request.json")).to_be_visible(timeout=30_000)
    expect(page.locator('[data-testid="stMarkdown"]').filter(has_text="Format:")).to_contain_text("gemini")


def test_broken_upload_shows_a_clear_error(app_url: str, page: Page) -> None:
    page.goto(app_url)
    expect(page.get_by_text("Session: openai_chat_request.json")).to_be_visible(timeout=30_000)
    page.get_by_role("radio", name="Upload").click()
    broken: FilePayload = {
        "name": "broken.json",
        "mimeType": "application/json",
        "buffer": b'{"messages": [\n{"role": "us',
    }
    page.locator("input[type=file]").set_input_files(files=[broken])
    expect(page.get_by_text("This input cannot be read as a session.")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("broken.json:2:13: not valid JSON: unexpected end of data")).to_be_visible()
    assert "Traceback" not in page.content()
    page.screenshot(path=str(ARTIFACTS / "upload-error.png"), full_page=True)
    assert page.outside_requests == []  # type: ignore[attr-defined]
