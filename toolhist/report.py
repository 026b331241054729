"""A shareable, self-contained HTML report of one session.

One file a user can attach to a bug report or mail to a colleague: summary, call/result timeline,
the messages, each provider's violations, what curation changes and the request bodies. It must
open anywhere without a network: inline CSS, no JavaScript, no external URL. Every piece of session
content goes through `html.escape` (agent logs carry fetched web pages, so a ``<script>`` in a tool
result is data, never markup). Secrets are already redacted by `toolhist.load`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from pathlib import PurePath

from toolhist._gc import paused
from toolhist.check import judged_verdict
from toolhist.curation import Position, curate
from toolhist.diff import diff, summarize_message
from toolhist.errors import ToolhistError
from toolhist.judgement import Judged, judge
from toolhist.model import Session
from toolhist.providers import PROVIDERS, provider_for, render, render_curation, validate
from toolhist.ran_on import ran_on, said
from toolhist.summary import summarize
from toolhist.views.timeline import events_frame

STRATEGY = "toolhist"
"""The curation the report shows (the reference strategy)."""
MESSAGE_WIDTH = 2000
"""Characters of each message shown in the messages table (payloads below hold everything)."""

CSP = "default-src 'none'; style-src 'unsafe-inline'"
"""The report's own Content-Security-Policy: even if escaping failed, nothing could load or run."""

_CSS = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #1b1b1b; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
pre { background: #f7f7f7; padding: 0.5rem; overflow-x: auto; font-size: 0.8rem; white-space: pre-wrap; }
.error { color: #a40000; } .warning { color: #8a5a00; } .ok { color: #1f6f1f; }
section { margin-bottom: 2rem; }
"""


def _e(value: object) -> str:
    """Escaped text of any cell (None shows as empty)."""
    return html.escape("" if value is None else str(value))


def _table(headers: Sequence[str], rows: Iterable[Sequence[object]], *, table_id: str | None = None) -> str:
    ident = f' id="{_e(table_id)}"' if table_id else ""
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    thead = f"<thead><tr>{head}</tr></thead>" if any(headers) else ""
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table{ident}>{thead}<tbody>{body}</tbody></table>"


def _shared_name(path: str | None) -> str | None:
    """The file's name without its directories: a report is shared, the reader's home is not its business."""
    return PurePath(path).name if path else path


def _summary(session: Session) -> str:
    s = summarize(session)
    rows = [
        ("file", _shared_name(s.file)),
        ("format", s.format),
        ("messages", f"{s.messages} ({', '.join(f'{k} {v}' for k, v in s.by_speaker.items())})"),
        ("tool calls", s.tool_calls),
        ("tool results", s.tool_results),
        ("unanswered calls", ", ".join(s.unanswered_calls) or "none"),
        ("unmatched results", ", ".join(s.unmatched_results) or "none"),
        ("duplicate results", ", ".join(s.duplicate_results) or "none"),
        ("tools declared", "none" if s.tools_declared is None else s.tools_declared),
    ]
    rows += [("kept, not sent", f"{kind} x{n}") for kind, n in s.unsent.items()]
    rows += [("skipped (unknown to the reader)", f"{kind} x{n}") for kind, n in s.skipped.items()]
    rows += [("note", note) for note in s.notes]
    return '<section id="summary"><h2>Summary</h2>' + _table(("", ""), rows) + "</section>"


def _timeline(session: Session) -> str:
    frame = events_frame(session)
    columns = ["message", "kind", "speaker", "tool", "call_id", "status", "partner"]
    rows = [[r[c] for c in columns] for r in frame.to_dict(orient="records")]
    if not rows:
        return '<section id="timeline"><h2>Timeline</h2><p>No tool calls or results.</p></section>'
    body = _table(columns, rows, table_id="timeline-table")
    return f'<section id="timeline"><h2>Timeline (tool calls and results)</h2>{body}</section>'


def _unsent(session: Session) -> str:
    """The records the agent kept but never sends (``Session.unsent``), each with its text."""
    if not session.unsent:
        return ""
    rows = [(u.before, u.kind, u.line, u.text, u.reason) for u in session.unsent]
    body = _table(("before message", "kind", "line", "text", "why not sent"), rows)
    return f'<section id="unsent"><h2>Kept in the log, not sent</h2>{body}</section>'


def _messages(session: Session) -> str:
    rows = [(i, m.speaker, summarize_message(m, width=MESSAGE_WIDTH)) for i, m in enumerate(session.messages)]
    body = _table(("#", "speaker", "content"), rows)
    return f'<section id="messages"><h2>Messages</h2>{body}</section>' + _unsent(session)


def _provider(judged: Judged, provider: str) -> str:
    session = judged.session
    name = _e(provider)
    parts = [f'<section id="provider-{name}"><h2>{name}</h2>']
    try:
        found = judged_verdict(judged, provider)
    except ToolhistError as exc:
        return "".join([*parts, f'<p class="error">cannot render: {_e(exc)}</p></section>'])
    errors = sum(v.severity == "error" for v in found)
    verdict = "ok" if not found else ("error" if errors else "warning")
    parts.append(
        f'<p class="{verdict}">{errors} error(s), {len(found) - errors} warning(s), '
        f"{_e(judged.describe())} (strategy none)</p>"
    )
    if found:
        found_rows = [(v.severity, v.rule, v.path, v.message_index, v.error_text, v.fix) for v in found]
        parts.append(_table(("severity", "rule", "path", "message", "error text", "fix"), found_rows))
    parts.append(f"<h3>Curation ({_e(STRATEGY)})</h3>")
    try:
        curation = curate(session, provider, strategy=STRATEGY)
        left = validate(session, provider, strategy=STRATEGY)  # ids written at the edge, as sent
        counts = diff(session, curation.session, curation.changes).counts()
        parts.append("<p>" + _e(", ".join(f"{k} {v}" for k, v in counts.items())) + "</p>")
        if curation.changes:
            rows = [
                (c.pass_, c.action, c.call_id, _where(c.before), _where(c.after), c.reason)
                for c in curation.changes
            ]
            parts.append(_table(("pass", "action", "call id", "before", "after", "reason"), rows))
        else:
            parts.append("<p>No changes needed.</p>")
        left_errors = sum(v.severity == "error" for v in left)
        parts.append(f"<p>{left_errors} error(s) left after curation.</p>")
        curated_body = render_curation(curation).body
    except ToolhistError as exc:
        parts.append(f'<p class="error">cannot curate: {_e(exc)}</p>')
        curated_body = None
    parts.append("<h3>Payloads</h3>")
    parts.append(_payload("as judged (strategy none)", render(session, provider).body))
    if curated_body is not None:
        parts.append(_payload(f"curated ({STRATEGY})", curated_body))
    parts.append("</section>")
    return "".join(parts)


def _where(position: Position | None) -> str:
    """``message`` or ``message.block``, as ``toolhist curate`` prints positions."""
    if position is None:
        return "-"
    return str(position.message) if position.block is None else f"{position.message}.{position.block}"


def _payload(label: str, body: object) -> str:
    text = json.dumps(body, indent=2, ensure_ascii=False, default=str)
    return f"<details><summary>{_e(label)}</summary><pre>{_e(text)}</pre></details>"


@paused
def report(session: Session, providers: Sequence[str] | None = None) -> str:
    """The whole report as one HTML document (inline CSS, no script, no external resource)."""
    chosen = list(providers) if providers else list(PROVIDERS)
    for name in chosen:
        provider_for(name)
    title = f"toolhist report: {_shared_name(session.source.path) or session.source.format}"
    judged = judge(session)
    sections = [_summary(session), _timeline(session), _messages(session)]
    ran = ran_on(session)
    said_ran = f"<p>{_e(said(ran))}</p>" if ran is not None else ""
    sections.append(
        f'<section id="providers"><h2>Providers</h2><p>{_e(judged.describe())}</p>{said_ran}</section>'
    )
    sections += [_provider(judged, p) for p in chosen]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f"<title>{_e(title)}</title><style>{_CSS}</style></head>"
        f"<body><h1>{_e(title)}</h1>{''.join(sections)}</body></html>\n"
    )
