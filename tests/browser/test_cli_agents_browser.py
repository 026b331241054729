"""Pi, Kimi CLI, Qwen Code, OpenHands, ``codex exec --json`` and Amp sessions in Chromium: a ``?path=`` link
opens each on Home, the Timeline and the Violations page (screenshots in test-artifacts/); an OpenHands
conversation is a folder, and the link names the folder."""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Serving
from fake_home_cli import KIMI, OPENHANDS_CLAUDE, PI, QWEN, make_cli_home
from playwright.sync_api import Page, expect

from toolhist.readers import READERS

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).parent.parent.parent / "test-artifacts"
CORPUS = Path(__file__).parent.parent / "corpus" / "logs"
WAIT = 60_000
IDLE = (
    "() => document.querySelector('[data-test-script-state]')"
    "?.getAttribute('data-test-script-state') === 'notRunning'"
)

SESSIONS = {
    # agent: (the path, under the home unless absolute; the provider it ran on; messages read)
    "pi": (PI, "anthropic", 3),
    "kimi-cli": (KIMI, "kimi", 5),
    "qwen-code": (QWEN, "openai-chat", 2),
    "openhands": (OPENHANDS_CLAUDE, "anthropic", 12),
    "codex-exec": (str(CORPUS / "codex-exec" / "agentcmd-stream-output-4.jsonl"), "openai-responses", 4),
    "amp": (str(CORPUS / "amp" / "txcript-legacy-thread.fixture.json"), "anthropic", 6),
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, serving: Serving) -> Iterator[tuple[str, Path]]:
    home = make_cli_home(tmp_path_factory.mktemp("cli-agents") / "home")
    with serving({"TOOLHIST_HOME": str(home)}) as url:
        yield url, home


@pytest.mark.parametrize("agent", sorted(SESSIONS))
def test_a_session_link_opens_on_home_the_timeline_and_violations(
    agent: str, served: tuple[str, Path], page: Page
) -> None:
    url, home = served
    rel, provider, messages = SESSIONS[agent]
    path = str(home / rel)
    link = urllib.parse.quote(path, safe="/")
    page.goto(f"{url}/?path={link}")
    # Home names the format read, with its reader's description
    expect(page.get_by_text(READERS[agent].description, exact=False).first).to_be_visible(timeout=WAIT)
    page.wait_for_function(IDLE, timeout=WAIT)  # the script run is over: the screenshot shows the page drawn
    expect(page.locator('[data-testid="stSkeleton"]')).to_have_count(0, timeout=WAIT)
    home_metric = page.locator('[data-testid="stMetric"]').filter(has_text="Messages").first
    expect(home_metric).to_contain_text(str(messages), timeout=WAIT)
    assert "Traceback" not in page.content()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"cli-agent-{agent}-home.png"), full_page=True)
    page.goto(f"{url}/Timeline?path={link}&provider={provider}")
    expect(page.get_by_text(path, exact=True)).to_be_visible(timeout=WAIT)  # the sidebar's session
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Messages").first
    expect(metric).to_contain_text(str(messages), timeout=WAIT)
    page.wait_for_function(
        "() => +document.querySelector('svg.th-timeline')?.dataset.events > 0",  # the Timeline's picture
        timeout=WAIT,
    )
    assert "Traceback" not in page.content()
    page.screenshot(path=str(ARTIFACTS / f"cli-agent-{agent}-timeline.png"), full_page=True)
    page.goto(f"{url}/Violations?path={link}&provider={provider}")
    expect(page.get_by_text(path, exact=True)).to_be_visible(timeout=WAIT)
    expect(page.get_by_role("heading", name="Violations").first).to_be_visible(timeout=WAIT)
    assert "Traceback" not in page.content()
    page.screenshot(path=str(ARTIFACTS / f"cli-agent-{agent}-violations.png"), full_page=True)
    assert page.outside_requests == []  # type: ignore[attr-defined]
