"""The provider a session ran on, as a toolhist provider name, from what the session's header says.

A small mapping for ``toolhist sessions``; the readers' own "ran on" helper (`toolhist.ran_on`)
reads the whole session. Each agent either talks to one provider's wire format whatever the model
(its ``speaks``), or records which provider it used, in its own names (its ``provider_names``), or
only the model, whose family then says (`by_model`). Each agent's spec says which, citing where
(``toolhist/agents/<agent>/``).

None means the header does not say: the listing shows ``-`` and no verdict is computed.
"""

from __future__ import annotations

from typing import Final

from toolhist.agents.registry import AGENTS

FIXED: Final = {agent.id: agent.speaks for agent in AGENTS if agent.speaks is not None}
"""Agents that talk to one wire format whatever the model."""


NAMED: Final = {name: p for agent in AGENTS for name, p in agent.provider_names.items()}
"""An agent's own provider name → toolhist provider: every agent's ``provider_names`` in one table
(a name means the same provider whichever agent wrote it; tests/by_agent/test_registry.py checks
that the agents agree on the names they share)."""

FAMILIES: Final = (
    ("claude", "anthropic"),
    ("gemini", "gemini"),
    ("mistral", "mistral"),
    ("codestral", "mistral"),
    ("kimi", "kimi"),
    ("gpt", "openai-chat"),
    ("o1", "openai-chat"),
    ("o3", "openai-chat"),
    ("o4", "openai-chat"),
)
"""Model name prefix (after any ``vendor/``) → toolhist provider."""


def by_model(model: str | None) -> str | None:
    """The provider of a model's family (``copilot/claude-sonnet-4`` → ``anthropic``), or None."""
    if not model:
        return None
    name = model.rsplit("/", 1)[-1].lower()
    return next((provider for prefix, provider in FAMILIES if name.startswith(prefix)), None)


WIRE: Final = {agent.id: agent.wire_names for agent in AGENTS if agent.wire_names}
"""Per agent, its own provider names whose wire format its code fixes (OpenCode's ``openai`` is the
Responses API, Cline's Chat Completions): asked before the names every agent shares."""


def ran_on(agent: str, named: str | None = None, model: str | None = None) -> str | None:
    """The toolhist provider ``agent`` sent to: fixed, else the agent's name for it, else the model's."""
    if agent in FIXED:
        return FIXED[agent]
    if named:
        return WIRE.get(agent, {}).get(named.lower()) or NAMED.get(named.lower())
    return by_model(model)
