"""The timeline: every tool call and result as an event, linked to its partner, on a turn (or time) axis.

`events_frame` pairs calls and results the way `toolhist.summarize` does (by canonical id and by
order: a result answers a call only if it comes after it) and marks what a provider trips over:

- ``unanswered``: a call no later result answers;
- ``unmatched``: a result that answers no earlier call;
- ``duplicate``: a second (third…) result for the same call.

Violations are attached to the events of the message (and block) they point at; a violation on a
message that holds no call or result gets an event of kind ``message`` so it still shows.

`timeline_figure` draws the frame with WebGL traces only (`plotly.graph_objects.Scattergl`), one per
kind and status of mark, so 10,000 messages stay fast to pan and zoom: a line trace linking each call to its
results (NaN-separated segments), call and result markers, and the violations drawn last, on top.
Every marker carries ``[event row, message]`` in ``customdata`` so a selection maps back to the frame.

A long history is drawn one window of messages at a time (``window``). A link whose other end lies
outside the window (a result whose call came earlier, a call answered later) is clipped at the
window's edge, where a triangle marker says which message holds the other end; its ``customdata``
is ``[event row, message of the other end]``, so picking it moves the inspection (and the window)
there. Nothing is drawn outside the window.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any, Final

import pandas as pd
import plotly.graph_objects as go

from toolhist.model import Session, ToolCallBlock, ToolResponseBlock
from toolhist.providers import Violation
from toolhist.views.roles import role

COLUMNS: Final = (
    "event",
    "message",
    "block",
    "kind",
    "speaker",
    "tool",
    "call_id",
    "status",
    "partner",
    "time",
    "violations",
)
STATUS_COLORS: Final = {
    "answered": "#4c78a8",
    "ok": "#54a24b",
    "error": "#f58518",
    "unanswered": "#e45756",
    "unmatched": "#b279a2",
    "duplicate": "#9d755d",
    "message": "#bab0ac",
}
"""Marker colour per status (colour-blind-safe Tableau 10)."""
MARKS: Final = (
    ("call", "answered"),
    ("call", "unanswered"),
    ("result", "ok"),
    ("result", "error"),
    ("result", "unmatched"),
    ("result", "duplicate"),
    ("message", "message"),
)
"""One marker trace per (kind, status), so the legend names every mark."""
SYMBOLS: Final = {"call": "circle", "result": "square", "message": "diamond"}
VIOLATION_COLOR: Final = "#d62728"
OUTSIDE_COLOR: Final = "#555555"
MESSAGE_LANE: Final = "(message)"


def events_frame(session: Session, violations: Iterable[Violation] = ()) -> pd.DataFrame:
    """One row per tool call / tool result (and per violating message that has neither).

    Columns: ``event`` (row number), ``message``/``block`` (canonical indices), ``kind`` (``call``,
    ``result`` or ``message``), ``speaker``, ``tool``, ``call_id``, ``status`` (calls: ``answered`` or
    ``unanswered``; results: ``ok``, ``error``, ``unmatched`` or ``duplicate``; ``message``),
    ``partner`` (the message of the first result for a call, of the call for a result), ``time``
    (the message timestamp, seconds since the epoch, or NaN) and ``violations`` (``provider: rule``
    entries joined by ``; ``).
    """
    located: defaultdict[int, defaultdict[int | None, list[str]]] = defaultdict(lambda: defaultdict(list))
    for v in violations:
        if v.message_index is not None:
            located[v.message_index][v.block_index].append(f"{v.provider}: {v.rule}")

    rows: list[dict[str, Any]] = []
    call_rows: defaultdict[str, list[int]] = defaultdict(list)  # call id -> rows of its calls
    answered: defaultdict[str, int] = defaultdict(int)
    for m, message in enumerate(session.messages):
        start = len(rows)
        for b, block in enumerate(message.blocks):
            if isinstance(block, ToolCallBlock):
                call_rows[block.id].append(len(rows))
                kind, tool, call_id, status, partner = "call", block.name, block.id, "unanswered", None
            elif isinstance(block, ToolResponseBlock):
                kind, call_id = "result", block.call_id
                sources = call_rows.get(call_id, [])
                tool = block.tool_name or (rows[sources[-1]]["tool"] if sources else "?")
                if not sources:
                    status, partner = "unmatched", None
                else:
                    answered[call_id] += 1
                    status = "duplicate" if answered[call_id] > 1 else ("error" if block.error else "ok")
                    partner = rows[sources[-1]]["message"]
                    for source in sources:
                        if rows[source]["partner"] is None:
                            rows[source]["partner"] = m
                            rows[source]["status"] = "answered"
            else:
                continue
            rows.append(
                {
                    "message": m,
                    "block": b,
                    "kind": kind,
                    "speaker": role(message.speaker),
                    "tool": tool,
                    "call_id": call_id,
                    "status": status,
                    "partner": partner,
                    "time": message.metadata.timestamp,
                    "violations": [],
                }
            )
        here = located.get(m)
        if here is None:
            continue
        mine = {r["block"] for r in rows[start:]}
        # a violation on the whole message, or on a block that is neither a call nor a result
        shared = [entry for b, found in here.items() if b not in mine for entry in found]
        for r in rows[start:]:
            r["violations"] = [*here.get(r["block"], []), *shared]
        if len(rows) == start:
            rows.append(
                {
                    "message": m,
                    "block": None,
                    "kind": "message",
                    "speaker": role(message.speaker),
                    "tool": MESSAGE_LANE,
                    "call_id": "",
                    "status": "message",
                    "partner": None,
                    "time": message.metadata.timestamp,
                    "violations": shared,
                }
            )
    for r in rows:
        r["violations"] = "; ".join(r["violations"])
    frame = pd.DataFrame.from_records(rows, columns=[c for c in COLUMNS if c != "event"])
    frame.insert(0, "event", range(len(frame)))
    for column in ("block", "partner"):
        frame[column] = frame[column].astype("Int64")
    frame["time"] = frame["time"].astype("float64")
    return frame


def has_times(frame: pd.DataFrame) -> bool:
    """Whether every event has a timestamp (so a time axis is possible)."""
    return bool(len(frame)) and bool(frame["time"].notna().all())


def lanes(frame: pd.DataFrame) -> list[str]:
    """The y lanes: tool names in order of first appearance, the message lane last."""
    order = list(dict.fromkeys(frame["tool"].tolist()))
    if MESSAGE_LANE in order:
        order.remove(MESSAGE_LANE)
        order.append(MESSAGE_LANE)
    return order


def timeline_figure(
    frame: pd.DataFrame,
    *,
    axis: str = "turn",
    selected: int | None = None,
    window: tuple[int, int] | None = None,
) -> go.Figure:
    """The frame as WebGL traces: links, calls, results, message marks, violations (on top), selection.

    ``axis`` is ``turn`` (message index) or ``time`` (timestamps; only when `has_times`).
    ``selected`` is a message index to ring. ``window`` is the range of messages ``[lo, hi)`` the
    frame was cut to: links to a message outside it end at the window's edge (the first or last
    event's x), marked there.
    """
    names = lanes(frame)
    lane = {name: i for i, name in enumerate(names)}
    y = frame["tool"].map(lane).astype("float64")
    x: pd.Series[Any]
    if axis == "time":
        x = pd.to_datetime(frame["time"], unit="s")
        by_message: dict[int, Any] = dict(zip(frame["message"], x, strict=True))
    else:
        x = frame["message"].astype("float64")
        by_message = {}

    def xs(messages: Sequence[int]) -> list[Any]:
        return [by_message.get(m) for m in messages] if axis == "time" else [float(m) for m in messages]

    lo, hi = window if window is not None else (None, None)
    edges = (x.min(), x.max()) if len(frame) else (None, None)  # the window's first and last event
    fig = go.Figure()
    # links: call -> each of its results, as one NaN-separated line trace; clipped at the window
    results = frame[(frame["kind"] == "result") & frame["status"].isin(["ok", "error", "duplicate"])]
    link_x: list[Any] = []
    link_y: list[float | None] = []
    outside: list[tuple[int, Any, float, int, str]] = []  # (event, edge x, lane, other message, label)
    for event, message, partner, tool, call_id in zip(
        results["event"],
        results["message"],
        results["partner"],
        results["tool"],
        results["call_id"],
        strict=True,
    ):
        if pd.isna(partner):
            continue
        start = xs([int(partner)])[0]
        if lo is not None and int(partner) < lo:
            start = edges[0]
            outside.append(
                (int(event), start, float(lane[tool]), int(partner), f"its call {_plain(call_id)}")
            )
        link_x += [start, *xs([int(message)]), None]
        link_y += [float(lane[tool]), float(lane[tool]), None]
    if hi is not None:
        calls = frame[(frame["kind"] == "call") & frame["partner"].notna()]
        for event, message, partner, tool, call_id in zip(
            calls["event"], calls["message"], calls["partner"], calls["tool"], calls["call_id"], strict=True
        ):
            if int(partner) >= hi:
                outside.append(
                    (
                        int(event),
                        edges[1],
                        float(lane[tool]),
                        int(partner),
                        f"the result of {_plain(call_id)}",
                    )
                )
                link_x += [*xs([int(message)]), edges[1], None]
                link_y += [float(lane[tool]), float(lane[tool]), None]
    fig.add_trace(
        go.Scattergl(
            x=link_x,
            y=link_y,
            mode="lines",
            line={"color": "rgba(120,120,120,0.55)", "width": 1.5},
            hoverinfo="skip",
            name="call → result",
        )
    )
    if outside:
        fig.add_trace(
            go.Scattergl(
                x=[edge for _, edge, _, _, _ in outside],
                y=[ly for _, _, ly, _, _ in outside],
                mode="markers",
                name="other end outside this window",
                marker={
                    "symbol": [
                        "triangle-left" if other < (lo or 0) else "triangle-right" for *_, other, _ in outside
                    ],
                    "size": 11,
                    "color": OUTSIDE_COLOR,
                    "line": {"width": 0},
                },
                customdata=[[event, other] for event, _, _, other, _ in outside],
                hovertext=[
                    f"{label} is at message {other}, {'before' if other < (lo or 0) else 'after'} this window"
                    for _, _, _, other, label in outside
                ],
                hovertemplate="%{hovertext}<extra></extra>",
            )
        )
    hover = "%{hovertext}<extra></extra>"
    for kind, status in MARKS:
        part = frame[(frame["kind"] == kind) & (frame["status"] == status)]
        if part.empty:
            continue
        fig.add_trace(
            go.Scattergl(
                x=x[part.index],
                y=y[part.index],
                mode="markers",
                name=kind if kind == status else f"{kind}: {status}",
                marker={
                    "symbol": SYMBOLS[kind],
                    "size": 9,
                    "color": STATUS_COLORS[status],
                    "line": {"width": 0},
                },
                customdata=part[["event", "message"]].to_numpy(dtype="int64"),
                hovertext=hover_texts(part),
                hovertemplate=hover,
            )
        )
    bad = frame[frame["violations"] != ""]
    fig.add_trace(
        go.Scattergl(
            x=x[bad.index],
            y=y[bad.index],
            mode="markers",
            name="violations",
            marker={"symbol": "circle-open", "size": 17, "color": VIOLATION_COLOR, "line": {"width": 2.5}},
            customdata=bad[["event", "message"]].to_numpy(dtype="int64"),
            hovertext=hover_texts(bad),
            hovertemplate=hover,
        )
    )
    if selected is not None:
        here = frame[frame["message"] == selected]
        fig.add_trace(
            go.Scattergl(
                x=x[here.index],
                y=y[here.index],
                mode="markers",
                name=f"message {selected}",
                marker={"symbol": "star", "size": 15, "color": "#222222"},
                hoverinfo="skip",
            )
        )
    fig.update_layout(
        height=max(300, 110 + 36 * len(names)),  # the lanes, and the legend above them
        margin={"l": 10, "r": 10, "t": 30, "b": 40},
        uirevision="keep",
        # zoom, not select: Streamlit makes a click select the point only outside the select and lasso
        # drag modes (its click handler is for treemaps); box select stays in the mode bar
        dragmode="zoom",
        # above the plot (the margin grows to fit it), never over the top lanes
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
        xaxis={
            "title": "time" if axis == "time" else "message (turn)",
            "type": "date" if axis == "time" else "linear",
        },
        yaxis={
            "tickvals": list(range(len(names))),
            "ticktext": [_plain(n) for n in names],
            "range": [-0.7, len(names) - 0.3],
        },
    )
    return fig


def hover_texts(frame: pd.DataFrame) -> list[str]:
    """One hover label per event: message, kind and status, the call id, the violations.

    Plotly escapes hover text it is given as data (``hovertext``), so ids and rule names from the
    session cannot inject markup; only our own ``<br>`` separators are markup.
    """
    return [
        f"message {m} · {kind} · {status}<br>{_plain(call_id)}" + (f"<br>{_plain(bad)}" if bad else "")
        for m, kind, status, call_id, bad in zip(
            frame["message"],
            frame["kind"],
            frame["status"],
            frame["call_id"],
            frame["violations"],
            strict=True,
        )
    ]


def _plain(text: str) -> str:
    """Text for a plotly label: angle brackets and ampersands escaped, so it shows as typed."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def event_messages(frame: pd.DataFrame, events: Iterable[int]) -> list[int]:
    """The distinct messages of some event rows, in order."""
    wanted = set(events)
    return sorted({int(m) for e, m in zip(frame["event"], frame["message"], strict=True) if e in wanted})
