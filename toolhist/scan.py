"""Batch scan: every session file under a directory (or a glob, or an fsspec URL), against each provider.

Each file is judged as ``toolhist check`` judges it (`toolhist.judgement`): a request body as sent,
an agent log as the request the agent would send next.

One table row per readable file x provider (error and warning counts, the error rule ids), the files
that could not be read with their LoadError reason, and how often each rule fired. A file that
fails to load is listed, never fatal and never silently dropped: a directory of agent logs always
has a few oddities, and the user needs to see which.

The work runs on Dask beyond ``jobs=1`` (`toolhist.fleet.run`); the parts of a fleet scan (inputs,
the per-file task, the Parquet dataset, the summary) live in `toolhist.fleet`.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from toolhist.errors import UsageError
from toolhist.fleet.dataset import DatasetWriter
from toolhist.fleet.inputs import StorageOptions, expand
from toolhist.fleet.run import client_for, run_local, run_on
from toolhist.fleet.task import SESSION_COLUMNS, VIOLATION_COLUMNS, FileResult
from toolhist.providers import PROVIDERS, provider_for

COLUMNS = ("file", "format", "provider", "errors", "warnings", "error_rules")
"""Columns of `ScanResult.frame`, in order (also the CSV header ``toolhist scan`` writes)."""

Progress = Callable[[int, int], None]
"""``progress(files_done, files_total)``, called after each file."""


@dataclass(frozen=True)
class Unreadable:
    """A file the scan could not read as a session, and why (the LoadError text)."""

    file: str
    reason: str


@dataclass(frozen=True)
class ScanResult:
    """What `scan` found: the table, the unreadable files, and rule frequencies."""

    frame: pd.DataFrame
    """One row per readable file x provider; columns `COLUMNS`; ``error_rules`` is ``;``-joined, sorted."""
    unreadable: list[Unreadable] = field(default_factory=list)
    rules: Counter[str] = field(default_factory=Counter)
    """Violations per rule id over every file and provider (errors and warnings)."""
    sessions: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=list(SESSION_COLUMNS)))
    """`frame` with more columns (`toolhist.fleet.task.SESSION_COLUMNS`: agent, messages, rules, date)."""
    violations: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=list(VIOLATION_COLUMNS)))
    """One row per violation (`toolhist.fleet.task.VIOLATION_COLUMNS`)."""


def session_files(directory: str | os.PathLike[str]) -> list[Path]:
    """Every regular file under ``directory`` (recursively, sorted), skipping hidden files and folders.

    Hidden entries (``.git``, editor swap files) are never sessions; everything else is tried, so a
    log with an unusual extension is still read (the format is sniffed from content, not the name).
    """
    root = Path(directory)
    if not root.is_dir():
        raise UsageError(f"{directory}: not a directory")
    return [Path(p) for p in expand([str(root)])]


def scan(
    source: str | os.PathLike[str] | Sequence[str],
    providers: Sequence[str] | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    *,
    scheduler: str | None = None,
    storage_options: StorageOptions | None = None,
    dataset: str | os.PathLike[str] | None = None,
    keep_rows: bool = True,
    on_result: Callable[[FileResult], None] | None = None,
    files_per_task: int = 1,
) -> ScanResult:
    """Validate every session file ``source`` names against ``providers`` (default: all).

    ``source``: a folder, a glob, an fsspec URL (``s3://bucket/prefix``), or a list of them.
    ``jobs == 1`` without ``scheduler`` reads the files in this process; ``jobs > 1`` starts a Dask
    LocalCluster of that many worker processes; ``scheduler`` (``tcp://host:port``) runs every file
    as a task on that Dask cluster. Results are ordered by file whatever order the tasks finish in,
    so the table is the same for any ``jobs`` and any cluster. ``dataset`` also writes the
    partitioned Parquet dataset (`toolhist.fleet.dataset`); ``keep_rows=False`` keeps only the
    counts in memory (``frame`` empty), for fleets too large to hold. ``files_per_task`` groups
    files into one Dask task (`toolhist.fleet.run.run_on`).
    """
    chosen = list(providers) if providers else list(PROVIDERS)
    for name in chosen:
        provider_for(name)  # an unknown provider is a usage error before any work starts
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    if files_per_task < 1:
        raise UsageError(f"--files-per-task must be at least 1, got {files_per_task}")
    inputs = [os.fspath(source)] if isinstance(source, str | os.PathLike) else [str(s) for s in source]
    files = expand(inputs, storage_options)
    writer = DatasetWriter(dataset) if dataset is not None else None
    total = len(files)
    kept: list[FileResult] = []
    rules: Counter[str] = Counter()
    unreadable: list[Unreadable] = []
    done = 0

    def sink(result: FileResult) -> None:
        nonlocal done
        done += 1
        if writer is not None:
            writer.add(result)
        if result.error is not None:
            unreadable.append(Unreadable(result.file, result.error))
        rules.update(str(v["rule"]) for v in result.violations)
        if keep_rows:
            kept.append(result)
        if on_result is not None:
            on_result(result)
        if progress is not None:
            progress(done, total)

    try:
        if scheduler is None and (jobs == 1 or total <= 1):
            run_local(files, chosen, storage_options, sink)
        else:
            with client_for(scheduler, jobs) as client:
                run_on(client, files, chosen, storage_options, sink, files_per_task=files_per_task)
        if writer is not None:
            writer.close()
    except BaseException:  # failed or interrupted: no partial dataset is left (`toolhist.atomic`)
        if writer is not None:
            writer.discard()
        raise
    return _collect(kept, unreadable, rules)


def _collect(results: Iterable[FileResult], unreadable: list[Unreadable], rules: Counter[str]) -> ScanResult:
    ordered = sorted(results, key=lambda r: r.file)
    sessions = pd.DataFrame([row for r in ordered for row in r.sessions], columns=list(SESSION_COLUMNS))
    sessions = sessions.astype({"errors": "int64", "warnings": "int64", "messages": "int64"})
    violations = pd.DataFrame([row for r in ordered for row in r.violations], columns=list(VIOLATION_COLUMNS))
    frame = sessions[list(COLUMNS)].reset_index(drop=True)
    return ScanResult(
        frame=frame,
        unreadable=sorted(unreadable, key=lambda u: u.file),
        rules=Counter(dict(sorted(rules.items()))),  # by name: most_common's ties not in task order
        sessions=sessions,
        violations=violations,
    )
