"""The OpenAI Agents SDK: ``SQLiteSession`` databases (`reader`) and its live run results (`live`).

A framework: the database is wherever the application put it (``SQLiteSession(id, db_path)``), so
there are no places and no listing. It sends the Responses API (``OpenAIResponsesModel``, the
default) or Chat Completions; its items are Responses input items either way.
"""

from toolhist.agents.openai_agents.live import LIVE
from toolhist.agents.openai_agents.reader import OpenAIAgentsSessionReader
from toolhist.agents.spec import Agent

AGENT = Agent(id="openai-agents", name="OpenAI Agents SDK", readers=(OpenAIAgentsSessionReader(),), live=LIVE)

__all__ = ["AGENT"]
