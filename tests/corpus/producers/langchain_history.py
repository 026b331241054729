"""Writes a LangChain history (``messages_to_dict``) of a tool-calling round, offline.

``python langchain_history.py OUT.json`` with langchain-core installed: the model is langchain-core's
``GenericFakeChatModel`` answering with a tool call, then the answer; the tool is a ``@tool`` run
with ``invoke`` on the call (a ``ToolMessage``).
"""

import json
import sys

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, messages_to_dict
from langchain_core.tools import tool


@tool
def get_weather(city: str) -> str:
    """Weather in a city."""
    return f"sunny in {city}"


call = {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1", "type": "tool_call"}
model = GenericFakeChatModel(
    messages=iter([AIMessage("", tool_calls=[call]), AIMessage("It is sunny in Paris.")])
)
history = [SystemMessage("Be brief."), HumanMessage("Weather in Paris?")]
history.append(model.invoke(history))
history.append(get_weather.invoke(history[-1].tool_calls[0]))
history.append(model.invoke(history))
with open(sys.argv[1], "w") as f:
    json.dump(messages_to_dict(history), f, indent=1)
