"""What the three library strategies (``litellm``, ``vercel-ai``, ``openai-agents``) share.

The libraries repair histories in their own data shapes (OpenAI chat dicts, AI SDK model
messages, Responses items); these helpers make the canonical equivalents of what they add, so
every library strategy marks its inventions the same way (``metadata.synthetic`` and a reason).
"""

from __future__ import annotations

from typing import Literal

from toolhist.curation.base import Curation, run_passes
from toolhist.model import Message, MessageMetadata, Session, TextBlock, ToolCallBlock, ToolResponseBlock


def synthetic_result(call: ToolCallBlock, text: str, reason: str) -> Message:
    """A tool message answering ``call`` with ``text``, marked as made by the library, not the tool."""
    block = ToolResponseBlock(call_id=call.id, tool_name=call.name, result=text, is_complete=False)
    return Message(
        speaker="tool",
        blocks=(block,),
        metadata=MessageMetadata(source_role="tool", synthetic=True, reason=reason),
    )


def synthetic_text(speaker: Literal["human", "ai"], text: str, reason: str) -> Message:
    """A human or ai message holding ``text`` that the library wrote itself."""
    role = "user" if speaker == "human" else "assistant"
    return Message(
        speaker=speaker,
        blocks=(TextBlock(text=text),),
        metadata=MessageMetadata(source_role=role, synthetic=True, reason=reason),
    )


def unchanged_ids(session: Session, provider: str) -> tuple[Session, dict[str, str]]:
    """Edge ids of a library that writes tool-call ids into the payload exactly as the history has them.

    LiteLLM, the AI SDK and the Agents SDK all copy ``tool_call_id`` / ``toolCallId`` / ``call_id``
    through unchanged (none of them maps ids per provider), so a provider's id rules see the
    history's own ids.
    """
    return session, {}


def unchanged(session: Session, provider: str, strategy: str, tail: tuple[Message, ...]) -> Curation:
    """The Curation of a library that does nothing to this history for this provider.

    Only `conform_to_sdk` runs (as it does first in every curating strategy), so the body keeps to
    the SDK's request types.
    """
    return run_passes(session, provider, strategy, (), tail)
