"""OpenAI Codex CLI: its rollouts (`reader`), the history it replays (`history`) and sends (`normalize`).

Its folders and what says where a rollout ran are in `sessions`.
"""

from toolhist.agents.codex import sessions
from toolhist.agents.codex.reader import CodexReader
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="codex",
    name="Codex CLI",
    readers=(CodexReader(),),
    places=sessions.places,
    sessions=sessions.sessions,
    speaks="openai-responses",
    wire_names={"openai": "openai-responses"},
    session_says=sessions.session_says,
)

__all__ = ["AGENT"]
