"""Hostile files shown in the real app in chromium: nothing they name is fetched.

A canary HTTP server on 127.0.0.1 records every request it gets. A guard bundle whose ``model``,
``sdk`` and ``time`` fields are Markdown images pointing at it, and a session whose messages, tool
names, ids, arguments and results carry images, links, HTML ``<img>``/``<link rel=prefetch>``,
Streamlit icon and colour directives and LaTeX, all naming the canary, are opened on every page.
The canary must receive no request (the page's own guard lets 127.0.0.1 through, so only the canary
can tell), and no page may show a traceback.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PAGES = {
    "": "toolhist",
    "Timeline": "Timeline",
    "Violations": "Violations",
    "Curation": "Curation",
    "Payloads": "Payloads",
    "Explain": "Explain a 400",
    "Compaction": "Compaction",
    "Conversation": "Conversation",
    "Switch": "Switch what-if",
}
"""Page path -> its title, seen once the page has drawn."""
IDLE = (
    "() => document.querySelector('[data-test-script-state]')"
    "?.getAttribute('data-test-script-state') === 'notRunning'"
)


@pytest.fixture(scope="module")
def canary() -> Iterator[tuple[str, list[str]]]:
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            self.send_response(200)
            self.send_header("content-type", "image/png")
            self.end_headers()

        do_POST = do_HEAD = do_GET

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen
    server.shutdown()
    server.server_close()


def hostile(base: str, where: str) -> str:
    """Every way a Markdown or HTML renderer could be made to fetch ``base``."""
    return (
        f"![img]({base}/{where}/image.png) [link]({base}/{where}/link) <img src='{base}/{where}/tag.png'> "
        f"<link rel=prefetch href='{base}/{where}/prefetch'> :material/home: :red[{where}] $x^2$ "
        f"{base}/{where}/bare.png <{base}/{where}/auto>"
    )


@pytest.fixture(scope="module")
def files(canary: tuple[str, list[str]], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base, _ = canary
    folder = tmp_path_factory.mktemp("hostile")
    session = {
        "model": hostile(base, "model"),
        "messages": [
            {"role": "system", "content": hostile(base, "system")},
            {"role": "user", "content": hostile(base, "user")},
            {
                "role": "assistant",
                "content": hostile(base, "assistant"),
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "x", "arguments": json.dumps({"q": hostile(base, "arguments")})},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": hostile(base, "result")},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_2", "type": "function", "function": {"name": "y", "arguments": "{}"}}
                ],
            },
        ],
    }
    bundle = {
        "toolhist_bundle": 1,
        "time": hostile(base, "time"),
        "provider": "openai-chat",
        "model": hostile(base, "bundle-model"),
        "endpoint": f"{base}/endpoint",
        "method": "POST",
        "sdk": hostile(base, "sdk"),
        "toolhist_version": "0",
        "mode": hostile(base, "mode"),
        "request": {"body": session, "headers": {"user-agent": hostile(base, "header")}},
        "response": {
            "status": 400,
            "body": {"error": {"message": hostile(base, "answer")}},
            "stream_error": False,
        },
        "violations": [],
        "changes": [],
    }
    out = {"session": folder / "hostile.json", "bundle": folder / "hostile.toolhist.json"}
    out["session"].write_text(json.dumps(session))
    out["bundle"].write_text(json.dumps(bundle))
    return out


@pytest.mark.parametrize("kind", ["session", "bundle"])
@pytest.mark.parametrize("name", PAGES)
def test_nothing_a_hostile_file_names_is_fetched(
    name: str, kind: str, files: dict[str, Path], canary: tuple[str, list[str]], app_url: str, page: Page
) -> None:
    _, seen = canary
    seen.clear()  # each case answers for its own page (a late fetch of the previous one was already blamed)
    page.goto(f"{app_url}/{name}?path={quote(str(files[kind]))}")
    main = page.locator('[data-testid="stMain"]')
    expect(page.get_by_role("heading", name=PAGES[name], exact=True)).to_be_visible(timeout=60_000)
    page.wait_for_function(IDLE, timeout=120_000)  # the script ran to its end: every element is drawn
    if kind == "bundle" and name == "Explain":  # the bundle's header is on the page, its image not fetched
        expect(main.get_by_text("Opened from a guard bundle", exact=False)).to_be_visible(timeout=60_000)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1500)  # let lazy images and prefetches have their chance
    assert "Traceback" not in page.content()
    assert seen == []
