"""Library strategies: what LiteLLM, the Vercel AI SDK and the OpenAI Agents SDK do to a history.

Each reproduces one library's own repair (quirks included) so a user can compare it with
toolhist's on the same history and provider; the modules say which source they follow:
`toolhist.curation.libraries_litellm` (``litellm``), `toolhist.curation.libraries_vercel`
(``vercel-ai``) and `toolhist.curation.libraries_agents` (``openai-agents``). None of the three
rewrites tool-call ids, so their ``edge_ids`` pass ids through unchanged.
"""

from __future__ import annotations

from toolhist.curation import libraries_agents, libraries_litellm, libraries_vercel
from toolhist.curation.libraries_common import unchanged_ids
from toolhist.curation.strategies import StrategyDef

STRATEGIES = {
    "litellm": StrategyDef(
        name="litellm",
        summary="LiteLLM with modify_params=True: placeholder results, orphan results dropped (Anthropic); "
        "dummy tool and 'Please continue.' turns (Bedrock)",
        curate=libraries_litellm.curate,
        edge_ids=unchanged_ids,
    ),
    "vercel-ai": StrategyDef(
        name="vercel-ai",
        summary="Vercel AI SDK convertToModelMessages(ignoreIncompleteToolCalls) + prompt standardisation "
        "(throws MissingToolResultsError)",
        curate=libraries_vercel.curate,
        edge_ids=unchanged_ids,
    ),
    "openai-agents": StrategyDef(
        name="openai-agents",
        summary="OpenAI Agents SDK on resume: drop_orphan_function_calls (with their reasoning), "
        "deduplicate_input_items",
        curate=libraries_agents.curate,
        edge_ids=unchanged_ids,
    ),
}
