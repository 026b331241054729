"""The README quick start as a new user meets it: every page of ``./dev app`` on its own fresh install.

Run by ``./dev quickstart`` (CI's quick-start job), which makes a clean clone of the committed HEAD in a
temporary folder and starts ``./dev app`` there in the background: the clone's own ``.venv`` with the
``[app]`` extra alone, from ``constraints.txt``, the server headless on 127.0.0.1 and a free port. From
the checkout's test venv (Playwright, Debian's chromium through ``executable_path``), this file waits
for that server, then opens every page its sidebar lists on the bundled sample and on real agent logs
of the clone's ``tests/corpus/logs/`` (``?path=``), and the Fleet page on a folder scan. On each:

- no exception (``[data-testid=stException]``), and no "Traceback", "ModuleNotFoundError" or
  "ImportError" in what the app says (session content, which quotes such errors, is left out);
- where a part needs an extra that install lacks, its notice (``pip install 'toolhist[X]'``), and no
  other: which extras it lacks is asked of the clone's own python;
- nothing requested from anywhere but the server.

Before the install the server is not up: the wait allows for it, and a server that dies is reported
with the end of its log. Screenshots go to ``test-artifacts/quickstart/`` (gitignored).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from bench_modules import benchmark_module
from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts" / "quickstart"
INSTALL_WAIT = 1200.0
"""Seconds for ``./dev app`` to install ``[app]`` into a fresh venv and start (a cold pip cache)."""
WAIT = 120_000
"""Milliseconds for a page's script run (the machine is shared)."""

PAGES = ("", "Timeline", "Violations", "Curation", "Payloads", "Explain", "Compaction", "Fleet")
"""Page paths the app must have; any other page the sidebar lists is opened too."""

REAL_LOGS = (
    "tests/corpus/logs/codex/simonw-sample-codex-session.jsonl",
    "tests/corpus/logs/claude-code/drmaciver-coverage-test-fix.jsonl",
)
"""Real runs of Codex and Claude Code (their ``.source.json`` says where each was found)."""

NOTICES = {
    "Payloads": ("sdk", ("openai", "anthropic", "google.genai", "mistralai", "botocore")),
    "Fleet": ("fleet", ("distributed",)),
}
"""Page → the extra a part of it needs, and the modules whose absence makes the page say so."""

SETTLED = (
    "() => document.querySelector('[data-test-script-state]')"
    "?.getAttribute('data-test-script-state') === 'notRunning'"
)
APP_TEXT = """() => {
    const main = document.querySelector('[data-testid="stMain"]').cloneNode(true);
    const content = '[data-testid="stCode"], [data-testid="stJson"], [data-testid="stText"], '
        + '[data-testid="stDataFrame"], [data-testid="stTable"], [data-testid="stHtml"], '
        + '[data-testid="stTextArea"], [data-testid="stTextInput"], pre, code, textarea, input';
    main.querySelectorAll(content).forEach(e => e.remove());
    return main.textContent;
}"""
"""The page's text without the elements that show session content (code, JSON, text, tables, inputs)."""
BROKEN = ("Traceback", "ModuleNotFoundError", "ImportError")
NOTICE = re.compile(r"pip install 'toolhist\[([a-z0-9,-]+)\]'")


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: run ./dev quickstart (it starts the app in a clean clone first)")
    return value


@pytest.fixture(scope="session")
def clone() -> Path:
    """The clean clone ``./dev quickstart`` made."""
    return Path(env("TOOLHIST_QUICKSTART_CLONE"))


@pytest.fixture(scope="session")
def server() -> str:
    """The clone's ``./dev app``, once its health check answers."""
    url, pid, log = (
        env("TOOLHIST_QUICKSTART_URL"),
        int(env("TOOLHIST_QUICKSTART_PID")),
        env("TOOLHIST_QUICKSTART_LOG"),
    )
    deadline = time.monotonic() + INSTALL_WAIT
    while True:
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                return url
        except OSError:
            pass
        ended = subprocess.run(["kill", "-0", str(pid)], capture_output=True, check=False).returncode != 0
        if ended or time.monotonic() > deadline:
            tail = "\n".join(Path(log).read_text(errors="replace").splitlines()[-40:])
            pytest.fail(
                f"./dev app {'exited' if ended else 'did not answer'} on {url}; its log ends:\n{tail}"
            )
        time.sleep(1)


@pytest.fixture(scope="session")
def lacking(clone: Path, server: str) -> set[str]:
    """The modules of NOTICES that the server's install lacks (asked of its python, after the install)."""
    modules = sorted({m for _, wanted in NOTICES.values() for m in wanted})
    code = "import json, sys; from toolhist.extras import importable; print(json.dumps([m for m in sys.argv[1:] if not importable(m)]))"
    done = subprocess.run(
        [env("TOOLHIST_QUICKSTART_PYTHON"), "-c", code, *modules],
        capture_output=True,
        text=True,
        check=True,
        cwd=clone,
        timeout=120,
    )
    return set(json.loads(done.stdout))


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.fail("Debian's chromium is not installed (./dev quickstart installs it as root)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium, args=benchmark_module("serve").CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A page that may only talk to the local server; any other request is blocked and recorded."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    outside: list[str] = []

    def only_local(route, request) -> None:  # type: ignore[no-untyped-def]
        host = urllib.parse.urlsplit(request.url).hostname or ""
        if request.url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            outside.append(request.url)
            route.abort()

    pg.route("**/*", only_local)
    pg.outside_requests = outside  # type: ignore[attr-defined]
    yield pg
    context.close()


def settle(page: Page) -> None:
    """The page's script has run: its title is drawn and Streamlit says it is not running."""
    page.locator('[data-testid="stMain"] h1').first.wait_for(timeout=WAIT)
    page.wait_for_function(SETTLED, timeout=WAIT, polling=200)


def sidebar_pages(page: Page, server: str) -> list[str]:
    page.goto(f"{server}/")
    page.locator('[data-testid="stSidebarNav"] a').first.wait_for(timeout=WAIT)
    hrefs = page.eval_on_selector_all('[data-testid="stSidebarNav"] a', "els => els.map(e => e.href)")
    return [urllib.parse.urlsplit(h).path.strip("/") for h in hrefs]


def problems_on(page: Page, name: str, expected: set[str], shot: str) -> list[str]:
    """What is wrong with the open page: exceptions, error words, and notices other than ``expected``."""
    settle(page)
    for summary in page.locator('[data-testid="stExpander"] summary').all():
        summary.click()  # expanders only hide their content: opening one runs nothing
    page.wait_for_function(SETTLED, timeout=WAIT, polling=200)
    found = []
    exceptions = page.locator('[data-testid="stException"]')
    if exceptions.count():
        found.append(f"{name}: exception: {exceptions.first.inner_text()[:300]}")
    said = page.evaluate(APP_TEXT)
    found += [f"{name}: the page says {word!r}" for word in BROKEN if word in said]
    notices = set(NOTICE.findall(said))
    if notices != expected:
        found.append(f"{name}: notices for extras {sorted(notices)}, expected {sorted(expected)}")
    # Streamlit scrolls an inner container: grow the window to the content for a whole-page picture
    height = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": 1400, "height": min(int(height), 6000)})
    page.wait_for_timeout(1500)  # tables and charts paint after the layout (a picture only: nothing timed)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{shot}.png"), timeout=WAIT)  # the window is the page now
    page.set_viewport_size({"width": 1400, "height": 1000})
    return found


@pytest.mark.parametrize("log", ["", *REAL_LOGS], ids=["sample", "codex", "claude-code"])
def test_every_page_opens_on_the_base_install(
    page: Page, server: str, clone: Path, lacking: set[str], log: str
) -> None:
    paths = sidebar_pages(page, server)
    assert set(PAGES) <= set(paths), paths
    query = f"?path={urllib.parse.quote(str(clone / log))}" if log else ""
    found: list[str] = []
    for path in paths:
        page.goto(f"{server}/{path}{query}")
        name = path or "Home"
        extra, wanted = NOTICES.get(name, ("", ()))
        expected = {extra} if lacking & set(wanted) else set()
        found += problems_on(page, name, expected, f"{Path(log).stem or 'sample'}-{name}")
        if name == "Home":  # the log is open, not the sample
            shown = page.locator('[data-testid="stMain"]').inner_text()
            assert f"Session: {clone / log}" in shown if log else "Session: " in shown
    assert found == []
    assert page.outside_requests == []  # type: ignore[attr-defined]


def test_the_fleet_page_scans_a_folder_on_the_base_install(
    page: Page, server: str, clone: Path, lacking: set[str]
) -> None:
    page.goto(f"{server}/Fleet?scan={urllib.parse.quote(str(clone / 'sample_logs'))}")
    expected = {"fleet"} if "distributed" in lacking else set()
    page.get_by_role("heading", name="Rejected sessions per provider").wait_for(timeout=WAIT)
    assert problems_on(page, "Fleet", expected, "fleet-scan") == []
    assert page.outside_requests == []  # type: ignore[attr-defined]
