"""LangGraph: threads of a real SqliteSaver database, written by a real graph, read read-only."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

import toolhist
from toolhist.agents.langgraph.reader import _uuid_time


@tool
def get_weather(city: str) -> str:
    """Weather in a city."""
    return f"sunny in {city}"


def run(db: Path, thread: str, city: str) -> list[Any]:
    """A model node answering from a script, the prebuilt ToolNode, checkpointed by SqliteSaver."""
    replies = iter(
        [
            AIMessage("", tool_calls=[{"name": "get_weather", "args": {"city": city}, "id": f"call_{city}"}]),
            AIMessage(f"It is sunny in {city}."),
        ]
    )

    def model(state: MessagesState) -> dict[str, Any]:
        return {"messages": [next(replies)]}

    graph = StateGraph(MessagesState)
    graph.add_node("model", model)
    graph.add_node("tools", ToolNode([get_weather]))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition)
    graph.add_edge("tools", "model")
    conn = sqlite3.connect(db, check_same_thread=False)
    try:
        app = graph.compile(checkpointer=SqliteSaver(conn))
        out = app.invoke(
            {"messages": [HumanMessage(f"Weather in {city}?")]}, {"configurable": {"thread_id": thread}}
        )
    finally:
        conn.close()
    return list(out["messages"])


@pytest.fixture
def store(tmp_path: Path) -> Path:
    db = tmp_path / "checkpoints.sqlite"
    run(db, "paris", "Paris")
    run(db, "oslo", "Oslo")
    return db


def shape(session: toolhist.Session) -> list[tuple[str, list[str]]]:
    return [(m.speaker, [b.type for b in m.blocks]) for m in session.messages]


SHAPE = [("human", ["text"]), ("ai", ["tool_call"]), ("tool", ["tool_response"]), ("ai", ["text"])]


def test_a_thread_reads_as_its_graph_holds_it(store: Path) -> None:
    session = toolhist.load(f"{store}#paris")
    assert session.source.format == "langgraph"
    assert shape(session) == SHAPE
    assert session.metadata["thread_id"] == "paris"
    call = session.messages[1].blocks[0]
    assert call.type == "tool_call"
    assert call.id == "call_Paris"


def test_without_a_thread_the_newest_is_read_and_the_others_named(store: Path) -> None:
    session = toolhist.load(str(store))
    assert session.metadata["thread_id"] == "oslo"
    assert any("2 sessions" in note and "#SESSION_ID" in note for note in session.source.notes)


def test_the_live_state_and_the_checkpoint_read_alike(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    live = run(db, "t", "Rome")
    assert shape(toolhist.load({"messages": live})) == shape(toolhist.load(f"{db}#t")) == SHAPE


def test_the_store_is_opened_read_only(store: Path) -> None:
    before = store.stat().st_mtime_ns
    toolhist.load(f"{store}#paris")
    assert store.stat().st_mtime_ns == before


def test_an_unknown_thread_is_one_line(store: Path) -> None:
    with pytest.raises(toolhist.LoadError) as caught:
        toolhist.load(f"{store}#nope")
    assert "no session 'nope'" in str(caught.value)
    assert "oslo" in str(caught.value)


def test_a_pickled_checkpoint_is_refused_not_unpickled(store: Path) -> None:
    conn = sqlite3.connect(store)
    conn.execute("UPDATE checkpoints SET type = 'pickle' WHERE thread_id = 'paris'")
    conn.commit()
    conn.close()
    with pytest.raises(toolhist.LoadError) as caught:
        toolhist.load(f"{store}#paris")
    assert "pickle" in str(caught.value)
    assert "checkpoints[" in str(caught.value)


def test_checkpoint_ids_carry_their_time() -> None:
    # written by LangGraph at 2026-11-27T15:37:37.05Z (this file's author's run)
    assert _uuid_time("1f1ea787-8e66-6faf-8003-780bc6f27d74") == pytest.approx(1795793857.054, abs=0.001)
    assert _uuid_time("not-a-uuid") == 0.0
