"""A timeline window: links to a message outside it stop at its edge, where a marker names that message.

The Timeline page draws a long history 2,500 messages at a time; a result whose call came before the
window (or a call answered after it) must not draw a line off the window, and the user must still
see where the other end is (hover) and be able to go there (the marker's ``customdata``).
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
from hypothesis import given, settings
from hypothesis import strategies as st

from toolhist.model import Message, Session, SessionSource, TextBlock, ToolCallBlock, ToolResponseBlock
from toolhist.views.timeline import events_frame, timeline_figure

OUTSIDE = "other end outside this window"


def session_of(*messages: Message) -> Session:
    return Session(messages=messages, source=SessionSource(format="toolhist"))


def call(i: str, name: str) -> Message:
    return Message(speaker="ai", blocks=(ToolCallBlock(id=i, name=name, parameters={}),))


def result(i: str) -> Message:
    return Message(speaker="tool", blocks=(ToolResponseBlock(call_id=i, result="ok"),))


def trace(figure: go.Figure, name: str) -> Any:
    return next(t for t in figure.data if t.name == name)


def drawn_xs(figure: go.Figure) -> list[float]:
    return [float(x) for t in figure.data for x in t.x if x is not None]


SESSION = session_of(
    call("a", "read_file"),  # 0
    call("b", "grep"),  # 1
    result("a"),  # 2
    result("b"),  # 3
    call("c", "read_file"),  # 4
    result("c"),  # 5
)


def test_links_to_messages_outside_the_window_stop_at_its_edges() -> None:
    frame = events_frame(SESSION)
    cut = frame[(frame["message"] >= 2) & (frame["message"] < 5)]
    figure = timeline_figure(cut, window=(2, 5))
    read, grep = 0.0, 1.0  # lanes in order of first appearance in the window: read_file, grep
    links = trace(figure, "call → result")
    assert list(links.x) == [2.0, 2.0, None, 2.0, 3.0, None, 4.0, 4.0, None]
    assert list(links.y) == [read, read, None, grep, grep, None, read, read, None]
    marks = trace(figure, OUTSIDE)
    assert list(marks.x) == [2.0, 2.0, 4.0]
    assert list(marks.y) == [read, grep, read]
    assert list(marks.marker.symbol) == ["triangle-left", "triangle-left", "triangle-right"]
    events = {
        (int(m), str(k)): int(e)
        for e, m, k in zip(frame["event"], frame["message"], frame["kind"], strict=True)
    }
    assert [list(d) for d in marks.customdata] == [
        [events[(2, "result")], 0],
        [events[(3, "result")], 1],
        [events[(4, "call")], 5],
    ]
    assert list(marks.hovertext) == [
        "its call a is at message 0, before this window",
        "its call b is at message 1, before this window",
        "the result of c is at message 5, after this window",
    ]
    assert min(drawn_xs(figure)) == 2.0
    assert max(drawn_xs(figure)) == 4.0


def test_without_a_window_links_reach_their_calls_and_nothing_is_clipped() -> None:
    figure = timeline_figure(events_frame(SESSION))
    assert list(trace(figure, "call → result").x) == [0.0, 2.0, None, 1.0, 3.0, None, 4.0, 5.0, None]
    assert OUTSIDE not in {t.name for t in figure.data}


def test_a_window_holding_both_ends_draws_no_edge_marker() -> None:
    frame = events_frame(SESSION)
    cut = frame[frame["message"] < 4]
    figure = timeline_figure(cut, window=(0, 4))
    assert list(trace(figure, "call → result").x) == [0.0, 2.0, None, 1.0, 3.0, None]
    assert OUTSIDE not in {t.name for t in figure.data}


@settings(max_examples=150, deadline=None)
@given(
    plan=st.lists(st.tuples(st.integers(0, 5), st.integers(1, 12)), min_size=1, max_size=25),
    data=st.data(),
)
def test_nothing_is_drawn_outside_any_window(plan: list[tuple[int, int]], data: st.DataObject) -> None:
    """Calls answered ``delay`` messages later (or never), with text between; any window of it."""
    slots: dict[int, Message] = {}
    at = 0
    for n, (tool, delay) in enumerate(plan):
        while at in slots:
            at += 1
        slots[at] = call(f"c{n}", f"tool{tool}")
        answer = at + delay
        while answer in slots:
            answer += 1
        slots[answer] = result(f"c{n}")
    last = max(slots)
    messages = [
        slots.get(m, Message(speaker="human", blocks=(TextBlock(text="."),))) for m in range(last + 1)
    ]
    frame = events_frame(session_of(*messages))
    lo = data.draw(st.integers(0, last))
    hi = data.draw(st.integers(lo + 1, last + 1))
    cut = frame[(frame["message"] >= lo) & (frame["message"] < hi)]
    if cut.empty:
        return
    figure = timeline_figure(cut, window=(lo, hi))
    first, final = float(cut["message"].min()), float(cut["message"].max())
    assert all(first <= x <= final for x in drawn_xs(figure))
    # one edge marker per link with an end outside, naming that end's message
    want = sorted(
        [
            (int(m), int(p))
            for m, p, k in zip(cut["message"], cut["partner"], cut["kind"], strict=True)
            if k == "result" and int(p) < lo
        ]
        + [
            (int(m), int(p))
            for m, p, k in zip(cut["message"], cut["partner"], cut["kind"], strict=True)
            if k == "call" and int(p) >= hi
        ]
    )
    names = {t.name for t in figure.data}
    if not want:
        assert OUTSIDE not in names
        return
    marks = trace(figure, OUTSIDE)
    by_event = dict(zip(frame["event"], frame["message"], strict=True))
    assert sorted((int(by_event[e]), int(o)) for e, o in marks.customdata) == want
    for (_, other), text in zip(marks.customdata, marks.hovertext, strict=True):
        assert f"is at message {other}, {'before' if other < lo else 'after'} this window" in text
