"""``toolhist sessions --search/--tool/--call-id/--rule``: every session on this machine, searched.

The sessions listed are brought into the index first (each read whole once per change, one
transaction per session, progress on a terminal), then `toolhist.index.search` finds the messages.
The output is one line per hit (when, agent, message, speaker, the text around the match, the
file), then a count; ``--json`` prints one object with the hits and what was not searched.
Session content is escaped (`toolhist.index.query.escaped`): a terminal shows it as text.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import click

from toolhist.index import Listing, Query, Results, pending, refresh, search
from toolhist.index.listing import Progress
from toolhist.index.query import Hit
from toolhist.machine import SessionRow


def shown_path(path: Path, home: Path) -> str:
    """``path`` relative to the home folder when inside it (``~/…``), else as it is.

    A string comparison, not `Path.relative_to`: thousands of rows are shown at once.
    """
    text, prefix = str(path), str(home).rstrip(os.sep) + os.sep
    return "~" + os.sep + text[len(prefix) :] if text.startswith(prefix) else text


def _line(hit: Hit, home: Path) -> str:
    where = "-" if hit.msg is None else f"#{hit.msg}"
    who = (
        f"{hit.rule} ({hit.severity}, {hit.provider})" if hit.kind == "violation" else hit.speaker or hit.kind
    )
    path = shown_path(hit.row.path, home)
    return f"{hit.row.when()}  {hit.row.agent:<11}  {where:>5}  {who}: {hit.snippet}  {path}"


def _sessions(rows: list[SessionRow]) -> list[str]:
    return [str(row.path) for row in rows]


def found_json(results: Results) -> dict[str, Any]:
    """What ``--json`` prints: the hits, how many in all, and the sessions not searched and why."""
    return {
        "hits": [hit.to_json() for hit in results.hits],
        "total": results.total,
        "searched": results.searched,
        "not_indexed": _sessions(results.not_indexed),
        "unreadable": [{"path": str(r.path), "problem": r.problem} for r in results.unreadable],
        "no_verdict": _sessions(results.no_verdict),
    }


def render_found(results: Results, home: Path) -> list[str]:
    """One line per hit, then what was searched (and, when not every hit is shown, how many there are)."""
    lines = [_line(hit, home) for hit in results.hits]
    sessions = len({hit.row.path for hit in results.hits})
    shown = (
        f"{len(results.hits)} of {results.total}" if results.total > len(results.hits) else str(results.total)
    )
    tail = f"{shown} hits in {sessions} sessions; {results.searched} sessions searched"
    if results.unreadable:
        tail += f", {len(results.unreadable)} unreadable"
    if results.not_indexed:
        tail += f", {len(results.not_indexed)} not in the index"
    if results.no_verdict:
        tail += f", {len(results.no_verdict)} without a verdict"
    return [*lines, tail]


def run_search(
    conn: sqlite3.Connection,
    home: Path,
    listing: Listing,
    query: Query,
    *,
    limit: int,
    progress: Progress,
) -> Results:
    """Read what the index lacks of the listed sessions (and their verdicts for ``--rule``), then search."""
    judge_on = (query.judged_on,) if query.rule else ()
    listed = Listing(
        [r for r in listing.rows if not query.agents or r.agent in query.agents],
        listing.states,
        listing.read,
        listing.removed,
    )
    refresh(conn, str(home), pending(conn, listed, judge_on), progress)
    return search(conn, listing, query, limit)


def print_found(results: Results, home: Path, *, as_json: bool) -> None:
    """Print the results as text or JSON."""
    if as_json:
        click.echo(json.dumps(found_json(results), indent=2, ensure_ascii=False))
        return
    for line in render_found(results, home):
        click.echo(line)
