"""Writes a smolagents ToolCallingAgent's memory (``get_full_steps()``) after a scripted run, offline.

Run in an environment with smolagents (not toolhist's: smolagents is only read, never imported):
``python smolagents_memory.py OUT.json``; ``OUT.messages.json`` beside it holds
``write_memory_to_messages()`` (what smolagents sends), the reader's ground truth. The model is a scripted ``smolagents.models.Model``: it
answers with a tool call, then with ``final_answer``; the tool really runs.
"""

import json
import sys

from smolagents import ToolCallingAgent, tool
from smolagents.models import (
    ChatMessage,
    ChatMessageToolCall,
    ChatMessageToolCallFunction,
    MessageRole,
    Model,
)


@tool
def get_weather(city: str) -> str:
    """Weather in a city.

    Args:
        city: The city.
    """
    return f"sunny in {city}"


class Scripted(Model):
    def __init__(self) -> None:
        super().__init__(model_id="scripted")
        self.calls = [
            ("get_weather", {"city": "Paris"}),
            ("final_answer", {"answer": "It is sunny in Paris."}),
        ]

    def generate(
        self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs
    ):
        name, args = self.calls.pop(0)
        call = ChatMessageToolCall(
            function=ChatMessageToolCallFunction(name=name, arguments=args),
            id=f"call_{len(self.calls)}",
            type="function",
        )
        return ChatMessage(role=MessageRole.ASSISTANT, content="", tool_calls=[call])


agent = ToolCallingAgent(tools=[get_weather], model=Scripted(), max_steps=3, verbosity_level=0)
agent.run("What is the weather in Paris?")
memory = {"system_prompt": agent.memory.system_prompt.system_prompt, "steps": agent.memory.get_full_steps()}
with open(sys.argv[1], "w") as f:
    json.dump(memory, f, indent=1, default=str)
sent = [m.dict() for m in agent.write_memory_to_messages()]
with open(sys.argv[1].removesuffix(".json") + ".messages.json", "w") as f:
    json.dump(sent, f, indent=1, default=str)
