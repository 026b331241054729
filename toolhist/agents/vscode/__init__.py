"""VS Code chat: its chat sessions, as JSON (`reader`) or as the 1.109+ append log (`log`).

`log` replays the append log into the JSON session; `sessions` says where both are kept.

Where it ran: Copilot Chat records the model (``modelId``, e.g. ``copilot/claude-sonnet-4``); the
provider is the model's family (`toolhist.machine.ran_on.by_model`). That is an approximation:
Copilot proxies every model.
"""

from toolhist.agents.spec import Agent
from toolhist.agents.vscode import sessions
from toolhist.agents.vscode.log import VSCodeLogReader
from toolhist.agents.vscode.reader import VSCodeReader

AGENT = Agent(
    id="vscode",
    name="VS Code chat",
    readers=(VSCodeReader(), VSCodeLogReader()),
    read_as=sessions.read_as,
    places=sessions.places,
    sessions=sessions.sessions,
    provider_by_model=True,
)

__all__ = ["AGENT"]
