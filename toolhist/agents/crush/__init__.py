"""Crush (charmbracelet/crush): its per-project ``crush.db``, what it sends, where it keeps them.

`reader` reads a store as Crush sends a session; `sessions` says where the stores are and what
says where a session ran.
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
