"""Goose (block/goose): ``sessions.db`` and the JSONL sessions before it, read as Goose sends them.

`reader` reads both forms, `send` repairs a conversation as Goose does before it sends, and
`sessions` says where Goose keeps them and what says where a session ran.
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
