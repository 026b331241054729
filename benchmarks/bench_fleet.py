"""Fleet scan throughput on Dask: sessions/s for 1, 2 and 4 workers, and the scheduler's cost per file.

``python benchmarks/bench_fleet.py [N]`` writes a generated fleet of N sessions (default 10,000;
``fleet_gen.py``), then scans it:

- in this process (``--jobs 1``: no Dask), the baseline;
- on a `distributed.LocalCluster` of 1, 2 and 4 single-threaded worker processes, timed from the
  first submission to the last result (cluster start-up excluded, reported apart);
- the scheduler's overhead per file: the same windowed submission (`toolhist.fleet.run`) of a task
  that does nothing, so the time is Dask's alone (submit, schedule, run, gather, release).

It prints one line per configuration and the extrapolation to 10 million sessions: with a rate
``r`` per worker measured here and overhead ``o`` seconds per file on the scheduler (which is one
process: its cost does not shrink with more workers), N workers take about
``max(10e6 / (N * r), 10e6 * o)`` seconds.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from distributed import Client, LocalCluster, as_completed

sys.path.insert(0, str(Path(__file__).parent))
import this_tree  # noqa: F401  (first: this checkout's toolhist is the one measured)
from fleet_gen import write_fleet

from toolhist.fleet.inputs import expand
from toolhist.fleet.run import WINDOW_PER_THREAD, run_local, run_on
from toolhist.fleet.task import FileResult
from toolhist.providers import PROVIDERS

WORKERS = (1, 2, 4)
BATCH = 32
"""``--files-per-task`` whose overhead is measured beside one file per task."""
TARGET = 10_000_000


def _noop(urls: list[str]) -> list[str]:
    return urls


def overhead(client: Any, files: list[str], per_task: int = 1) -> float:
    """Seconds per file Dask spends on tasks that do nothing, through the same bounded window."""
    window = max(16, WINDOW_PER_THREAD * sum(client.nthreads().values()))
    pending = iter([files[i : i + per_task] for i in range(0, len(files), per_task)])
    queue = as_completed()
    start = time.perf_counter()
    for batch in pending:
        queue.add(client.submit(_noop, batch, key=f"noop-{batch[0]}"))
        if queue.count() >= window:
            break
    for future in queue:
        future.result()
        future.release()
        nxt = next(pending, None)
        if nxt is not None:
            queue.add(client.submit(_noop, nxt, key=f"noop-{nxt[0]}"))
    return (time.perf_counter() - start) / len(files)


def main() -> None:
    """Generate, scan, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="?", default=10_000)
    args = parser.parse_args()
    providers = list(PROVIDERS)
    with tempfile.TemporaryDirectory(prefix="toolhist-fleet-") as tmp:
        write_fleet(args.n, Path(tmp))
        files = expand([tmp])
        done: list[FileResult] = []
        start = time.perf_counter()
        run_local(files, providers, None, done.append)
        sessions = sum(r.error is None for r in done)
        base = sessions / (time.perf_counter() - start)
        print(f"{args.n} files, {sessions} sessions x {len(providers)} providers")
        print(f"in process (--jobs 1): {base:8.1f} sessions/s")
        rates = {}
        for n in WORKERS:
            t0 = time.perf_counter()
            with (
                LocalCluster(
                    n_workers=n,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address="127.0.0.1:0",
                    host="127.0.0.1",
                ) as cluster,
                Client(cluster) as client,
            ):
                up = time.perf_counter() - t0
                got: list[FileResult] = []
                start = time.perf_counter()
                run_on(client, files, providers, None, got.append)
                rates[n] = sum(r.error is None for r in got) / (time.perf_counter() - start)
                cost = overhead(client, files)
                batched = overhead(client, files, BATCH)
            print(
                f"{n} worker{'s' if n > 1 else ' '}:            {rates[n]:8.1f} sessions/s"
                f"  (cluster start {up:.1f} s; scheduler overhead {cost * 1e3:.2f} ms/file, "
                f"{batched * 1e3:.3f} ms/file at {BATCH} files per task)"
            )
        per_worker = rates[1]
        print(
            f"\nextrapolation to {TARGET:,} sessions: about {TARGET / per_worker / 3600:.1f} worker-hours "
            f"at {per_worker:.0f} sessions/s per worker (N workers: that / N, while the scheduler keeps up: "
            f"{cost * 1e3:.2f} ms/file on one scheduler caps a fleet at {1 / cost:,.0f} files/s, "
            f"{TARGET * cost / 60:.0f} min for {TARGET:,} files; at {BATCH} files per task "
            f"{batched * 1e3:.3f} ms/file, {TARGET * batched / 60:.0f} min)"
        )


if __name__ == "__main__":
    main()
