"""Copilot CLI, VS Code logs, Continue and Cursor sessions in Chromium: a ``?path=`` link opens each on the
Timeline and the Violations page (screenshots in test-artifacts/)."""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Serving
from fake_home_ide import CONTINUE, COPILOT, CURSOR_DB, CURSOR_T, VSCODE, make_ide_home
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).parent.parent.parent / "test-artifacts"
WAIT = 60_000

NO_CALLS = {"vscode-jsonl"}
"""Sessions with no tool call or violation: the Timeline says so instead of drawing a chart."""
SESSIONS = {
    # name: (file or locator under the home, the provider to judge on, messages sent)
    "copilot-cli": (COPILOT, "anthropic", 7),
    "vscode-jsonl": (VSCODE, "anthropic", 2),
    "continue": (CONTINUE, "openai-chat", 10),
    "cursor": (f"{CURSOR_DB}#98251e54-8aed-4515-b2b4-08895453eedd", "anthropic", 6),
    "cursor-transcript": (CURSOR_T, "anthropic", 5),
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, serving: Serving) -> Iterator[tuple[str, Path]]:
    home = make_ide_home(tmp_path_factory.mktemp("ide") / "home")
    with serving({"TOOLHIST_HOME": str(home)}) as url:
        yield url, home


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_a_session_link_opens_on_the_timeline_and_violations(
    name: str, served: tuple[str, Path], page: Page
) -> None:
    url, home = served
    rel, provider, messages = SESSIONS[name]
    path = f"{home / rel.split('#')[0]}" + (f"#{rel.split('#')[1]}" if "#" in rel else "")
    link = urllib.parse.quote(path, safe="/")
    page.goto(f"{url}/Timeline?path={link}&provider={provider}")
    expect(page.get_by_text(path, exact=True)).to_be_visible(timeout=WAIT)
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Messages").first
    expect(metric).to_contain_text(str(messages), timeout=WAIT)
    if name in NO_CALLS:
        expect(page.get_by_text("This history has no tool calls or results")).to_be_visible(timeout=WAIT)
    else:
        page.wait_for_function(
            "() => +document.querySelector('svg.th-timeline')?.dataset.events > 0",  # the Timeline's picture
            timeout=WAIT,
        )
    assert "Traceback" not in page.content()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"ide-{name}-timeline.png"), full_page=True)
    page.goto(f"{url}/Violations?path={link}&provider={provider}")
    expect(page.get_by_text(path, exact=True)).to_be_visible(timeout=WAIT)
    expect(page.get_by_role("heading", name="Violations").first).to_be_visible(timeout=WAIT)
    assert "Traceback" not in page.content()
    page.screenshot(path=str(ARTIFACTS / f"ide-{name}-violations.png"), full_page=True)
    assert page.outside_requests == []  # type: ignore[attr-defined]
