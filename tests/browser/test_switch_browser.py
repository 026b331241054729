"""The Switch page in a real browser: seed 000's "switch, then back to Anthropic". Screenshot in test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parent.parent.parent
ARTIFACTS = ROOT / "test-artifacts"
SAMPLE = "switch_back_thinking.json"
WAIT = 300_000
"""Once asked, each leg runs the real libraries too: their first start (importing LiteLLM, the Agents SDK,
pydantic-ai, LangChain) takes a minute or more on a loaded CI machine."""


def set_number(page: Page, label: str, value: int) -> None:
    """Type ``value`` once the page's last run has ended, as a user reads the page before typing."""
    idle(page)
    box = page.get_by_label(label, exact=True)
    box.fill(str(value))
    box.press("Enter")


def idle(page: Page) -> None:
    page.wait_for_function(
        "() => document.querySelector('[data-test-script-state]')?.getAttribute('data-test-script-state')"
        " === 'notRunning'",
        timeout=WAIT,
    )


def test_switch_then_back_shows_the_400_and_the_strategy_that_avoids_it(app_url: str, page: Page) -> None:
    page.goto(f"{app_url}/Switch?sample={SAMPLE}&to=gemini&back=anthropic")
    expect(page.get_by_role("heading", name="Switch what-if")).to_be_visible(timeout=WAIT)
    set_number(page, "Switch at message", 5)
    expect(page.get_by_role("heading", name="Switch to gemini at message 5")).to_be_visible(timeout=WAIT)
    set_number(page, "Back at message", 7)
    expect(page.get_by_role("heading", name="Back to anthropic at message 7")).to_be_visible(timeout=WAIT)
    expect(page.get_by_text("messages 0-4 anthropic, 5-6 gemini")).to_be_visible(timeout=WAIT)
    accepted = page.get_by_text(re.compile(r"^Accepted by: "))
    expect(accepted).to_have_count(2, timeout=WAIT)
    # which peer libraries answer depends on `toolhist peers install`; toolhist's own strategies do not
    back = accepted.nth(1).inner_text().removeprefix("Accepted by: ").split(", ")
    assert "toolhist" in back
    assert not {"none", "llxprt-v864", "vercel-ai"} & set(back)
    # the return leg's body of the first strategy ("none"), with Anthropic's own words
    expect(
        page.get_by_text("Expected `thinking` or `redacted_thinking`, but found `tool_use`").first
    ).to_be_visible(timeout=WAIT)
    # the strategies that start a real library wait for one button; pressed, every leg runs them
    waiting = page.get_by_text(re.compile(r"^Not run yet: "))
    expect(waiting).to_be_visible(timeout=WAIT)
    page.get_by_role("button", name="Compare with the libraries too").click()
    expect(waiting).to_have_count(0, timeout=WAIT)
    idle(page)
    expect(accepted).to_have_count(2, timeout=WAIT)
    height = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": 1400, "height": min(int(height), 6000)})
    page.wait_for_timeout(800)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "switch_seed_000.png"), full_page=True)
    assert page.outside_requests == []  # type: ignore[attr-defined]
