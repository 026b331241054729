"""Searching the index: messages by text, tool name and call id, sessions by the rules they break.

What a `Query` finds, exactly:

- ``text``: messages (and unsent records) whose searchable text (`toolhist.index.extract`) holds
  it as a substring, case-insensitive for ASCII letters (SQLite's ``LIKE``, answered through the
  trigram index); only the first 4,096 characters of each message are searched.
- ``tool``: messages holding a call of that tool, or a result answering one (the name compared
  case-insensitively); ``call_id``: messages holding the call with that id or a result answering
  it (toolhist's id or the source's, exact).
- ``rule``: sessions whose verdict breaks it, on ``provider`` or, without one, on the provider
  each session ran on. Alone, each violation is a hit at the message it points to (its snippet is
  the provider's error text); with the filters above, their hits in those sessions only.

All filters given must hold. Only sessions whose search text is current are searched; the result
names the others (`Results.not_indexed`), and with ``rule`` the sessions without a current
verdict (`Results.no_verdict`). Hits come newest session first, then by message.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Final

from toolhist.index.db import code_digest
from toolhist.index.listing import Listing
from toolhist.index.update import WHERE_IT_RAN, verdict_key
from toolhist.machine.listing import SessionRow

SNIPPET: Final = 60
"""Characters of context on each side of the match in a snippet."""


@dataclass(frozen=True)
class Query:
    """What to look for (`text`, `tool`, `call_id`, `rule`: at least one) and in which sessions."""

    text: str = ""
    tool: str | None = None
    call_id: str | None = None
    rule: str | None = None
    provider: str | None = None
    """The provider ``rule`` is judged on; None: the one each session ran on."""
    agents: tuple[str, ...] = ()
    """Only these agents' sessions (none: every agent's)."""

    @property
    def judged_on(self) -> str:
        """The verdicts ``rule`` is looked up in (`toolhist.index.update.WHERE_IT_RAN` or a provider)."""
        return self.provider or WHERE_IT_RAN

    @property
    def empty(self) -> bool:
        """Whether nothing to look for was given."""
        return not (self.text.strip() or self.tool or self.call_id or self.rule)


@dataclass(frozen=True)
class Hit:
    """One message found (or one violation, for a rule alone)."""

    row: SessionRow
    msg: int | None
    """The message (``?msg=``); None for a violation in no logged message (the next request's tail)."""
    kind: str
    """``message``, ``unsent <kind>`` or ``violation``."""
    speaker: str
    snippet: str
    """The text around the match, on one line, control and format characters escaped."""
    rule: str | None = None
    severity: str | None = None
    provider: str | None = None

    def to_json(self) -> dict[str, Any]:
        """One object of ``toolhist sessions --search … --json``'s ``hits``."""
        modified = datetime.fromtimestamp(self.row.modified, UTC).isoformat().replace("+00:00", "Z")
        return {
            "path": str(self.row.path),
            "agent": self.row.agent,
            "modified": modified,
            "message": self.msg,
            "kind": self.kind,
            "speaker": self.speaker,
            "snippet": self.snippet,
            "rule": self.rule,
            "severity": self.severity,
            "provider": self.provider,
        }


@dataclass(frozen=True)
class Results:
    """The hits (at most the limit asked for) and what was and was not searched."""

    hits: list[Hit]
    total: int
    """Every hit, beyond the limit too."""
    searched: int
    """Sessions whose current search text was searched."""
    not_indexed: list[SessionRow]
    """Listed sessions the index does not hold yet, or holds out of date (newest first)."""
    unreadable: list[SessionRow]
    """Listed sessions that cannot be read (their ``problem`` says why)."""
    no_verdict: list[SessionRow]
    """With a rule: searched sessions without a current verdict on the provider asked for."""


def escaped(text: str) -> str:
    r"""``text`` on one line, every control or format character written as ``\uXXXX``.

    A terminal then shows session content as text: no escape sequence, no bidirectional override.
    """
    flat = " ".join(text.split())
    return "".join(f"\\u{ord(ch):04x}" if unicodedata.category(ch) in ("Cc", "Cf") else ch for ch in flat)


def snippet(text: str, needle: str) -> str:
    """The text around ``needle``'s first occurrence (its start when absent), escaped."""
    at = max(text.lower().find(needle.lower()), 0) if needle else 0
    lo, hi = max(0, at - SNIPPET), min(len(text), at + len(needle) + SNIPPET)
    return ("…" if lo else "") + escaped(text[lo:hi]) + ("…" if hi < len(text) else "")


def like_pattern(text: str) -> str:
    r"""A ``LIKE`` pattern for ``text`` as a substring (``%``, ``_`` and ``\`` taken literally)."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _base(query: Query) -> tuple[str, list[object]]:
    """The query's candidate hits: messages by text, by call, or violations by rule."""
    if query.text.strip():
        return (
            "SELECT e.session AS session, e.msg AS msg, e.kind AS kind, e.speaker AS speaker, "
            "e.text AS text, NULL AS rule, NULL AS severity, NULL AS provider, "
            "c.rank AS rank, c.vkey AS vkey, e.id AS ord "
            "FROM entries_fts f JOIN entries e ON e.id = f.rowid JOIN temp.listed c ON c.id = e.session "
            "WHERE f.text LIKE ? ESCAPE '\\'",
            [like_pattern(query.text.strip())],
        )
    if query.tool or query.call_id:  # the calls of that tool (or with that id) first, through their index
        args: list[object] = [query.tool] if query.tool else [query.call_id, query.call_id]
        match = "k.name = ? COLLATE NOCASE" if query.tool else "(k.id = ? OR k.raw_id = ?)"
        return (
            "SELECT k.session AS session, k.msg AS msg, 'message' AS kind, "
            "COALESCE(e.speaker, '') AS speaker, COALESCE(e.text, '') AS text, "
            "NULL AS rule, NULL AS severity, NULL AS provider, c.rank AS rank, "
            f"c.vkey AS vkey, k.msg AS ord FROM (SELECT DISTINCT session, msg FROM calls k WHERE {match}) k "
            "JOIN temp.listed c ON c.id = k.session "
            "LEFT JOIN entries e ON e.session = k.session AND e.msg = k.msg AND e.kind = 'message'",
            args,
        )
    return (
        "SELECT v.session AS session, v.msg AS msg, 'violation' AS kind, '' AS speaker, v.detail AS text, "
        "v.rule AS rule, v.severity AS severity, v.provider AS provider, c.rank AS rank, c.vkey AS vkey, "
        "v.rowid AS ord FROM violations v "
        "JOIN verdicts d ON d.session = v.session AND d.judged_on = v.judged_on "
        "JOIN temp.listed c ON c.id = v.session AND d.key = c.vkey WHERE v.judged_on = ? AND v.rule = ?",
        [query.judged_on, query.rule],
    )


def _filters(query: Query) -> tuple[list[str], list[object]]:
    """The conditions every hit must meet beyond its base."""
    where: list[str] = []
    args: list[object] = []
    if query.tool:
        where.append(
            "EXISTS (SELECT 1 FROM calls k WHERE k.session = h.session AND k.msg = h.msg "
            "AND k.name = ? COLLATE NOCASE)"
        )
        args.append(query.tool)
    if query.call_id:
        where.append(
            "EXISTS (SELECT 1 FROM calls k WHERE k.session = h.session AND k.msg = h.msg "
            "AND (k.id = ? OR k.raw_id = ?))"
        )
        args += [query.call_id, query.call_id]
    if query.rule and (query.text.strip() or query.tool or query.call_id):
        where.append(
            "EXISTS (SELECT 1 FROM violations v JOIN verdicts d ON d.session = v.session "
            "AND d.judged_on = v.judged_on WHERE v.session = h.session AND v.judged_on = ? AND v.rule = ? "
            "AND d.key = h.vkey)"
        )
        args += [query.judged_on, query.rule]
    return where, args


def _listed(conn: sqlite3.Connection, ranked: list[tuple[int, int, str]]) -> None:
    """The sessions to search, in a temporary table: id, rank (newest first), current verdict key."""
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS listed (id INTEGER PRIMARY KEY, rank INTEGER, vkey TEXT)")
    conn.execute("DELETE FROM temp.listed")
    conn.executemany("INSERT INTO temp.listed (id, rank, vkey) VALUES (?, ?, ?)", ranked)


def search(conn: sqlite3.Connection, listing: Listing, query: Query, limit: int = 100) -> Results:
    """The hits of ``query`` among the listed sessions whose search text the index holds current."""
    code = code_digest()
    rows = [r for r in listing.rows if not query.agents or r.agent in query.agents]
    held = {
        loc: (sid, state, c, problem)
        for sid, loc, state, c, problem in conn.execute(
            "SELECT id, locator, state, code, problem FROM sessions"
        )
    }
    by_id: dict[int, SessionRow] = {}
    ranked, not_indexed, unreadable = [], [], []
    for rank, row in enumerate(rows):
        state = listing.states.get(str(row.path))
        found = held.get(str(row.path))
        if state is None:
            unreadable.append(row)
        elif found is None or (found[1], found[2]) != (state, code):
            not_indexed.append(row)
        elif found[3] is not None:
            unreadable.append(row if row.problem else replace(row, problem=found[3]))
        else:
            by_id[found[0]] = row
            ranked.append((found[0], rank, verdict_key(state)))
    _listed(conn, ranked)
    no_verdict = _unjudged(conn, query, ranked, by_id) if query.rule else []
    base, args = _base(query)
    where, more = _filters(query)
    cte = f"WITH h AS ({base}) SELECT {{}} FROM h" + (" WHERE " + " AND ".join(where) if where else "")
    total = conn.execute(cte.format("count(*)"), [*args, *more]).fetchone()[0]
    found_rows = conn.execute(
        cte.format("session, msg, kind, speaker, text, rule, severity, provider")
        + " ORDER BY rank, msg IS NULL, msg, ord LIMIT ?",
        [*args, *more, limit],
    ).fetchall()
    needle = query.text.strip() or query.tool or query.call_id or ""
    hits = [
        Hit(
            by_id[sid],
            msg,
            kind,
            speaker,
            snippet(text, "" if kind == "violation" else needle),
            rule,
            sev,
            prov,
        )
        for sid, msg, kind, speaker, text, rule, sev, prov in found_rows
    ]
    return Results(hits, total, len(ranked), not_indexed, unreadable, no_verdict)


def _unjudged(
    conn: sqlite3.Connection, query: Query, ranked: list[tuple[int, int, str]], by_id: dict[int, SessionRow]
) -> list[SessionRow]:
    """The searched sessions without a current verdict on ``query.judged_on``."""
    keys = dict(
        conn.execute("SELECT session, key FROM verdicts WHERE judged_on = ?", (query.judged_on,)).fetchall()
    )
    return [by_id[sid] for sid, _, vkey in ranked if keys.get(sid) != vkey]
