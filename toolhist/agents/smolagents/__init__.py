"""smolagents: its memory steps (`reader`) and live agents and memories (`live`).

A framework: memory lives in the agent object (``agent.memory``), dumped wherever the
application writes it, so there are no places and no listing.
"""

from toolhist.agents.smolagents.live import LIVE
from toolhist.agents.smolagents.reader import SmolagentsReader
from toolhist.agents.spec import Agent

AGENT = Agent(id="smolagents", name="smolagents", readers=(SmolagentsReader(),), live=LIVE)

__all__ = ["AGENT"]
