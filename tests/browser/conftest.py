"""A real Streamlit server and Debian's chromium, driven by Playwright (never `playwright install`).

Chromium missing: in CI (or with TOOLHIST_REQUIRE_BROWSER set) the tests fail, elsewhere they skip
with the reason, since `./dev test` installs chromium only when run as root.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from bench_modules import benchmark_module
from playwright.sync_api import Browser, Page, expect, sync_playwright

ROOT = Path(__file__).parent.parent.parent

# Playwright's expect waits 5 s unless told: the suite runs these beside CPU-bound tests on every core,
# where the frontend's lazily loaded components (a metric, a grid) came after 5 s (CI, stop 43). A
# functional wait, not a performance bound: what should show still has to show.
expect.set_options(timeout=30_000)


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        reason = "Debian's chromium is not installed (apt-get install -y chromium)"
        if os.environ.get("CI") or os.environ.get("TOOLHIST_REQUIRE_BROWSER"):
            pytest.fail(reason)
        pytest.skip(reason)
    return path


Serving = Callable[..., AbstractContextManager[str]]
"""`serving`'s type: ``serving(env=None)``, a context manager giving the server's URL."""


@contextmanager
def _serving(env: dict[str, str] | None = None) -> Iterator[str]:
    """A real Streamlit server (`benchmarks/serve.py`) with ``env`` added to its environment, stopped
    on leaving; one that does not come up fails the test (never a skip)."""
    serve = benchmark_module("serve")
    try:
        proc, url = serve.start_server(env=env)
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        yield url
    finally:
        serve.stop_server(proc)


@pytest.fixture(scope="session")
def serving() -> Serving:
    """The browser files' servers, one way: ``with serving({"TOOLHIST_HOME": ...}) as url`` in a fixture."""
    return _serving


@pytest.fixture(scope="session")
def app_url(serving: Serving) -> Iterator[str]:
    with serving() as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    executable = chromium_path()
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=executable, args=benchmark_module("serve").CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A page that may only talk to the local server; any other request is blocked and recorded."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    outside: list[str] = []

    def guard(route, request) -> None:  # type: ignore[no-untyped-def]
        host = request.url.split("/")[2] if "://" in request.url else ""
        if request.url.startswith(("data:", "blob:")) or host.split(":")[0] in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            outside.append(request.url)
            route.abort()

    pg.route("**/*", guard)
    pg.outside_requests = outside  # type: ignore[attr-defined]
    yield pg
    context.close()
