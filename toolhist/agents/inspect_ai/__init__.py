"""Inspect AI: eval logs, ``.json`` and ``.eval`` (`reader`), and its live logs and messages (`live`).

An evaluation framework: logs go wherever ``--log-dir`` says (``./logs`` by default), so there are
no places and no listing. Where it ran: the log's ``eval.model`` (``openai/gpt-4o``) names the
provider and model, kept in the session metadata.
"""

from toolhist.agents.inspect_ai.live import LIVE
from toolhist.agents.inspect_ai.reader import InspectReader
from toolhist.agents.spec import Agent

AGENT = Agent(id="inspect-ai", name="Inspect AI", readers=(InspectReader(),), live=LIVE)

__all__ = ["AGENT"]
