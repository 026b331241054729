"""toolhist: inspect, validate and repair LLM tool-call histories.

The public API (DESIGN §5) grows issue by issue; what exists is exported here.
"""

from __future__ import annotations

from toolhist.errors import LoadError, RenderError, ToolhistError, UsageError
from toolhist.formats import FORMATS, load
from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    MessageMetadata,
    OpaqueBlock,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
    ToolSpec,
)
from toolhist.summary import Summary, summarize

__version__ = "0.1.0"

__all__ = [
    "FORMATS",
    "Block",
    "LoadError",
    "MediaBlock",
    "Message",
    "MessageMetadata",
    "OpaqueBlock",
    "RenderError",
    "Session",
    "Summary",
    "TextBlock",
    "ThinkingBlock",
    "ToolCallBlock",
    "ToolResponseBlock",
    "ToolSpec",
    "ToolhistError",
    "UsageError",
    "__version__",
    "load",
    "summarize",
]
