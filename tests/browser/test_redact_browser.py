"""The sidebar switch "Redact secrets" in a real browser: off, a key shows as sent; on, every page
shows its marker instead, and the choice follows the user to the next page and into the link."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser
WAIT = 30_000
SECRET = "sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4"


def test_the_switch_redacts_every_page_and_stays_on(app_url: str, page: Page, tmp_path: Path) -> None:
    body = {
        "model": "gpt-4.1",
        "messages": [
            {"role": "system", "content": "Be brief."},  # only Chat Completions has this role
            {"role": "user", "content": f"My key is {SECRET}, read a.txt"},
            {"role": "assistant", "content": "Done."},
        ],
    }
    leaky = tmp_path / "leaky.json"
    leaky.write_text(json.dumps(body))
    page.goto(f"{app_url}/Conversation?path={quote(str(leaky))}")
    expect(page.get_by_text(f"My key is {SECRET}, read a.txt").first).to_be_visible(timeout=WAIT)
    switch = page.locator('[data-testid="stSidebar"]').get_by_text("Redact secrets", exact=True)
    switch.click()
    expect(page.get_by_text("My key is [REDACTED:openai-key], read a.txt").first).to_be_visible(timeout=WAIT)
    expect(page.get_by_text(SECRET)).to_have_count(0)
    assert "redact=1" in page.url
    page.locator('[data-testid="stSidebarNav"]').get_by_text("Payloads", exact=True).click()
    expect(page.get_by_role("heading", name="Payloads", exact=True)).to_be_visible(timeout=WAIT)
    expect(page.get_by_text("Message 2 · assistant").first).to_be_visible(timeout=WAIT)
    html = page.content()  # message 1 is folded: its body is on the page, not on the screen
    assert "[REDACTED:openai-key]" in html
    assert SECRET not in html
    assert page.locator('[data-testid="stSidebar"]').get_by_role("switch", name="Redact secrets").is_checked()
    assert page.outside_requests == []  # type: ignore[attr-defined]
