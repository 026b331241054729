"""Claude Code: its session JSONL (`reader`, threaded as Claude Code threads it: `thread`) and its folders.

Where it ran: Claude Code sends Anthropic Messages whatever the model (also through Bedrock and
Vertex, in Anthropic's shape); each assistant entry names ``anthropic`` as its provider.
"""

from toolhist.agents.claude_code import sessions
from toolhist.agents.claude_code.reader import ClaudeCodeReader
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="claude-code",
    name="Claude Code",
    readers=(ClaudeCodeReader(),),
    places=sessions.places,
    sessions=sessions.sessions,
    speaks="anthropic",
)

__all__ = ["AGENT"]
