"""OpenCode (anomalyco/opencode, formerly sst/opencode): its sessions (`reader`: ``opencode.db``, the older
``storage/`` tree, ``opencode export``), what it sends of them (`send`), its folders and what says
where a session ran (`sessions`).
"""

from toolhist.agents.opencode import sessions
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="opencode",
    name="OpenCode",
    readers=(sessions.READER,),
    places=sessions.places,
    sessions=sessions.sessions,
    wire_names=sessions.WIRE,
)

__all__ = ["AGENT"]
