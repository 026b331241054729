"""The strategy registry (DESIGN §6): each name is a module exposing ``STRATEGY``.

Strategies are modules, not passes: ``toolhist`` is the reference pipeline (changing only what the
target refuses) and ``canonical`` the same repairs with seed 001's canonical ids; the others reproduce
what a real client sends (llxprt-code at two versions, LiteLLM, the AI SDK, the Agents SDK), quirks
included, so a user can compare them on the same history and provider. ``litellm`` and
``openai-agents`` run the real libraries (`toolhist.peers`); ``litellm-port`` and
``openai-agents-port`` are toolhist's earlier ports of them, kept for speed and labelled as ports.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module

from toolhist.curation.base import Curation
from toolhist.errors import UsageError
from toolhist.model import Message, Session

_MODULES = {
    "none": "toolhist.curation.none",
    "toolhist": "toolhist.curation.reference",
    "canonical": "toolhist.curation.canonical",
    "llxprt-v864": "toolhist.curation.llxprt",
    "llxprt-head": "toolhist.curation.llxprt",
    "litellm": "toolhist.peers.strategies",
    "vercel-ai": "toolhist.curation.libraries",
    "openai-agents": "toolhist.peers.strategies",
    "vercel-ai-model": "toolhist.curation.libraries",
    "litellm-port": "toolhist.curation.libraries",
    "openai-agents-port": "toolhist.curation.libraries",
    "pydantic-ai": "toolhist.agents.pydantic_ai.strategy",
    "langchain": "toolhist.agents.langchain.strategy",
}


@dataclass(frozen=True)
class StrategyDef:
    """A named strategy: how it curates and how it writes ids into a provider's payload."""

    name: str
    summary: str
    curate: Callable[[Session, str, tuple[Message, ...]], Curation]
    """(session, provider, tail) → Curation."""
    edge_ids: Callable[[Session, str], tuple[Session, dict[str, str]]]
    """(curated session, provider) → (session with the ids this client sends, old → new)."""


def _load() -> dict[str, StrategyDef]:
    registry: dict[str, StrategyDef] = {}
    for name, module in _MODULES.items():
        try:
            found: dict[str, StrategyDef] = import_module(module).STRATEGIES
        except ModuleNotFoundError as exc:  # a strategy module still being written: not registered
            if not (exc.name or "").startswith("toolhist.curation."):
                raise
            continue
        if name in found:
            registry[name] = found[name]
    return registry


STRATEGY_REGISTRY: dict[str, StrategyDef] = _load()
STRATEGIES: tuple[str, ...] = tuple(STRATEGY_REGISTRY)
"""Strategy names (DESIGN §6), in the order tables show them."""

_STARTS_A_LIBRARY = ("toolhist.peers.strategies", "toolhist.agents.")
LIBRARY_STRATEGIES: tuple[str, ...] = tuple(
    n for n in STRATEGIES if _MODULES[n].startswith(_STARTS_A_LIBRARY)
)
"""The strategies that start a real library: LiteLLM and the Agents SDK in their peers workers
(`toolhist.peers.strategies`), pydantic-ai and LangChain in this process (`toolhist.agents.*.strategy`).
Its first start costs seconds to tens of seconds (measured on a loaded 2-core box: LiteLLM 24 to 29 s, the
Agents SDK 10 to 14 s, pydantic-ai 6 to 9 s, LangChain 4 s), so the app runs them when asked; the others are
toolhist's own code (the ports included) and run at once."""


def strategy_for(name: str) -> StrategyDef:
    """The strategy called ``name``, or a UsageError listing the valid names.

    A strategy that runs a real library also takes a version: ``litellm@1.110.2`` runs LiteLLM
    1.110.2 (``@installed``: the one installed here, ``@pin``: the pin; `toolhist.peers.versions`).
    """
    if "@" in name:
        from toolhist.peers.strategies import versioned

        return versioned(name)
    try:
        return STRATEGY_REGISTRY[name]
    except KeyError:
        raise UsageError(f"unknown strategy {name!r}; choose one of: {', '.join(STRATEGIES)}") from None
