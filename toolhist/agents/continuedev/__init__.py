"""Continue (continue.dev): its sessions (`reader`, as constructMessages sends them) and folders.

Where it ran: each answer's prompt log names Continue's provider (`sessions.PROVIDER_NAMES`).
"""

from toolhist.agents.continuedev import sessions
from toolhist.agents.continuedev.reader import ContinueReader
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="continue",
    name="Continue",
    readers=(ContinueReader(),),
    places=sessions.places,
    sessions=sessions.sessions,
    provider_names=sessions.PROVIDER_NAMES,
)

__all__ = ["AGENT"]
