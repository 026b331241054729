"""A fresh server whose very first request is a subpage link: the page runs through app.py's navigation.

Streamlit decides once per server process whether the app is an old-style multipage app: the first
session's ``PagesManager`` sets the class flag ``uses_pages_directory`` when a folder named ``pages``
sits beside the main script, and until some run calls ``st.navigation`` (which sets it False) every
script run goes through ``script_runner._mpa_v1``, which builds the pages from that folder's file names
instead of running app.py (streamlit 1.67.0, ``runtime/pages_manager.py`` ``PagesManager.__init__``,
``runtime/scriptrunner/script_runner.py`` ``_mpa_v1``). A bookmarked ``/Timeline?path=…`` opened first
on a fresh server then showed "app" and "Explain" in the sidebar instead of app.py's "Home" and
"Explain a 400". The session-wide ``app_url`` server cannot catch that (another test has run app.py
first), so each case here starts its own server. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Serving
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parent.parent.parent
ARTIFACTS = ROOT / "test-artifacts"
SAMPLE = ROOT / "sample_logs" / "llxprt_icontent.json"
WAIT = 60_000  # a fresh server's first run imports the whole app
NAV = [
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
"""The sidebar as app.py's ``st.navigation`` gives it (``TITLES``), in order."""


@pytest.fixture
def fresh_url(serving: Serving) -> Iterator[str]:
    """A server no session has used yet."""
    with serving() as url:
        yield url


@pytest.mark.parametrize(("path", "heading"), [("Timeline", "Timeline"), ("Explain", "Explain a 400")])
def test_a_subpage_as_the_first_request_runs_through_the_apps_navigation(
    path: str, heading: str, fresh_url: str, page: Page
) -> None:
    link = urllib.parse.quote(str(SAMPLE), safe="/")
    page.goto(f"{fresh_url}/{path}?path={link}")
    expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible(timeout=WAIT)
    nav = page.locator('[data-testid="stSidebarNav"]').get_by_role("link")
    expect(nav).to_have_text(NAV, timeout=WAIT)
    hrefs = [urllib.parse.urlsplit(h).path for h in nav.evaluate_all("els => els.map(e => e.href)")]
    assert hrefs == ["/", *(f"/{name}" for name in NAV[1:6]), "/Explain", *(f"/{n}" for n in NAV[7:])]
    expect(page.get_by_text(str(SAMPLE), exact=True)).to_be_visible(timeout=WAIT)  # the link's session
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"first-request-{path.lower()}.png"))
    assert page.outside_requests == []  # type: ignore[attr-defined]
