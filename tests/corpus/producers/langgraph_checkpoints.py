"""Writes a LangGraph ``SqliteSaver`` database: two threads of a tool-calling graph, offline.

``python langgraph_checkpoints.py OUT.sqlite`` with langgraph and langgraph-checkpoint-sqlite
installed: a ``MessagesState`` graph whose model node answers from a script, the prebuilt
``ToolNode`` and ``tools_condition``; threads ``paris`` and ``oslo``.
"""

import sqlite3
import sys

from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition


@tool
def get_weather(city: str) -> str:
    """Weather in a city."""
    return f"sunny in {city}"


conn = sqlite3.connect(sys.argv[1], check_same_thread=False)
for thread, city in (("paris", "Paris"), ("oslo", "Oslo")):
    replies = iter(
        [
            AIMessage("", tool_calls=[{"name": "get_weather", "args": {"city": city}, "id": f"call_{city}"}]),
            AIMessage(f"It is sunny in {city}."),
        ]
    )
    graph = StateGraph(MessagesState)
    graph.add_node("model", lambda state, replies=replies: {"messages": [next(replies)]})
    graph.add_node("tools", ToolNode([get_weather]))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition)
    graph.add_edge("tools", "model")
    app = graph.compile(checkpointer=SqliteSaver(conn))
    app.invoke({"messages": [HumanMessage(f"Weather in {city}?")]}, {"configurable": {"thread_id": thread}})
conn.close()
