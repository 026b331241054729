"""OpenHands CLI (OpenHands/OpenHands-CLI on OpenHands/software-agent-sdk): its conversation folders.

How their events become LLM messages is `events` and `reader`; its places are `sessions`.

Where it ran: ``base_state.json`` names the LLM as a LiteLLM model string (`sessions.provider_of`).
"""

from toolhist.agents.openhands import sessions
from toolhist.agents.openhands.reader import OpenHandsReader
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="openhands",
    name="OpenHands CLI",
    readers=(OpenHandsReader(),),
    places=sessions.places,
    sessions=sessions.sessions,
    provider_names=sessions.NAMES,
    wire_names=sessions.NAMES,
    session_says=sessions.session_says,
)

__all__ = ["AGENT"]
