"""A bundle the guard wrote, opened in the app in a real browser.

The Anthropic SDK, guarded in ``warn`` mode, sends a history with an unanswered call to the fake
provider, which answers 400; the server is started with ``TOOLHIST_BUNDLES`` on that folder. Picking
"Bundles" and the bundle shows the answer explained with its culprit, and the Explain page starts
from the recorded answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Serving
from guard_calls import write_bundles
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).parent.parent.parent / "test-artifacts"


@pytest.fixture(scope="module")
def bundles_url(tmp_path_factory: pytest.TempPathFactory, serving: Serving) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("bundles")
    [path] = write_bundles(folder, ("anthropic",)).values()
    with serving({"TOOLHIST_BUNDLES": str(folder)}) as url:
        yield url, path


def test_a_bundle_opens_with_its_answer_explained(bundles_url: tuple[str, Path], page: Page) -> None:
    url, path = bundles_url
    page.goto(url)
    expect(page.get_by_text("Session: openai_chat_request.json")).to_be_visible(timeout=30_000)
    page.get_by_role("radio", name="Bundles").click()
    expect(page.get_by_text("1 bundle, newest first.")).to_be_visible(timeout=30_000)

    main = page.locator('[data-testid="stMain"]')
    main.get_by_label("Bundle to open").click()
    page.get_by_role("option").first.click()

    expect(page.get_by_text(f"Session: {path}")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Captured by the toolhist guard")).to_be_visible()
    expect(
        page.get_by_text(
            "The answer is anthropic rule ant.result_missing; culprit: message 2. "
            "Fix: close_orphans (synthetic tool_result) or move_results",
            exact=True,
        )
    ).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "bundle-home.png"), full_page=True)

    main.get_by_role("link", name="Explain this answer").click()
    expect(page.get_by_text("Opened from a guard bundle:", exact=False)).to_be_visible(timeout=30_000)
    expect(page.locator('[data-testid="stCode"]').filter(has_text="ant.result_missing").first).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "bundle-explain.png"), full_page=True)
    assert "Traceback" not in page.content()
    assert page.outside_requests == []  # type: ignore[attr-defined]
