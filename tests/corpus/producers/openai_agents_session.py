"""Writes an OpenAI Agents SDK ``SQLiteSession`` database of a tool-calling run, offline.

``python openai_agents_session.py OUT.db`` with openai-agents installed (the peers environment has
it: ``toolhist peers install``): the model is the SDK's own ``agents.testing.model.ScriptedModel``
(a function call, then the answer); the ``function_tool`` really runs. Session ``weather``; a
second session ``empty-answer`` stops after the call's output (its last model step raises).
"""

import asyncio
import sys

from agents import Agent, Runner, SQLiteSession, function_tool, set_tracing_disabled
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
asyncio.run(Runner.run(agent, "Weather in Paris?", session=SQLiteSession("weather", sys.argv[1])))
