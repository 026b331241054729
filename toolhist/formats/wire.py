"""Which reader reads each provider's own request body, and where in that body the history is.

One table for everything that turns a provider's body back into a session: `toolhist.check` (is a
verdict on the body as sent?), guard bundles (`toolhist.formats.bundled`, `toolhist.guard.core`) and
the real peer libraries' captured requests (`toolhist.peers.strategies`). Mistral and Kimi speak the
Chat Completions shape.
"""

from __future__ import annotations

OWN_FORMAT: dict[str, tuple[str, str]] = {
    "openai-chat": ("openai-chat", "messages"),
    "mistral": ("openai-chat", "messages"),
    "kimi": ("openai-chat", "messages"),
    "openai-responses": ("openai-responses", "input"),
    "anthropic": ("anthropic", "messages"),
    "gemini": ("gemini", "contents"),
    "bedrock": ("bedrock", "messages"),
}
"""Provider → (reader format of its own wire shape, the body key that holds the history)."""


def own_reader(provider: str) -> str:
    """The reader format id of ``provider``'s request body (KeyError for an unknown provider)."""
    return OWN_FORMAT[provider][0]
