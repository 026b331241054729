"""Static HTML for what the app shows: verdict cards, the coloured before/after, JSON with marked lines.

Shared by the report (`toolhist.report`) and Jupyter (`toolhist.display`, `toolhist.notebook`), so a
shared report and a notebook show the same pictures the pages show. Everything here is markup and
inline CSS only: no script, no external URL, and every piece of session content goes through
`esc` (agent logs carry fetched web pages, so a ``<script>`` in a tool result is text, never markup).

The JSON view is the Payloads page's line view (`toolhist.views.payloads.lines_frame`) drawn as
highlighted code: keys, strings, numbers and literals coloured by a tokeniser over the *escaped*
line, marked lines tinted with the rules that flag them, each marked line an anchor the list above
the code jumps to.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePath
from typing import Final

import pandas as pd

from toolhist.curation import Position
from toolhist.diff import Diff, summarize_message
from toolhist.model import Session
from toolhist.providers import Violation
from toolhist.summary import summarize
from toolhist.views.diffs import aligned_frame
from toolhist.views.roles import role

CSS: Final = """
.toolhist td, .toolhist th { text-align: left !important; vertical-align: top; }  /* Lab right-aligns cells */
.th-cards { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.5rem 0 1rem; }
.th-card { border: 1px solid #ccc; border-left: 6px solid #bbb; border-radius: 4px; padding: 0.4rem 0.6rem;
  min-width: 11rem; font-size: 0.85rem; background: #fff; color: #1b1b1b; }
.th-card.rejects { border-left-color: #c62828; } .th-card.warns { border-left-color: #b26a00; }
.th-card.accepts { border-left-color: #2e7d32; }
.th-card b { font-size: 0.95rem; } .th-card .v { font-weight: 600; }
.th-card.rejects .v { color: #b71c1c; } .th-card.warns .v { color: #8a5a00; }
.th-card.accepts .v { color: #1b5e20; }
.th-card ul { margin: 0.2rem 0 0; padding-left: 1rem; } .th-card .how { color: #555; font-size: 0.75rem; }
table.th-diff td { font-family: ui-monospace, monospace; font-size: 0.78rem; white-space: pre-wrap; }
tr.th-changed td { background: #fff3cd; } tr.th-inserted td { background: #d4edda; }
tr.th-deleted td { background: #f8d7da; } tr.th-moved td { background: #d1ecf1; }
.th-payloads { display: grid; gap: 0.5rem; align-items: start; }
.th-payload { min-width: 0; }
.th-payload h4 { margin: 0.2rem 0; }
pre.th-json { background: #fafafa; color: #1b1b1b; border: 1px solid #ddd; padding: 0.3rem 0;
  font-size: 0.75rem; line-height: 1.35; overflow: auto; max-height: 36rem; margin: 0;
  white-space: pre-wrap; overflow-wrap: anywhere; text-align: left; }
pre.th-json span.l { display: block; padding: 0 0.4rem 0 3.8em; text-indent: -3.4em; }
pre.th-json span.n { color: #999; display: inline-block; width: 3.4em; text-indent: 0; user-select: none; }
pre.th-json span.l.m { background: #fde0e0; box-shadow: inset 3px 0 #c62828; }
pre.th-json span.r { color: #b71c1c; font-style: italic; }
pre.th-json .k { color: #0b4f9c; } pre.th-json .s { color: #2a7a2a; }
pre.th-json .d { color: #9c4f0b; } pre.th-json .b { color: #7b1fa2; }
pre.th-json .gap { color: #999; font-style: italic; }
.th-pick { white-space: pre-wrap; max-height: 24rem; overflow: auto; background: #f7f7f7; padding: 0.4rem;
  font-size: 0.75rem; }
.th-judged { color: #555; font-size: 0.8rem; margin: -0.6rem 0 0.8rem; }
.th-jumps { font-size: 0.78rem; margin: 0.2rem 0; }
"""
"""The classes every builder here uses (a report puts it in its ``<style>``; a notebook output inlines it)."""

STATUS_CLASSES: Final = {s: f"th-{s}" for s in ("same", "changed", "inserted", "deleted", "moved")}

_TOKEN: Final = re.compile(
    r"(?P<key>&quot;(?:[^&\\]|\\.|&(?!quot;))*&quot;)(?=: )"
    r"|(?P<str>&quot;(?:[^&\\]|\\.|&(?!quot;))*&quot;)"
    r"|(?P<num>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)"
    r"|(?P<lit>\btrue\b|\bfalse\b|\bnull\b)"
)
"""JSON tokens on an `esc`-aped line: a ``"`` is ``&quot;`` there, so a string never spans markup."""
_CLASSES: Final = {"key": "k", "str": "s", "num": "d", "lit": "b"}


def esc(value: object) -> str:
    """Escaped text of any value (None shows as empty); quotes too, so it is safe in attributes."""
    return html.escape("" if value is None else str(value))


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    table_id: str | None = None,
    row_classes: Sequence[str] | None = None,
    css_class: str | None = None,
) -> str:
    """An HTML table of escaped cells; ``row_classes`` gives each body row a class (a diff status)."""
    attrs = (f' id="{esc(table_id)}"' if table_id else "") + (
        f' class="{esc(css_class)}"' if css_class else ""
    )
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    thead = f"<thead><tr>{head}</tr></thead>" if any(headers) else ""
    body = []
    for n, row in enumerate(rows):
        cls = f' class="{esc(row_classes[n])}"' if row_classes and row_classes[n] else ""
        body.append(f"<tr{cls}>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>")
    return f"<table{attrs}>{thead}<tbody>{''.join(body)}</tbody></table>"


def where(position: Position | None) -> str:
    """``message`` or ``message.block``, as ``toolhist curate`` prints positions."""
    if position is None:
        return "-"
    return str(position.message) if position.block is None else f"{position.message}.{position.block}"


def shared_name(path: str | None) -> str | None:
    """The file's name without its directories: a shared page names the file, not the reader's home."""
    return PurePath(path).name if path else path


def summary_table(session: Session) -> str:
    """The summary of a session (`toolhist.summarize`) as a label/value table."""
    s = summarize(session)
    rows: list[tuple[str, object]] = [
        ("file", shared_name(s.file)),
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
    return table(("", ""), rows)


def messages_table(session: Session, *, width: int, limit: int | None = None) -> str:
    """One row per message (``#``, speaker, content cut to ``width``); past ``limit`` rows, a count."""
    shown = session.messages if limit is None else session.messages[:limit]
    rows = [(i, role(m.speaker), summarize_message(m, width=width)) for i, m in enumerate(shown)]
    more = len(session.messages) - len(shown)
    return table(("#", "speaker", "content"), rows) + (f"<p>… {more} more not shown.</p>" if more else "")


def verdict_cards(results: Mapping[str, Sequence[Violation]], as_sent: Iterable[str] = ()) -> str:
    """One card per provider: rejects / accepts, its rules with counts, and what was judged.

    ``as_sent`` names the providers whose verdict is on the body exactly as it was sent
    (`toolhist.check.is_as_sent`); the others were judged on the body toolhist renders for the next
    request.
    """
    sent = set(as_sent)
    cards = []
    for provider, found in results.items():
        errors = sum(v.severity == "error" for v in found)
        kind = "rejects" if errors else ("warns" if found else "accepts")
        label = "rejects (HTTP 400)" if errors else ("accepts, with warnings" if found else "accepts")
        counts: dict[tuple[str, str], int] = {}
        for v in found:
            counts[(v.rule, v.severity)] = counts.get((v.rule, v.severity), 0) + 1
        rules = "".join(
            f"<li>{esc(rule)} x{n}{'' if severity == 'error' else ' (warning)'}</li>"
            for (rule, severity), n in counts.items()
        )
        how = "as sent" if provider in sent else "as the next request"
        cards.append(
            f'<div class="th-card {kind}" data-provider="{esc(provider)}"><b>{esc(provider)}</b> '
            f'<span class="v">{esc(label)}</span>'
            + (f"<ul>{rules}</ul>" if rules else "")
            + f'<div class="how">{esc(how)}</div></div>'
        )
    return f'<div class="th-cards">{"".join(cards)}</div>'


def aligned_diff(d: Diff, *, width: int = 160, only_changed: bool = False) -> str:
    """The before/after table of a diff, each row coloured by its status (`views.diffs.aligned_frame`)."""
    frame = aligned_frame(d, width)
    if only_changed:
        frame = frame[frame["status"] != "same"]
    rows = [
        ["" if pd.isna(b) else int(b), before, status, "" if pd.isna(a) else int(a), after, changes]
        for b, before, status, a, after, changes in frame.itertuples(index=False)
    ]
    return table(
        ("before #", "before", "status", "after #", "after", "changes"),
        rows,
        row_classes=[STATUS_CLASSES[str(r[2])] for r in rows],
        css_class="th-diff",
    )


def highlight(line: str) -> str:
    """One JSON line escaped, its tokens wrapped in spans (keys, strings, numbers, literals)."""
    escaped = esc(line)
    return _TOKEN.sub(
        lambda m: f'<span class="{_CLASSES[m.lastgroup or "str"]}">{m.group(0)}</span>', escaped
    )


def json_code(lines: pd.DataFrame, *, anchor: str, total: int | None = None) -> str:
    """Lines of a `toolhist.views.payloads.lines_frame` as highlighted code, flagged lines marked.

    ``anchor`` prefixes each marked line's id (``{anchor}-L12``) so the jump list above the code
    links to it; lines not listed (`offending_lines`) show as a gap. ``total`` is the body's line
    count when only some lines are given.
    """
    out = []
    previous = 0
    jumps = []
    for number, text, _path, rules in lines[["line", "text", "path", "rules"]].itertuples(index=False):
        if number != previous + 1:
            out.append(f'<span class="l gap">… {number - previous - 1} line(s)</span>')
        previous = int(number)
        if rules:
            ident = f"{anchor}-L{number}"
            jumps.append(f'<a href="#{esc(ident)}">{number}</a>')
            out.append(
                f'<span class="l m" id="{esc(ident)}"><span class="n">{number}</span>{highlight(text)}'
                f'  <span class="r">← {esc(rules)}</span></span>'
            )
        else:
            out.append(f'<span class="l"><span class="n">{number}</span>{highlight(text)}</span>')
    if total is not None and previous < total:
        out.append(f'<span class="l gap">… {total - previous} line(s)</span>')
    jump = f'<div class="th-jumps">marked lines: {" · ".join(jumps)}</div>' if jumps else ""
    return f'{jump}<pre class="th-json">{"".join(out)}</pre>'


def payload_grid(panels: Sequence[tuple[str, str]]) -> str:
    """Panels (a heading, its HTML) side by side, one column each, sharing the width evenly."""
    columns = f"repeat({max(1, len(panels))}, minmax(0, 1fr))"
    cells = "".join(f'<div class="th-payload"><h4>{esc(h)}</h4>{body}</div>' for h, body in panels)
    return f'<div class="th-payloads" style="grid-template-columns: {columns}">{cells}</div>'


_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$=^&\"'@/])")


def md_literal(text: str) -> str:
    """``text`` shown literally by a Streamlit element that renders Markdown (``st.caption``, ``help=``…).

    Every punctuation mark that could start a link, an image, HTML, an emoji or icon shortcode,
    LaTeX or a colour directive is backslash-escaped (CommonMark escapes any ASCII punctuation).
    Session and bundle text goes through here, so nothing it names is ever fetched.
    """
    return _MARKDOWN.sub(r"\\\1", text)
