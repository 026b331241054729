"""toolhist: inspect, validate and repair LLM tool-call histories.

The public API (DESIGN §5) grows issue by issue; what exists is exported here. ``toolhist.diff`` and
``toolhist.explain`` are the functions; ``from toolhist.diff import Diff`` still reaches the module.
"""

from __future__ import annotations

from toolhist.api import curate, render, summarize, validate
from toolhist.curation import STRATEGIES, Change, Curation
from toolhist.diff import Diff, diff
from toolhist.errors import LoadError, RenderError, ToolhistError, UsageError
from toolhist.explain import Explanation, explain
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
from toolhist.providers import PROVIDERS, Payload, Violation, validate_payload
from toolhist.readers import FORMATS, load
from toolhist.summary import Summary

__version__ = "0.1.0"

__all__ = [
    "FORMATS",
    "PROVIDERS",
    "STRATEGIES",
    "Block",
    "Change",
    "Curation",
    "Diff",
    "Explanation",
    "LoadError",
    "MediaBlock",
    "Message",
    "MessageMetadata",
    "OpaqueBlock",
    "Payload",
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
    "Violation",
    "__version__",
    "curate",
    "diff",
    "explain",
    "load",
    "render",
    "summarize",
    "validate",
    "validate_payload",
]
