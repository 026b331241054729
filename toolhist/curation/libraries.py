"""Library strategies: what LiteLLM, the Vercel AI SDK and the OpenAI Agents SDK do to a history.

Each reproduces one library's own repair (quirks included) so a user can compare it with
toolhist's on the same history and provider; the modules say which source they follow:
`toolhist.curation.libraries_litellm` (``litellm-port``), `toolhist.curation.libraries_vercel`
(``vercel-ai``) and `toolhist.curation.libraries_agents` (``openai-agents-port``). The strategies
``litellm`` and ``openai-agents`` run the real libraries (`toolhist.peers.strategies`); the two
ports stay, under names that say so, for speed and where no peers environment is installed. None of the three
rewrites tool-call ids, so their ``edge_ids`` pass ids through unchanged.
"""

from __future__ import annotations

from toolhist.curation import libraries_agents, libraries_litellm, libraries_vercel
from toolhist.curation.libraries_common import unchanged_ids
from toolhist.curation.strategies import StrategyDef

STRATEGIES = {
    "litellm-port": StrategyDef(
        name="litellm-port",
        summary="PORT of LiteLLM (toolhist's reimplementation; `litellm` runs the real one) with modify_params=True: placeholder results, orphan results dropped (Anthropic); "
        "dummy tool and 'Please continue.' turns (Bedrock)",
        curate=libraries_litellm.curate,
        edge_ids=unchanged_ids,
    ),
    "vercel-ai": StrategyDef(
        name="vercel-ai",
        summary="Vercel AI SDK route 1: UI messages (each result inside its call's tool part) through "
        "convertToModelMessages(ignoreIncompleteToolCalls) + prompt standardisation (throws MissingToolResultsError)",
        curate=libraries_vercel.curate,
        edge_ids=unchanged_ids,
    ),
    "vercel-ai-model": StrategyDef(
        name="vercel-ai-model",
        summary="Vercel AI SDK route 2: model messages straight into generateText (no "
        "convertToModelMessages, so no ignoreIncompleteToolCalls) + prompt standardisation",
        curate=libraries_vercel.curate_model,
        edge_ids=unchanged_ids,
    ),
    "openai-agents-port": StrategyDef(
        name="openai-agents-port",
        summary="PORT of the OpenAI Agents SDK (toolhist's reimplementation; `openai-agents` runs the real "
        "one) on resume: drop_orphan_function_calls (with their reasoning), "
        "deduplicate_input_items",
        curate=libraries_agents.curate,
        edge_ids=unchanged_ids,
    ),
}
