"""The Verify page in a real browser: sending is off until the switch is turned on; Send sends one request.

The server is started with every provider's base URL on the fake provider (127.0.0.1), dummy keys
and the ledger in a temporary folder, so the request goes nowhere else.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Serving
from fake_provider import serve
from playwright.sync_api import Page, expect

sys.path.insert(0, str(Path(__file__).parent.parent / "verify"))  # tests/verify: the isolated environment
from offline import KEYS, OTHER, bases

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).parent.parent.parent / "test-artifacts"


@pytest.fixture(scope="module")
def verify_server(
    tmp_path_factory: pytest.TempPathFactory, serving: Serving
) -> Iterator[tuple[str, Any, Path]]:
    ledger = tmp_path_factory.mktemp("ledger") / "verify.jsonl"
    with serve() as (fake, recorder):
        env = {**KEYS, **bases(fake), **dict.fromkeys(OTHER, ""), "TOOLHIST_LEDGER": str(ledger)}
        with serving(env) as app_url:
            yield app_url, recorder, ledger


def test_sending_is_opt_in_and_the_answer_is_recorded(
    verify_server: tuple[str, Any, Path], page: Page
) -> None:
    url, recorder, ledger = verify_server
    page.goto(f"{url}/Verify?sample=openai_chat_request.json&provider=openai-chat")
    expect(page.get_by_role("heading", name="Verify by sending")).to_be_visible(timeout=60_000)
    expect(page.get_by_text("Sending is off: nothing leaves this machine.")).to_be_visible(timeout=30_000)
    expect(page.get_by_role("button", name="Send to openai-chat")).to_have_count(0)
    assert recorder.calls == []

    page.get_by_text("Allow sending requests to providers").click()
    page.get_by_role("button", name="Send to openai-chat").click()
    expect(page.get_by_text("Outcome: confirmed")).to_be_visible(timeout=60_000)
    expect(page.get_by_text("1 request(s) sent, kept in", exact=False)).to_be_visible(timeout=30_000)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "verify-sent.png"), full_page=True)

    assert [(p, s) for p, _, s in recorder.calls] == [("/v1/chat/completions", 400)]
    [row] = [json.loads(line) for line in ledger.read_text().splitlines()]
    assert (row["answer"]["rule"], row["outcome"]) == ("oai.call_unanswered", "confirmed")
    assert "sk-test-openai" not in page.content()
    assert "Traceback" not in page.content()
    assert page.outside_requests == []  # type: ignore[attr-defined]
