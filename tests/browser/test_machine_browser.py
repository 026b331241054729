"""The home page's "This machine" source in a real browser, on a fake home laid out as each agent lays it out.

A server of its own, started with ``TOOLHIST_HOME`` pointing at the fake home: pick the source,
filter by agent, open a session and see its verdict on the provider it ran on.
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


@pytest.fixture(scope="module")
def machine_url(tmp_path_factory: pytest.TempPathFactory, serving: Serving) -> Iterator[str]:
    home = make_home(tmp_path_factory.mktemp("home"))
    with serving({"TOOLHIST_HOME": str(home)}) as url:
        yield url


def test_this_machine_lists_filters_and_opens_a_session_with_its_verdict(
    machine_url: str, page: Page
) -> None:
    page.goto(machine_url)
    expect(page.get_by_text("Session: openai_chat_request.json")).to_be_visible(timeout=30_000)
    page.get_by_role("radio", name="This machine").click()
    expect(page.get_by_text("12 sessions, newest first.", exact=False)).to_be_visible(timeout=30_000)

    main = page.locator('[data-testid="stMain"]')
    main.get_by_label("Agent").click()
    page.get_by_role("option", name="claude-code", exact=True).click()
    expect(page.get_by_text("2 sessions, newest first.", exact=False)).to_be_visible(timeout=30_000)

    main.get_by_label("Session to open").click()
    option = "2026-01-10 11:00 · claude-code · /home/dev/shop-api · 5d0c3a7e-9b1f-4c22-8e51-2f7b3c9a1d64"
    expect(page.get_by_role("option")).to_have_count(2)
    page.get_by_role("option", name=option, exact=True).click()

    session = page.get_by_text("Session: ", exact=False).filter(has_text=CLAUDE)
    expect(session).to_be_visible(timeout=30_000)
    expect(
        page.get_by_text(
            "Ran on anthropic (claude-sonnet-4-5-20250929): the next request rejects (HTTP 400) (ant.result_orphan)",
            exact=True,
        )
    ).to_be_visible()
    expect(page.locator('[data-testid="stMarkdown"]').filter(has_text="Format:")).to_contain_text(
        "claude-code"
    )
    assert "path=" in page.url
    assert "Traceback" not in page.content()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "this-machine.png"), full_page=True)
    assert page.outside_requests == []  # type: ignore[attr-defined]
