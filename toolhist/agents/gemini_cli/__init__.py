"""Gemini CLI: its chat recordings and checkpoints (`reader`) and its folders (`sessions`).

Where it ran: Gemini CLI sends Gemini ``generateContent`` whatever the model; its ``gemini``
records name the provider.
"""

from toolhist.agents.gemini_cli import sessions
from toolhist.agents.gemini_cli.reader import GeminiCliReader
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="gemini-cli",
    name="Gemini CLI",
    readers=(GeminiCliReader(),),
    places=sessions.places,
    sessions=sessions.sessions,
    speaks="gemini",
)

__all__ = ["AGENT"]
