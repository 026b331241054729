"""Amp (Sourcegraph, ampcode.com): its threads (`reader`, inferred: Amp is closed) and folders.

Where it ran: the model each answer names (``usage.model``), a Claude model read as Anthropic
(`sessions.provider_of`); a ``thinking`` block's ``provider`` when there is one.
"""

from toolhist.agents.amp import sessions
from toolhist.agents.amp.reader import AmpReader
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="amp",
    name="Amp",
    readers=(AmpReader(),),
    places=sessions.places,
    sessions=sessions.sessions,
    provider_names=sessions.PROVIDER_NAMES,
    session_says=sessions.session_says,
)

__all__ = ["AGENT"]
