"""SWE-agent and mini-SWE-agent: their trajectory files (`reader`), one reader each.

Run by evaluation harnesses, trajectories go wherever the run's output folder is, so there are no
places and no listing. Both send Chat Completions through LiteLLM (mini-SWE-agent's Responses
model classes send Responses items), whatever the model. Their agents and run results are read live
(`live`), by their class's module.
"""

from toolhist.agents.spec import Agent
from toolhist.agents.swe_agent.live import MINI_LIVE, SWE_LIVE
from toolhist.agents.swe_agent.reader import MiniSweAgentReader, SweAgentReader

AGENTS = (
    Agent(id="swe-agent", name="SWE-agent", readers=(SweAgentReader(),), live=SWE_LIVE),
    Agent(id="mini-swe-agent", name="mini-SWE-agent", readers=(MiniSweAgentReader(),), live=MINI_LIVE),
)

__all__ = ["AGENTS"]
