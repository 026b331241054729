"""OpenCode (anomalyco/opencode, formerly sst/opencode): its sessions, what it sends of them, where.

`reader` reads ``opencode.db``, the older ``storage/`` tree and ``opencode export`` output;
`send` turns them into what OpenCode sends; `sessions` says where OpenCode keeps them and what
says where a session ran.
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
