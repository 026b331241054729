"""llxprt-code: its checkpoints and recordings (`checkpoint`), debug logs (`debug`), IContent (`icontent`).

Where it keeps them and what says where a chat ran: `sessions`. How it repairs a history before
sending is replayed in `toolhist.curation.llxprt`.
"""

from toolhist.agents.llxprt import sessions
from toolhist.agents.llxprt.checkpoint import LlxprtCheckpointReader
from toolhist.agents.llxprt.debug import LlxprtDebugReader
from toolhist.agents.llxprt.icontent import IContentReader
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="llxprt",
    name="llxprt-code",
    readers=(LlxprtCheckpointReader(), LlxprtDebugReader(), IContentReader()),
    places=sessions.places,
    sessions=sessions.sessions,
    read_as=sessions.read_as,
    provider_names=sessions.PROVIDERS,
    wire_names=sessions.WIRE,
)

__all__ = ["AGENT"]
