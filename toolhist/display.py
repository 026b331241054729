"""Rich display in Jupyter: ``_repr_html_`` for Session, Curation and Payload, and a violations table.

What the app's pages show, as static HTML: ``display(session)`` gives the summary, a verdict card per
provider and the timeline picture (violations ringed); a Curation gives the before/after aligned and
coloured with its change log; a Payload gives the body as highlighted JSON with the lines a violation
points at marked. The builders are `toolhist.views.markup` and `toolhist.views.svg`, which the
shared report uses too. The interactive figure and the side-by-side views are `toolhist.notebook`.

Offline by construction: inline CSS and SVG, no script, no CDN; every piece of session content is
escaped (agent logs carry fetched web pages).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolhist.check import judged_verdict
from toolhist.diff import diff
from toolhist.errors import ToolhistError
from toolhist.judgement import Judged, judge
from toolhist.providers import PROVIDERS, provider_for, validate_payload
from toolhist.views.markup import (
    CSS,
    aligned_diff,
    esc,
    json_code,
    messages_table,
    summary_table,
    table,
    verdict_cards,
    where,
)
from toolhist.views.payloads import numbered_lines
from toolhist.views.svg import timeline_svg
from toolhist.views.timeline import events_frame

if TYPE_CHECKING:  # pragma: no cover - typing only
    from toolhist.curation.base import Curation
    from toolhist.model import Session
    from toolhist.providers.base import Payload, Violation

MAX_ROWS = 200
"""Rows shown per table; a longer history says how many were left out."""
MESSAGE_WIDTH = 160
"""Characters of each message shown in a notebook's message table."""
FULL_LINES = 4000
"""Above this many JSON lines a body shows only its marked lines (with context), as the Payloads page."""


def _cap(rows: list[tuple[object, ...]]) -> tuple[list[tuple[object, ...]], str]:
    if len(rows) <= MAX_ROWS:
        return rows, ""
    return rows[:MAX_ROWS], f"<p>… {len(rows) - MAX_ROWS} more not shown.</p>"


def wrap(body: str) -> str:
    """A notebook output: the shared stylesheet and the body in one ``div.toolhist``, redacted.

    A notebook's outputs are saved in the ``.ipynb`` and shared with it, so secrets are replaced
    (`toolhist.redact`: the body is static, escaped HTML, whose quotes the patterns read).
    """
    from toolhist.redact import redact_text

    return redact_text(f"<div class='toolhist'><style>{CSS}</style>{body}</div>")[0]


def verdicts_of(
    session: Session, providers: list[str] | None = None
) -> tuple[Judged, dict[str, list[Violation]]]:
    """The session under its judgement, and each provider's violations of it, as ``check`` finds them.

    `toolhist.judgement.judge`: a request body as sent, an agent log as the next request. A provider
    that cannot render is left out.
    """
    judged = judge(session)
    results: dict[str, list[Violation]] = {}
    for name in providers or PROVIDERS:
        try:
            results[name] = judged_verdict(judged, name)
        except ToolhistError:
            continue
    return judged, results


def cards(judged: Judged, results: dict[str, list[Violation]]) -> str:
    """The verdict cards and, under them, which judgement was made (as ``check`` says it)."""
    sent = list(results) if judged.judgement == "as-sent" else []
    return verdict_cards(results, sent) + f'<p class="th-judged">{esc(judged.describe())}</p>'


def session_html(session: Session, providers: list[str] | None = None) -> str:
    """The summary, a verdict card per provider, the timeline picture and the first messages."""
    judged, results = verdicts_of(session, providers)
    frame = events_frame(session, [v for found in results.values() for v in found])
    picture = (
        timeline_svg(frame, messages=len(session.messages), title="tool calls and results, violations ringed")
        if len(frame)
        else "<p>No tool calls or results.</p>"
    )
    return wrap(
        summary_table(session)
        + cards(judged, results)
        + picture
        + messages_table(session, width=MESSAGE_WIDTH, limit=MAX_ROWS)
    )


def curation_html(curation: Curation) -> str:
    """What a curation changed: the before/after aligned and coloured, and the change log."""
    d = diff(curation.original, curation.sent_session(), curation.changes)  # the ids that are sent
    counts = ", ".join(f"{k} {v}" for k, v in d.counts().items())
    rows, more = _cap(
        [
            (n, c.pass_, c.action, c.call_id, where(c.before), where(c.after), c.reason)
            for n, c in enumerate(curation.changes)
        ]
    )
    head = (
        f"<p>strategy {esc(curation.strategy)} for {esc(curation.provider)}: "
        f"{len(curation.changes)} change(s); "
        f"{len(curation.original.messages)} → {len(curation.session.messages)} messages ({esc(counts)})</p>"
    )
    aligned = aligned_diff(d, only_changed=len(d.rows) > MAX_ROWS) if curation.changes else ""
    log = table(("#", "pass", "action", "call id", "before", "after", "reason"), rows) if rows else ""
    return wrap(head + aligned + log + more)


def payload_html(payload: Payload, violations: list[Violation] | None = None) -> str:
    """The request body as highlighted JSON, the lines a violation points at marked.

    ``violations`` defaults to the body's own, checked as it stands (`validate_payload`).
    """
    found = validate_payload(payload.body, payload.provider) if violations is None else violations
    total, lines = numbered_lines(
        payload.body, provider_for(payload.provider).path_format, found, full_up_to=FULL_LINES
    )
    omitted = "".join(f"<li>{esc(note)}</li>" for note in payload.omitted)
    notes = f"<p>What this format cannot carry:</p><ul>{omitted}</ul>" if omitted else ""
    return wrap(
        f"<p>{esc(payload.provider)} request body: {total:,} lines, "
        f"{int((lines['rules'] != '').sum())} marked</p>"
        + json_code(lines, anchor=f"{payload.provider}-body", total=total)
        + notes
    )


def violations_html(violations: list[Violation]) -> str:
    """A violation list as a table (wrap a list with `Violations` to display it in Jupyter)."""
    rows, more = _cap(
        [(v.provider, v.severity, v.rule, v.path, v.message_index, v.error_text) for v in violations]
    )
    return wrap(table(("provider", "severity", "rule", "path", "message", "error text"), rows) + more)


class Violations(list["Violation"]):
    """A list of violations that Jupyter shows as a table: ``Violations(validate(s, "anthropic"))``."""

    def _repr_html_(self) -> str:
        return violations_html(list(self))
