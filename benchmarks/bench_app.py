"""The inspector on a 100,000-message session in Chromium: seconds until each page shows, and server memory.

What it does, per run: starts the real Streamlit server (``benchmarks/serve.py``), writes the
generated 100,000-message session (``benchmarks/generate.py``, an agent's OpenAI Chat body of about
37 MB) to a temporary directory, opens the home page in Debian's chromium (Playwright, never
``playwright install``), uploads the file through the page's uploader, then opens Timeline,
Violations, Curation and Payloads from the sidebar, as a user would. For each step it prints:

- ``seconds``: wall time from the action (the upload, the click on the page link) until the page's
  content is shown and the script run is over: home shows the message count; Timeline has drawn
  its chart and the inspected message; Violations names the violation count; Curation shows its
  metrics and change log (the provider the page picks first, the ``toolhist`` strategy); Payloads
  shows each body's verdict and marked lines;
- ``VmRSS`` and ``VmHWM`` of the server process (``/proc/PID/status``) once the page is shown: the
  memory it holds now, and the most it has held so far.

With ``--runs N`` (a new server each run) it prints the median of each figure. Figures only: no
test asserts on them. What holds the memory is the server's caches (``toolhist/views/state.py``):
the parsed session (document and model), each provider's verdict, the Timeline's event frame,
curations, diffs, payloads and their marked lines, each per content key.

Run: ``.venv/bin/python benchmarks/bench_app.py [--runs 1] [--messages 100000]``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from generate import write
from playwright.sync_api import Page, sync_playwright
from serve import CHROMIUM_ARGS, start_server, stop_server

WAIT = 900_000  # ms: long enough for any page on a slow machine; the figure is what matters
STEPS = ("home", "Timeline", "Violations", "Curation", "Payloads")


def memory(pid: int) -> tuple[int, int]:
    """``VmRSS`` and ``VmHWM`` of process ``pid``, in MB."""
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0]) // 1024  # kB -> MB
    return fields["VmRSS"], fields["VmHWM"]


def settled(page: Page) -> None:
    """The script run is over (Streamlit marks the app ``notRunning``)."""
    page.wait_for_function(
        "() => document.querySelector('[data-test-script-state]')"
        "?.getAttribute('data-test-script-state') === 'notRunning'",
        timeout=WAIT,
        polling=100,
    )


def shown(page: Page, step: str, messages: int) -> None:
    """Wait until ``step``'s content is on screen and its script run is over."""
    texts = "Array.from(document.querySelectorAll('[data-testid=\"stText\"]')).map(e => e.textContent)"
    metric = (
        "Array.from(document.querySelectorAll('[data-testid=\"stMetric\"]'))"
        ".some(m => m.textContent.startsWith(LABEL) && m.textContent.endsWith(VALUE))"
    )
    checks = {
        "home": metric.replace("LABEL", "'Messages'").replace("VALUE", f"'{messages}'")
        + " && !document.querySelector('[data-testid=\"stProgress\"]')",
        "Timeline": "document.querySelector('.js-plotly-plot')?._fullData?.length > 0"
        f" && {texts}.some(t => t.startsWith('Message '))",
        "Violations": "Array.from(document.querySelectorAll('h2, h3'))"
        ".some(h => /^[0-9,]+ violations?$/.test(h.textContent))",
        "Curation": f"{texts}.some(t => t.startsWith('Changes per pass: '))"
        " || Array.from(document.querySelectorAll('[data-testid=\"stAlert\"]'))"
        ".some(a => a.textContent.includes('changed nothing'))",
        "Payloads": f"{texts}.filter(t => /^(rejects|accepts)/.test(t)).length >= 2",
    }
    page.wait_for_function(f"() => {checks[step]}", timeout=WAIT, polling=100)
    settled(page)


def timed(action: Callable[[], None], page: Page, step: str, messages: int) -> float:
    """Seconds from ``action`` until ``step``'s content is shown."""
    start = time.perf_counter()
    action()
    shown(page, step, messages)
    return time.perf_counter() - start


def run_once(chromium: str, session: Path, messages: int) -> dict[str, tuple[float, int, int]]:
    """One server, one browser session: each step's seconds, VmRSS and VmHWM (MB)."""
    proc, url = start_server()
    figures: dict[str, tuple[float, int, int]] = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url)
            page.get_by_text("Session: ", exact=False).first.wait_for(timeout=WAIT)
            settled(page)
            page.get_by_role("radio", name="Upload").click()
            settled(page)

            def upload() -> None:
                page.locator("input[type=file]").set_input_files(session)
                page.get_by_text(f"Session: {session.name}", exact=True).wait_for(timeout=WAIT)

            figures["home"] = (timed(upload, page, "home", messages), *memory(proc.pid))
            for step in STEPS[1:]:

                def visit(name: str = step) -> None:
                    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=name).click()
                    page.get_by_role("heading", name=name, exact=True).wait_for(timeout=WAIT)

                figures[step] = (timed(visit, page, step, messages), *memory(proc.pid))
            browser.close()
    finally:
        stop_server(proc)
    return figures


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--messages", type=int, default=100_000)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("Debian's chromium is not installed (apt-get install -y chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        session = write(args.messages, Path(tmp) / "agent-session.json")
        size = session.stat().st_size / 1e6
        runs = []
        for n in range(args.runs):
            try:
                runs.append(run_once(chromium, session, args.messages))
            except RuntimeError as exc:
                raise SystemExit(str(exc)) from None
            print(f"run {n + 1} of {args.runs} done", flush=True)
    label = "median of " + str(args.runs) + " runs" if args.runs > 1 else "1 run"
    print(f"{args.messages:,} messages ({size:.1f} MB), {label}; memory of the Streamlit server process")
    print(f"{'page':<11} {'seconds':>8} {'VmRSS MB':>9} {'VmHWM MB':>9}")
    for step in STEPS:
        seconds = statistics.median(r[step][0] for r in runs)
        rss = statistics.median(r[step][1] for r in runs)
        hwm = statistics.median(r[step][2] for r in runs)
        print(f"{step:<11} {seconds:8.1f} {rss:9.0f} {hwm:9.0f}")


if __name__ == "__main__":
    main()
