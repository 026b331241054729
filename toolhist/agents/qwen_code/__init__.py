"""Qwen Code (QwenLM/qwen-code, a Gemini CLI fork): its recordings, how it sends them, its folders.

Recordings are replayed by `history`, sent through its content generator by `openai_wire` and
`reader`; its folders are `sessions`.

Where it ran: the session's ``authType`` picks the content generator, and so the wire
(`sessions.AUTH_WIRE`): Chat Completions for ``openai`` and ``qwen-oauth`` (the default).
"""

from toolhist.agents.qwen_code import sessions
from toolhist.agents.qwen_code.reader import QwenCodeReader
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="qwen-code",
    name="Qwen Code",
    readers=(QwenCodeReader(),),
    places=sessions.places,
    sessions=sessions.sessions,
    read_as=sessions.read_as,
    provider_names=sessions.AUTH_WIRE,
    wire_names=sessions.AUTH_WIRE,
    session_says=sessions.session_says,
)

__all__ = ["AGENT"]
