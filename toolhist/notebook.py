"""Every view of the app as a notebook call: offline in JupyterLab, Notebook 7 and VS Code.

The pages' builders (`toolhist.views`) drawn as notebook outputs::

    from toolhist import notebook as nb
    nb.verdicts(session)                 # a card per provider: rejects / accepts, rule counts
    nb.timeline(session, ["mistral"])    # the Timeline page's figure; click a point to see its message
    nb.violations(session)               # the Violations table, styled by severity
    toolhist.curate(session, "mistral")  # displays as the before/after aligned and coloured
    nb.payloads(session, ["openai-chat", "mistral", "anthropic", "gemini"])  # side by side, lines marked
    nb.explain(error_text, session)      # a pasted 400: the rule, its meaning, the culprit message
    nb.compaction(session, "anthropic")  # RFC 026 tiers: tokens before and after
    nb.conversation(session, "anthropic", query="read_file")  # the transcript, tool calls as cards

The timeline is the one output that runs a script. Its HTML holds the static SVG picture
(`toolhist.views.svg`) and, beside it, the plotly figure with plotly.js *inline* (nothing from a
CDN: the bundle the plotly package ships, sent with the first figure of a kernel and found on
``window.Plotly`` by the later ones). Where scripts run (a trusted notebook in JupyterLab, Notebook 7,
VS Code, an nbconvert HTML page) the script swaps the picture for the figure and a click on a point
shows that message below it; where they do not (GitHub's notebook view, an untrusted notebook) the
picture stays. That is the interactive view with its static fallback in one output, needing no
widget extension and no kernel round trip.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import pandas as pd

from toolhist.compaction import Compaction, compact
from toolhist.diff import summarize_message
from toolhist.display import cards, verdicts_of, wrap
from toolhist.explain import Explanation
from toolhist.explain import explain as explain_text
from toolhist.model import Session
from toolhist.providers import Violation, provider_for, render, validate
from toolhist.redact import redact_text
from toolhist.views.compaction import replacements_frame, tiers_frame
from toolhist.views.markup import esc, json_code, payload_grid, table
from toolhist.views.payloads import numbered_lines, offending_lines, verdict
from toolhist.views.svg import timeline_svg
from toolhist.views.timeline import events_frame, timeline_figure
from toolhist.views.transcript import SearchField, index_of, search, search_index, window_of
from toolhist.views.transcript_html import CSS as CONVERSATION_CSS
from toolhist.views.transcript_html import conversation_html
from toolhist.views.violations import by_message, violations_frame

FULL_LINES: Final = 4000
"""Above this many JSON lines a body shows only its marked lines (with context), as on the Payloads page."""
MESSAGE_CHARS: Final = 4000
"""Characters of a message the timeline carries for its click-to-show pane."""
PICKABLE: Final = 2000
"""Messages without a violation the timeline carries for that pane (every violating one is carried);
a click on another names it: ``session.messages[n]`` shows it."""
MAX_HITS: Final = 200
"""Search matches a conversation output lists."""
SEVERITY_COLORS: Final = {"error": "background-color: #f8d7da", "warning": "background-color: #fff3cd"}

_sent_plotlyjs = False  # whether this kernel already sent plotly.js with a figure


@dataclass(frozen=True)
class View:
    """A notebook output of static HTML (inline CSS, no script)."""

    html: str

    def _repr_html_(self) -> str:
        return self.html


def verdicts(session: Session, providers: Sequence[str] | None = None) -> View:
    """A card per provider: rejects or accepts, its rules with counts, as sent or as the next request."""
    return View(wrap(cards(*verdicts_of(session, list(providers) if providers else None))))


@dataclass(frozen=True, eq=False)
class Timeline:
    """The Timeline page's figure as a notebook output (see the module docstring for how it degrades)."""

    frame: pd.DataFrame
    """`toolhist.views.timeline.events_frame`: one row per call, result or violating message."""
    figure: Any
    """The plotly figure (`timeline_figure`), for a user who wants to restyle or save it."""
    svg: str
    """The static picture shown where no script runs."""
    messages: dict[int, str] = field(repr=False)
    """Text shown for a clicked point: each message that has an event, as its blocks' JSON."""
    include_plotlyjs: bool | None = None
    """Send plotly.js with this output: None sends it with the first figure of the kernel only."""

    def _repr_mimebundle_(self, **_: Any) -> dict[str, str]:
        global _sent_plotlyjs  # noqa: PLW0603 - once per kernel, as plotly's own notebook renderer
        send = (not _sent_plotlyjs) if self.include_plotlyjs is None else self.include_plotlyjs
        _sent_plotlyjs = _sent_plotlyjs or send
        return {
            "text/html": self.html(with_plotlyjs=send),
            "text/plain": f"<toolhist timeline: {len(self.frame)} events>",
        }

    def html(self, *, with_plotlyjs: bool) -> str:
        """The output's HTML: the picture, a place for the figure and the message pane, the scripts."""
        ident = f"th-{uuid.uuid4().hex[:12]}"
        bundle = ""
        if with_plotlyjs:
            from plotly.offline import get_plotlyjs

            # plotly.js is a UMD bundle: where a page has require.js (classic Notebook, nbconvert's
            # template) it would register as an AMD module and leave window.Plotly unset, so the
            # loader is hidden while the bundle runs.
            bundle = (
                "<script>window.PlotlyConfig = {MathJaxConfig: 'local'};"
                "window.__toolhistDefine = window.define; window.define = undefined;</script>"
                f'<script charset="utf-8">{get_plotlyjs()}</script>'
                "<script>window.define = window.__toolhistDefine;</script>"
            )
        data = _script_json(json.loads(self.figure.to_json()))
        messages = _script_json({str(k): v for k, v in self.messages.items()})
        script = _DRAW.replace("ID", json.dumps(ident)).replace("FIGURE", data).replace("MESSAGES", messages)
        return (
            wrap(
                f'<div id="{ident}" class="th-figure">'
                f'<div class="th-static">{self.svg}</div>'
                '<div class="th-live" style="display:none"></div>'
                '<pre class="th-pick" style="display:none">'
                "Click a point to see its message.</pre></div>"
            )
            + f"{bundle}<script>{script}</script>"
        )


_DRAW: Final = """
(function () {
  var root = document.getElementById(ID), tries = 0;
  function draw() {
    var fig = FIGURE, messages = MESSAGES;
    var live = root.querySelector(".th-live"), pick = root.querySelector(".th-pick");
    live.style.display = "block";
    var config = {displaylogo: false, responsive: true};
    window.Plotly.newPlot(live, fig.data, fig.layout, config).then(function () {
      root.querySelector(".th-static").style.display = "none";
      pick.style.display = "block";
      root.setAttribute("data-live", "1");
      live.on("plotly_click", function (event) {
        var point = event.points && event.points[0];
        if (!point || !point.customdata) { return; }
        var m = String(point.customdata[1]);
        var missing = "Message " + m + ": not carried here; see session.messages[" + m + "]";
        pick.textContent = messages[m] || missing;
        root.setAttribute("data-picked", m);
      });
    });
  }
  (function wait() {  // plotly.js comes with the kernel's first figure, which may render later
    if (!root) { return; }
    if (window.Plotly) { draw(); } else if (tries++ < 50) { setTimeout(wait, 200); }
  })();
})();
"""


def _script_json(value: object) -> str:
    """JSON safe inside ``<script>``: no ``<``, ``>`` or ``&`` left to end the element or open a comment."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def timeline(
    session: Session, providers: Sequence[str] | None = None, *, include_plotlyjs: bool | None = None
) -> Timeline:
    """The timeline of tool calls and results, the violations of ``providers`` ringed (all by default)."""
    _, results = verdicts_of(session, list(providers) if providers else None)
    found = [v for vs in results.values() for v in vs]
    frame = events_frame(session, found)
    flagged = by_message(found)
    # the messages a click can show: those with a violation first, then the others, up to PICKABLE
    events = dict.fromkeys(int(m) for m in frame["message"])
    carried = sorted([m for m in events if m in flagged] + [m for m in events if m not in flagged][:PICKABLE])
    messages = {}
    for m in carried:
        message = session.messages[m]
        mine = "".join(f"✗ {v.provider} · {v.rule}: {v.error_text}\n" for v in flagged.get(m, []))
        blocks = json.dumps(
            [b.model_dump(mode="json", exclude_defaults=True) for b in message.blocks],
            indent=2,
            ensure_ascii=False,
        )
        text = f"Message {m} · {message.speaker}\n{mine}{blocks}"
        shown = text[:MESSAGE_CHARS] + ("…" if len(text) > MESSAGE_CHARS else "")
        messages[m] = redact_text(shown)[0]  # saved in the notebook, so shared with it
    svg = timeline_svg(
        frame, messages=len(session.messages), title="tool calls and results, violations ringed"
    )
    return Timeline(frame, timeline_figure(frame), svg, messages, include_plotlyjs)


def violations(session: Session, providers: Sequence[str] | None = None) -> Any:
    """The Violations page's table as a styled DataFrame (errors red, warnings amber; cells escaped).

    The text cells are redacted: a notebook is saved with its outputs, so what it shows is shared with it
    (an error text can quote a session's content).
    """
    frame = violations_frame(verdicts_of(session, list(providers) if providers else None)[1])
    for column in ("call ids", "error text", "fix", "path"):
        frame[column] = [redact_text(str(cell))[0] for cell in frame[column]]
    return (
        frame.style.apply(lambda row: [SEVERITY_COLORS.get(str(row["severity"]), "")] * len(row), axis=1)
        .format(escape="html", na_rep="")
        .set_properties(subset=None, **{"text-align": "left", "vertical-align": "top"})
        .hide(axis="index")
    )


def payloads(
    session: Session, providers: Sequence[str], *, strategy: str = "none", only_marked: bool = False
) -> View:
    """The Payloads page: each provider's exact request body side by side, offending lines marked."""
    panels = []
    for provider in providers:
        payload = render(session, provider, strategy=strategy)
        found: list[Violation] = validate(session, provider, strategy=strategy)
        total, lines = numbered_lines(
            payload.body, provider_for(provider).path_format, found, full_up_to=FULL_LINES
        )
        if only_marked and total <= FULL_LINES:
            lines = offending_lines(lines)
        marked = int((lines["rules"] != "").sum())
        head = f"<p>{esc(verdict(found))}; {total:,} lines, {marked} marked</p>"
        panels.append((provider, head + json_code(lines, anchor=f"{provider}-{strategy}", total=total)))
    return View(wrap(payload_grid(panels)))


def explain(error_text: str, session: Session | None = None) -> View:
    """The Explain page: a pasted provider error named as a rule, its meaning, fix and culprit message."""
    found: Explanation = explain_text(error_text, session)
    rows: list[tuple[str, object]] = [
        ("provider", found.provider or "-"),
        ("rule", found.rule or f"unknown ({found.reason})"),
        ("error text", found.error_text),
        ("peeled", ", ".join(found.wrappers) or "-"),
        ("meaning", found.meaning),
        ("fix", found.fix),
        ("call ids", ", ".join(found.call_ids) or "-"),
    ]
    if session is not None and found.message_index is not None:
        culprit = session.messages[found.message_index]
        where = f"message {found.message_index}" + (
            f", block {found.block_index}" if found.block_index is not None else ""
        )
        rows.append(("culprit", f"{where} ({culprit.speaker}): {summarize_message(culprit, width=300)}"))
    return View(wrap(table(("", ""), rows, table_id="th-explanation")))


def conversation(
    session: Session,
    provider: str | None = None,
    *,
    start: int = 0,
    size: int = 50,
    query: str | None = None,
    field: SearchField = "text",
) -> View:
    """The Conversation page: ``size`` messages from ``start`` as turns and tool-call cards.

    ``provider``'s violations (as ``check`` finds them) are marked where they point; ``query``
    lists the matches of a search (text, ``field="tool"`` or ``"id"``) above the transcript and
    starts the window at the first one. Markdown is rendered without fetching anything.
    """
    idx = index_of(session)
    found = verdicts_of(session, [provider])[1].get(provider, []) if provider else []
    head = ""
    if query:
        hits, total = search(session, search_index(session), query, field, limit=MAX_HITS)
        rows = [(h.message, "" if h.block < 0 else h.block, h.kind, h.snippet) for h in hits]
        head = f"<p>{total:,} match(es) of {esc(query)!s}</p>" + table(
            ("message", "block", "what", "text"), rows
        )
        start = hits[0].message if hits and start == 0 else start
    shown = window_of(len(session.messages), start, size)
    body = conversation_html(session, idx, shown, found)
    return View(wrap(f"<style>{CONVERSATION_CSS}</style>{head}{body}"))


def compaction(session: Session, provider: str, **settings: Any) -> View:
    """The Compaction page: tokens per tier before and after, and what each summary replaced."""
    c: Compaction = compact(session, provider, **settings)
    tiers = tiers_frame(c).style.format(escape="html").hide(axis="index").to_html()
    replaced = replacements_frame(c)
    more = replaced.style.format(escape="html").hide(axis="index").to_html() if len(replaced) else ""
    return View(wrap(f"<p>{esc(provider)}: {c.tokens_before:,} → {c.tokens_after:,} tokens</p>{tiers}{more}"))
