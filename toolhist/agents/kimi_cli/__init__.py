"""Kimi CLI (MoonshotAI/kimi-cli): its ``context.jsonl`` (`reader`) and its folders (`sessions`).

Where it ran: the session does not record the provider (the user's ``config.toml`` does); Kimi's
own tool call ids say it ran on Kimi (`sessions.session_says`), which is inferred.
"""

from toolhist.agents.kimi_cli import sessions
from toolhist.agents.kimi_cli.reader import KimiCliReader
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="kimi-cli",
    name="Kimi CLI",
    readers=(KimiCliReader(),),
    places=sessions.places,
    sessions=sessions.sessions,
    provider_names={"kimi": "kimi"},
    session_says=sessions.session_says,
)

__all__ = ["AGENT"]
