"""What a new user sees in Chromium (issue 24, the fresh-eyes run), on the bundled sample and a real log.

Payloads marks only the lines a violation's path points at; a strategy that did not run reads "not run"
in every count; Explain puts the box first, runs on Ctrl+Enter, and its links look like links; the
Timeline shows the message as a conversation, its JSON folded away. AppTest's half:
tests/app/test_newcomer_pages.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import toolhist
from toolhist.providers import checked

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parent.parent.parent
ARTIFACTS = ROOT / "test-artifacts"
SAMPLE = "openai_chat_request.json"  # message 9's calls unanswered: Anthropic flags the whole message
CLAUDE = ROOT / "tests" / "corpus" / "logs" / "claude-code" / "marot-spotter-4d5611e5-main.jsonl"
WAIT = 60_000
SETTLED = (
    "() => document.querySelector('[data-test-script-state]')"
    "?.getAttribute('data-test-script-state') === 'notRunning'"
)


def settle(page: Page, heading: str) -> None:
    expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible(timeout=WAIT)
    page.wait_for_timeout(500)
    page.wait_for_function(SETTLED, timeout=WAIT * 3, polling=200)


def test_a_whole_message_violation_marks_one_line(app_url: str, page: Page) -> None:
    (whole,) = checked(toolhist.load(ROOT / "sample_logs" / SAMPLE), "anthropic")
    assert whole.path == "messages.8"  # Anthropic's path is the whole entry (message 9)
    page.goto(f"{app_url}/Payloads?sample={SAMPLE}&provider=anthropic")
    settle(page, "Payloads")
    opened = page.locator('[data-testid="stExpander"]').filter(has_text=f"Message {whole.message_index} · ")
    marked = opened.locator("pre.th-json span.l.m")
    expect(marked.first).to_be_visible(timeout=WAIT)
    ids = [marked.nth(i).get_attribute("id") for i in range(marked.count())]
    assert [i for i in ids if i and i.startswith("pl-anthropic-")] == ["pl-anthropic-messages-8-L1"]
    lines = opened.locator("pre.th-json").first.locator("span.l")
    assert lines.count() > 10  # the rest of the message is there, unmarked
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "newcomer-payloads.png"), full_page=True)


def test_strategies_that_did_not_run_read_not_run(app_url: str, page: Page) -> None:
    page.goto(f"{app_url}/Curation?sample=anthropic_request.json&provider=gemini")
    settle(page, "Curation")
    table = page.locator('[data-testid="stDataFrame"]').last
    table.scroll_into_view_if_needed()
    cells = table.locator("td")
    expect(cells.filter(has_text="litellm").first).to_be_attached(timeout=WAIT)
    texts = cells.all_inner_texts()
    row = texts[texts.index("litellm") : texts.index("litellm") + 6]
    assert row[1].startswith("not run")
    assert row[2:6] == ["not run"] * 4  # changes, messages, errors left, warnings left: never "None"
    assert "None" not in texts


def test_explain_box_first_ctrl_enter_runs_links_look_like_links(app_url: str, page: Page) -> None:
    error = next(v for v in checked(toolhist.load(ROOT / "sample_logs" / SAMPLE), "openai-chat"))
    page.goto(f"{app_url}/Explain?sample={SAMPLE}")
    settle(page, "Explain a 400")
    box = page.get_by_label("Paste the error text", exact=False)
    pick = page.get_by_text("Or start from an error this session would get", exact=True)
    box_y, pick_y = (x.bounding_box() for x in (box, pick))
    assert box_y is not None
    assert pick_y is not None
    assert box_y["y"] < pick_y["y"]  # the box, the thing to use, comes first
    expect(page.get_by_text("Press Ctrl+Enter (⌘+Enter on a Mac)", exact=False)).to_be_visible()
    box.fill(error.error_text)
    box.press("Control+Enter")
    expect(page.get_by_text("The culprit message", exact=True)).to_be_visible(timeout=WAIT)
    link = page.get_by_role("link", name=f"Open message {error.message_index} in the timeline")
    expect(link).to_be_visible(timeout=WAIT)
    expect(link.locator("p")).to_have_css("color", "rgb(11, 87, 208)")
    expect(link.locator("p")).to_have_css("text-decoration-line", "underline")
    expect(link).to_have_css("border-top-style", "solid")
    page.screenshot(path=str(ARTIFACTS / "newcomer-explain.png"), full_page=True)


def test_the_timeline_reads_the_message_as_a_conversation(app_url: str, page: Page) -> None:
    page.goto(f"{app_url}/Timeline?path={CLAUDE}&provider=anthropic&msg=1")
    settle(page, "Timeline")
    main = page.locator('[data-testid="stMain"]')
    expect(main.get_by_text("Tool call Bash · call id toolu_01UwLnYYWGBvukzh1QE6JpfM")).to_be_visible(
        timeout=WAIT
    )
    readable = main.locator("pre").filter(has_text='"command": "bd show spotter-dov"')
    expect(readable.first).to_be_visible(timeout=WAIT)  # the call's arguments, as JSON a person reads
    raw = main.locator('[data-testid="stExpander"]').filter(has_text="Raw JSON (as toolhist reads this")
    behind = raw.locator('[data-testid="stExpanderDetails"]')
    expect(behind).to_be_hidden()  # the model's JSON (field names, provider data) is folded away
    raw.get_by_text("Raw JSON", exact=False).click()
    expect(behind.get_by_text('"blocks"', exact=False)).to_be_visible(timeout=WAIT)
    page.screenshot(path=str(ARTIFACTS / "newcomer-timeline.png"), full_page=True)
