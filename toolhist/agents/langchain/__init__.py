"""LangChain: its message lists in every serialised form (`reader`), its live messages (`live`).

A framework, not an agent with a home: the history is whatever the application kept. LangGraph's
checkpoints, which hold these messages per thread, are `toolhist.agents.langgraph`. Where it ran:
an ai message's ``response_metadata.model_name`` is read into the message metadata.
"""

from toolhist.agents.langchain.live import LIVE
from toolhist.agents.langchain.reader import LangChainReader
from toolhist.agents.spec import Agent

AGENT = Agent(id="langchain", name="LangChain", readers=(LangChainReader(),), live=LIVE)

__all__ = ["AGENT"]
