"""The Conversation page in Chromium: a real Claude Code log with sidechains, search, a click on a hit.

And the no-fetch promise held where it matters, in the browser: a session full of Markdown images,
links and raw HTML pointing at a beacon server on 127.0.0.1 is shown, every folded part opened,
and the beacon receives no request at all.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import browser_clicks as clicks
import pytest
from bench_modules import benchmark_module
from browser_clicks import clicked_until, pick_row
from playwright.sync_api import Locator, Page, expect

import toolhist
from toolhist.views.transcript import search, search_index

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parent.parent.parent
SIDECHAIN_LOG = (
    ROOT / "tests" / "corpus" / "logs" / "claude-code" / "claude-code-log-sidechain-integrated.fixture.jsonl"
)
ARTIFACTS = ROOT / "test-artifacts"
WAIT = 60_000  # ms: a functional wait (reading the session), not a performance bound


def settled(page: Page) -> None:
    clicks.settled(page, WAIT)


def choose(page: Page, label: str, option: str) -> None:
    """Pick ``option`` in the sidebar select box ``label``."""
    page.locator('[data-testid="stSidebar"]').get_by_label(label).click()
    page.get_by_role("option", name=option, exact=True).click()
    settled(page)


def find(page: Page, query: str) -> Locator:
    """Type ``query`` in the search box (always in view) and return the hits' grid once it shows."""
    settled(page)  # a key typed during a run can be lost
    box = page.get_by_label("Find")
    box.fill(query)
    box.press("Enter")
    settled(page)
    grid = page.locator('[data-testid="stDataFrame"]').first
    expect(grid).to_be_visible(timeout=WAIT)
    page.wait_for_timeout(800)  # the grid paints its canvas after layout
    return grid


def search_in(page: Page, field: str) -> None:
    """Choose what the search looks in, and see it chosen before typing."""
    settled(page)
    radio = page.get_by_role("radio", name=field, exact=True)
    page.get_by_text(field, exact=True).click()
    expect(radio).to_be_checked(timeout=WAIT)
    settled(page)


def test_a_claude_code_log_its_sidechain_and_a_search_hit(app_url: str, page: Page) -> None:
    page.goto(f"{app_url}/Conversation?path={SIDECHAIN_LOG}")
    expect(page.locator("#th-msg-2")).to_be_visible(timeout=WAIT)
    expect(page.locator(".th-unsent")).to_have_count(2)
    expect(page.locator("#th-call-0-0")).to_contain_text("Perfect! Now I have a complete understanding.")
    expect(page.locator("#th-msg-1")).to_contain_text("shown with its call in #0")

    choose(page, "Thread", "sidechain b674eedd-0d9d-49e7-8116-1f092cd750ed (2 lines)")
    card = page.locator(".th-call").first
    expect(card).to_contain_text("toolu_01BWgwmyj8gGuqFNHMPqqtN2", timeout=WAIT)
    expect(card).to_contain_text("pending: the agent sends its result next")
    choose(page, "Thread", "main thread")
    expect(page.locator("#th-msg-2")).to_be_visible(timeout=WAIT)

    session = toolhist.load(SIDECHAIN_LOG)
    [hit], _ = search(session, search_index(session), "sub-assistant")
    grid = find(page, "sub-assistant")
    expect(grid.locator('tbody tr[aria-rowindex="2"]')).to_contain_text(hit.snippet)
    target = page.locator(f"#th-msg-{hit.message}")
    focused = partial(expect(target).to_have_class, re.compile(r"\bfocus\b"))
    clicked_until(page, partial(pick_row, page, grid, 0), lambda ms: focused(timeout=ms), WAIT)
    settled(page)
    expect(target).to_be_in_viewport()
    assert f"msg={hit.message}" in page.url
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "conversation-claude-code.png"))
    assert page.outside_requests == []  # type: ignore[attr-defined]


def test_a_search_hit_on_another_page_moves_the_window_to_it(
    app_url: str, page: Page, tmp_path: Path
) -> None:
    log: Path = benchmark_module("generate").write(3000, tmp_path / "long.json")
    session = toolhist.load(log)
    call = next(c for m in session.messages[2000:] for c in m.tool_calls())
    hits, _ = search(session, search_index(session), call.id, "id")
    page.goto(f"{app_url}/Conversation?path={log}")
    expect(page.locator("#th-msg-0")).to_be_visible(timeout=WAIT)
    search_in(page, "call id")
    grid = find(page, call.id)
    expect(grid.locator('tbody tr[aria-rowindex="2"]')).to_contain_text(hits[0].snippet)
    target = page.locator(f"#th-msg-{hits[0].message}")
    focused = partial(expect(target).to_have_class, re.compile(r"\bfocus\b"))
    clicked_until(page, partial(pick_row, page, grid, 0), lambda ms: focused(timeout=ms), WAIT)
    settled(page)
    expect(target).to_be_in_viewport()
    expect(page.locator(".th-turn")).to_have_count(50)
    # scrolled to: the message jumped to ends at the top of the view, not below the search results
    # (the grid clicked keeps the focus and may pull the view back to it once as it redraws)
    at_top = f"(() => {{ const t = document.getElementById('th-msg-{hits[0].message}')"
    at_top += ".getBoundingClientRect().top; return t >= 0 && t < 100; })()"
    page.wait_for_function(at_top, timeout=WAIT)
    assert page.outside_requests == []  # type: ignore[attr-defined]


class Beacon(BaseHTTPRequestHandler):
    """Counts every request; a transcript must never send one."""

    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        Beacon.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def beacon() -> Iterator[str]:
    Beacon.hits = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Beacon)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def hostile_body(url: str) -> dict[str, object]:
    """An Anthropic request whose every text names ``url`` in a way a careless viewer would fetch."""
    markdown = (
        f"![x]({url}/md-image) [a link]({url}/md-link) <{url}/autolink> [ref][r] ![ref image][r]\n\n"
        f"[r]: {url}/md-ref\n\n"
        f'<img src="{url}/html-img"> <link rel="prefetch" href="{url}/prefetch">'
        f'<iframe src="{url}/iframe"></iframe><video poster="{url}/poster"></video>'
        f'<object data="{url}/object"></object><style>@import url({url}/css);</style>'
        f'<div style="background:url({url}/style)">x</div>'
        "<script>window.__toolhist_xss = 'md'</script>"
    )
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [
            {"role": "user", "content": markdown},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": markdown, "signature": "sig"},
                    {"type": "text", "text": markdown},
                    {
                        "type": "tool_use",
                        "id": "toolu_01Beacon",
                        "name": "fetch",
                        "input": {"url": f"{url}/arg"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_01Beacon",
                        "content": [
                            {"type": "text", "text": markdown + "x" * 3000},
                            {"type": "image", "source": {"type": "url", "url": f"{url}/tool-image"}},
                        ],
                    }
                ],
            },
            {"role": "assistant", "content": markdown},
        ],
    }


def test_nothing_session_content_names_is_fetched(
    app_url: str, page: Page, beacon: str, tmp_path: Path
) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(hostile_body(beacon)))
    page.goto(f"{app_url}/Conversation?path={path}")
    expect(page.locator("#th-msg-3")).to_be_visible(timeout=WAIT)
    conv = page.locator(".th-conv")
    for summary in conv.locator("summary").all():  # thinking and folded results, opened as a reader would
        summary.click()
    conv.get_by_text("a link").first.hover()
    page.wait_for_timeout(2000)  # anything the page would fetch has had time to go
    assert Beacon.hits == []
    expect(conv.get_by_text(f"[image: x · {beacon}/md-image]").first).to_be_visible()
    expect(conv.get_by_text(f'<img src="{beacon}/html-img">', exact=False).first).to_be_visible()
    assert conv.locator("img, a, iframe, video, object, link, script, style").count() == 0
    assert page.evaluate("typeof window.__toolhist_xss") == "undefined"
    assert page.outside_requests == []  # type: ignore[attr-defined]


def test_the_xss_sample_shows_its_scripts_as_text(app_url: str, page: Page) -> None:
    page.goto(f"{app_url}/Conversation?sample=xss_tool_result.json")
    card = page.locator("#th-call-2-1")
    expect(card).to_contain_text(
        "<script>window.__toolhist_xss = 'script'; alert('xss')</script>", timeout=WAIT
    )
    expect(page.locator("#th-msg-4")).to_contain_text("<script>window.__toolhist_xss = 'assistant'</script>")
    assert page.evaluate("typeof window.__toolhist_xss") == "undefined"
    assert page.outside_requests == []  # type: ignore[attr-defined]
