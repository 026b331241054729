"""OpenTelemetry GenAI spans (`reader`), tool spans joined to their calls (`tools`).

A log source, not an agent with a home: spans come from whatever exporter the user set up, so
there are no places and no listing. Where a span's call ran is its ``gen_ai.provider.name`` (or
``gen_ai.system``), a standard attribute read for every session in `toolhist.ran_on`.
"""

from toolhist.agents.otel_genai.reader import OtelGenAIReader
from toolhist.agents.spec import Agent

AGENT = Agent(id="otel-genai", name="OpenTelemetry GenAI spans", readers=(OtelGenAIReader(),))

__all__ = ["AGENT"]
