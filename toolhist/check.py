"""``toolhist check``: which providers reject a session, where, and with which words.

A file that already is a request body in a provider's own wire format (a captured body that got the
400) is validated exactly as it was sent for that provider, not re-rendered; every other
provider sees the body toolhist renders for it. Both are located in the canonical history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolhist.formats import load_document
from toolhist.providers import PROVIDERS, Violation, provider_for, render, validate
from toolhist.providers.base import violations

OWN_FORMAT = {
    "openai-chat": ("openai-chat", "messages"),
    "mistral": ("openai-chat", "messages"),
    "kimi": ("openai-chat", "messages"),
    "openai-responses": ("openai-responses", "input"),
    "anthropic": ("anthropic", "messages"),
    "gemini": ("gemini", "contents"),
    "bedrock": ("bedrock", "messages"),
}
"""Provider → (reader format of its own wire shape, the body key that holds the history)."""


@dataclass(frozen=True)
class CheckResult:
    """What ``check`` found for one file."""

    file: str
    format: str
    messages: int
    results: dict[str, list[Violation]] = field(default_factory=dict)
    as_sent: tuple[str, ...] = ()
    """Providers whose verdict is on the body exactly as it was sent."""

    def errors(self) -> int:
        """Error-level violations over all providers."""
        return sum(v.severity == "error" for vs in self.results.values() for v in vs)

    def to_json(self) -> dict[str, Any]:
        """The ``check --json`` object (DESIGN §6)."""
        return {
            "file": self.file,
            "format": self.format,
            "messages": self.messages,
            "results": {
                p: {"violations": [v.model_dump(mode="json") for v in vs]} for p, vs in self.results.items()
            },
        }


def check(
    source: Any,
    providers: list[str] | None = None,
    *,
    strategy: str = "none",
    format: str | None = None,
    name: str | None = None,
) -> CheckResult:
    """Validate ``source`` for each provider (all of them when ``providers`` is None).

    ``name`` is what errors call in-memory input (an uploaded file's name).
    """
    names = [provider_for(p).name for p in providers] if providers else list(PROVIDERS)
    doc, session = load_document(source, format, name=name)
    results: dict[str, list[Violation]] = {}
    as_sent: list[str] = []
    for provider in names:
        own_format, key = OWN_FORMAT[provider]
        if strategy == "none" and session.source.format == own_format:
            body = doc.value if isinstance(doc.value, dict) else {key: doc.value}
            results[provider] = violations(provider_for(provider), body, render(session, provider).source_map)
            as_sent.append(provider)
        else:
            results[provider] = validate(session, provider, strategy=strategy)
    return CheckResult(
        file=doc.name,
        format=session.source.format,
        messages=len(session.messages),
        results=results,
        as_sent=tuple(as_sent),
    )
