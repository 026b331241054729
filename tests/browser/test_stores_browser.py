"""Sessions inside agents' SQLite stores in Chromium: a ``?path=STORE%23SESSION_ID`` link opens the
session on the Timeline and the Violations page, for each store agent (screenshots in test-artifacts/)."""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Serving
from fake_home_stores import GOOSE_DB, OPENCODE_DB, ZED_DB, make_store_home
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).parent.parent.parent / "test-artifacts"
WAIT = 60_000

SESSIONS = {
    # agent: (store under the home, session id, the provider it ran on, messages sent)
    "opencode": (OPENCODE_DB, "ses_4a2e9b07dffeC3pHk5Vn8Rx1Lz", "openai-responses", 7),
    "crush": ("work/api/.crush/crush.db", "0a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d", "openai-responses", 5),
    "goose": (GOOSE_DB, "20260109_1", "anthropic", 4),
    "zed": (ZED_DB, "8e2d6c4a-0f1b-4a3c-9d5e-7f9a1b3c5d7e", "gemini", 4),
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, serving: Serving) -> Iterator[tuple[str, Path]]:
    home = make_store_home(tmp_path_factory.mktemp("stores") / "home")
    with serving({"TOOLHIST_HOME": str(home)}) as url:
        yield url, home


@pytest.mark.parametrize("agent", sorted(SESSIONS))
def test_a_store_session_link_opens_on_the_timeline_and_violations(
    agent: str, served: tuple[str, Path], page: Page
) -> None:
    url, home = served
    store, session, provider, messages = SESSIONS[agent]
    locator = f"{home / store}#{session}"
    link = urllib.parse.quote(locator, safe="/")
    page.goto(f"{url}/Timeline?path={link}&provider={provider}")
    expect(page.get_by_text(locator, exact=True)).to_be_visible(timeout=WAIT)  # the sidebar's session
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Messages").first
    expect(metric).to_contain_text(str(messages), timeout=WAIT)
    page.wait_for_function(
        "() => +document.querySelector('svg.th-timeline')?.dataset.events > 0",  # the Timeline's picture
        timeout=WAIT,
    )
    assert "Traceback" not in page.content()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"store-{agent}-timeline.png"), full_page=True)
    page.goto(f"{url}/Violations?path={link}&provider={provider}")
    expect(page.get_by_text(locator, exact=True)).to_be_visible(timeout=WAIT)
    expect(page.get_by_role("heading", name="Violations").first).to_be_visible(timeout=WAIT)
    assert "Traceback" not in page.content()
    page.screenshot(path=str(ARTIFACTS / f"store-{agent}-violations.png"), full_page=True)
    assert page.outside_requests == []  # type: ignore[attr-defined]
