"""Payloads with four providers at 1,400 px: four readable JSON columns side by side, marked lines jumped to."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import toolhist
from toolhist.providers import provider_for, render, validate
from toolhist.views.body import flagged, sections, value_lines

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parent.parent.parent
ARTIFACTS = ROOT / "test-artifacts"
SAMPLE = "mistral_ids_after_openai.json"  # Mistral rejects it: two ids of the wrong shape
WAIT = 30_000


def test_four_providers_side_by_side_with_the_marked_lines(app_url: str, page: Page) -> None:
    """As sent; message 2 (Mistral's first error) open with four readable columns, its id line marked."""
    page.goto(f"{app_url}/Payloads?sample={SAMPLE}&provider=openai-chat")  # Mistral is added below
    expect(page.get_by_role("heading", name="Payloads", exact=True)).to_be_visible(timeout=WAIT)
    expect(page.get_by_text("As sent", exact=True)).to_be_visible(timeout=WAIT)
    page.locator('[data-testid="stSidebar"]').get_by_label("Providers (two to four)").click()
    page.get_by_role("option", name="mistral", exact=True).click()
    page.keyboard.press("Escape")
    chosen = ["openai-chat", "anthropic", "gemini", "mistral"]
    for provider in chosen:
        expect(page.get_by_role("heading", name=provider, exact=True)).to_be_visible(timeout=WAIT)
    expect(page.get_by_text("as sent: rejects (HTTP 400): 2 errors", exact=True)).to_be_visible(timeout=WAIT)
    session = toolhist.load(ROOT / "sample_logs" / SAMPLE)
    found = validate(session, "mistral")
    first = min(v.message_index for v in found if v.message_index is not None)
    opened = page.locator('[data-testid="stExpander"]').filter(has_text=f"Message {first} · ")
    codes = opened.locator("pre.th-json")
    expect(codes).to_have_count(4, timeout=WAIT)  # one entry per provider for this message
    boxes = [codes.nth(i).bounding_box() for i in range(4)]
    assert all(box is not None for box in boxes)
    xs = [box["x"] for box in boxes if box]
    assert xs == sorted(xs)  # left to right, in the order chosen
    assert all(box["x"] + box["width"] <= 1400 for box in boxes if box)  # all four on the screen
    assert all(box["width"] >= 250 for box in boxes if box)  # a JSON line of ~30 characters fits
    assert opened.evaluate(  # the lines wrap instead of being cut: no column scrolls sideways
        "e => Array.from(e.querySelectorAll('pre.th-json')).map(p => p.scrollWidth <= p.clientWidth)"
    ) == [True, True, True, True]
    payload = render(session, "mistral")
    cut = sections(payload)
    (entry,) = cut.entries[first]
    lines = value_lines(
        payload.body["messages"][entry],  # type: ignore[index]
        ("messages", entry),
        provider_for("mistral").path_format,
        flagged(found),
    )
    expected = [f"pl-mistral-messages-{entry}-L{n}" for n in lines[lines["rules"] != ""]["line"]]
    marked = opened.locator("pre.th-json span.l.m")
    expect(marked).to_have_count(len(expected))
    assert [marked.nth(i).get_attribute("id") for i in range(len(expected))] == expected
    expect(marked.first).to_contain_text("← mis.id_format")
    expect(marked.first).to_have_css("background-color", "rgb(253, 224, 224)")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "payloads-four.png"))  # the first screen at 1,400 x 1,000
    # the repaired view is a switch, and says so
    page.locator('[data-testid="stSidebar"]').get_by_text("Repaired view").click()
    expect(page.get_by_text("the history as strategy toolhist repairs it", exact=False)).to_be_visible(
        timeout=WAIT
    )
    expect(page.get_by_text("repaired by toolhist: accepts", exact=True)).to_have_count(4, timeout=WAIT)
    assert page.outside_requests == []  # type: ignore[attr-defined]


PAGES = {
    "": "toolhist",
    "Conversation": "Conversation",
    "Timeline": "Timeline",
    "Violations": "Violations",
    "Curation": "Curation",
    "Payloads": "Payloads",
    "Explain": "Explain a 400",
    "Compaction": "Compaction",
}
"""Each page's address and its heading."""
LOG = ROOT / "tests" / "corpus" / "logs" / "claude-code" / "drmaciver-hello-world-script.jsonl"


@pytest.mark.parametrize("address", list(PAGES))
def test_every_page_on_a_real_log_is_looked_at(app_url: str, page: Page, address: str) -> None:
    """The walkthrough's real Claude Code log on every page, as a ``?path=`` link opens it; a screenshot each."""
    page.goto(f"{app_url}/{address}?path={LOG}&provider=mistral")
    expect(page.get_by_role("heading", name=PAGES[address], exact=True)).to_be_visible(timeout=WAIT)
    expect(page.get_by_text(LOG.name).first).to_be_visible(timeout=WAIT)
    page.wait_for_function(  # the script run is over: no skeleton left from the first paint
        "() => document.querySelector('[data-test-script-state]')"
        "?.getAttribute('data-test-script-state') === 'notRunning'",
        timeout=WAIT,
    )
    expect(page.locator('[data-testid="stSkeleton"]')).to_have_count(0, timeout=WAIT)
    page.wait_for_timeout(1500)  # grids and WebGL paint after layout
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"page-{(address or 'home').lower()}.png"), full_page=True)
    assert page.outside_requests == []  # type: ignore[attr-defined]
