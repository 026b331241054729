"""A 100,000-message session in the real app: uploaded, loaded with progress, and every page responds.

One upload, then Home, Timeline, Violations, Payloads and Curation in turn (the same browser session,
so the server parses the file once).

The session is generated at test time by ``benchmarks/generate.py`` (an agent's OpenAI Chat body,
36.7 MB, with the seed failure modes at steady rates). Every figure the test expects is computed
here with the library, in a worker thread while the browser drives the server.

Waits: loading, checking and rendering 100,000 messages takes tens of seconds on a 2-core CI
machine, so the waits that cover that work are a generous ``LOAD`` (120 s). They are functional
waits (the test fails if the page never gets there), not performance assertions: no test here
measures time (``benchmarks/`` does).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import browser_clicks as clicks
import pandas as pd
import pytest
from bench_modules import benchmark_module
from browser_clicks import clicked_until, pick_row
from playwright.sync_api import Locator, Page, expect

import toolhist
from toolhist.check import CheckResult, check
from toolhist.model import Session
from toolhist.providers import PROVIDERS, validate
from toolhist.ran_on import ran_on
from toolhist.views.body import jumps
from toolhist.views.readable import parts
from toolhist.views.sent import verdict_line
from toolhist.views.timeline import events_frame
from toolhist.views.violations import violations_frame

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parent.parent.parent
MESSAGES = 100_000
LOAD = 120_000  # ms: a functional wait for work on 100,000 messages, not a performance bound
WAIT = 30_000
PAGE_ROWS = 500  # app_pages/1_Timeline.py
CHART_WINDOW = 2500
TARGET = MESSAGES * 7 // 9  # the table is paged to the first event of this message (or a later one)
PAYLOAD_PROVIDERS = ("openai-chat", "anthropic", "gemini")  # the Payloads page's first choice for this body
CURATION = ("anthropic", "toolhist")  # provider and strategy picked on the Curation page


@dataclass(frozen=True)
class Expected:
    """What the pages must show, from the library."""

    session: Session
    result: CheckResult
    events: pd.DataFrame
    """The Timeline's event frame, ringed for the provider it opens on (the provider the session ran
    on, else the first that rejects it: `toolhist.views.sent.default_provider`)."""
    first_error: int
    """The first message of a Payloads jump list (the chosen providers' first error)."""
    passes: list[tuple[str, int]]
    """`toolhist.curate`'s Changes for `CURATION`, counted per pass in the order the passes ran."""
    changes: int
    errors_left: int
    """Error-level violations `toolhist.providers.validate` finds after that curation."""


def expectations(path: Path) -> Expected:
    session = toolhist.load(path)
    result = check(path)
    ran = ran_on(session)
    opens_on = (
        ran.provider
        if ran is not None and ran.provider in PROVIDERS
        else next(p for p in PROVIDERS if any(v.severity == "error" for v in result.results[p]))
    )
    events = events_frame(session, result.results[opens_on])
    first_error = jumps({p: result.results[p] for p in PAYLOAD_PROVIDERS})[0][1]
    provider, strategy = CURATION
    curation = toolhist.curate(session, provider, strategy=strategy)
    passes = Counter(c.pass_ for c in curation.changes)  # insertion order: the order the passes ran
    left = validate(session, provider, strategy=strategy)
    return Expected(
        session=session,
        result=result,
        events=events,
        first_error=first_error,
        passes=list(passes.items()),
        changes=len(curation.changes),
        errors_left=sum(v.severity == "error" for v in left),
    )


@pytest.fixture(scope="module")
def big_session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    generate = benchmark_module("generate")
    path: Path = generate.write(MESSAGES, tmp_path_factory.mktemp("scale") / "agent-session.json")
    return path


@pytest.fixture(scope="module")
def expected(big_session: Path) -> Iterator[Future[Expected]]:
    """The library's figures, computed on the second core while the browser test runs."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        yield pool.submit(expectations, big_session)


def metric(page: Page, label: str) -> Locator:
    return (
        page.locator('[data-testid="stMetric"]')
        .filter(has_text=label)
        .locator('[data-testid="stMetricValue"]')
    )


def sidebar_link(page: Page, name: str) -> None:
    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=name).click()


def settled(page: Page) -> None:
    """Wait until the script run is over, so the page holds no element left from the previous run."""
    clicks.settled(page, LOAD)


def choose(page: Page, label: str, option: str) -> None:
    """Pick ``option`` in the sidebar select box ``label``."""
    page.locator('[data-testid="stSidebar"]').get_by_label(label).click()
    page.get_by_role("option", name=option, exact=True).click()


def test_a_100k_session_uploads_with_progress_and_every_page_responds(
    app_url: str, page: Page, big_session: Path, expected: Future[Expected]
) -> None:
    size = big_session.stat().st_size
    assert size < 50 * 1024 * 1024  # fits the upload bound (.streamlit/config.toml maxUploadSize)
    page.goto(app_url)
    expect(page.get_by_text("Session: openai_chat_request.json")).to_be_visible(timeout=WAIT)
    page.get_by_role("radio", name="Upload").click()
    page.locator("input[type=file]").set_input_files(big_session)

    # progress while it loads: the read, then each provider with the message count
    progress = page.locator('[data-testid="stProgress"]')
    expect(progress.filter(has_text=f"Reading the session ({size / 1e6:.1f} MB)…")).to_be_visible(
        timeout=LOAD
    )
    expect(
        progress.filter(
            has_text=re.compile(rf"^{MESSAGES:,} messages read \(openai-chat\); checking \S+ \(\d of 7\)…$")
        )
    ).to_be_visible(timeout=LOAD)
    expect(page.get_by_text("Session: agent-session.json")).to_be_visible(timeout=LOAD)
    expect(progress).to_have_count(0, timeout=LOAD)  # the verdicts come after the counts
    expect(metric(page, "Messages")).to_have_text(f"{MESSAGES:,}", timeout=WAIT)

    want = expected.result(timeout=600)
    frame = want.events
    summary = toolhist.summarize(want.session)
    expect(metric(page, "Tool calls")).to_have_text(f"{summary.tool_calls:,}", timeout=WAIT)
    expect(metric(page, "Unanswered calls")).to_have_text(f"{len(summary.unanswered_calls):,}", timeout=WAIT)

    # Timeline: the counts, then a row picked deep in the table shows that message and moves the chart
    sidebar_link(page, "Timeline")
    expect(page.get_by_role("heading", name="Timeline", exact=True)).to_be_visible(timeout=LOAD)
    expect(metric(page, "Messages")).to_have_text(f"{MESSAGES:,}", timeout=LOAD)
    expect(metric(page, "Tool calls")).to_have_text(f"{int((frame['kind'] == 'call').sum()):,}", timeout=WAIT)
    expect(metric(page, "Tool results")).to_have_text(
        f"{int((frame['kind'] == 'result').sum()):,}", timeout=WAIT
    )
    marked = int(frame[frame["violations"] != ""]["message"].nunique())
    expect(metric(page, "Marked by violations")).to_have_text(f"{marked:,}", timeout=WAIT)
    pages = -(-len(frame) // PAGE_ROWS)
    first = int(frame.index[frame["message"] >= TARGET][0])
    table_page = first // PAGE_ROWS + 1
    row = (table_page - 1) * PAGE_ROWS + 2  # the third row of that page
    box = page.get_by_label(f"Page (of {pages}; {PAGE_ROWS} rows a page)")
    box.fill(str(table_page))
    box.press("Enter")
    picked = int(frame["message"].iloc[row])
    message = want.session.messages[picked]
    where = want.session.source.locations[picked].json_path
    grid = page.locator('[data-testid="stDataFrame"]').last
    expect(grid).to_be_visible(timeout=WAIT)
    # Click only once the new page is drawn (a click during the run that draws it is lost, as for a
    # user): the grid's accessible rows name the page's first and third messages.
    first_shown = int(frame["message"].iloc[(table_page - 1) * PAGE_ROWS])
    expect(grid.locator('tbody tr[aria-rowindex="2"]')).to_contain_text(str(first_shown), timeout=LOAD)
    expect(grid.locator('tbody tr[aria-rowindex="4"]')).to_contain_text(str(picked), timeout=LOAD)
    settled(page)
    page.wait_for_timeout(1000)  # the grid repaints the new page on its canvas
    inspected = expect(page.get_by_text(f"Message {picked} · {message.speaker} · {where}", exact=True))
    clicked_until(
        page, partial(pick_row, page, grid, 2), lambda ms: inspected.to_be_visible(timeout=ms), WAIT
    )
    settled(page)
    blocks = [text.strip() for _, text in parts(message) if text.strip()]  # as a person reads them
    # The code elements can mount a moment after the run ends: wait for them, then compare exactly.
    code = page.locator('[data-testid="stCode"]')  # violations' texts, then the blocks
    expect(code).to_contain_text(blocks, timeout=WAIT)
    codes = [c.strip() for c in code.all_inner_texts()]
    assert all(shown in codes for shown in blocks)
    windows = -(-MESSAGES // CHART_WINDOW)
    window = page.get_by_label(f"Chart window (of {windows}; {CHART_WINDOW} messages a window)")
    expect(window).to_have_value(str(picked // CHART_WINDOW + 1), timeout=WAIT)
    lo = picked // CHART_WINDOW * CHART_WINDOW
    expect(page.get_by_text(f"Messages {lo} to {lo + CHART_WINDOW - 1};", exact=False)).to_be_visible(
        timeout=WAIT
    )

    # Violations: it opens on the provider the Timeline showed (the session's own, openai-chat), then
    # every provider's, counted exactly; the first row opened
    sidebar_link(page, "Violations")
    own = len(want.result.results["openai-chat"])
    expect(page.get_by_role("heading", name=f"{own:,} violations", exact=True)).to_be_visible(timeout=LOAD)
    page.locator('[data-testid="stSidebar"]').get_by_label("Provider").click()
    page.get_by_role("option", name="all providers", exact=True).click()
    total = sum(len(found) for found in want.result.results.values())
    expect(page.get_by_role("heading", name=f"{total:,} violations", exact=True)).to_be_visible(timeout=LOAD)
    first_row = violations_frame(want.result.results).iloc[0]
    expect(
        page.get_by_text(
            f"{first_row['provider']} · {first_row['rule']} · {first_row['severity']} · {first_row['path']}",
            exact=True,
        )
    ).to_be_visible(timeout=LOAD)
    # one provider: its own count
    page.locator('[data-testid="stSidebar"]').get_by_label("Provider").click()
    page.get_by_role("option", name="anthropic", exact=True).click()
    anthropic = len(want.result.results["anthropic"])
    expect(page.get_by_role("heading", name=f"{anthropic:,} violations", exact=True)).to_be_visible(
        timeout=LOAD
    )

    # Payloads: each provider's verdict as sent, and a window of source messages on the first error
    sidebar_link(page, "Payloads")
    expect(page.get_by_role("heading", name="Payloads", exact=True)).to_be_visible(timeout=WAIT)
    verdicts = page.locator('[data-testid="stText"]').filter(has_text=re.compile(r"^as sent: "))
    expect(verdicts).to_have_text(
        [f"as sent: {verdict_line(want.result.results[p])}" for p in PAYLOAD_PROVIDERS], timeout=LOAD
    )
    # the window opens on the message last inspected on another page (the URL's msg: the Timeline's
    # pick, then the first violation the Violations page opened), two messages of context before it
    expect(page).to_have_url(re.compile(r"[?&]msg=\d+"), timeout=LOAD)
    focus = int(parse_qs(urlsplit(page.url).query)["msg"][0])
    start = max(0, focus - 2)
    expect(
        page.get_by_text(f"Messages {start:,} to {start + 9:,} of {MESSAGES:,}", exact=True)
    ).to_be_visible(timeout=LOAD)
    expect(page.get_by_text("Too long to show as a tree here", exact=False)).to_have_count(0)

    # Curation: the reference strategy for one provider, its changes counted per pass as the library does
    sidebar_link(page, "Curation")
    expect(page.get_by_role("heading", name="Curation", exact=True)).to_be_visible(timeout=WAIT)
    settled(page)
    provider, strategy = CURATION
    choose(page, "Provider", provider)
    settled(page)
    choose(page, "Strategy", strategy)
    per_pass = " · ".join(f"{name} {n:,}" for name, n in want.passes)
    expect(page.get_by_text(f"Changes per pass: {per_pass}", exact=True)).to_be_visible(timeout=LOAD)
    expect(metric(page, "Changes")).to_have_text(f"{want.changes:,}", timeout=WAIT)
    errors_before = sum(v.severity == "error" for v in want.result.results[provider])
    expect(metric(page, "Errors before")).to_have_text(f"{errors_before:,}", timeout=WAIT)
    expect(metric(page, "Errors left")).to_have_text(f"{want.errors_left:,}", timeout=WAIT)
    expect(page.get_by_role("button", name="Compare the built-in strategies")).to_be_visible(timeout=LOAD)
    assert page.outside_requests == []  # type: ignore[attr-defined]
