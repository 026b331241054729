"""Tool history compaction (RFC 026, seed 004): tiers, tool categories, native vs text-embed rendering.

``compact(session, provider)`` keeps the system prompt and original intent (tier 1), the last
``keep`` tool call/result pairs (tier 3) and the current turn (tier 4) verbatim, and replaces older
pairs (tier 2) by summaries that keep the facts: paths and line ranges read, files changed, commands
with exit codes, and every error in full. Token figures per message and per tier come from
`toolhist.tokens`: exact for OpenAI models, labelled estimates elsewhere.

The RFC's ``ToolHistoryManager`` was never wired into the extension that wrote it (research
kilo_rfc_vscode.md §0); this is the design as the RFC states it, checked against every provider's
400 rules instead.
"""

from __future__ import annotations

from toolhist.compaction.categories import CATEGORIES, STRATEGIES, Category, categorize
from toolhist.compaction.core import (
    RECENT_CALLS_TO_KEEP,
    TRUNCATION_THRESHOLD,
    Compaction,
    Replacement,
    TierTokens,
    compact,
)
from toolhist.compaction.rendering import RENDERINGS, Rendering, should_fall_back
from toolhist.compaction.tiers import TIER_NAMES, Tier

__all__ = [
    "CATEGORIES",
    "RECENT_CALLS_TO_KEEP",
    "RENDERINGS",
    "STRATEGIES",
    "TIER_NAMES",
    "TRUNCATION_THRESHOLD",
    "Category",
    "Compaction",
    "Rendering",
    "Replacement",
    "Tier",
    "TierTokens",
    "categorize",
    "compact",
    "should_fall_back",
]
