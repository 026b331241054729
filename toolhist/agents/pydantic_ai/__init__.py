"""pydantic-ai: its message histories (`reader`), its live objects (`live`), how it sends them (`send`).

A framework, not an agent with a home: a history is whatever the application kept
(``result.all_messages()``, ``ModelMessagesTypeAdapter.dump_json``), so there are no places and no
listing. Where it ran: each ``ModelResponse`` names ``provider_name`` and ``model_name``, read
into the message metadata (`toolhist.ran_on` reads those for every session).
"""

from toolhist.agents.pydantic_ai.live import LIVE
from toolhist.agents.pydantic_ai.reader import PydanticAIReader
from toolhist.agents.spec import Agent

AGENT = Agent(id="pydantic-ai", name="pydantic-ai", readers=(PydanticAIReader(),), live=LIVE)

__all__ = ["AGENT"]
