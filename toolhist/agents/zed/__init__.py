"""Zed's agent panel: its ``threads.db`` of zstd-compressed JSON threads, read as Zed sends them.

`reader` and `zstd` read the store; `sessions` says where Zed keeps it and what says where a
thread ran.
"""

from toolhist.agents.spec import Agent
from toolhist.agents.zed import sessions

AGENT = Agent(
    id="zed",
    name="Zed",
    readers=(sessions.READER,),
    places=sessions.places,
    sessions=sessions.sessions,
    wire_names=sessions.WIRE,
)

__all__ = ["AGENT"]
