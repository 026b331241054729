"""Honest pages in a real browser: a failed read is all any page shows; a 400 from another run names no culprit.

Screenshots go to test-artifacts/ (gitignored).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parent.parent.parent
ARTIFACTS = ROOT / "test-artifacts"
WAIT = 30_000


def settled(page: Page) -> None:
    page.wait_for_function(
        "() => document.querySelector('[data-test-script-state]')"
        "?.getAttribute('data-test-script-state') === 'notRunning'",
        timeout=WAIT,
    )


def test_a_failed_read_shows_the_error_and_nothing_else(app_url: str, page: Page, tmp_path: Path) -> None:
    notes = tmp_path / "notes.json"
    notes.write_text('{"hello": "world"}')
    page.goto(f"{app_url}/?sample=openai_chat_request.json")
    expect(page.get_by_text("Session: openai_chat_request.json")).to_be_visible(timeout=WAIT)
    page.get_by_role("radio", name="Path").click()
    box = page.get_by_label("Path to a session file on this machine")
    box.fill(str(notes))
    box.press("Enter")
    expect(page.get_by_text("This input cannot be read as a session.", exact=True)).to_be_visible(
        timeout=WAIT
    )
    settled(page)
    expect(page.get_by_text("choose that reader in the Format box", exact=False)).to_be_visible()
    expect(page.locator('[data-testid="stProgress"]')).to_have_count(0)
    expect(page.locator('[data-testid="stMetric"]')).to_have_count(0)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "failed-read-home.png"))
    for name in ("Timeline", "Violations", "Payloads", "Explain a 400"):
        page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=name).click()
        expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible(timeout=WAIT)
        settled(page)
        expect(page.get_by_text("This input cannot be read as a session.", exact=False)).to_be_visible()
        expect(page.locator('[data-testid="stMetric"]')).to_have_count(0)
        expect(page.locator('[data-testid="stDataFrame"]')).to_have_count(0)
        expect(page.locator('[data-testid="stProgress"]')).to_have_count(0)
        expect(page.get_by_text("openai_chat_request.json")).to_have_count(0)  # not the session before
    page.screenshot(path=str(ARTIFACTS / "failed-read-payloads.png"))
    assert page.outside_requests == []  # type: ignore[attr-defined]


def test_explain_does_not_blame_a_message_for_an_id_it_does_not_hold(app_url: str, page: Page) -> None:
    page.goto(f"{app_url}/Explain?sample=openai_chat_request.json")
    expect(page.get_by_role("heading", name="Explain a 400", exact=True)).to_be_visible(timeout=WAIT)
    box = page.get_by_label("The error text, as your client printed it", exact=False)
    box.fill(
        "Invalid parameter: 'tool_call_id' of 'call_FromAnotherRun00000000' not found in 'tool_calls' of "
        "previous message."
    )
    box.press("Control+Enter")
    expect(page.get_by_text("Not in this session", exact=False)).to_be_visible(timeout=WAIT)
    culprit = page.locator('[data-testid="stMetric"]').filter(has_text="Culprit message")
    expect(culprit).to_contain_text("unknown")
    expect(page.get_by_role("heading", name="The culprit message")).to_have_count(0)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "explain-not-in-session.png"))
