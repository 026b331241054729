"""The Timeline page's default chart: a server-drawn SVG of one window, escaped, script-free.

The page shows this string with ``st.html``, so whatever a session names (tool names, call ids,
rule text) must reach the browser as text: the picture parses as XML whatever the names are, holds
only drawing elements, no attribute that runs or loads anything, and each mark's tooltip reads the
name back exactly as written. A window of a long history draws only its messages; a link whose
other end is outside stops at the edge, where a triangle names that message.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from toolhist.model import Message, Session, SessionSource, TextBlock, ToolCallBlock, ToolResponseBlock
from toolhist.views.svg import timeline_svg
from toolhist.views.timeline import events_frame

SVG = "{http://www.w3.org/2000/svg}"
DRAWING = {"svg", "title", "rect", "text", "line", "circle", "path"}
# XML 1.0 cannot carry most control characters at all (an HTML parser drops them); every other
# character a session may hold is in play, line breaks and tabs included
NAMES = st.text(
    st.characters(exclude_categories=("Cc", "Cs"), include_characters="\n\r\t"), min_size=1, max_size=30
)


def session_of(*messages: Message) -> Session:
    return Session(messages=messages, source=SessionSource(format="toolhist"))


def call(i: str, name: str) -> Message:
    return Message(speaker="ai", blocks=(ToolCallBlock(id=i, name=name, parameters={}),))


def result(i: str) -> Message:
    return Message(speaker="tool", blocks=(ToolResponseBlock(call_id=i, result="ok"),))


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    for element in root.iter():
        assert element.tag.removeprefix(SVG) in DRAWING, element.tag
        for attribute in element.attrib:
            assert not attribute.lower().startswith("on"), attribute
            assert "href" not in attribute.lower(), attribute
    return root


def tips(root: ET.Element, cls: str) -> list[str]:
    """The tooltips of the elements whose class list holds ``cls``, in drawing order."""
    return [
        "".join(e.find(f"{SVG}title").itertext())  # type: ignore[union-attr]
        for e in root.iter()
        if cls in e.attrib.get("class", "").split()
    ]


@settings(max_examples=60, deadline=None)
@given(name=NAMES, call_id=NAMES)
def test_hostile_names_and_ids_stay_text(name: str, call_id: str) -> None:
    session = session_of(call(call_id, name), result(call_id), call("c2", "<script>alert(1)</script>"))
    frame = events_frame(session)
    svg = timeline_svg(frame, messages=3, max_events=None, window=(0, 3), selected=1)
    root = parsed(svg)
    assert tips(root, "mark") == [
        f"message 0 · call · answered · {call_id}",
        f"message 1 · result · ok · {call_id}",
        "message 2 · call · unanswered · c2",
    ]
    labels = ["".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.find(f"{SVG}title") is not None]
    assert any(label.endswith(name if len(name) <= 24 else name[:23] + "…") for label in labels)
    assert "<script" not in svg
    assert "\n" not in svg  # one line: the page's markdown HTML block cannot be ended by a name
    assert "\r" not in svg


def test_a_window_draws_its_messages_and_names_the_ends_outside() -> None:
    # message 0 calls a (answered at 3), message 1 calls b (answered at 6), 2 is text
    session = session_of(
        call("a", "grep"),
        call("b", "read"),
        Message(speaker="human", blocks=(TextBlock(text="hi"),)),
        result("a"),
        call("c", "grep"),
        result("c"),
        result("b"),
    )
    frame = events_frame(session)
    window = frame[(frame["message"] >= 2) & (frame["message"] < 5)]
    root = parsed(timeline_svg(window, messages=3, max_events=None, window=(2, 5), selected=4))
    drawn = {int(re.match(r"message (\d+)", t).group(1)) for t in tips(root, "mark")}  # type: ignore[union-attr]
    assert drawn == {3, 4}
    assert tips(root, "outside") == [
        "its call is at message 0, before this window",
        "its result is at message 5, after this window",
    ]
    selected = [e for e in root.iter() if e.attrib.get("class") == "selected"]
    assert [e.attrib["data-message"] for e in selected] == ["4"]
    [links] = [e for e in root.iter(f"{SVG}path") if e.attrib.get("class") == "links"]
    xs = [float(v) for v in re.findall(r"[MH](-?[\d.]+)", links.attrib["d"])]
    assert min(xs) >= 170  # the links stop at the window's edges
    assert max(xs) <= 1100 - 20


def test_the_time_axis_places_events_by_their_timestamps() -> None:
    from toolhist.model import MessageMetadata

    stamps = [100.0, 101.0, 200.0]
    messages = [call("a", "grep"), result("a"), call("b", "grep")]
    session = session_of(
        *(
            m.model_copy(update={"metadata": MessageMetadata(timestamp=t)})
            for m, t in zip(messages, stamps, strict=True)
        )
    )
    root = parsed(timeline_svg(events_frame(session), messages=3, max_events=None, axis="time"))
    marks = [e for e in root.iter() if "mark" in e.attrib.get("class", "").split()]
    xs = [float(e.attrib.get("cx", 0)) or float(e.attrib["x"]) + 4.5 for e in marks]
    assert xs[0] < xs[1] < xs[2]
    assert (xs[1] - xs[0]) * 50 < (xs[2] - xs[1]) * 1.5  # 1 s apart, then 99 s: by time, not by turn
    assert "time (UTC)" in "".join(root.itertext())


def test_without_tooltips_each_kind_of_mark_is_one_path_listing_its_messages() -> None:
    session = session_of(call("a", "grep"), result("a"), call("b", "grep"), call("c", "<read>"), result("c"))
    frame = events_frame(session)
    with_tips = parsed(timeline_svg(frame, messages=5, max_events=None))
    root = parsed(timeline_svg(frame, messages=5, max_events=None, tooltips=False, selected=2))
    groups = {
        e.attrib["class"]: e.attrib["data-messages"]
        for e in root.iter()
        if "marks" in e.attrib.get("class", "")
    }
    assert groups == {
        "marks call answered": "0 3",
        "marks call unanswered": "2",
        "marks result ok": "1 4",
    }
    assert not tips(root, "mark")
    assert len(tips(with_tips, "mark")) == len(frame)
    assert [e.attrib["data-message"] for e in root.iter() if e.attrib.get("class") == "selected"] == ["2"]


def test_without_tooltips_calls_and_results_are_capped_dots_one_per_listed_message() -> None:
    """A call is a round-capped zero-length stroke 10 wide (the circle of radius 5), a result a
    square-capped one 9 wide (the 9 x 9 square): the same pixels as the arcs and squares, in a third
    of the text the browser's markdown renderer parses."""
    session = session_of(call("a", "grep"), result("a"), call("b", "grep"), call("c", "<read>"), result("c"))
    root = parsed(timeline_svg(events_frame(session), messages=5, max_events=None, tooltips=False))
    paths = {e.attrib["class"]: e for e in root.iter() if "marks" in e.attrib.get("class", "")}
    for name, (width, cap) in {
        "marks call answered": ("10", "round"),
        "marks result ok": ("9", "square"),
    }.items():
        path = paths[name]
        assert (path.attrib["fill"], path.attrib["stroke-width"], path.attrib["stroke-linecap"]) == (
            "none",
            width,
            cap,
        )
        dots = re.findall(r"M(-?[\d.]+) (-?[\d.]+)h0", path.attrib["d"])
        assert "".join(f"M{x} {y}h0" for x, y in dots) == path.attrib["d"]
        assert len(dots) == len(path.attrib["data-messages"].split()) == 2
