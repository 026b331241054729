"""The provider registry and the three entry points that use it: render, validate, validate_payload.

Each provider lives in its own module exposing ``PROVIDER`` (see `toolhist.providers.base`). The
registry order is the order pages and tables show providers in.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib import import_module
from typing import TYPE_CHECKING, Any, Literal

from toolhist._gc import paused
from toolhist._trusted import replace
from toolhist.errors import UsageError
from toolhist.model import Session

if TYPE_CHECKING:  # pragma: no cover - typing only
    from toolhist.curation.base import Curation
from toolhist.providers.base import (
    Finding,
    Payload,
    Provider,
    Rule,
    Violation,
    freeform_note,
    located,
    violations,
)
from toolhist.providers.chat_shared import CHAT_SHAPED, release_shared
from toolhist.providers.idmap import map_ids

_MODULES = {
    "openai-chat": "toolhist.providers.openai_chat",
    "openai-responses": "toolhist.providers.openai_responses",
    "anthropic": "toolhist.providers.anthropic",
    "gemini": "toolhist.providers.gemini",
    "mistral": "toolhist.providers.mistral",
    "kimi": "toolhist.providers.kimi",
    "bedrock": "toolhist.providers.bedrock",
}


def _load_registry() -> dict[str, Provider]:
    registry: dict[str, Provider] = {}
    for name, module in _MODULES.items():
        try:
            provider: Provider = import_module(module).PROVIDER
        except ModuleNotFoundError as exc:  # a provider module still being written: not registered
            if exc.name != module:
                raise
            continue
        assert provider.name == name, f"{module} registers {provider.name!r}, expected {name!r}"
        registry[name] = provider
    return registry


PROVIDER_REGISTRY: dict[str, Provider] = _load_registry()
PROVIDERS: tuple[str, ...] = tuple(PROVIDER_REGISTRY)
"""Provider names (DESIGN §6)."""


def provider_for(name: str) -> Provider:
    """The provider called ``name``, or a UsageError listing the valid names."""
    try:
        return PROVIDER_REGISTRY[name]
    except KeyError:
        raise UsageError(f"unknown provider {name!r}; choose one of: {', '.join(PROVIDERS)}") from None


IdMode = Literal["source", "provider"]


@paused
def render(session: Session, provider: str, *, strategy: str = "none", ids: IdMode | None = None) -> Payload:
    """The exact request body ``provider`` would receive for ``session`` under ``strategy``.

    ``strategy="none"`` renders the history as the source had it. Any other strategy curates first
    (`toolhist.curate`) and writes ids the way that client does at the edge. ``ids`` overrides the
    id handling: ``source`` sends the (curated) history's ids as they are; ``provider`` maps them to
    the provider's format (`toolhist.providers.idmap`), whatever the strategy.
    """
    from toolhist.curation.strategies import strategy_for

    target = provider_for(provider)
    chosen = strategy_for(strategy)
    if strategy != "none":
        session = chosen.curate(session, target.name, ()).session
    return _render_ids(session, target, strategy, ids)


@paused
def render_curation(curation: Curation, *, ids: IdMode | None = None) -> Payload:
    """The payload of an existing Curation (ids written as its strategy writes them), without curating again."""
    return _render_ids(curation.session, provider_for(curation.provider), curation.strategy, ids)


def _render_ids(session: Session, target: Provider, strategy: str, ids: IdMode | None) -> Payload:
    payload = _render_mapped(session, target, strategy, ids)
    note = freeform_note(session, target)
    return replace(payload, omitted=(*payload.omitted, note)) if note else payload


def _render_mapped(session: Session, target: Provider, strategy: str, ids: IdMode | None) -> Payload:
    from toolhist.curation.strategies import strategy_for

    chosen = strategy_for(strategy)
    if ids == "source":
        return _render_now(target, session)
    if ids == "provider":
        mapped, mapping = map_ids(session, target.name)
    else:
        mapped, mapping = chosen.edge_ids(session, target.name)
    payload = _render_now(target, mapped)
    changed = {old: new for old, new in mapping.items() if old != new}
    return replace(payload, id_map=changed) if changed else payload


@paused
def validate(
    session: Session, provider: str, *, strategy: str = "none", ids: IdMode | None = None
) -> list[Violation]:
    """Violations of ``render(session, provider, strategy=…)``, located in the canonical history.

    The history as given (strategy ``none``) is judged once per session object and provider
    (`toolhist.curation.given`): strategy ``toolhist`` needs the same verdict to know what to repair,
    so checking a provider and then curating for it pays for one check, not two.
    """
    if strategy == "none" and ids is None:
        from toolhist.curation.given import as_given  # the curation package builds on this one

        return list(as_given(session, provider))
    return checked(session, provider, strategy=strategy, ids=ids)


def checked(
    session: Session, provider: str, *, strategy: str = "none", ids: IdMode | None = None
) -> list[Violation]:
    """`validate` without the per-session memory: render, then the provider's rules.

    The history as given (strategy ``none``, the judgement strategy ``toolhist`` asks for) is
    rendered without `render`'s freeform note: the rules read the body and its source map only.
    """
    target, payload = _checked_payload(session, provider, strategy, ids)
    return violations(target, payload.body, payload.source_map)


def checked_each(session: Session, provider: str, *, strategy: str = "none") -> Iterator[Violation]:
    """`checked`'s Violations, each made as it is taken and kept by nothing here (`located`).

    Rendered at the first ``next``; for a caller that uses each and lets it go (``toolhist check``'s
    text, issue 26) inside its own collector pause and `toolhist.providers.chat_shared.sharing`.
    """
    target, payload = _checked_payload(session, provider, strategy, None)
    yield from located(target, payload.body, payload.source_map, shared=False)


def _checked_payload(
    session: Session, provider: str, strategy: str, ids: IdMode | None
) -> tuple[Provider, Payload]:
    """The provider and the payload `checked` judges: the body as given (`rendered`) or `render`'s."""
    target = provider_for(provider)
    if strategy == "none" and ids is None:
        return target, rendered(session, target)
    return target, render(session, provider, strategy=strategy, ids=ids)


@paused
def rendered(session: Session, target: Provider) -> Payload:
    """``render(session, target.name)`` less its freeform note: body and source map as given.

    Strategy ``none`` writes the ids as given (its ``edge_ids`` is the identity), so the body and
    source map are `render`'s; the rules and the locating of a body checked as sent read only those.
    """
    return _render_now(target, session)


_rendered = rendered  # (the name benchmarks and profiles use)


def _render_now(target: Provider, session: Session) -> Payload:
    """``target.render(session)``; a body kept for the chat-shaped providers goes first when it is another's."""
    if target.name not in CHAT_SHAPED:
        release_shared()
    return target.render(session)


@paused
def validate_payload(body: dict[str, Any], provider: str) -> list[Violation]:
    """Violations of a raw request body exactly as it was sent (no re-rendering)."""
    return violations(provider_for(provider), body)


def all_rules(provider: str | None = None) -> list[Rule]:
    """Every rule, or one provider's."""
    names = [provider_for(provider).name] if provider else list(PROVIDERS)
    return [rule for name in names for rule in PROVIDER_REGISTRY[name].rules]


__all__ = [
    "PROVIDERS",
    "Finding",
    "Payload",
    "Provider",
    "Rule",
    "Violation",
    "all_rules",
    "provider_for",
    "render",
    "render_curation",
    "validate",
    "validate_payload",
]
