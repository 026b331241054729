"""The provider a session ran on, as a toolhist provider name, from what the session's header says.

A small mapping for ``toolhist sessions``; the readers' own "ran on" helper may replace it. Each
agent either talks to one provider's wire format whatever the model, or records which API it used:

- Claude Code sends Anthropic Messages (also through Bedrock and Vertex, in Anthropic's shape).
- Codex sends the Responses API (``model_provider`` in ``session_meta`` names the endpoint, not the
  shape).
- Gemini CLI sends Gemini ``generateContent``.
- llxprt records the provider in ``session_start`` (``provider``); its names map below.
- Cline records ``modelInfo.providerId`` on each assistant message (cline/cline
  ``apps/vscode/src/shared/messages/metrics.ts``, ``ClineMessageModelInfo``); most of its providers
  are OpenAI-compatible.
- Roo and Kilo record the API protocol of each request in ``ui_messages.json``
  (``api_req_started`` text ``apiProtocol``: ``anthropic`` | ``openai``; RooCodeInc/Roo-Code
  ``packages/types/src/message.ts`` 272, ``src/core/task/Task.ts`` 2572-2591).
- VS Code Copilot Chat records the model (``modelId``, e.g. ``copilot/claude-sonnet-4``); the
  provider is the model's family. That is an approximation: Copilot proxies every model.

None means the header does not say: the listing shows ``-`` and no verdict is computed.
"""

from __future__ import annotations

from typing import Final

FIXED: Final = {"claude-code": "anthropic", "codex": "openai-responses", "gemini-cli": "gemini"}
"""Agents that talk to one wire format whatever the model."""

NAMED: Final = {
    # llxprt provider names (session_start.provider)
    "anthropic": "anthropic",
    "gemini": "gemini",
    "openai": "openai-chat",
    "openai-responses": "openai-responses",
    "openaivercel": "openai-chat",
    # Cline providerId values (its api providers)
    "openai-native": "openai-chat",
    "openrouter": "openai-chat",
    "deepseek": "openai-chat",
    "ollama": "openai-chat",
    "lmstudio": "openai-chat",
    "xai": "openai-chat",
    "together": "openai-chat",
    "fireworks": "openai-chat",
    "vertex": "anthropic",
    "bedrock": "bedrock",
    "mistral": "mistral",
    "moonshot": "kimi",
    "kimi": "kimi",
}
"""An agent's own provider name → toolhist provider."""

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


def ran_on(agent: str, named: str | None = None, model: str | None = None) -> str | None:
    """The toolhist provider ``agent`` sent to: fixed, else the agent's name for it, else the model's."""
    if agent in FIXED:
        return FIXED[agent]
    if named:
        return NAMED.get(named.lower())
    return by_model(model)
