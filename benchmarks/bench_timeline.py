"""How long the Timeline page takes to become interactive in Chromium, for 1,000 and 10,000 messages.

Starts ``streamlit run app.py`` on a free localhost port, writes generated OpenAI Chat sessions to a
temporary directory, and opens ``/Timeline?path=…`` in Debian's chromium (Playwright, never
``playwright install``). "Interactive" means the WebGL chart has drawn its traces, the event table
has painted, and the inspected message is shown. (The page charts one window of 2,500 messages at a
time, so the 10,000-message figure is the window holding the first violation, with the full event
table paged beside it.) Printed per size, each the median of N runs:

- ``cold``: a new browser session on a file the server has not read yet (read, check, events, draw);
- ``warm``: a new browser session on the same file (the server's caches hit: draw only);
- ``zoom``: one ``Plotly.relayout`` of the x axis, as a user's zoom (WebGL redraw).

Run: ``.venv/bin/python benchmarks/bench_timeline.py [--runs 3] [--sizes 1000,10000]``.
Figures only; no test asserts on time.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright
from serve import CHROMIUM_ARGS, start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent


def generate(n_messages: int, seed: int) -> dict[str, Any]:
    """An OpenAI Chat body of about ``n_messages``: user turns, parallel calls, results, some broken."""
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."}]
    serial = 0
    while len(messages) < n_messages:
        messages.append({"role": "user", "content": "step: " + "lorem ipsum " * rng.randint(2, 12)})
        for _ in range(rng.randint(1, 3)):
            calls = []
            for _ in range(rng.randint(1, 3)):
                serial += 1
                calls.append(
                    {
                        "id": f"call_{seed}_{serial:06d}",
                        "type": "function",
                        "function": {
                            "name": f"tool_{rng.randint(0, 11)}",
                            "arguments": '{"path": "src/x.py"}',
                        },
                    }
                )
            messages.append({"role": "assistant", "content": None, "tool_calls": calls})
            for c in calls:
                if rng.random() < 0.01:
                    continue  # an unanswered call now and then
                messages.append(
                    {"role": "tool", "tool_call_id": c["id"], "content": "ok " * rng.randint(1, 20)}
                )
        messages.append({"role": "assistant", "content": "Done with this step."})
    return {"model": "gpt-4.1", "messages": messages[:n_messages]}


def interactive(page: Page, url: str) -> float:
    """Seconds from navigation to an interactive Timeline."""
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_function(
        """() => {
            const plot = document.querySelector('.js-plotly-plot');
            return plot && plot._fullData && plot._fullData.length > 0
                && document.querySelector('[data-testid="stDataFrame"] canvas')
                && Array.from(document.querySelectorAll('[data-testid="stText"]'))
                       .some(e => e.textContent.startsWith('Message '));
        }""",
        timeout=600_000,
        polling=50,
    )
    return time.perf_counter() - start


def zoom(page: Page) -> float:
    """Seconds for one x-axis relayout of the WebGL chart (measured inside the page)."""
    seconds: float = page.evaluate(
        """async () => {
            const plot = document.querySelector('.js-plotly-plot');
            const t0 = performance.now();
            await window.Plotly.relayout(plot, {'xaxis.range': [10, 400]});
            return (performance.now() - t0) / 1000;
        }"""
    )
    return seconds


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="1000,10000")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("Debian's chromium is not installed (apt-get install -y chromium)")
    try:
        proc, base = start_server()
    except RuntimeError as exc:
        raise SystemExit(str(exc)) from None
    try:
        with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            print(f"{'messages':>9} {'cold s':>8} {'warm s':>8} {'zoom ms':>8}")
            for size in (int(s) for s in args.sizes.split(",")):
                cold: list[float] = []
                warm: list[float] = []
                zooms: list[float] = []
                for run in range(args.runs):
                    path = Path(tmp) / f"session-{size}-{run}.json"
                    path.write_text(json.dumps(generate(size, seed=run)))
                    for bucket in (cold, warm):
                        context = browser.new_context(viewport={"width": 1400, "height": 1000})
                        page = context.new_page()
                        bucket.append(interactive(page, f"{base}/Timeline?path={path}"))
                        if bucket is warm:
                            has_plotly = page.evaluate("typeof window.Plotly !== 'undefined'")
                            if has_plotly:
                                zooms.append(zoom(page))
                        context.close()
                zoom_ms = f"{statistics.median(zooms) * 1000:8.0f}" if zooms else f"{'n/a':>8}"
                print(f"{size:>9} {statistics.median(cold):8.2f} {statistics.median(warm):8.2f} {zoom_ms}")
            browser.close()
    finally:
        stop_server(proc)


if __name__ == "__main__":
    main()
