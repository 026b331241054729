"""Writes a pydantic-ai history (``ModelMessagesTypeAdapter.dump_json``) of a tool-calling run, offline.

``python pydantic_ai_history.py OUT.json`` with pydantic-ai installed: the model is pydantic-ai's
own ``TestModel`` (it calls every tool once, then answers with their results); the tool really runs.
"""

import sys

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessagesTypeAdapter
from pydantic_ai.models.test import TestModel

agent = Agent(TestModel(), system_prompt="Be brief.")


@agent.tool_plain
def get_weather(city: str) -> str:
    """Weather in a city."""
    return f"sunny in {city}"


with open(sys.argv[1], "wb") as f:
    f.write(ModelMessagesTypeAdapter.dump_json(agent.run_sync("Weather in Paris?").all_messages(), indent=1))
