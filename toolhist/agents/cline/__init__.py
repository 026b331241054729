"""Cline, Roo Code and Kilo Code: one task file, three homes.

The three write the same ``api_conversation_history.json`` (`reader`, with the XML-era calls of
`xml_calls` and the repair Cline makes before it sends: `send_path`); they keep it in different
folders and say where a task ran in different places (`sessions`). `AGENTS` holds one spec each.
"""

from functools import partial

from toolhist.agents.cline import sessions
from toolhist.agents.cline.reader import KiloReader
from toolhist.agents.spec import Agent

READERS = (KiloReader(),)
"""The one reader of the three agents' task files."""

CLINE = Agent(
    id="cline",
    name="Cline",
    readers=READERS,
    places=partial(sessions.places, "cline"),
    sessions=partial(sessions.sessions, "cline"),
    provider_names=sessions.CLINE_PROVIDERS,
    wire_names=sessions.OPENAI_IS_CHAT,
)
ROO = Agent(
    id="roo",
    name="Roo Code",
    readers=READERS,
    places=partial(sessions.places, "roo"),
    sessions=partial(sessions.sessions, "roo"),
    provider_names=sessions.API_PROTOCOLS,
    wire_names=sessions.OPENAI_IS_CHAT,
)
KILO = Agent(
    id="kilo",
    name="Kilo Code",
    readers=READERS,
    places=partial(sessions.places, "kilo"),
    sessions=partial(sessions.sessions, "kilo"),
    provider_names=sessions.API_PROTOCOLS,
    wire_names=sessions.OPENAI_IS_CHAT,
)
AGENTS = (CLINE, ROO, KILO)
"""In ``--agent`` and listing order."""

__all__ = ["AGENTS", "CLINE", "KILO", "ROO"]
