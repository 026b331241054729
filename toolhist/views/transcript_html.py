"""A window of the conversation as static HTML: speaker turns, tool-call cards, violations in place.

What the Conversation page shows (through ``st.html``) and ``toolhist.notebook.conversation``
returns. Inline CSS and markup only: no script, no ``<img>``, no ``<a href>`` to anywhere, and every
piece of session content is escaped (`esc`) or rendered by `toolhist.views.safemd`, which turns
images and links into text. So a tool result holding ``<script>`` or a Markdown image of a tracking
URL shows as text, and the browser fetches nothing.

Each message is a turn headed by its index (``#12``: the ``msg=`` of every page's deep links) and
anchored as ``th-msg-12``. A tool call is a card holding its arguments and the result that answers
it (wherever that result is, so a card is whole on any page); the tool message then says where its
results are shown instead of repeating them. Long text shows its beginning, the rest folded.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    OpaqueBlock,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
    Unsent,
)
from toolhist.providers import Violation
from toolhist.views.markup import esc
from toolhist.views.roles import role
from toolhist.views.safemd import markdown_html
from toolhist.views.transcript import Index, Site, arguments_text, result_text, subagent_of

SHOWN_CHARS: Final = 1500
"""Characters of a long argument or result shown before the rest is folded."""
MAX_CHARS: Final = 200_000
"""Characters of one block sent to the browser at most; the rest is counted, not shown."""
EMPTY: Final = '<div class="th-none">(no content)</div>'
EMPTY_RESULT: Final = '<div class="th-none">(an empty result)</div>'

CSS: Final = """
.th-conv { font-size: 0.9rem; line-height: 1.45; color: #1b1b1b; }
.th-turn { border: 1px solid #ddd; border-left: 5px solid #bbb; border-radius: 6px; margin: 0 0 0.6rem;
  padding: 0.35rem 0.7rem; background: #fff; }
.th-turn.human { border-left-color: #1565c0; background: #f3f8ff; }
.th-turn.ai { border-left-color: #6a1b9a; }
.th-turn.tool { border-left-color: #78909c; background: #fafafa; }
.th-turn.system { border-left-color: #8d6e63; background: #fbf8f3; }
.th-turn.flagged { border-color: #e57373; border-left-color: #c62828; }
.th-turn.focus { outline: 3px solid #f9a825; outline-offset: 1px; }
.th-head { font-size: 0.8rem; color: #555; margin-bottom: 0.15rem; }
.th-idx { font-weight: 700; color: #1b1b1b; font-family: ui-monospace, monospace; margin-right: 0.3rem; }
.th-who { font-weight: 600; color: #1b1b1b; }
.th-badge { display: inline-block; padding: 0 0.35rem; border-radius: 3px; font-size: 0.72rem;
  margin-left: 0.3rem; background: #eceff1; color: #37474f; }
.th-badge.err { background: #fde0e0; color: #b71c1c; } .th-badge.warn { background: #fff3cd; color: #8a5a00; }
.th-badge.wait { background: #e3f2fd; color: #0d47a1; }
.th-md h1, .th-md h2 { font-size: 1.1rem; margin: 0.5rem 0 0.25rem; padding: 0; }
.th-md h3, .th-md h4, .th-md h5, .th-md h6 { font-size: 0.95rem; margin: 0.4rem 0 0.2rem; padding: 0; }
.th-md p { margin: 0.25rem 0; } .th-md pre { background: #f5f5f5; padding: 0.3rem; overflow: auto; }
.th-md table { border-collapse: collapse; }
.th-md td, .th-md th { border: 1px solid #ccc; padding: 0 0.3rem; }
.th-md-url, .th-md-img { color: #666; font-size: 0.85em; font-family: ui-monospace, monospace; }
.th-call { border: 1px solid #cfd8dc; border-left: 4px solid #78909c; border-radius: 5px; margin: 0.35rem 0;
  background: #f7f9fa; }
.th-call.error { border-left-color: #c62828; } .th-call.unanswered { border-left-color: #c62828; }
.th-call.pending { border-left-color: #1565c0; } .th-call.flagged { border-color: #e57373; }
.th-call-head { padding: 0.2rem 0.5rem; font-size: 0.82rem; background: #eceff1; }
.th-call-head code, .th-ref code { font-size: 0.78rem; }
.th-sub { font-size: 0.72rem; color: #666; padding: 0.15rem 0.5rem 0; text-transform: uppercase; }
.th-result { border-top: 1px dashed #cfd8dc; }
.th-result.error .th-pre { background: #fff5f5; }
.th-none { padding: 0.2rem 0.5rem; font-size: 0.8rem; color: #555; font-style: italic; }
.th-pre { white-space: pre-wrap; overflow-wrap: anywhere; font-family: ui-monospace, monospace;
  font-size: 0.78rem; margin: 0; padding: 0.25rem 0.5rem; max-height: 30rem; overflow: auto; }
.th-conv details > summary { cursor: pointer; font-size: 0.78rem; color: #555; padding: 0.1rem 0.5rem; }
.th-think { border-left: 3px solid #b0bec5; margin: 0.3rem 0; background: #f8f8fb; }
.th-ref { font-size: 0.8rem; color: #555; margin: 0.15rem 0; }
.th-viol { border-left: 3px solid #c62828; background: #fff5f5; padding: 0.15rem 0.5rem; margin: 0.25rem 0;
  font-size: 0.8rem; }
.th-viol.warning { border-left-color: #b26a00; background: #fffaf0; }
.th-viol .th-pre { padding: 0.1rem 0; max-height: 8rem; }
.th-unsent { border: 1px dashed #9e9e9e; border-radius: 6px; margin: 0 0 0.6rem; padding: 0.3rem 0.7rem;
  color: #555; background: #f4f4f4; font-size: 0.82rem; }
"""
"""The classes `conversation_html` uses (a page emits it once; a notebook output inlines it)."""


def _badge(text: str, kind: str = "") -> str:
    return f'<span class="th-badge {kind}">{esc(text)}</span>'


def long_text(text: str, *, where: str = "") -> str:
    """``text`` preformatted: its beginning shown, the rest folded, past `MAX_CHARS` counted only."""
    if len(text) <= SHOWN_CHARS:
        return f'<pre class="th-pre">{esc(text)}</pre>'
    shown, rest = text[:SHOWN_CHARS], text[SHOWN_CHARS:MAX_CHARS]
    cut = len(text) - MAX_CHARS
    more = (
        f'<div class="th-none">… {cut:,} more characters not shown here{esc(where)}</div>' if cut > 0 else ""
    )
    return (
        f'<pre class="th-pre">{esc(shown)}</pre>'
        f"<details><summary>show the other {len(text) - SHOWN_CHARS:,} characters</summary>"
        f'<pre class="th-pre">{esc(rest)}</pre>{more}</details>'
    )


def violations_html(found: Sequence[Violation]) -> str:
    """Each violation: provider, rule, severity, payload path, the provider's words and the fix."""
    out = []
    for v in found:
        head = f"{v.provider} · {v.rule} · {v.severity} · {v.path}" + (
            f" · block {v.block_index}" if v.block_index is not None else ""
        )
        out.append(
            f'<div class="th-viol {esc(v.severity)}"><b>{esc(head)}</b>'
            f'<pre class="th-pre">{esc(v.error_text)}</pre>'
            f"<div>Fix: {esc(v.fix)}</div></div>"
        )
    return "".join(out)


def _when(message: Message) -> str:
    stamp = message.metadata.timestamp
    if stamp is None:
        return ""
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _result_body(block: ToolResponseBlock, where: str) -> str:
    cls = "th-result error" if block.error else "th-result"
    badges = (_badge("error", "err") if block.error else "") + (
        "" if block.is_complete else _badge("incomplete: made up or cut short by the agent", "warn")
    )
    error = f'<pre class="th-pre">{esc(block.error)}</pre>' if block.error else ""
    text = result_text(block.result)
    body = long_text(text, where=f" ({where})") if text else "" if block.error else EMPTY_RESULT
    return f'<div class="{cls}"><div class="th-sub">result · {esc(where)}{badges}</div>{error}{body}</div>'


@dataclass(frozen=True)
class Shown:
    """What every block of a window is drawn against: the session, its index and the window."""

    session: Session
    idx: Index
    window: range


def _call_card(shown: Shown, at: Site, call: ToolCallBlock, found: Sequence[Violation]) -> str:
    session, idx = shown.session, shown.idx
    status = idx.call_status(call.id)
    results = idx.result_of(call.id)
    answers = [session.messages[s.message].blocks[s.block] for s in results]
    errored = any(isinstance(a, ToolResponseBlock) and a.error for a in answers)
    badges = {
        "pending": _badge("pending: the agent sends its result next", "wait"),
        "unanswered": _badge("unanswered: no result answers it", "err"),
        "answered": _badge("error", "err") if errored else "",
    }[status]
    if len(results) > 1:
        badges += _badge(f"answered {len(results)} times", "warn")
    if call.arguments_error:
        badges += _badge("arguments are not valid JSON", "warn")
    classes = " ".join(
        x for x in ("th-call", status, "error" if errored else "", "flagged" if found else "") if x
    )
    ident = call.raw_id or call.id
    args = arguments_text(call)
    body = f'<div class="th-sub">{"input" if call.freeform_input is not None else "arguments"}</div>'
    body += long_text(args, where=f" (message {at.message}, block {at.block})")
    for site, answer in zip(results, answers, strict=True):
        if isinstance(answer, ToolResponseBlock):
            body += _result_body(answer, f"message #{site.message}")
            agent = subagent_of(session, site.message)
            if agent is not None and session.metadata.get("thread") != "sidechain":
                body += (
                    f'<div class="th-ref">↳ answered by subagent <code>{esc(agent)}</code>: its own thread '
                    "is under Thread (a sidechain in this file, or its subagent file)</div>"
                )
    if not results:
        body += (
            '<div class="th-none">No result yet: the log ends on this call; the agent runs it and sends '
            "its result with the next request.</div>"
            if status == "pending"
            else '<div class="th-none">No message of this history answers this call.</div>'
        )
    return (
        f'<div class="{classes}" id="th-call-{at.message}-{at.block}">'
        f'<div class="th-call-head">tool call <b>{esc(call.name)}</b> <code>{esc(ident)}</code>{badges}</div>'
        f"{violations_html(found)}{body}</div>"
    )


def _result_ref(shown: Shown, m: int, block: ToolResponseBlock, found: Sequence[Violation]) -> str:
    call = shown.idx.calls.get(block.call_id)
    ident = block.raw_call_id or block.call_id
    name = block.tool_name or "?"
    if call is not None and call.message in shown.window and call.message != m:
        flag = _badge("error", "err") if block.error else ""
        return (
            f'<div class="th-ref">↳ result of <b>{esc(name)}</b> <code>{esc(ident)}</code>{flag}, shown with '
            f"its call in #{call.message}</div>{violations_html(found)}"
        )
    head = f"result of <b>{esc(name)}</b> <code>{esc(ident)}</code>" + (
        f" · its call is in #{call.message}" if call is not None else _badge("answers no call", "err")
    )
    body = _result_body(block, f"message #{m}")
    return (
        f'<div class="th-call{" flagged" if found else ""}"><div class="th-call-head">{head}</div>'
        f"{violations_html(found)}{body}</div>"
    )


def _media(block: MediaBlock) -> str:
    if block.data is not None:
        where = f"inline data, {len(block.data) * 3 // 4:,} bytes"
    else:
        where = f"url {block.url}" if block.url else "no data"
    said = " · ".join(x for x in (block.mime_type or "media", block.filename, where) if x)
    return f'<div class="th-ref">[{esc(said)}: not displayed]</div>'


def block_html(shown: Shown, at: Site, block: Block, found: Sequence[Violation]) -> str:
    """One block of message ``m``: text as safe Markdown, a call as its card, thinking folded."""
    if isinstance(block, TextBlock):
        return f'<div class="th-md">{markdown_html(block.text)}</div>{violations_html(found)}'
    if isinstance(block, ToolCallBlock):
        return _call_card(shown, at, block, found)
    if isinstance(block, ToolResponseBlock):
        return _result_ref(shown, at.message, block, found)
    if isinstance(block, ThinkingBlock):
        what = [f"{len(block.text):,} characters" if block.text else "no readable text"]
        what += ["redacted"] if block.redacted else []
        what += ["signed"] if block.signature else []
        text = f'<div class="th-md">{markdown_html(block.text)}</div>' if block.text else ""
        return (
            f'<details class="th-think"><summary>thinking · {esc(" · ".join(what))}</summary>{text}</details>'
            f"{violations_html(found)}"
        )
    if isinstance(block, MediaBlock):
        return _media(block) + violations_html(found)
    if isinstance(block, OpaqueBlock):
        data = json.dumps(block.data, indent=2, ensure_ascii=False)
        return (
            f"<details><summary>{esc(block.source_format)} block kept as it was</summary>"
            f"{long_text(data)}</details>{violations_html(found)}"
        )
    return f'<pre class="th-pre">{esc(block)}</pre>'  # pragma: no cover - every block type is above


def unsent_html(record: Unsent) -> str:
    """A record the agent keeps but never sends, marked as such where it stood."""
    where = f" · line {record.line}" if record.line is not None else ""
    key = record.data.get("key") if record.kind == "sidechain" else None
    said = (
        f"sidechain {key} ({record.data.get('lines')} lines): pick it under Thread to read it"
        if key is not None
        else record.text
    )
    return (
        f'<div class="th-unsent"><b>not sent to the model</b> · {esc(record.kind)}{esc(where)}'
        f"<div>{esc(record.reason)}</div>{long_text(said) if said else ''}</div>"
    )


def message_html(shown: Shown, m: int, found: Sequence[Violation], *, focus: bool = False) -> str:
    """Message ``m`` as a turn: its index, speaker, model and time, its violations, its blocks."""
    session = shown.session
    message = session.messages[m]
    meta = message.metadata
    locations = session.source.locations
    location = locations[m] if m < len(locations) else None
    facts = [f"role {meta.source_role}" if meta.source_role not in (None, role(message.speaker)) else None]
    facts += [meta.model, _when(message)]
    if location is not None:
        facts.append(f"line {location.line}" if location.line is not None else location.json_path or None)
    head = " · ".join(esc(f) for f in facts if f)
    badges = _badge(f"synthetic: {meta.reason or 'made by the agent'}", "warn") if meta.synthetic else ""
    errors = sum(v.severity == "error" for v in found)
    if found:
        badges += _badge(
            f"{len(found)} violation{'s' if len(found) != 1 else ''}", "err" if errors else "warn"
        )
    on_message = [v for v in found if v.block_index is None or v.block_index >= len(message.blocks)]
    blocks = "".join(
        block_html(shown, Site(m, b), block, [v for v in found if v.block_index == b])
        for b, block in enumerate(message.blocks)
    )
    classes = " ".join(
        x for x in ("th-turn", message.speaker, "flagged" if found else "", "focus" if focus else "") if x
    )
    return (
        f'<div class="{classes}" id="th-msg-{m}" data-msg="{m}"><div class="th-head">'
        f'<span class="th-idx">#{m}</span><span class="th-who">{role(message.speaker)}</span>'
        f"{' · ' + head if head else ''}{badges}</div>{violations_html(on_message)}"
        f"{blocks or EMPTY}</div>"
    )


def conversation_html(
    session: Session,
    idx: Index,
    window: range,
    found: Sequence[Violation] = (),
    *,
    focus: int | None = None,
) -> str:
    """The messages of ``window`` as turns, unsent records in place, ``found`` marked where they point."""
    mine: dict[int, list[Violation]] = {}
    for v in found:
        if v.message_index is not None and v.message_index in window:
            mine.setdefault(v.message_index, []).append(v)
    out = []
    shown = Shown(session, idx, window)
    for m in window:
        out += [unsent_html(session.unsent[u]) for u in idx.unsent.get(m, ())]
        out.append(message_html(shown, m, mine.get(m, []), focus=m == focus))
    end = len(session.messages)
    if window.stop >= end:
        out += [unsent_html(session.unsent[u]) for u in idx.unsent.get(end, ())]
    return f'<div class="th-conv">{"".join(out)}</div>'
