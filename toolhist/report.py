"""A shareable, self-contained HTML report of one session.

One file a user can attach to a bug report or mail to a colleague: summary, each provider's verdict,
the call/result timeline as a picture, the messages, each provider's violations, what curation
changes (the before/after aligned and coloured, as the Curation page shows it) and the request
bodies with the lines a violation points at marked (as the Payloads page shows them). It must open
anywhere without a network: inline CSS, an inline SVG picture, no JavaScript, no external URL. Every
piece of session content goes through `html.escape` (agent logs carry fetched web pages, so a
``<script>`` in a tool result is data, never markup). The finished page goes through
`toolhist.redact` (it is meant to be shared): no key, token, password or private key travels with it.
The builders are `toolhist.views.markup` and `toolhist.views.svg`, which Jupyter shows too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from toolhist._gc import paused
from toolhist.check import judged_verdict
from toolhist.curation import curate
from toolhist.diff import diff, summarize_message
from toolhist.errors import ToolhistError
from toolhist.judgement import Judged, judge
from toolhist.model import Session
from toolhist.providers import PROVIDERS, Violation, provider_for, render, render_curation, validate
from toolhist.ran_on import ran_on, said
from toolhist.redact import redact_text
from toolhist.views.diffs import position_words
from toolhist.views.markup import (
    CSS,
    aligned_diff,
    esc,
    json_code,
    messages_table,
    shared_name,
    summary_table,
    table,
    verdict_cards,
)
from toolhist.views.payloads import numbered_lines
from toolhist.views.roles import role
from toolhist.views.svg import timeline_svg
from toolhist.views.timeline import events_frame

STRATEGY = "toolhist"
"""The curation the report shows (the reference strategy)."""
MESSAGE_WIDTH = 2000
"""Characters of each message shown in the messages table (payloads below hold everything)."""

CSP = "default-src 'none'; style-src 'unsafe-inline'"
"""The report's own Content-Security-Policy: even if escaping failed, nothing could load or run."""

FULL_LINES = 4000
"""Above this many JSON lines a body shows only its marked lines (with context), as on the Payloads page."""

ROWS = 1000
"""Rows any one table of the report shows. A long session (a gigabyte log has hundreds of thousands
of messages, and a provider can object to every call id in it) would otherwise make a report too
large to open or to mail: each table keeps its first rows and the ones that matter most (messages a
violation points at, errors before warnings) and says in words what it leaves out."""

_CSS = (
    """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #1b1b1b; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
pre { background: #f7f7f7; padding: 0.5rem; overflow-x: auto; font-size: 0.8rem; white-space: pre-wrap; }
.error { color: #a40000; } .warning { color: #8a5a00; } .ok { color: #1f6f1f; }
section { margin-bottom: 2rem; }
"""
    + CSS
)


def _summary(session: Session) -> str:
    return f'<section id="summary"><h2>Summary</h2>{summary_table(session)}</section>'


def _verdicts(judged: Judged, results: dict[str, list[Violation] | None]) -> str:
    found = {p: vs for p, vs in results.items() if vs is not None}
    cards = verdict_cards(found, list(found) if judged.judgement == "as-sent" else [])
    broken = [p for p, vs in results.items() if vs is None]
    note = f'<p class="error">cannot render for: {esc(", ".join(broken))}</p>' if broken else ""
    return f'<section id="verdicts"><h2>Verdicts</h2>{cards}{note}</section>'


def _left_out(shown: int, total: int, what: str, counts: Counter[str] | None = None) -> str:
    """``<p>`` saying how many of ``total`` are shown, and what the rest are (by kind), or nothing."""
    if shown >= total:
        return ""
    kinds = f": {', '.join(f'{k} x{n}' for k, n in counts.most_common())}" if counts else ""
    return f"<p>{shown:,} of {total:,} {esc(what)} shown; {total - shown:,} more not shown{esc(kinds)}.</p>"


def _timeline(session: Session, violations: Sequence[Violation]) -> str:
    frame = events_frame(session, violations)
    total = len(frame)
    if total > ROWS:  # the first events and every event a violation points at, up to ROWS more
        keep = frame.index[:ROWS].union(frame.index[frame["violations"].astype(bool)][:ROWS])
        frame = frame.loc[keep]
    if frame.empty:
        return '<section id="timeline"><h2>Timeline</h2><p>No tool calls or results.</p></section>'
    picture = timeline_svg(
        frame, messages=len(session.messages), title="tool calls and results, violations ringed"
    )
    columns = ["message", "kind", "speaker", "tool", "call_id", "status", "partner", "violations"]
    rows = [[r[c] for c in columns] for r in frame.to_dict(orient="records")]
    events = "<details><summary>the events as a table</summary>" + table(
        columns, rows, table_id="timeline-table"
    )
    more = _left_out(len(frame), total, "events (the first, and those a violation points at)")
    return (
        '<section id="timeline"><h2>Timeline (tool calls and results)</h2>'
        f"{more}{picture}{events}</details></section>"
    )


def _unsent(session: Session) -> str:
    """The records the agent kept but never sends (``Session.unsent``), each with its text."""
    if not session.unsent:
        return ""
    rows = [(u.before, u.kind, u.line, u.text, u.reason) for u in session.unsent]
    body = table(("before message", "kind", "line", "text", "why not sent"), rows)
    return f'<section id="unsent"><h2>Kept in the log, not sent</h2>{body}</section>'


def _messages(session: Session, violations: Sequence[Violation]) -> str:
    messages = session.messages
    if len(messages) <= ROWS:
        body = messages_table(session, width=MESSAGE_WIDTH)
    else:  # the first half, then the messages violations point at (in order), up to ROWS in all
        pointed = sorted(
            {v.message_index for v in violations if v.message_index is not None} - set(range(ROWS // 2))
        )
        shown = [*range(ROWS // 2), *pointed[: ROWS - ROWS // 2]]
        rows = [
            (i, role(messages[i].speaker), summarize_message(messages[i], width=MESSAGE_WIDTH)) for i in shown
        ]
        rest = Counter(role(m.speaker) for m in messages) - Counter(role(messages[i].speaker) for i in shown)
        what = "messages (the first, then those a violation points at)"
        body = _left_out(len(shown), len(messages), what, rest) + table(("#", "speaker", "content"), rows)
    return f'<section id="messages"><h2>Messages</h2>{body}</section>' + _unsent(session)


def _provider(judged: Judged, provider: str, found: list[Violation] | None) -> str:
    session = judged.session  # the next request's history for an agent log (as main's check judges)
    name = esc(provider)
    parts = [f'<section id="provider-{name}"><h2>{name}</h2>']
    if found is None:
        try:
            judged_verdict(judged, provider)
        except ToolhistError as exc:
            return "".join([*parts, f'<p class="error">cannot render: {esc(exc)}</p></section>'])
        found = []  # pragma: no cover - `_judge` gives None only when rendering fails
    errors = sum(v.severity == "error" for v in found)
    verdict = "ok" if not found else ("error" if errors else "warning")
    parts.append(
        f'<p class="{verdict}">{errors} error(s), {len(found) - errors} warning(s), '
        f"{esc(judged.describe())} (strategy none)</p>"
    )
    if found:
        worst = sorted(found, key=lambda v: v.severity != "error")[:ROWS]  # errors first, in order
        found_rows = [(v.severity, v.rule, v.path, v.message_index, v.error_text, v.fix) for v in worst]
        rest = Counter(v.rule for v in found) - Counter(v.rule for v in worst)
        parts.append(_left_out(len(worst), len(found), "violations (errors first)", rest))
        parts.append(table(("severity", "rule", "path", "message", "error text", "fix"), found_rows))
    parts.append(f"<h3>Curation ({esc(STRATEGY)})</h3>")
    left: list[Violation] = []
    try:
        curation = curate(session, provider, strategy=STRATEGY)
        left = validate(session, provider, strategy=STRATEGY)  # ids written at the edge, as sent
        d = diff(session, curation.session, curation.changes)
        parts.append("<p>" + esc(", ".join(f"{k} {v}" for k, v in d.counts().items())) + "</p>")
        if curation.changes:
            changes = curation.changes
            if len(changes) <= ROWS:
                parts.append(aligned_diff(d))
            else:
                parts.append(f"<p>The aligned diff is left out: {len(changes):,} changes (counts above).</p>")
            rows = [
                (n, c.pass_, c.action, c.call_id, position_words(c.before), position_words(c.after), c.reason)
                for n, c in enumerate(changes[:ROWS])
            ]
            rest = Counter(f"{c.pass_} {c.action}" for c in changes[ROWS:])
            parts.append(_left_out(len(rows), len(changes), "changes", rest))
            parts.append(table(("#", "pass", "action", "call id", "before", "after", "reason"), rows))
        else:
            parts.append("<p>No changes needed.</p>")
        left_errors = sum(v.severity == "error" for v in left)
        parts.append(f"<p>{left_errors} error(s) left after curation.</p>")
        curated_body = render_curation(curation).body
    except ToolhistError as exc:
        parts.append(f'<p class="error">cannot curate: {esc(exc)}</p>')
        curated_body = None
    parts.append(_payloads(session, provider, found, curated_body, left))
    parts.append("</section>")
    return "".join(parts)


def _payloads(
    session: Session, provider: str, found: Sequence[Violation], curated: object, left: Sequence[Violation]
) -> str:
    """The body as judged and the curated one (None: it could not be made), a body the same as the first once.

    A history the provider accepts needs no change, and its curated body printed again doubled the
    report for nothing: a 2 MB Claude Code log's was 11.5 MB, four providers' bodies twice.
    """
    judged_body = render(session, provider).body
    panels = ["<h3>Payloads</h3>", _payload(provider, "as judged (strategy none)", judged_body, found)]
    if curated == judged_body:
        panels.append(f"<p>curated ({esc(STRATEGY)}): the same body, nothing changed.</p>")
    elif curated is not None:
        panels.append(_payload(provider, f"curated ({STRATEGY})", curated, left))
    return "".join(panels)


def _payload(provider: str, label: str, body: object, found: Sequence[Violation]) -> str:
    """A request body as highlighted JSON, the lines a violation points at marked (open when any is).

    At most `ROWS` violations are marked (errors first), so a body a provider objects to everywhere
    still shows only those lines with their context.
    """
    found = sorted(found, key=lambda v: v.severity != "error")[:ROWS]
    total, lines = numbered_lines(body, provider_for(provider).path_format, found, full_up_to=FULL_LINES)
    marked = int((lines["rules"] != "").sum())
    anchor = f"{provider}-{'curated' if label.startswith('curated') else 'as-is'}"
    summary = f"{label}: {total:,} lines" + (f", {marked} marked" if marked else "")
    code = json_code(lines, anchor=anchor, total=total)
    return f"<details{' open' if marked else ''}><summary>{esc(summary)}</summary>{code}</details>"


def _judge(judged: Judged, provider: str) -> list[Violation] | None:
    """``provider``'s verdict on the judged history (`toolhist.check.judged_verdict`); None: cannot render."""
    try:
        return judged_verdict(judged, provider)
    except ToolhistError:
        return None


@paused
def report(session: Session, providers: Sequence[str] | None = None) -> str:
    """The whole report as one HTML document (inline CSS and SVG, no script, no external resource)."""
    chosen = list(providers) if providers else list(PROVIDERS)
    for name in chosen:
        provider_for(name)
    judged = judge(session)
    results = {p: _judge(judged, p) for p in chosen}
    everything = [v for found in results.values() if found for v in found]
    title = f"toolhist report: {shared_name(session.source.path) or session.source.format}"
    # the verdicts and the picture first: what a reader opening the file should see on its first screen
    sections = [_verdicts(judged, results), _timeline(session, everything), _summary(session)]
    sections.append(_messages(session, everything))
    ran = ran_on(session)
    said_ran = f"<p>{esc(said(ran))}</p>" if ran is not None else ""
    sections.append(
        f'<section id="providers"><h2>Providers</h2><p>{esc(judged.describe())}</p>{said_ran}</section>'
    )
    sections += [_provider(judged, p, results[p]) for p in chosen]
    page = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f"<title>{esc(title)}</title><style>{_CSS}</style></head>"
        f"<body><h1>{esc(title)}</h1>{''.join(sections)}</body></html>\n"
    )
    return redact_text(page)[0]
