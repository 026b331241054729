"""The "This machine" search in a real browser: fill the index, search a call id, open a hit at its message.

A server of its own on the fake home (tests/fake_home.py) with an index of its own; the hit's
Conversation link lands on that session's message.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Serving
from fake_home import CLAUDE, make_home
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).parent.parent.parent / "test-artifacts"
CALL_ID = "toolu_01Edit1qA3sD5fG7hJ9kL1zX"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_home(tmp_path_factory.mktemp("home"))


@pytest.fixture(scope="module")
def search_url(home: Path, tmp_path_factory: pytest.TempPathFactory, serving: Serving) -> Iterator[str]:
    index = tmp_path_factory.mktemp("cache") / "index.sqlite"
    with serving({"TOOLHIST_HOME": str(home), "TOOLHIST_INDEX": str(index)}) as url:
        yield url


def test_search_a_call_id_and_open_the_hit_at_its_message(search_url: str, home: Path, page: Page) -> None:
    page.goto(search_url)
    expect(page.get_by_text("Session: openai_chat_request.json")).to_be_visible(timeout=30_000)
    page.get_by_role("radio", name="This machine").click()
    expect(page.get_by_text("12 sessions, newest first.", exact=False)).to_be_visible(timeout=30_000)
    main = page.locator('[data-testid="stMain"]')
    main.get_by_text("Search every session's messages", exact=False).click()
    expect(
        page.get_by_text("The session index holds none of these 10 sessions yet", exact=False)
    ).to_be_visible(timeout=30_000)
    page.get_by_role("button", name="Read 10 sessions into the index").click()
    expect(page.get_by_role("button", name="Read 10 sessions into the index")).to_have_count(
        0, timeout=60_000
    )

    main.get_by_label("Search for").click()
    page.get_by_role("option", name="call id", exact=True).click()
    box = main.get_by_label("Search every session", exact=True)
    box.fill(CALL_ID)
    box.press("Enter")
    expect(page.get_by_text("2 hits in 10 sessions searched; 2 unreadable", exact=False)).to_be_visible(
        timeout=30_000
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "machine-search-hits.png"), full_page=True)

    main.get_by_label("Hit to open").click()
    label = "2026-01-10 11:00 · claude-code · /home/dev/shop-api · 5d0c3a7e-9b1f-4c22-8e51-2f7b3c9a1d64"
    page.get_by_role("option", name=f"message 3 · {label}", exact=True).click()
    session = page.get_by_text("Session: ", exact=False).filter(has_text=CLAUDE)
    expect(session).to_be_visible(timeout=30_000)

    page.get_by_role("link", name="Conversation at message 3").click()
    page.wait_for_url("**/Conversation?**", timeout=60_000)
    expect(
        page.get_by_text("The file /home/dev/shop-api/shop/pricing.py has been updated.").first
    ).to_be_visible(timeout=60_000)
    assert "msg=3" in page.url
    assert "path=" in page.url
    expect(page.locator("#th-msg-3")).to_be_attached(timeout=30_000)
    page.screenshot(path=str(ARTIFACTS / "machine-search-conversation.png"), full_page=False)
    assert "Traceback" not in page.content()
    assert page.outside_requests == []  # type: ignore[attr-defined]
