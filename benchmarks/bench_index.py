"""The session index at 3,000 sessions: ``toolhist sessions`` cold and warm, beside the landed main's.

The home is `bench_sessions.make_home` (the bundled agent samples grown to 10 kB to 2 MB, log-uniform,
each where its agent writes it: Claude Code, Codex, Gemini CLI, VS Code, Cline, Roo, Kilo, llxprt),
written to a temporary folder. Every figure is the median wall time of N runs of the real command
in a fresh interpreter (``toolhist.cli.main``, as the console script runs it, output to a pipe), so
start-up and imports are included, as a user waits for them:

- ``main``: the landed main's ``toolhist sessions`` (``PYTHONPATH=--baseline``, default
  /work/baseline): every file's head read and parsed each time;
- ``--no-index``: this checkout without the index (main's work, with the agents main has gained
  since the baseline);
- ``cold``: this checkout with no index (deleted before each run): every head read, then written
  to the index;
- ``warm``: this checkout again, the index current: the folders walked and every file stat'ed, no
  head read;
- ``search, first``: ``--search`` once with no session read whole yet (each read into the index:
  what the first search on a machine costs), then ``search, warm``: the median of later searches.

The files were just written, so they are in the page cache (a first listing after a reboot also
waits for the disk, both for main and for the index). Run:
``.venv/bin/python benchmarks/bench_index.py [--runs 5] [--sessions 3000] [--no-search]``.
Figures only; no test asserts on time.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_sessions import make_home

HERE = Path(__file__).resolve().parents[1]
CLI = "import sys; from toolhist.cli import main; sys.exit(main(sys.argv[1:]))"
"""``toolhist`` as its console script runs it, from the checkout on ``PYTHONPATH``."""


def _run(root: Path, home: Path, cache: Path, *extra: str) -> tuple[float, str]:
    """One ``toolhist sessions`` of the checkout at ``root``: its wall time and its last output line."""
    env = {**os.environ, "PYTHONPATH": str(root), "XDG_CACHE_HOME": str(cache)}
    env.pop("TOOLHIST_INDEX", None)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CLI, "sessions", "--home", str(home), *extra],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    spent = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{root}: exit {done.returncode}: {done.stderr.strip()}")
    lines = done.stdout.splitlines()
    return spent, lines[-1] if lines else ""


def _median(times: list[float]) -> str:
    return f"median {statistics.median(times):6.3f} s of {len(times)} runs"


def _forget(cache: Path) -> None:
    for part in (cache / "toolhist").glob("index.sqlite*"):
        part.unlink()


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sessions", type=int, default=3000)
    parser.add_argument("--baseline", type=Path, default=Path("/work/baseline"))
    parser.add_argument("--no-search", action="store_true", help="Skip the search figures.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home, cache = Path(tmp) / "home", Path(tmp) / "cache"
        written = make_home(home, args.sessions)
        print(
            f"{args.sessions} sessions requested, {written / 1e6:.0f} MB written; load {os.getloadavg()}",
            flush=True,
        )
        main_times = [_run(args.baseline, home, Path(tmp) / "main-cache") for _ in range(args.runs)]
        print(
            f"main   {args.baseline}:  {_median([t for t, _ in main_times])}   ({main_times[-1][1]})",
            flush=True,
        )
        plain = [_run(HERE, home, cache, "--no-index") for _ in range(args.runs)]
        print(f"this checkout, --no-index: {_median([t for t, _ in plain])}   ({plain[-1][1]})", flush=True)
        cold = []
        for _ in range(args.runs):
            _forget(cache)
            cold.append(_run(HERE, home, cache))
        print(f"cold   (no index yet):    {_median([t for t, _ in cold])}   ({cold[-1][1]})", flush=True)
        warm = [_run(HERE, home, cache) for _ in range(args.runs)]
        print(f"warm   (index current):   {_median([t for t, _ in warm])}   ({warm[-1][1]})", flush=True)
        index = cache / "toolhist" / "index.sqlite"
        print(f"index after the listing: {index.stat().st_size / 1e6:.1f} MB", flush=True)
        if args.no_search:
            return
        first, tail = _run(HERE, home, cache, "--search", "total")
        print(
            f"search, first:            {first:6.1f} s once (every session read whole)   ({tail})", flush=True
        )
        later = []
        searches = [
            ("--search", "invoice"),
            ("--search", "Decimal"),
            ("--search", "pytest"),
            ("--tool", "read_file"),
            ("--call-id", "toolu_01Edit1qA3sD5fG7hJ9kL1zX"),
        ]
        for key, value in searches:
            spent, tail = _run(HERE, home, cache, key, value)
            later.append(spent)
            print(f"  {key} {value}: {spent:6.3f} s   ({tail})", flush=True)
        print(f"search, warm:             {_median(later)}", flush=True)
        print(
            f"index after the search: {index.stat().st_size / 1e6:.1f} MB, "
            f"{index.stat().st_size / written:.1%} of the sessions' bytes; load {os.getloadavg()}",
            flush=True,
        )
        _tables(index)


def _tables(index: Path) -> None:
    """What takes the room: each table's and index's bytes (SQLite's ``dbstat``)."""
    with sqlite3.connect(f"file:{index}?mode=ro", uri=True) as conn:
        for name, size in conn.execute(
            "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 8"
        ):
            print(f"  {name:<24} {size / 1e6:7.1f} MB", flush=True)


if __name__ == "__main__":
    main()
