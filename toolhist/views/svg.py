"""The timeline as a static SVG picture: the Timeline page's default chart, and places that run no script.

The Timeline page shows it (one window of messages) unless the user turns on the interactive Plotly
figure: it needs no JavaScript, so the page shows without loading Plotly (`app_pages/1_Timeline.py`).
A shared report (CSP ``default-src 'none'``), a notebook rendered on GitHub, and the fallback under
the interactive figure in Jupyter show it too. It draws `toolhist.views.timeline.events_frame`
with the figure's conventions (`STATUS_COLORS`, `SYMBOLS`, lanes from `lanes`): one lane per tool,
x the message index, a grey line from each call to its results, calls as circles, results as
squares, messages with a violation but no call as diamonds, every event a violation points at ringed
in red. Each mark has a ``<title>`` (the figure's hover text) that the browser shows as a tooltip.
Session text (tool names, ids, rule names) is escaped; nothing in the picture loads or runs.

A history of more than ``max_events`` events is drawn as its first ``max_events`` events plus every
event with a violation, and the caption says how many were left out.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Final

import pandas as pd

from toolhist.views.timeline import MESSAGE_LANE, OUTSIDE_COLOR, STATUS_COLORS, VIOLATION_COLOR, lanes

WIDTH: Final = 1100
LANE: Final = 30
LEFT: Final = 170
RIGHT: Final = 20
TOP: Final = 44
BOTTOM: Final = 40
MAX_EVENTS: Final = 3000


_SHAPES: Final = {  # one mark as a sub-path at (x, y), in a path of its kind (``tooltips=False``)
    "call": "M{x} {y}h0",  # a dot: stroked with a round cap 10 wide, the circle of radius 5
    "result": "M{x} {y}h0",  # stroked with a square cap 9 wide: the 9 x 9 square centred on (x, y)
    "message": "M{x} {y}m0-6l6 6l-6 6l-6-6z",  # filled: the diamond
}
_PAINT: Final = {  # how each kind's path is painted: a capped stroke of its colour, or a fill
    "call": 'fill="none" stroke="{color}" stroke-width="10" stroke-linecap="round"',
    "result": 'fill="none" stroke="{color}" stroke-width="9" stroke-linecap="square"',
    "message": 'fill="{color}"',
}
"""A circle as an arc pair (``m-5 0a5 5 0 1 0 10 0a5 5 0 1 0-10 0``) was half of a 10,000-message
window's 150 KB; the page's markdown renderer parses every byte of the picture in the browser, and
a zero-length sub-path with a round (square) cap draws the same disc (square) in 12 characters."""
_BREAKS: Final = str.maketrans({"\n": "&#10;", "\r": "&#13;"})


def _e(text: object) -> str:
    """Session text as SVG/HTML text: markup escaped, and line breaks as references.

    The picture is one line: the Timeline shows it as a markdown HTML block, which a blank line
    would end (the rest would be read as markdown: links, images), so no session text may break it.
    """
    return html.escape(str(text)).translate(_BREAKS)


def _n(value: float) -> str:
    """A coordinate as short as it reads: ``209`` for ``209.0`` (the lanes' y), else as rounded."""
    return str(int(value)) if value == int(value) else str(value)


def _clip(text: str, n: int = 24) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def timeline_svg(
    frame: pd.DataFrame,
    *,
    messages: int,
    max_events: int | None = MAX_EVENTS,
    title: str = "",
    window: tuple[int, int] | None = None,
    selected: int | None = None,
    axis: str = "turn",
    width: int = WIDTH,
    tooltips: bool = True,
) -> str:
    """The events of ``frame`` (over ``messages`` messages) as one ``<svg>`` element.

    The root carries ``data-events`` (events drawn) and ``data-violations`` (events ringed), so a
    check can read what the picture holds without parsing it; every ring carries its message in
    ``data-message``. ``max_events=None`` draws every event (the Timeline page, which already cuts
    the frame to one window).

    The Timeline page draws one ``window`` (messages ``[lo, hi)``; ``frame`` cut to it) and rings
    the ``selected`` message with a dark line across the lanes. A link whose other end lies outside
    the window stops at its edge, at a grey triangle whose tooltip names that message, as on the
    interactive figure. ``axis="time"`` places events by timestamp (only when every event has one,
    `toolhist.views.timeline.has_times`). ``width`` is the drawing's own width (the text keeps its
    size in it): the page draws narrower than a report, so that a column's scale leaves text readable.

    ``tooltips=False`` (the page) draws each kind of mark as one ``<path class="marks KIND STATUS">``
    whose ``data-messages`` lists its marks' messages in order, and keeps a tooltip only on rings and
    the inspected message: a window's 2,500 messages are then ~20 elements, not ~8,000, which the
    browser's markdown renderer turns into a page in a fraction of the time. The table and the
    Message box say the rest.
    """
    if max_events is not None and len(frame) > max_events:
        shown = frame[(frame["event"] < max_events) | (frame["violations"] != "")]
    else:
        shown = frame
    left_out = len(frame) - len(shown)
    names = lanes(frame) or ["(no tool calls)"]
    height = TOP + LANE * len(names) + BOTTOM
    lo, hi = window if window is not None else (0, max(messages, 1))
    timed = axis == "time" and len(frame) > 0 and bool(frame["time"].notna().all())
    at: dict[int, float] = (
        dict(zip(frame["message"].tolist(), frame["time"].tolist(), strict=True)) if timed else {}
    )
    first, last = (min(at.values()), max(at.values())) if timed else (float(lo), float(max(hi - 1, lo)))
    span = max(last - first, 1.0)

    def x(value: float) -> float:  # a message index, or a timestamp on the time axis
        return round(LEFT + (width - LEFT - RIGHT) * ((float(value) - first) / span), 1)

    def xm(message: int) -> float:  # where a message sits; outside the window: at its edge
        if timed:
            return x(at.get(message, first if message < lo else last))
        return x(min(max(message, lo), hi - 1))

    lane = {name: i for i, name in enumerate(names)}

    def y(tool: str) -> float:  # lane 0 at the bottom, as on the figure's y axis
        return TOP + LANE * (len(names) - 1 - lane[tool]) + LANE / 2

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="th-timeline" viewBox="0 0 {width} {height}" '
        f'width="100%" style="max-width:{width}px" role="img" data-events="{len(shown)}" '
        f'data-violations="{int((shown["violations"] != "").sum())}" font-family="system-ui, sans-serif" '
        f'font-size="11">',
        f"<title>{_e(title or 'timeline: tool calls and results')}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    for name, i in lane.items():  # lanes: a light band every other one, the tool name on the left
        top = y(name) - LANE / 2
        if i % 2 == 0:
            parts.append(
                f'<rect x="{LEFT}" y="{top}" width="{width - LEFT - RIGHT}" height="{LANE}" fill="#f4f6f8"/>'
            )
        label = name if name != MESSAGE_LANE else "(message)"
        parts.append(
            f'<text x="{LEFT - 8}" y="{top + LANE / 2 + 4}" text-anchor="end" fill="#333">'
            f"<title>{_e(label)}</title>{_e(_clip(label))}</text>"
        )
    bottom = TOP + LANE * len(names)
    parts.append(f'<line x1="{LEFT}" y1="{bottom}" x2="{width - RIGHT}" y2="{bottom}" stroke="#888"/>')
    parts.extend(_ticks(first, last, timed, x, bottom))
    middle = (LEFT + width) / 2
    parts.append(
        f'<text x="{middle}" y="{height - 6}" text-anchor="middle" fill="#555">'
        f"{'time (UTC)' if timed else 'message (turn)'}</text>"
    )
    if selected is not None and lo <= selected < hi:
        sx = xm(selected)
        parts.append(
            f'<line class="selected" data-message="{selected}" x1="{sx}" y1="{TOP - 4}" x2="{sx}" '
            f'y2="{bottom}" stroke="#222" stroke-width="1.5" stroke-dasharray="4 3">'
            f"<title>message {selected} (inspected)</title></line>"
        )
    parts.extend(_links(shown, lo, hi, xm, y))
    parts.extend(_marks(shown, xm, y, tooltips=tooltips))
    parts.append(_legend(width))
    if left_out:
        parts.append(
            f'<text x="{width - RIGHT}" y="22" text-anchor="end" fill="#a40000">'
            f"{left_out:,} events not drawn (first {max_events:,} and every violation shown)</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _marks(
    shown: pd.DataFrame, xm: Callable[[int], float], y: Callable[[str], float], *, tooltips: bool
) -> list[str]:
    """Calls (circles), results (squares), other messages (diamonds), then violation rings on top.

    With ``tooltips``, one element per mark with its ``<title>``; without, one path per kind of mark.
    """
    out: list[str] = []
    rings: list[str] = []
    grouped: dict[str, tuple[list[str], list[str]]] = {}  # without tooltips: one path per kind of mark
    # columns as lists: iterating a pandas column of Arrow strings is a Python call per value
    # (half of drawing a 2,500-message window at 10,000 messages); a mark with no ring and no
    # tooltip spells no hover text
    columns = ("message", "kind", "tool", "status", "call_id", "violations")
    for message, kind, tool, status, call_id, bad in zip(*(shown[c].tolist() for c in columns), strict=True):
        cx, cy = xm(message), y(tool)
        if bad or tooltips:
            hover = f"message {message} · {kind} · {status} · {call_id}" + (f" · {bad}" if bad else "")
            tip = f"<title>{_e(hover)}</title>"
        if bad:
            rings.append(
                f'<circle class="violation" data-message="{message}" cx="{cx}" cy="{cy}" r="9" fill="none" '
                f'stroke="{VIOLATION_COLOR}" stroke-width="2.5">{tip}</circle>'
            )
        if not tooltips:
            shape, messages_of = grouped.setdefault(f"{kind} {status}", ([], []))
            shape.append(_SHAPES[kind].format(x=_n(cx), y=_n(cy)))
            messages_of.append(str(message))
            continue
        color = STATUS_COLORS[status]
        if kind == "call":
            mark = f'<circle class="mark call" cx="{cx}" cy="{cy}" r="5" fill="{color}">{tip}</circle>'
        elif kind == "result":
            mark = (
                f'<rect class="mark result" x="{cx - 4.5}" y="{cy - 4.5}" width="9" height="9" '
                f'fill="{color}">{tip}</rect>'
            )
        else:
            mark = (
                f'<path class="mark message" d="M{cx} {cy - 6}L{cx + 6} {cy}L{cx} {cy + 6}L{cx - 6} {cy}Z" '
                f'fill="{color}">{tip}</path>'
            )
        out.append(mark)
    for name, (shape, messages_of) in grouped.items():
        kind, status = name.split()
        paint = _PAINT[kind].format(color=STATUS_COLORS[status])
        listed = " ".join(messages_of)
        out.append(f'<path class="marks {name}" data-messages="{listed}" d="{"".join(shape)}" {paint}/>')
    return [*out, *rings]


def _ticks(first: float, last: float, timed: bool, x: Callable[[float], float], bottom: float) -> list[str]:
    """About ten ticks under the lanes: message numbers, or UTC clock times on the time axis."""
    span = max(last - first, 1.0)
    step = max(1, round(span / 10))
    parts: list[str] = []
    tick = first
    while tick <= last:
        label = datetime.fromtimestamp(tick, tz=UTC).strftime("%H:%M:%S") if timed else str(int(tick))
        parts.append(
            f'<line x1="{x(tick)}" y1="{bottom}" x2="{x(tick)}" y2="{bottom + 4}" stroke="#888"/>'
            f'<text x="{x(tick)}" y="{bottom + 16}" text-anchor="middle" fill="#555">{label}</text>'
        )
        tick += step
    return parts


def _links(
    shown: pd.DataFrame,
    lo: int,
    hi: int,
    xm: Callable[[int], float],
    y: Callable[[str], float],
) -> list[str]:
    """Grey lines from each call to its results, in the result's lane; an end outside is a triangle.

    A result links back to its call (``partner``); a call answered after the window (``partner``
    at or past ``hi``) links forward to the window's edge. The triangle's tooltip names the message
    of the other end.
    """
    parts: list[str] = []
    segments: list[str] = []
    columns = ("message", "kind", "partner", "tool", "status")  # as lists: see `_marks`
    for message, kind, partner, tool, status in zip(*(shown[c].tolist() for c in columns), strict=True):
        if pd.isna(partner):
            continue
        other = int(partner)
        back = kind == "result" and status in ("ok", "error", "duplicate")
        if not (back or (kind == "call" and other >= hi)):
            continue
        x1, x2, ly = xm(other), xm(int(message)), y(tool)
        segments.append(f"M{_n(x1)} {_n(ly)}H{_n(x2)}")
        if other < lo or other >= hi:
            d = -6 if other < lo else 6
            what = "its call" if other < lo else "its result"
            parts.append(
                f'<path class="outside" d="M{x1 + d} {ly}L{x1} {ly - 5}L{x1} {ly + 5}Z" '
                f'fill="{OUTSIDE_COLOR}">'
                f"<title>{what} is at message {other}, {'before' if other < lo else 'after'} this window"
                "</title></path>"
            )
    if segments:  # one path for every link: a window's thousands of links are one element
        parts.insert(
            0,
            f'<path class="links" d="{"".join(segments)}" stroke="#787878" stroke-opacity="0.55" '
            'stroke-width="1.5" fill="none"/>',
        )
    return parts


def _legend(width: int) -> str:
    """The marks' key, above the lanes (as the figure's legend); from the left edge when it would not fit."""
    parts: list[str] = []
    legend = [
        ("circle", STATUS_COLORS["answered"], "call"),
        ("circle", STATUS_COLORS["unanswered"], "call: unanswered"),
        ("rect", STATUS_COLORS["ok"], "result"),
        ("rect", STATUS_COLORS["error"], "result: error"),
        ("rect", STATUS_COLORS["unmatched"], "result: unmatched"),
        ("rect", STATUS_COLORS["duplicate"], "result: duplicate"),
        ("ring", VIOLATION_COLOR, "violation"),
    ]
    need = sum(22 + 6.5 * len(label) for _, _, label in legend)
    lx: float = LEFT if LEFT + need <= width - RIGHT else 8
    for shape, color, label in legend:
        if shape == "circle":
            parts.append(f'<circle cx="{lx + 5}" cy="18" r="5" fill="{color}"/>')
        elif shape == "rect":
            parts.append(f'<rect x="{lx}" y="13.5" width="9" height="9" fill="{color}"/>')
        else:
            parts.append(
                f'<circle cx="{lx + 5}" cy="18" r="7" fill="none" stroke="{color}" stroke-width="2.5"/>'
            )
        parts.append(f'<text x="{lx + 15}" y="22" fill="#333">{_e(label)}</text>')
        lx += 22 + 6.5 * len(label)
    return "".join(parts)
