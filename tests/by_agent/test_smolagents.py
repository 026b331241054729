"""smolagents' live objects, made by smolagents itself (the ``[test]`` extra installs it): the
producer's scripted run (tests/corpus/producers/smolagents_memory.py) done again in process, its
agent, ``agent.memory``, the memory's steps and ``write_memory_to_messages()`` read as the memory
file that run wrote (tests/corpus/logs/smolagents/).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.model import TextBlock

SMOL = Path(__file__).parents[1] / "corpus" / "logs" / "smolagents" / "smolagents-toolcalling-memory.json"


def run_weather() -> Any:
    """A ToolCallingAgent after the producer's run: a scripted model calls get_weather, then final_answer."""
    from smolagents import ToolCallingAgent, tool
    from smolagents.models import (
        ChatMessage,
        ChatMessageToolCall,
        ChatMessageToolCallFunction,
        MessageRole,
        Model,
    )

    def get_weather(city: str) -> str:
        """Weather in a city.

        Args:
            city: The city.
        """
        return f"sunny in {city}"

    weather = tool(get_weather)  # what @tool does (a decorator mypy cannot see into)

    class Scripted(Model):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(model_id="scripted")
            self.calls = [
                ("get_weather", {"city": "Paris"}),
                ("final_answer", {"answer": "It is sunny in Paris."}),
            ]

        def generate(self, messages: Any, **_: Any) -> Any:
            name, args = self.calls.pop(0)
            call = ChatMessageToolCall(
                function=ChatMessageToolCallFunction(name=name, arguments=args),
                id=f"call_{len(self.calls)}",
                type="function",
            )
            return ChatMessage(role=MessageRole.ASSISTANT, content="", tool_calls=[call])

    agent = ToolCallingAgent(tools=[weather], model=Scripted(), max_steps=3, verbosity_level=0)
    agent.run("What is the weather in Paris?")
    return agent


def turns(session: toolhist.Session) -> list[tuple[str, str]]:
    return [
        (m.speaker, "".join(b.text for b in m.blocks if isinstance(b, TextBlock))) for m in session.messages
    ]


@pytest.fixture(scope="module")
def agent() -> Any:
    return run_weather()


def test_the_agent_and_its_memory_read_as_the_memory_file(agent: Any) -> None:
    on_disk = turns(toolhist.load(SMOL))
    assert len(on_disk) == 8
    for live in (agent, agent.memory):  # the agent is read through its ``memory``
        assert type(live).__module__.startswith("smolagents.")
        session = toolhist.load(live)
        assert session.source.format == "smolagents"
        assert turns(session) == on_disk


def test_the_memory_steps_read_without_the_system_prompt(agent: Any) -> None:
    """``memory.steps`` holds the task, action and final-answer steps; the system prompt is kept apart."""
    steps = agent.memory.steps
    assert [type(s).__name__ for s in steps] == ["TaskStep", "ActionStep", "ActionStep"]
    assert turns(toolhist.load(steps)) == turns(toolhist.load(SMOL))[1:]


def test_what_smolagents_sends_reads_as_its_memory(agent: Any) -> None:
    """``write_memory_to_messages()``: the ChatMessages smolagents gives its model next."""
    messages = agent.write_memory_to_messages()
    assert {type(m).__name__ for m in messages} == {"ChatMessage"}
    session = toolhist.load(messages)
    assert session.source.format == "smolagents"
    assert turns(session) == turns(toolhist.load(SMOL))
    assert toolhist.summarize(session).tool_calls == 0  # smolagents sends its calls as text
