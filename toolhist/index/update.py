"""Reading sessions whole into the index: their search text always, their verdicts when asked.

A listed session is read again only when its state (`toolhist.index.listing.Listing.states`) or
toolhist's code digest changed since it was read (`pending`). Verdicts are lazy: `refresh` judges
only the providers asked for (``WHERE_IT_RAN``, the provider the session ran on, as ``toolhist
sessions --verdict`` judges; or a named provider, ``--rule … --provider``), and keeps each under
the same state and digest: a second ``--rule`` search judges only the sessions that changed.

Each session is read outside any transaction and written in one of its own (`toolhist.index.db.
writing`): Ctrl-C (`Stopped`) or a crash leaves every session either as it was or wholly updated.
The file's state is taken before it is read, so a session an agent writes while it is read is read
again next time. Agents' stores are opened read-only (`toolhist.readers` → `toolhist.agents.stores`).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, Final

from toolhist.check import verdict
from toolhist.errors import ToolhistError
from toolhist.formats.document import Document
from toolhist.index.db import code_digest, writing
from toolhist.index.extract import calls, entries
from toolhist.index.listing import Listing, Progress
from toolhist.machine.judge import judge_read, verdict_text
from toolhist.machine.listing import SessionRow
from toolhist.model import Session
from toolhist.providers import Violation
from toolhist.readers import load_document

WHERE_IT_RAN: Final = ""
"""The ``judged_on`` of a verdict on the provider the session ran on (`toolhist.machine.judge`)."""

MAX_BYTES: Final = 256 * 1024 * 1024
"""A session file larger than this is listed but not read into the index (its ``problem`` says so)."""

DETAIL_CAP: Final = 500
"""Characters of a violation's error text the index keeps."""

JUDGED: Final = ("verdict", "rules", "messages", "counted", "model", "provider", "problem")
"""The `SessionRow` fields a verdict where the session ran sets (`toolhist.machine.judge.judge`)."""


class Stopped(KeyboardInterrupt):
    """Ctrl-C while the index was being filled: ``done`` of ``total`` sessions are in it."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(f"{done} of {total}")
        self.done = done
        self.total = total


@dataclass(frozen=True)
class Pending:
    """A listed session whose search text or verdicts are missing or out of date."""

    row: SessionRow
    state: str
    content: bool
    """Its search text must be read again."""
    judge_on: tuple[str, ...]
    """The verdicts to compute (``WHERE_IT_RAN`` or provider names)."""


def verdict_key(state: str) -> str:
    """What a verdict is kept under: the session's state and toolhist's code digest."""
    return f"{state}|{code_digest()}"


def pending(conn: sqlite3.Connection, listing: Listing, judge_on: Sequence[str] = ()) -> list[Pending]:
    """The listed, readable sessions the index lacks or holds out of date, newest first."""
    code = code_digest()
    held = {loc: (state, c) for loc, state, c in conn.execute("SELECT locator, state, code FROM sessions")}
    judged = {
        (loc, on): key
        for loc, on, key in conn.execute(
            "SELECT s.locator, v.judged_on, v.key FROM verdicts v JOIN sessions s ON s.id = v.session"
        )
    }
    work = []
    for row in listing.rows:
        path = str(row.path)
        state = listing.states.get(path)
        if state is None:
            continue
        content = held.get(path) != (state, code)
        todo = tuple(on for on in judge_on if content or judged.get((path, on)) != verdict_key(state))
        if content or todo:
            work.append(Pending(row, state, content, todo))
    return work


def _read(row: SessionRow) -> tuple[Document | None, Session | None, str | None]:
    """The session read with its agent's reader, or why it cannot be."""
    if row.session is None:
        try:
            size = os.stat(row.path).st_size
        except OSError as exc:
            return None, None, exc.strerror or str(exc)
        if size > MAX_BYTES:
            return (
                None,
                None,
                f"not read into the index: {size / 1e6:.0f} MB, over its {MAX_BYTES >> 20} MiB limit",
            )
    try:
        document, session = load_document(str(row.path), row.read_format)
    except (ToolhistError, OSError) as exc:
        return None, None, str(exc)
    return document, session, None


def _judge(
    row: SessionRow, on: str, document: Document | None, session: Session | None, problem: str | None
) -> tuple[dict[str, Any], list[Violation]]:
    """One verdict's fields and violations (a session that cannot be read: its problem)."""
    if problem is not None or document is None or session is None:
        return {"problem": problem}, []
    if on == WHERE_IT_RAN:
        judged, found = judge_read(row, document, session)
        fields = {k: v for k, v in asdict(judged).items() if k in JUDGED}
        return {**fields, "rules": list(judged.rules)}, found
    found = verdict(document, session, on)
    return {"verdict": verdict_text(found), "rules": sorted({v.rule for v in found}), "provider": on}, found


def _write(
    conn: sqlite3.Connection, home: str, item: Pending, session: Session | None, problem: str | None
) -> int:
    """The session's row and, when read for it, its search text; its id."""
    row = item.row
    if not item.content:  # only verdicts to add (unless another process just took the session out)
        found = conn.execute("SELECT id FROM sessions WHERE locator = ?", (str(row.path),)).fetchone()
        if found is not None:
            return int(found[0])
    kept = list(entries(session)) if session is not None else []
    sid = int(
        conn.execute(
            "INSERT INTO sessions (locator, home, agent, state, code, messages, truncated, problem) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (locator) DO UPDATE SET home = excluded.home, "
            "agent = excluded.agent, state = excluded.state, code = excluded.code, "
            "messages = excluded.messages, truncated = excluded.truncated, problem = excluded.problem "
            "RETURNING id",
            (
                str(row.path),
                home,
                row.agent,
                item.state,
                code_digest(),
                None if session is None else len(session.messages),
                sum(e.truncated for e in kept),
                problem,
            ),
        ).fetchone()[0]
    )
    for table in ("entries", "calls", "verdicts"):
        conn.execute(f"DELETE FROM {table} WHERE session = ?", (sid,))
    conn.executemany(
        "INSERT INTO entries (session, msg, kind, speaker, text) VALUES (?, ?, ?, ?, ?)",
        [(sid, e.msg, e.kind, e.speaker, e.text) for e in kept],
    )
    if session is not None:
        conn.executemany(
            "INSERT INTO calls (session, msg, role, name, id, raw_id) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (sid, c.msg, c.role, c.name, c.id, None if c.raw_id == c.id else c.raw_id)
                for c in calls(session)
            ],
        )
    return sid


def _write_verdict(
    conn: sqlite3.Connection, sid: int, on: str, key: str, verdict: tuple[dict[str, Any], list[Violation]]
) -> None:
    """Replace the session's verdict on ``on`` (its fields and violations), kept under ``key``."""
    fields, found = verdict
    conn.execute("DELETE FROM verdicts WHERE session = ? AND judged_on = ?", (sid, on))
    conn.execute(
        "INSERT INTO verdicts (session, judged_on, key, fields) VALUES (?, ?, ?, ?)",
        (sid, on, key, json.dumps(fields, ensure_ascii=False)),
    )
    conn.executemany(
        "INSERT INTO violations (session, judged_on, provider, rule, severity, msg, detail) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (sid, on, v.provider, v.rule, v.severity, v.message_index, v.error_text[:DETAIL_CAP])
            for v in found
        ],
    )


def refresh_one(conn: sqlite3.Connection, home: str, item: Pending) -> None:
    """Read one session and write what the index lacks of it, in one transaction."""
    document, session, problem = _read(item.row)
    verdicts = [(on, _judge(item.row, on, document, session, problem)) for on in item.judge_on]
    with writing(conn):
        sid = _write(conn, home, item, session, problem)
        for on, judged in verdicts:
            _write_verdict(conn, sid, on, verdict_key(item.state), judged)


def refresh(
    conn: sqlite3.Connection, home: str, work: Sequence[Pending], progress: Progress | None = None
) -> int:
    """Bring ``work`` into the index, one session per transaction; the sessions read.

    Ctrl-C raises `Stopped` naming how many are in; the one being read is left as it was.
    """
    done = 0
    try:
        for item in work:
            if progress is not None:
                progress(done, len(work), "reading sessions into the index")
            refresh_one(conn, home, item)
            done += 1
    except (Exception, SystemExit, GeneratorExit):
        raise
    except BaseException:  # Ctrl-C: KeyboardInterrupt, or the CLI's own (toolhist.cli.progress.Interrupted)
        raise Stopped(done, len(work)) from None
    if progress is not None and work:
        progress(done, len(work), "reading sessions into the index")
    return done


def judged_rows(conn: sqlite3.Connection, listing: Listing) -> list[SessionRow]:
    """The listed rows with their verdict where they ran, as far as the index holds one."""
    held = {
        loc: (key, fields)
        for loc, key, fields in conn.execute(
            "SELECT s.locator, v.key, v.fields FROM verdicts v JOIN sessions s ON s.id = v.session "
            "WHERE v.judged_on = ?",
            (WHERE_IT_RAN,),
        )
    }
    rows = []
    for row in listing.rows:
        state = listing.states.get(str(row.path))
        hit = held.get(str(row.path))
        if state is None or hit is None or hit[0] != verdict_key(state):
            rows.append(row)
            continue
        fields = json.loads(hit[1])
        if "rules" in fields:
            fields["rules"] = tuple(fields["rules"])
        rows.append(replace(row, **fields))
    return rows
