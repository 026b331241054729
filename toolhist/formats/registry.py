"""The provider wire formats' readers, in the order `toolhist.readers` tries them.

Request bodies come first (before every agent's log format, `toolhist.agents.registry`) and
toolhist's own canonical JSON last: it reads anything shaped like a Session.
"""

from __future__ import annotations

from typing import Final

from toolhist.formats.anthropic import AnthropicReader
from toolhist.formats.base import Reader
from toolhist.formats.bedrock import BedrockReader
from toolhist.formats.canonical import CanonicalReader
from toolhist.formats.gemini import GeminiReader
from toolhist.formats.openai_chat import OpenAIChatReader
from toolhist.formats.openai_responses import OpenAIResponsesReader

WIRE: Final[tuple[Reader, ...]] = (
    OpenAIChatReader(),
    OpenAIResponsesReader(),
    AnthropicReader(),
    GeminiReader(),
    BedrockReader(),
)
"""One reader per provider request body."""

CANONICAL: Final[Reader] = CanonicalReader()
"""toolhist's canonical Session JSON: tried after every other format."""
