"""The OpenAI Agents SDK: a SQLiteSession database made by the SDK itself (tests/corpus/producers/
openai_agents_session.py, openai-agents 0.24.0), its run result as a live object, and the dumped
``to_input_list()``: the same history each way.

The SDK is not in the test environment (it runs in the peers environment), so the live objects are
stand-ins whose class lives in the SDK's module (``agents.result``, ``agents.items``) and that answer
the SDK's own methods with the items the SDK stored: the duck typing `toolhist.live` does.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.model import TextBlock, ToolCallBlock, ToolResponseBlock

DB = Path(__file__).parents[1] / "corpus" / "logs" / "openai-agents" / "openai-agents-sqlitesession.db"


def stored_items() -> list[Any]:
    conn = sqlite3.connect(f"file:{DB}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT message_data FROM agent_messages ORDER BY id").fetchall()
    finally:
        conn.close()
    return [json.loads(r[0]) for r in rows]


def stand_in(module: str, name: str, **methods: Any) -> Any:
    cls = type(name, (), {k: (lambda self, *_a, _v=v, **_k: _v) for k, v in methods.items()})
    cls.__module__ = module
    return cls()


def turns(session: toolhist.Session) -> list[tuple[str, list[str]]]:
    return [(m.speaker, [type(b).__name__ for b in m.blocks]) for m in session.messages]


SHAPE = [
    ("human", ["TextBlock"]),
    ("ai", ["ToolCallBlock"]),
    ("tool", ["ToolResponseBlock"]),
    ("ai", ["TextBlock"]),
]


def test_a_session_of_the_store_reads_in_item_order() -> None:
    session = toolhist.load(f"{DB}#weather")
    assert session.source.format == "openai-agents"
    assert turns(session) == SHAPE
    call = session.messages[1].blocks[0]
    result = session.messages[2].blocks[0]
    assert isinstance(call, ToolCallBlock)
    assert isinstance(result, ToolResponseBlock)
    assert (call.id, call.name, call.parameters) == ("call_1", "get_weather", {"city": "Paris"})
    assert (result.call_id, result.result) == ("call_1", "sunny in Paris")
    answer = session.messages[3].blocks[0]
    assert isinstance(answer, TextBlock)
    assert answer.text == "It is sunny in Paris."
    assert toolhist.validate(session, "anthropic") == toolhist.validate(session, "openai-responses") == []


def test_the_store_is_read_without_being_changed() -> None:
    before = hashlib.sha256(DB.read_bytes()).hexdigest()
    toolhist.load(DB)
    assert hashlib.sha256(DB.read_bytes()).hexdigest() == before


def test_an_unknown_session_is_one_line() -> None:
    with pytest.raises(toolhist.LoadError) as caught:
        toolhist.load(f"{DB}#nope")
    assert "\n" not in str(caught.value)
    assert "nope" in str(caught.value)


def test_a_live_run_result_and_its_dump_read_as_the_store() -> None:
    items = stored_items()
    stored = toolhist.load(f"{DB}#weather")
    live = toolhist.load(stand_in("agents.result", "RunResult", to_input_list=items))
    dumped = toolhist.load(json.dumps(items).encode())
    for read in (live, dumped):
        assert read.source.format == "openai-responses"
        assert [(m.speaker, m.blocks) for m in read.messages] == [
            (m.speaker, m.blocks) for m in stored.messages
        ]


def test_live_run_items_read_one_by_one() -> None:
    items = [stand_in("agents.items", "RunItem", to_input_item=item) for item in stored_items()]
    assert turns(toolhist.load(items)) == SHAPE
