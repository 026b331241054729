"""Strategies side by side on one history and provider: what each changed, what each leaves.

The question a user asks before picking a repair (or reviewing one): "if my client did what
LiteLLM / llxprt / the AI SDK does, would this history still get a 400 from P?" Shared by the CLI
(`toolhist compare`), the Curation page and Jupyter.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from toolhist._gc import paused
from toolhist.curation.strategies import STRATEGIES, strategy_for
from toolhist.model import Session
from toolhist.providers.base import Violation

if TYPE_CHECKING:  # pragma: no cover - typing only
    import pandas as pd


Status = Literal["ran", "not run", "no answer"]
"""``ran``; ``not run``: the strategy runs a real library whose environment is not installed (its
`StrategyResult.install` says how to install it); ``no answer``: it ran and gave none (a library
without a route to this provider, a worker that failed)."""
INSTALL = "toolhist peers install"
"""The command that installs the real libraries the peer strategies run (`toolhist.peers.env`)."""


class StrategyResult(BaseModel):
    """One strategy's outcome on one history for one provider."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    strategy: str
    status: Status = "ran"
    """Whether the strategy ran; when it did not, every count is ``None`` (nothing was curated,
    so there is nothing to count: never zero changes or zero errors left)."""
    messages: int | None
    """Messages in the curated history."""
    changes: int | None
    """Changes the strategy made."""
    actions: dict[str, int]
    """Changes by action (``close``, ``move``, ``drop``…)."""
    errors: dict[str, int]
    """Error-level rules left (the provider still answers 400), by rule id."""
    warnings: dict[str, int]
    """Warning-level rules left, by rule id."""
    violations: tuple[Violation, ...]
    """Every violation left, located in the curated history."""
    library: str | None = None
    """``name version`` of the real library the strategy ran (`toolhist.peers`), when it runs one."""
    error: str | None = None
    """Why the strategy gave no answer (its peers environment is not installed, or it has no route to
    this provider); the counts are then ``None``."""
    install: str | None = None
    """For a strategy that did not run: the command that installs what it needs."""
    needs: str | None = None
    """For a strategy that did not run: ``name version`` of the library it runs (``litellm 1.106.2``)."""

    @property
    def passes(self) -> bool:
        """Whether the provider accepts the curated request."""
        return not self.errors and self.status == "ran"

    def describe(self) -> str:
        """``not run: install with `toolhist peers install``` or ``no answer: …`` (empty when it ran)."""
        if self.status == "not run":
            return (
                f"not run: {self.needs or 'its library'} is not installed; install it with `{self.install}`"
            )
        return f"no answer: {self.error}" if self.status == "no answer" else ""


@paused
def compare(
    session: Session, provider: str, strategies: Sequence[str] | None = None
) -> dict[str, StrategyResult]:
    """Each strategy's curation of ``session`` for ``provider`` (all registered ones by default)."""
    from toolhist.errors import ToolhistError
    from toolhist.peers.env import PeersMissing
    from toolhist.providers import provider_for, render_curation
    from toolhist.providers.base import violations

    target = provider_for(provider)
    out: dict[str, StrategyResult] = {}
    for name in strategies or STRATEGIES:
        try:
            curation = strategy_for(name).curate(session, target.name, ())
        except ToolhistError as exc:  # a peer library not installed, or without this provider's route
            missing = isinstance(exc, PeersMissing)
            needs, install = _needs(name) if missing else (None, None)
            out[name] = StrategyResult(
                strategy=name,
                status="not run" if missing else "no answer",
                messages=None,
                changes=None,
                actions={},
                errors={},
                warnings={},
                violations=(),
                error=str(exc),
                install=install,
                needs=needs,
            )
            continue
        payload = render_curation(curation)
        left = violations(target, payload.body, payload.source_map)
        out[name] = StrategyResult(
            strategy=name,
            messages=len(curation.session.messages),
            changes=len(curation.changes),
            actions=dict(sorted(Counter(c.action for c in curation.changes).items())),
            errors=dict(sorted(Counter(v.rule for v in left if v.severity == "error").items())),
            warnings=dict(sorted(Counter(v.rule for v in left if v.severity == "warning").items())),
            violations=tuple(left),
            library=curation.library,
        )
    return out


def _needs(name: str) -> tuple[str | None, str]:
    """What a strategy whose library is not installed needs: ``name version``, and the install command.

    The version is the one named in ``litellm@1.110.2``, else the one selected now
    (`toolhist.peers.versions`); a version other than the pin is installed by naming it.
    """
    from toolhist.peers.pins import LIBRARY_OF_STRATEGY
    from toolhist.peers.versions import resolve, selected, split_strategy

    base, wanted = split_strategy(name)
    library = LIBRARY_OF_STRATEGY.get(base)
    if library is None:
        return None, INSTALL
    chosen = selected(library)
    version = resolve(library, wanted) if wanted is not None else chosen.version
    if wanted is None and chosen.is_pin:
        return f"{library} {version}", INSTALL
    return f"{library} {version}", f"{INSTALL} --peer-version {library}={version}"


def compare_frame(
    session: Session, providers: Sequence[str], strategies: Sequence[str] | None = None
) -> pd.DataFrame:
    """Strategy by provider → error rules left (empty string when the provider accepts it)."""
    import pandas as pd

    rows: list[dict[str, Any]] = []
    for provider in providers:
        for name, result in compare(session, provider, strategies).items():
            left = ", ".join(result.errors) if result.status == "ran" else f"({result.status})"
            rows.append({"strategy": name, "provider": provider, "left": left})
    frame = pd.DataFrame(rows, columns=["strategy", "provider", "left"])
    return frame.pivot(index="strategy", columns="provider", values="left").reindex(
        index=list(strategies or STRATEGIES), columns=list(providers)
    )
