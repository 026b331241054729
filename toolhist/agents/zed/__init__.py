"""Zed's agent panel: its ``threads.db`` of zstd-compressed JSON threads (`reader`, `zstd`), where it keeps
it and what says where a thread ran (`sessions`).
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
