"""Which provider a logged session ran on, when the log says so.

The provider a session ran on accepted every request of it (DESIGN §2): toolhist must predict no
400 there unless the log records one. `ran_on` names that provider, in toolhist's provider names,
from what the log itself says, most specific first:

- the last message that names its provider (readers set it where the agent records it: Claude
  Code assistant entries, Gemini CLI ``gemini`` records, llxprt IContent ``metadata.provider``,
  Cline's ``modelInfo.providerId``);
- the session: an OpenTelemetry ``gen_ai.provider.name`` / ``gen_ai.system`` (a standard any
  framework may emit), then what an agent's spec says of its own logs (``session_says``: a Codex
  rollout's ``session_meta.model_provider``; Codex speaks the Responses API to ``openai``).

Only names whose wire format and rules are toolhist's are mapped; a router or a compatible
endpoint (OpenRouter, Cline's own, LiteLLM, Ollama…) or a cloud that serves several formats
(Vertex) is reported by name with ``provider=None``: its rules are not the provider's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from pydantic import JsonValue

from toolhist.agents.registry import AGENTS
from toolhist.model import Session

VENDORS: Final = {
    "anthropic": "anthropic",
    "gemini": "gemini",
    "google": "gemini",
    "gcp.gemini": "gemini",
    "mistral": "mistral",
    "mistral_ai": "mistral",
    "moonshot": "kimi",
    "kimi": "kimi",
    "aws.bedrock": "bedrock",
    "openai-responses": "openai-responses",
}
"""Provider names as logs write them (agents, OpenTelemetry ``gen_ai.provider.name``) -> toolhist's.

``openai`` is left out on purpose: a log that says ``openai`` does not say whether the agent spoke
Chat Completions or Responses; the formats that know (Codex) say so themselves."""
FORMAT_WIRE: Final = {
    reader.id: agent.wire_names for agent in AGENTS if agent.wire_names for reader in agent.readers
}
"""Per reader, the provider names whose wire format the agent's own code fixes (each agent's
``wire_names``, citing its code: Codex's ``openai`` is the Responses API, llxprt's ``openai`` is
Chat Completions…)."""


@dataclass(frozen=True)
class RanOn:
    """The provider a session ran on, as its log names it."""

    named: str
    """The provider as the log writes it (``anthropic``, ``openrouter``, ``openai``…)."""
    provider: str | None
    """toolhist's provider name for it, or None when toolhist has no rules that are its own."""
    model: str | None
    """The model the log names with it, when it does."""
    evidence: str
    """Where the log says it (``message 12 metadata``, ``gen_ai.provider.name``…)."""


def said(ran: RanOn) -> str:
    """``ran on anthropic (claude-sonnet-4-5; message 5 metadata)``: one line for ``check``."""
    details = "; ".join(x for x in (ran.model, ran.evidence) if x)
    if ran.provider is None:
        return f"ran on {ran.named} ({details}); no toolhist provider has its rules"
    return f"ran on {ran.provider} ({details})"


def ran_on(session: Session) -> RanOn | None:
    """The provider ``session`` ran on, or None when the log does not say."""
    for i in range(len(session.messages) - 1, -1, -1):
        meta = session.messages[i].metadata
        if meta.provider is not None:
            return RanOn(meta.provider, _map(session, meta.provider), meta.model, f"message {i} metadata")
    data = session.metadata
    for key in ("gen_ai.provider.name", "gen_ai.system"):
        named = data.get(key)
        if isinstance(named, str):
            return RanOn(named, _map(session, named), _text(session.request.get("model")), key)
    for agent in AGENTS:
        found = agent.session_says(session) if agent.session_says is not None else None
        if found is not None:
            named, evidence = found
            return RanOn(named, _map(session, named), _text(session.request.get("model")), evidence)
    return None


def _map(session: Session, named: str) -> str | None:
    wire = FORMAT_WIRE.get(session.source.format, {})
    return wire.get(named.lower()) or VENDORS.get(named.lower())


def _text(value: JsonValue) -> str | None:
    return value if isinstance(value, str) else None


__all__ = ["RanOn", "ran_on", "said"]
