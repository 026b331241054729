"""Cursor: its chats in ``state.vscdb`` (`store`) and its agent transcripts (`transcript`).

`sessions` says where both are kept and what says where a chat ran (the model's family).
"""

from toolhist.agents.cursor import sessions
from toolhist.agents.cursor.transcript import CursorTranscriptReader
from toolhist.agents.spec import Agent

AGENT = Agent(
    id="cursor",
    name="Cursor",
    readers=(sessions.STORE, CursorTranscriptReader()),
    places=sessions.places,
    sessions=sessions.sessions,
    read_as=sessions.read_as,
    wire_names=sessions.WIRE,
    session_says=sessions.session_says,
    provider_by_model=True,
)

__all__ = ["AGENT"]
