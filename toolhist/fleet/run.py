"""Run `scan_file` over many files: in this process, on a local Dask cluster, or on a remote one.

Dask's ``distributed`` scheduler does the distribution (placement, work stealing, a lost worker's
tasks recomputed elsewhere); this module only feeds it. Files are submitted through a bounded
window (`WINDOW_PER_THREAD` tasks per worker thread in flight), so the client and scheduler hold a
few thousand futures, never one per file of a ten-million-file fleet, and each result is handed to
``sink`` and released as soon as it arrives. A task that fails anyway (its worker died more often
than ``distributed.scheduler.allowed-failures`` allows, an unexpected error) becomes an unreadable
row with the reason, never a failed scan.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from toolhist.errors import UsageError
from toolhist.fleet.inputs import StorageOptions
from toolhist.fleet.task import FileResult, scan_file

Sink = Callable[[FileResult], None]
WINDOW_PER_THREAD = 8
RETRIES = 2
"""Extra attempts for a task that raised (a transient read error); a killed worker's tasks are
rescheduled by the scheduler itself, without using these."""


@contextmanager
def client_for(scheduler: str | None, jobs: int) -> Iterator[Any]:
    """A ``distributed.Client``: to ``scheduler`` (``tcp://host:port``) or a fresh LocalCluster of ``jobs``.

    The LocalCluster has one single-threaded worker process per job (the readers and validators are
    pure Python: threads would share one GIL). Everything it serves (workers, the scheduler's HTTP
    routes: health, and the dashboard when bokeh is installed) listens on 127.0.0.1 only, on free
    ports (a fixed 8787 would collide with any other cluster on the machine).
    """
    from distributed import Client, LocalCluster

    with _worker_loss_in_one_line(), _client(scheduler, jobs, Client, LocalCluster) as client:
        yield client


@contextmanager
def _client(scheduler: str | None, jobs: int, Client: Any, LocalCluster: Any) -> Iterator[Any]:
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise UsageError(f"--scheduler {scheduler}: cannot connect ({exc})") from None
        with client:
            yield client
        return
    with (
        LocalCluster(
            n_workers=jobs,
            threads_per_worker=1,
            processes=True,
            dashboard_address="127.0.0.1:0",
            host="127.0.0.1",
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


_LOST = re.compile(r"Removing worker '?([^' ]+)'? caused the cluster to lose")
_ECHOES = ("Couldn't gather", "rescheduling", "Restarting worker", "Worker process", "was killed by signal")
"""What Dask says about a lost worker besides the removal: its tasks' re-runs, the nanny's restart."""


class _OneLine(logging.Filter):
    """Dask's several records about a lost worker, said as one line (its tasks run again elsewhere)."""

    def __init__(self) -> None:
        super().__init__()
        self.said: set[str] = set()  # the filter sits on every handler: each loss is said once

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        lost = _LOST.search(text)
        if lost:
            worker = lost.group(1)
            if worker not in self.said:
                self.said.add(worker)
                sys.stderr.write(f"toolhist: scan: lost worker {worker}; its files are read elsewhere\n")
            return False
        return not any(echo in text for echo in _ECHOES)


@contextmanager
def _worker_loss_in_one_line() -> Iterator[None]:
    """Put `_OneLine` on the handlers of Dask's ``distributed`` logger for the scan."""
    handlers = logging.getLogger("distributed").handlers or logging.getLogger().handlers
    one = _OneLine()
    for handler in handlers:
        handler.addFilter(one)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(one)


def run_local(
    files: Iterable[str], providers: Sequence[str], options: StorageOptions | None, sink: Sink
) -> None:
    """Every file in this process, in order (``--jobs 1``: no cluster to start for a small folder).

    An unexpected error on one file is that file's row (as a task that failed for good is on a
    cluster), so the two paths give the same table.
    """
    for url in files:
        try:
            result = scan_file(url, providers, options)
        except Exception as exc:
            result = FileResult(url, error=f"{url}: not scanned ({type(exc).__name__}: {exc})")
        sink(result)


def scan_files(
    urls: Sequence[str], providers: Sequence[str], options: StorageOptions | None
) -> list[FileResult]:
    """`scan_file` over a few files: one Dask task for ``--files-per-task`` > 1."""
    return [scan_file(url, providers, options) for url in urls]


def _batches(files: Iterable[str], size: int) -> Iterator[list[str]]:
    batch: list[str] = []
    for url in files:
        batch.append(url)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def run_on(
    client: Any,
    files: Sequence[str],
    providers: Sequence[str],
    options: StorageOptions | None,
    sink: Sink,
    *,
    files_per_task: int = 1,
) -> None:
    """Every file (or every ``files_per_task`` files) as one Dask task on ``client``'s cluster.

    Results reach ``sink`` as tasks finish. One file per task is the default: a file is the unit
    that is retried and reported. ``files_per_task`` > 1 spreads the scheduler's fixed cost per task
    (``benchmarks/bench_fleet.py`` measures it) over many small files, for fleets of millions.
    """
    from distributed import as_completed

    threads = sum(client.nthreads().values()) or 1
    window = max(16, WINDOW_PER_THREAD * threads)
    pending = _batches(files, files_per_task)
    chosen = list(providers)
    queue = as_completed()
    batches: dict[str, list[str]] = {}

    def submit(batch: list[str]) -> None:
        key = f"toolhist-scan-{batch[0]}" + (f"+{len(batch) - 1}" if len(batch) > 1 else "")
        batches[key] = batch
        if len(batch) == 1:
            queue.add(client.submit(scan_file, batch[0], chosen, options, key=key, retries=RETRIES))
        else:
            queue.add(client.submit(scan_files, batch, chosen, options, key=key, retries=RETRIES))

    for batch in pending:
        submit(batch)
        if queue.count() >= window:
            break
    for future in queue:
        batch = batches.pop(future.key)
        try:
            got = future.result()
            results = got if isinstance(got, list) else [got]
        except Exception as exc:  # a task that failed for good: rows with the reason, not a failed scan
            why = f"not scanned ({type(exc).__name__}: {exc})"
            results = [FileResult(url, error=f"{url}: {why}") for url in batch]
        future.release()
        for result in results:
            sink(result)
        nxt = next(pending, None)
        if nxt is not None:
            submit(nxt)


class Rate:
    """Files done, sessions per second and unreadable files so far, for the progress display."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.files = 0
        self.sessions = 0
        self.errors = 0

    def add(self, result: FileResult) -> None:
        """Count one file's result."""
        self.files += 1
        self.sessions += result.error is None
        self.errors += result.error is not None

    def line(self) -> str:
        """``45.2 sessions/s, 3 unreadable`` since the scan started."""
        elapsed = max(time.monotonic() - self.start, 1e-9)
        return f"{self.sessions / elapsed:.1f} sessions/s, {self.errors} unreadable"
