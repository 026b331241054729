"""Pi coding agent (badlogic/pi-mono): its session tree, what it sends next, and its folders.

The tree and compaction are `context`; what Pi does for the next model is `transform`, `blocks`
and `reader`; its folders are `sessions`.

Where it ran: Pi speaks each provider's own API (``anthropic-messages``, ``openai-responses``,
``openai-completions``, ``google-generative-ai``…); every assistant message names the provider and
the API, read as ``<provider>/<api>`` (`sessions.WIRE`).
"""

from toolhist.agents.pi import sessions
from toolhist.agents.pi.reader import PiReader
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="pi",
    name="Pi",
    readers=(PiReader(),),
    places=sessions.places,
    sessions=sessions.sessions,
    provider_names=sessions.WIRE,
    wire_names=sessions.WIRE,
)

__all__ = ["AGENT"]
