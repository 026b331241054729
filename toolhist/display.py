"""Rich display in Jupyter: ``_repr_html_`` for Session, Curation and Payload.

Offline by construction: plain HTML tables and ``<pre>`` blocks, no script, no CDN; every piece of
session content is escaped (agent logs carry fetched web pages). Shares the report's builders so a
notebook and a shared report show the same thing.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from toolhist.report import _e, _messages, _summary, _table, _where

if TYPE_CHECKING:  # pragma: no cover - typing only
    from toolhist.curation.base import Curation
    from toolhist.model import Session
    from toolhist.providers.base import Payload, Violation

MAX_ROWS = 200
"""Rows shown per table; a longer history says how many were left out."""


def _cap(rows: list[tuple[object, ...]]) -> tuple[list[tuple[object, ...]], str]:
    if len(rows) <= MAX_ROWS:
        return rows, ""
    return rows[:MAX_ROWS], f"<p>… {len(rows) - MAX_ROWS} more not shown.</p>"


def session_html(session: Session) -> str:
    """The summary and the messages of a Session."""
    return f"<div class='toolhist'>{_summary(session)}{_messages(session)}</div>"


def curation_html(curation: Curation) -> str:
    """What a curation changed: counts by action and the change log."""
    rows, more = _cap(
        [
            (c.pass_, c.action, c.call_id, _where(c.before), _where(c.after), c.reason)
            for c in curation.changes
        ]
    )
    head = (
        f"<p>strategy {_e(curation.strategy)} for {_e(curation.provider)}: "
        f"{len(curation.changes)} change(s); "
        f"{len(curation.original.messages)} → {len(curation.session.messages)} messages</p>"
    )
    table = _table(("pass", "action", "call id", "before", "after", "reason"), rows) if rows else ""
    return f"<div class='toolhist'>{head}{table}{more}</div>"


def payload_html(payload: Payload) -> str:
    """The request body, pretty-printed, and what the format could not carry."""
    text = json.dumps(payload.body, indent=2, ensure_ascii=False, default=str)
    omitted = "".join(f"<li>{_e(note)}</li>" for note in payload.omitted)
    notes = f"<ul>{omitted}</ul>" if omitted else ""
    return (
        f"<div class='toolhist'><p>{_e(payload.provider)} request body</p><pre>{_e(text)}</pre>{notes}</div>"
    )


def violations_html(violations: list[Violation]) -> str:
    """A violation list as a table (wrap a list with `Violations` to display it in Jupyter)."""
    rows, more = _cap(
        [(v.provider, v.severity, v.rule, v.path, v.message_index, v.error_text) for v in violations]
    )
    return (
        "<div class='toolhist'>"
        + _table(("provider", "severity", "rule", "path", "message", "error text"), rows)
        + more
        + "</div>"
    )


class Violations(list["Violation"]):
    """A list of violations that Jupyter shows as a table: ``Violations(validate(s, "anthropic"))``."""

    def _repr_html_(self) -> str:
        return violations_html(list(self))
