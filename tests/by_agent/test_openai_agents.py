"""The OpenAI Agents SDK: a SQLiteSession database made by the SDK itself (tests/corpus/producers/
openai_agents_session.py, openai-agents 0.24.0), its run result as a live object, and the dumped
``to_input_list()``: the same history each way.

The live objects are the SDK's own (the ``[test]`` extra installs it): the same run as the producer's,
offline, on the SDK's ``agents.testing.model.ScriptedModel``: its ``RunResult``, its ``RunItem``s and
the raw model output items (the openai package's Responses models) it replays.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.model import TextBlock, ToolCallBlock, ToolResponseBlock

DB = Path(__file__).parents[1] / "corpus" / "logs" / "openai-agents" / "openai-agents-sqlitesession.db"


def run_weather() -> Any:
    """The producer's run (tests/corpus/producers/openai_agents_session.py) without a session: a RunResult."""
    from agents import Agent, Runner, function_tool, set_tracing_disabled
    from agents.testing.model import ScriptedModel, assistant_message, function_call

    set_tracing_disabled(True)

    @function_tool
    def get_weather(city: str) -> str:
        """Weather in a city."""
        return f"sunny in {city}"

    model = ScriptedModel(
        [
            [function_call("get_weather", {"city": "Paris"}, call_id="call_1")],
            [assistant_message("It is sunny in Paris.")],
        ]
    )
    agent = Agent(name="weather", instructions="Be brief.", model=model, tools=[get_weather])
    # on a thread of its own: after the browser tests, Playwright's sync API keeps an event loop running
    # on the main thread (as Jupyter does), where asyncio.run refuses to start another
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, Runner.run(agent, "Weather in Paris?")).result()


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
    result = run_weather()
    assert type(result).__module__ == "agents.result"
    stored = toolhist.load(f"{DB}#weather")
    live = toolhist.load(result)
    dumped = toolhist.load(json.dumps(result.to_input_list()).encode())
    for read in (live, dumped):
        assert read.source.format == "openai-responses"
        assert [(m.speaker, m.blocks) for m in read.messages] == [
            (m.speaker, m.blocks) for m in stored.messages
        ]


def test_live_run_items_read_one_by_one() -> None:
    """``result.new_items`` (ToolCallItem, ToolCallOutputItem, MessageOutputItem): the run without its input."""
    items = run_weather().new_items
    assert [type(i).__module__ for i in items] == ["agents.items"] * 3
    assert turns(toolhist.load(items)) == SHAPE[1:]


def test_the_raw_model_output_items_read_as_the_model_answered() -> None:
    """The openai package's own output items of each model response, as the SDK replays them."""
    result = run_weather()
    raw = [item for response in result.raw_responses for item in response.output]
    assert [type(i).__name__ for i in raw] == ["ResponseFunctionToolCall", "ResponseOutputMessage"]
    session = toolhist.load(raw)
    assert session.source.format == "openai-responses"
    assert turns(session) == [("ai", ["ToolCallBlock", "TextBlock"])]
    call, answer = session.messages[0].blocks
    assert isinstance(call, ToolCallBlock)
    assert isinstance(answer, TextBlock)
    assert (call.id, call.parameters, answer.text) == ("call_1", {"city": "Paris"}, "It is sunny in Paris.")
