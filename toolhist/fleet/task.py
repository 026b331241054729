"""One file of a fleet scan: load it, validate it against each provider, return plain rows.

Each file is judged as ``toolhist check`` judges it (`toolhist.judgement`): a request body as
sent, an agent log as the request the agent would send next.

The unit of work Dask schedules. It returns plain dicts and lists (cheap to pickle, no pydantic
objects crossing the wire) and never raises for a bad file: a file that cannot be read is a result
with its reason, so one odd file never fails a scan of millions.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from toolhist.check import judged_verdict
from toolhist.errors import ToolhistError
from toolhist.files import why_not_regular
from toolhist.fleet.inputs import StorageOptions, is_url, local_copy
from toolhist.judgement import judge
from toolhist.machine import AGENTS
from toolhist.readers import load

SESSION_COLUMNS = (
    "file",
    "format",
    "agent",
    "provider",
    "messages",
    "errors",
    "warnings",
    "error_rules",
    "rules",
    "started",
    "date",
)
"""One row per session x provider. ``rules``: JSON ``{rule: count}`` (errors and warnings);
``started``: the first message's timestamp (seconds since the epoch), else the file's modification
time; ``date``: ``started`` as ``YYYY-MM-DD`` (UTC), what the trend charts group by."""

VIOLATION_COLUMNS = ("file", "provider", "rule", "severity", "message_index", "block_index", "path")
"""One row per violation, with the canonical message (and block) it points at."""


@dataclass(frozen=True)
class FileResult:
    """What one file gave: its session rows and violation rows, or why it could not be read."""

    file: str
    sessions: list[dict[str, object]] = field(default_factory=list)
    violations: list[dict[str, object]] = field(default_factory=list)
    error: str | None = None


def agent_of(fmt: str) -> str:
    """The agent (`toolhist.machine.AGENTS`) whose log format ``fmt`` is; ``""`` for a request body.

    ``llxprt-debug`` and ``llxprt-checkpoint`` are both llxprt-code's; ``icontent`` (its canonical
    history) is left unnamed, as a request body, since other tools write it too.
    """
    return next((agent for agent in AGENTS if fmt == agent or fmt.startswith(agent + "-")), "")


def _day(stamp: float | None) -> str | None:
    return None if stamp is None else datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d")


def scan_file(url: str, providers: Sequence[str], options: StorageOptions | None = None) -> FileResult:
    """Load ``url`` (a path or fsspec URL) and validate it against ``providers``.

    A reader's LoadError, a missing object or a refused read becomes ``FileResult.error`` (the
    LoadError text names the file and line; for a remote file the temporary copy's name in it is
    replaced by the URL).
    """
    if not is_url(url):
        reason = _unreadable(url)
        if reason is not None:
            return FileResult(url, error=f"{url}: {reason}")
    try:
        return _scan(url, providers, options)
    except OSError as exc:
        return FileResult(url, error=f"{url}: cannot read ({exc.strerror or exc})")
    except Exception as exc:  # toolhist's own bug: one row that says so, never a failed scan
        return FileResult(
            url, error=f"{url}: toolhist could not read it (internal error: {type(exc).__name__}: {exc})"
        )


def _unreadable(path: str) -> str | None:
    """Why a local entry of the scan cannot be read as a file (`toolhist.files`), or None."""
    if os.path.isdir(path):
        if os.path.islink(path):
            return "a symbolic link to a folder (not followed: links may loop)"
        return "a folder toolhist cannot list (permission denied): its files are not scanned"
    return why_not_regular(path)


def _scan(url: str, providers: Sequence[str], options: StorageOptions | None) -> FileResult:
    with local_copy(url, options) as (path, mtime):
        try:
            session = load(path)
        except ToolhistError as exc:
            return FileResult(url, error=str(exc).replace(path, url))
        judged = judge(session)  # an agent log is judged as the request it would send next
        stamps = [m.metadata.timestamp for m in session.messages if m.metadata.timestamp is not None]
        started = min(stamps) if stamps else mtime
        fmt = session.source.format
        agent = agent_of(fmt)
        sessions: list[dict[str, object]] = []
        violations: list[dict[str, object]] = []
        for provider in providers:
            found = judged_verdict(judged, provider)
            errors = [v.rule for v in found if v.severity == "error"]
            sessions.append(
                {
                    "file": url,
                    "format": fmt,
                    "agent": agent,
                    "provider": provider,
                    "messages": len(session.messages),
                    "errors": len(errors),
                    "warnings": len(found) - len(errors),
                    "error_rules": ";".join(sorted(set(errors))),
                    "rules": json.dumps(dict(sorted(Counter(v.rule for v in found).items()))),
                    "started": started,
                    "date": _day(started),
                }
            )
            violations.extend(
                {
                    "file": url,
                    "provider": provider,
                    "rule": v.rule,
                    "severity": v.severity,
                    "message_index": v.message_index,
                    "block_index": v.block_index,
                    "path": v.path,
                }
                for v in found
            )
    return FileResult(url, sessions, violations)
