"""Batch scan: every session file under a directory, validated against each provider.

Each file is judged as ``toolhist check`` judges it (`toolhist.judgement`): a request body as sent,
an agent log as the request the agent would send next.

One table row per readable file x provider (error and warning counts, the error rule ids), the files
that could not be read with their LoadError reason, and how often each rule fired. A file that
fails to load is listed, never fatal and never silently dropped: a directory of agent logs always
has a few oddities, and the user needs to see which.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from toolhist.check import judged_verdict
from toolhist.errors import ToolhistError, UsageError
from toolhist.formats import load
from toolhist.judgement import judge
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


@dataclass(frozen=True)
class _FileResult:
    file: str
    rows: list[dict[str, object]]
    rules: list[str]
    error: str | None


def session_files(directory: str | os.PathLike[str]) -> list[Path]:
    """Every regular file under ``directory`` (recursively, sorted), skipping hidden files and folders.

    Hidden entries (``.git``, editor swap files) are never sessions; everything else is tried, so a
    log with an unusual extension is still read (the format is sniffed from content, not the name).
    """
    root = Path(directory)
    if not root.is_dir():
        raise UsageError(f"{directory}: not a directory")
    found = []
    for path in root.rglob("*"):
        parts = path.relative_to(root).parts
        if path.is_file() and not any(part.startswith(".") for part in parts):
            found.append(path)
    return sorted(found)


def _scan_one(path: str, providers: Sequence[str]) -> _FileResult:
    """Load and validate one file (module-level so a process pool can run it)."""
    try:
        session = load(path)
        judged = judge(session)
        rows: list[dict[str, object]] = []
        rules: list[str] = []
        for provider in providers:
            found = judged_verdict(judged, provider)
            errors = [v.rule for v in found if v.severity == "error"]
            rules.extend(v.rule for v in found)
            rows.append(
                {
                    "file": path,
                    "format": session.source.format,
                    "provider": provider,
                    "errors": len(errors),
                    "warnings": len(found) - len(errors),
                    "error_rules": ";".join(sorted(set(errors))),
                }
            )
    except ToolhistError as exc:
        return _FileResult(path, [], [], str(exc))
    return _FileResult(path, rows, rules, None)


def scan(
    directory: str | os.PathLike[str],
    providers: Sequence[str] | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
) -> ScanResult:
    """Validate every session file under ``directory`` against ``providers`` (default: all).

    ``jobs > 1`` loads and validates files in that many worker processes; results are ordered by
    file name whatever order the workers finish in, so the table is the same for any ``jobs``.
    """
    chosen = list(providers) if providers else list(PROVIDERS)
    for name in chosen:
        provider_for(name)  # an unknown provider is a usage error before any work starts
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    files = [str(p) for p in session_files(directory)]
    total = len(files)
    results: list[_FileResult] = []

    def done(result: _FileResult) -> None:
        results.append(result)
        if progress is not None:
            progress(len(results), total)

    if jobs == 1 or total <= 1:
        for path in files:
            done(_scan_one(path, chosen))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for result in pool.map(_scan_one, files, [chosen] * total):
                done(result)
    return _collect(results)


def _collect(results: Iterable[_FileResult]) -> ScanResult:
    ordered = sorted(results, key=lambda r: r.file)
    rows = [row for r in ordered for row in r.rows]
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    frame = frame.astype({"errors": "int64", "warnings": "int64"})
    unreadable = [Unreadable(r.file, r.error) for r in ordered if r.error is not None]
    rules: Counter[str] = Counter(rule for r in ordered for rule in r.rules)
    return ScanResult(frame=frame, unreadable=unreadable, rules=rules)
