"""LangGraph: the SQLite checkpointer's threads (`reader`), decoded without importing anything (`serde`).

A framework: the database is wherever the application put it (``SqliteSaver.from_conn_string``),
so there are no places and no listing; ``toolhist load PATH#THREAD_ID`` picks a thread (the
newest without one). Live LangGraph state (a dict with ``messages``) is LangChain's (`toolhist.live`).
"""

from toolhist.agents.langgraph.reader import LangGraphReader
from toolhist.agents.spec import Agent

AGENT = Agent(id="langgraph", name="LangGraph", readers=(LangGraphReader(),))

__all__ = ["AGENT"]
