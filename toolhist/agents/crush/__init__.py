"""Crush (charmbracelet/crush): its per-project ``crush.db`` (`reader`, what it sends of a session) and
where it keeps them and what says where a session ran (`sessions`).
"""

from toolhist.agents.crush import sessions
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="crush",
    name="Crush",
    readers=(sessions.READER,),
    places=sessions.places,
    sessions=sessions.sessions,
    wire_names=sessions.WIRE,
)

__all__ = ["AGENT"]
