"""The inspector in Chromium: seconds until each page shows, and server memory, beside another tree's.

What it does, per run: starts the real Streamlit server (``benchmarks/serve.py``), writes the
generated session (``benchmarks/generate.py``, an agent's OpenAI Chat body: 10,000 messages are
3.7 MB, 100,000 are 37 MB) to a temporary directory, opens the home page in Debian's chromium
(Playwright, never ``playwright install``), uploads the file through the page's uploader, then opens
every page from the sidebar as a user would, and the home page once more. For each step it prints:

- ``seconds``: wall time from the action (the upload, the click on the page link) until the page's
  content is shown and the script run is over: home shows the message count (``home read``) and
  then every provider's verdict (``home``); Timeline has drawn its chart (the SVG picture with a mark,
  or on an older tree the Plotly figure with its traces) and the inspected message;
  Violations names the violation count; Curation shows its metrics and change log; Payloads shows
  each body's verdict; Explain (an empty box) asks for the error text; Compaction shows its token
  counts; Fleet (which shows nothing of the session) its heading; Switch (its defaults: the switch
at the middle, the return at the end, strategies none and toolhist on a long session) each leg's
verdict, once its run is over; ``home again`` is the home page
  reopened with nothing changed (every figure cached);
- ``VmRSS`` and ``VmHWM`` of the server process (``/proc/PID/status``) once the page is shown: the
  memory it holds now, and the most it has held so far.

``--tree DIR`` (repeatable) names the checkouts to serve, this one by default: ``--tree . --tree
/work/main`` measures this tree beside the landed main in the same run, alternating run by run, so
both see the same machine load. With ``--runs N`` it prints
the median of each figure. Figures only: no test asserts on them. Quote ``uptime`` beside them.

Run: ``.venv/bin/python benchmarks/bench_app.py [--runs 1] [--messages 10000] [--tree . --tree /work/main]``.
"""

from __future__ import annotations

import argparse
import math
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from generate import write
from playwright.sync_api import Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from serve import CHROMIUM_ARGS, ROOT, start_server, stop_server

WAIT = 300_000  # ms: a step not shown by then is printed as "timeout" and the next one is measured
PAGES = ("Timeline", "Violations", "Curation", "Payloads", "Explain a 400", "Compaction", "Fleet", "Switch")
STEPS = ("home read", "home", *PAGES, "home again")
TITLES = {"Switch": "Switch what-if"}
"""A page's heading where it is not the sidebar link's name."""


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


VALUE_TEST = " && m.textContent.endsWith(VALUE)"


def shown(page: Page, step: str, messages: int) -> None:
    """Wait until ``step``'s content is on screen and its script run is over."""
    texts = "Array.from(document.querySelectorAll('[data-testid=\"stText\"]')).map(e => e.textContent)"
    metric = (
        "Array.from(document.querySelectorAll('[data-testid=\"stMetric\"]'))"
        ".some(m => m.textContent.startsWith(LABEL) && m.textContent.endsWith(VALUE))"
    )
    heads = "Array.from(document.querySelectorAll('h1, h2, h3')).map(h => h.textContent)"
    count = metric.replace("LABEL", "'Messages'").replace("VALUE", f"'{messages:,}'")
    count += " || " + metric.replace("LABEL", "'Messages'").replace("VALUE", f"'{messages}'")
    checks = {
        "home read": f"({count})",
        "home": f"({count}) && {heads}.some(h => h.startsWith('Would a provider accept'))"
        " && document.querySelectorAll('[data-testid=\"stDataFrame\"]').length > 0"
        " && !document.querySelector('[data-testid=\"stProgress\"]')",
        # the chart: the server's picture (the default since the Timeline draws no Plotly unless asked),
        # or a tree whose Timeline opens on the Plotly figure
        "Timeline": "(+document.querySelector('svg.th-timeline')?.dataset.events > 0"
        " || document.querySelector('.js-plotly-plot')?._fullData?.length > 0)"
        f" && {texts}.some(t => t.startsWith('Message '))",
        "Violations": "Array.from(document.querySelectorAll('h2, h3'))"
        ".some(h => /^[0-9,]+ violations?$/.test(h.textContent))",
        "Curation": f"{texts}.some(t => t.startsWith('Changes per pass: '))"
        " || Array.from(document.querySelectorAll('[data-testid=\"stAlert\"]'))"
        ".some(a => a.textContent.includes('changed nothing'))",
        "Payloads": f"{texts}.filter(t => /(rejects|accepts)/.test(t)).length >= 2",
        "Explain a 400": "document.querySelectorAll('[data-testid=\"stAlert\"], textarea').length > 0",
        "Compaction": metric.replace("LABEL", "'Tokens before'").replace(VALUE_TEST, ""),
        "Fleet": "true",
        "Switch": f"{texts}.some(t => t.startsWith('Accepted by: '))",
    }
    checks["home again"] = checks["home"]
    page.wait_for_function(f"() => {checks[step]}", timeout=WAIT, polling=100)
    if step != "home read":  # the read is shown while the verdicts are still being computed
        settled(page)


def timed(action: Callable[[], None], page: Page, step: str, messages: int) -> float:
    """Seconds from ``action`` until ``step``'s content is shown (NaN when it was not, within WAIT)."""
    start = time.perf_counter()
    try:
        action()
        shown(page, step, messages)
    except PlaywrightTimeout:
        print(f"  {step}: not shown within {WAIT // 1000} s", file=sys.stderr, flush=True)
        return math.nan
    seconds = time.perf_counter() - start
    print(f"  {step}: {seconds:.1f} s", file=sys.stderr, flush=True)
    return seconds


def run_once(chromium: str, session: Path, messages: int, root: Path) -> dict[str, tuple[float, int, int]]:
    """One server of the tree ``root``, one browser session: each step's seconds, VmRSS and VmHWM (MB)."""
    proc, url = start_server(root=root)
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

            read = timed(
                lambda: page.locator("input[type=file]").set_input_files(session), page, "home read", messages
            )
            figures["home read"] = (read, *memory(proc.pid))
            figures["home"] = (read + timed(lambda: None, page, "home", messages), *memory(proc.pid))
            for step in (*PAGES, "home again"):
                name, title = ("Home", "toolhist") if step == "home again" else (step, TITLES.get(step, step))

                def visit(name: str = name, title: str = title) -> None:
                    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=name).click()
                    page.get_by_role("heading", name=title, exact=True).wait_for(timeout=WAIT)

                figures[step] = (timed(visit, page, step, messages), *memory(proc.pid))
            browser.close()
    finally:
        stop_server(proc)
    return figures


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument(
        "--tree",
        type=Path,
        action="append",
        help="a checkout to serve (repeat to measure several in the same run; default: this one)",
    )
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("Debian's chromium is not installed (apt-get install -y chromium)")
    trees = {str(t): t.resolve() for t in args.tree or [ROOT]}
    with tempfile.TemporaryDirectory() as tmp:
        session = write(args.messages, Path(tmp) / "agent-session.json")
        size = session.stat().st_size / 1e6
        runs: dict[str, list[dict[str, tuple[float, int, int]]]] = {name: [] for name in trees}
        for n in range(args.runs):
            for name, root in trees.items():
                try:
                    runs[name].append(run_once(chromium, session, args.messages, root))
                except RuntimeError as exc:
                    raise SystemExit(str(exc)) from None
                print(f"run {n + 1} of {args.runs} done ({name})", flush=True)
    label = f"median of {args.runs} runs" if args.runs > 1 else "1 run"
    print(f"{args.messages:,} messages ({size:.1f} MB), {label}; memory of the Streamlit server process")
    names = list(trees)
    print(f"{'page':<14}" + "".join(f" {n[-24:]:>26}" for n in names))
    print(f"{'':<14}" + " ".join(f"{'s':>8} {'RSS MB':>8} {'HWM MB':>8}" for _ in names))
    for step in STEPS:
        cells = []
        for name in names:
            seconds = statistics.median(r[step][0] for r in runs[name])
            rss = statistics.median(r[step][1] for r in runs[name])
            hwm = statistics.median(r[step][2] for r in runs[name])
            cells.append(f"{seconds:8.1f} {rss:8.0f} {hwm:8.0f}")
        print(f"{step:<14} " + " ".join(cells))


if __name__ == "__main__":
    main()
