"""ATIF: Harbor's Agent Trajectory Interchange Format (`reader`).

An interchange format rather than an agent: trajectories are written by whichever agent Harbor ran
(``trajectory.json`` in a trial's folder), so there are no places and no listing; each step names
the model that made it (``model_name``), kept in the message metadata. Harbor's pydantic
``Trajectory`` is read live (`live`).
"""

from toolhist.agents.atif.live import LIVE
from toolhist.agents.atif.reader import AtifReader
from toolhist.agents.spec import Agent

AGENT = Agent(id="atif", name="ATIF trajectory", readers=(AtifReader(),), live=LIVE)

__all__ = ["AGENT"]
