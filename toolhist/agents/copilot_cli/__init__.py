"""GitHub Copilot CLI: its session events, replayed as a resumed session replays them.

`reader` reads them (the history's timeline in `history`, the event types and the CLI's own texts
in `events`); `sessions` says where they are kept.

Where it ran: GitHub's Copilot API serves each model in its family's wire format; the model (or a
failed call's endpoint) says which (`sessions.session_says`), so listings judge by model.
"""

from toolhist.agents.copilot_cli import sessions
from toolhist.agents.copilot_cli.reader import CopilotCliReader
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="copilot-cli",
    name="GitHub Copilot CLI",
    readers=(CopilotCliReader(),),
    places=sessions.places,
    sessions=sessions.sessions,
    wire_names=sessions.WIRE,
    session_says=sessions.session_says,
    provider_by_model=True,
)

__all__ = ["AGENT"]
