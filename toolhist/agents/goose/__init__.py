"""Goose (block/goose): ``sessions.db`` and the JSONL sessions before it (`reader`), what Goose sends of a
conversation (`send`), its folders and what says where a session ran (`sessions`).
"""

from toolhist.agents.goose import sessions
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="goose",
    name="Goose",
    readers=(sessions.READER,),
    places=sessions.places,
    sessions=sessions.sessions,
    wire_names=sessions.WIRE,
)

__all__ = ["AGENT"]
