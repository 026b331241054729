"""The switch what-if: a session moves to another provider mid-way, and maybe back.

What users ask most about reasoning state is what happens across a switch (seed 000's repro is
"switch, then back to Anthropic"). `switch` answers it for one session:

- **the switch** at message N to provider B: the history the session holds then (its first N
  messages, plus the next request's tail when they end on the model's answer or on its calls) as
  each strategy hands it to B, and B's verdict on each;
- **the return** at message M to provider A: the messages from N to M were B's answers in this
  what-if, so their reasoning blocks and call ids are rewritten into what B returns (B's kind of
  reasoning, B's tokens, B's id style: `toolhist.switch.made_by`); the history up to M, as each
  strategy hands it to A, and A's verdict.

Each verdict is the provider's checks on the body, plus what the body alone cannot show: every
reasoning token in it is looked up by value in a ledger of who made it, and one another provider
made is what the receiving provider rejects (`toolhist.switch.foreign`). Messages before N count
as made by the session's own provider: the one its log ran on, the provider whose body it is, or
``--from``; when none says, and the session returns to A, A.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolhist._gc import paused
from toolhist.curation.given import remember
from toolhist.curation.strategies import STRATEGIES, strategy_for
from toolhist.errors import ToolhistError, UsageError
from toolhist.formats.wire import OWN_FORMAT
from toolhist.judgement import next_request
from toolhist.model import Session
from toolhist.providers import provider_for, render, render_curation
from toolhist.providers.base import Payload, Violation, violations
from toolhist.ran_on import ran_on
from toolhist.switch.binding import Rebound, rebound
from toolhist.switch.foreign import Foreign, foreign_tokens
from toolhist.switch.made_by import Token, as_made_by, ledger

__all__ = ["Leg", "StrategyLeg", "SwitchReport", "hand_over", "one_leg", "origin_of", "switch"]


@dataclass(frozen=True)
class StrategyLeg:
    """One strategy's hand-over on one leg: the body, the provider's verdict, the foreign tokens."""

    strategy: str
    body: dict[str, Any] | None
    """The request body the provider receives (None when the strategy gave no answer)."""
    changes: int = 0
    """Changes the strategy made to the history."""
    violations: tuple[Violation, ...] = ()
    """The provider's checks on the body."""
    foreign: tuple[Foreign, ...] = ()
    """Reasoning tokens in the body that another provider made."""
    error: str | None = None
    """Why the strategy gave no answer (a peer library not installed, no route to the provider)."""
    library: str | None = None
    """``name version`` of the real library it ran, when it runs one."""
    rebound: Rebound | None = None
    """An Anthropic thinking block whose prefix the strategy changed (Claude Fable 5.1 and Opus 5.5
    reject it on accounts created on or after 2026-08-31: `toolhist.switch.binding`)."""

    @property
    def errors(self) -> dict[str, int]:
        """Error-level rules the provider would answer with, by rule, foreign tokens included."""
        found = Counter(v.rule for v in self.violations if v.severity == "error")
        found.update(f.rule for f in self.foreign if f.verdict == "rejected" and f.rule)
        return dict(sorted(found.items()))

    @property
    def accepted(self) -> bool:
        """Whether the provider accepts the body (no error-level rule, the strategy answered)."""
        return self.error is None and not self.errors

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for ``switch --json``."""
        return {
            "strategy": self.strategy,
            "verdict": "no answer" if self.error else ("accepted" if self.accepted else "rejected"),
            "errors": self.errors,
            "changes": self.changes,
            "violations": [v.model_dump(mode="json") for v in self.violations],
            "foreign": [f.to_json() for f in self.foreign],
            "error": self.error,
            "library": self.library,
            "rebound": None if self.rebound is None else self.rebound.to_json(),
            "body": self.body,
        }


@dataclass(frozen=True)
class Leg:
    """One hand-over: the history's first ``at`` messages go to ``provider``."""

    provider: str
    at: int
    kind: str
    """``switch`` (to B) or ``return`` (back to A)."""
    made: tuple[tuple[str, int, int], ...]
    """Who made the messages handed over: (provider, first, last) runs."""
    appended: str | None
    """What the next request adds to those messages, in words (None: nothing)."""
    model: str | None = None
    """The model named for this provider (``--to-model``), checked as the body's model."""
    strategies: dict[str, StrategyLeg] = field(default_factory=dict)

    def avoiding(self) -> list[str]:
        """The strategies whose body the provider accepts."""
        return [name for name, s in self.strategies.items() if s.accepted]

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for ``switch --json``."""
        return {
            "kind": self.kind,
            "provider": self.provider,
            "at": self.at,
            "model": self.model,
            "made_by": [{"provider": p, "first": a, "last": b} for p, a, b in self.made],
            "appended": self.appended,
            "accepted_by": self.avoiding(),
            "strategies": {name: s.to_json() for name, s in self.strategies.items()},
        }


@dataclass(frozen=True)
class SwitchReport:
    """The what-if for one session: the switch, and the return when asked."""

    file: str
    format: str
    messages: int
    origin: str
    """The provider that made the messages before the switch (``unknown`` when nothing says)."""
    origin_evidence: str
    legs: tuple[Leg, ...]

    def to_json(self) -> dict[str, Any]:
        """The ``switch --json`` object."""
        return {
            "file": self.file,
            "format": self.format,
            "messages": self.messages,
            "origin": self.origin,
            "origin_evidence": self.origin_evidence,
            "legs": [leg.to_json() for leg in self.legs],
        }


def origin_of(session: Session) -> tuple[str | None, str]:
    """The provider that made the session's messages, and why toolhist thinks so (None: unknown)."""
    ran = ran_on(session)
    if ran is not None and ran.provider is not None:
        return ran.provider, f"the log ran on it, per {ran.evidence}"
    own = sorted({p for p, (fmt, _) in OWN_FORMAT.items() if fmt == session.source.format})
    if len(own) == 1:
        return own[0], "a request body in its own format"
    if "openai-chat" in own:
        return "openai-chat", "a Chat Completions body (Mistral and Kimi speak it too: --from says which)"
    return None, "the session does not say"


def _runs(makers: list[str]) -> tuple[tuple[str, int, int], ...]:
    out: list[tuple[str, int, int]] = []
    for i, who in enumerate(makers):
        if out and out[-1][0] == who:
            out[-1] = (who, out[-1][1], i)
        else:
            out.append((who, i, i))
    return tuple(out)


def _hand_over(  # noqa: PLR0917 - one call site
    session: Session,
    provider: str,
    strategy: str,
    tokens: dict[str, Token],
    model: str | None,
    reference: Payload,
    given: tuple[Violation, ...] | None,
) -> StrategyLeg:
    target = provider_for(provider)
    try:
        curation = strategy_for(strategy).curate(session, target.name, ())
    except ToolhistError as exc:  # a peer library not installed, or without this provider's route
        return StrategyLeg(strategy, None, error=str(exc))
    # strategy none hands over the history as it stood: the reference itself (`render` with strategy
    # none is `render_curation` of the identity curation), not a second render of 0.7 s at 100k messages
    same = strategy == "none" and curation.session is session
    payload = reference if same else render_curation(curation)
    judged = {**payload.body, "model": model} if model else payload.body
    named = judged.get("model")
    return StrategyLeg(
        strategy,
        payload.body,
        changes=len(curation.changes),
        violations=given
        if same and not model and given is not None
        else tuple(violations(target, judged, payload.source_map)),
        foreign=tuple(foreign_tokens(payload.body, target.name, tokens)),
        library=curation.library,
        rebound=rebound(payload.body, reference.body, tokens, named if isinstance(named, str) else None)
        if target.name == "anthropic"
        else None,
    )


def _leg(  # noqa: PLR0917 - one call site, every argument named by its position there
    kind: str,
    session: Session,
    provider: str,
    makers: list[str],
    strategies: list[str],
    model: str | None,
    tokens: dict[str, Token],
) -> Leg:
    judged = next_request(session)
    reference = render(judged.session, provider)  # the history as it stood, unrepaired
    given = None
    if {"none", "toolhist"} & set(strategies):
        # its verdict, judged once: strategy none's, and what `toolhist` repairs (its curation asks
        # `toolhist.curation.given.as_given`, which would render and check the same history again)
        target = provider_for(provider)
        given = tuple(violations(target, reference.body, reference.source_map))
        remember(judged.session, target.name, given)
    legs = {
        name: _hand_over(judged.session, provider, name, tokens, model, reference, given)
        for name in strategies
    }
    return Leg(provider, len(session.messages), kind, _runs(makers), judged.appended, model, legs)


@dataclass(frozen=True)
class _Plan:
    """`switch`'s arguments checked: each leg's provider, and who made the messages before the switch."""

    at: int
    to: str
    back_to: str | None
    back_at: int | None
    made_by: str
    evidence: str
    names: list[str]


def _plan(  # noqa: PLR0917 - switch's own arguments
    session: Session,
    at: int,
    to: str,
    back_to: str | None,
    back_at: int | None,
    origin: str | None,
    strategies: list[str] | None,
) -> _Plan:
    to = provider_for(to).name
    count = len(session.messages)
    if not 1 <= at <= count:
        raise UsageError(f"--at {at}: the switch must come after message 0 and at most at {count} (the end)")
    if back_to is not None:
        back_to = provider_for(back_to).name
        back_at = count if back_at is None else back_at
        if not at < back_at <= count:
            raise UsageError(
                f"--at {back_at}: the return must come after the switch ({at}) and at most at {count}"
            )
    elif back_at is not None:
        raise UsageError("a second --at needs --back-to")
    said, evidence = (provider_for(origin).name, "--from") if origin else origin_of(session)
    if said is None and back_to is not None:
        said, evidence = back_to, "the provider the session returns to (the session does not say)"
    names = strategies or list(STRATEGIES)
    for strategy in names:
        strategy_for(strategy)  # a UsageError naming the valid strategies
    return _Plan(at, to, back_to, back_at, said or "unknown", evidence, names)


def _switched(session: Session, plan: _Plan) -> tuple[Session, list[str]]:
    """The history the switch hands over (its first ``at`` messages), and who made each."""
    head = session.model_copy(update={"messages": session.messages[: plan.at]})
    return head, [plan.made_by] * plan.at


def _returned(session: Session, plan: _Plan, to_model: str | None) -> tuple[Session, list[str]]:
    """The history the return hands over (messages ``at`` on made by ``to``), and who made each."""
    back_at = len(session.messages) if plan.back_at is None else plan.back_at
    messages, _ = as_made_by(session.messages[:back_at], plan.at, plan.to, to_model)
    back = session.model_copy(update={"messages": messages})
    return back, [plan.made_by] * plan.at + [plan.to] * (back_at - plan.at)


@paused
def switch(
    session: Session,
    at: int,
    to: str,
    *,
    back_to: str | None = None,
    back_at: int | None = None,
    origin: str | None = None,
    to_model: str | None = None,
    back_model: str | None = None,
    strategies: list[str] | None = None,
    name: str | None = None,
    done: Mapping[int, Leg] | None = None,
) -> SwitchReport:
    """The what-if: ``session`` switched to ``to`` at message ``at``, and back to ``back_to`` at ``back_at``.

    ``back_at`` defaults to the end of the session. ``origin`` names the provider that made the
    messages before the switch when the session does not say it. ``to_model`` is the model on
    ``to``: the messages made there carry it, and ``to``'s model-dependent rules judge it.
    ``done`` holds legs already computed elsewhere by `one_leg` with the same arguments (0: the
    switch, 1: the return; the Switch page computes the return in a second process): they are
    taken as they are, and only the others computed here.
    """
    plan = _plan(session, at, to, back_to, back_at, origin, strategies)
    done = done or {}
    tokens = None
    if 0 in done:
        legs = [done[0]]
    else:
        head, makers = _switched(session, plan)
        tokens = ledger(head.messages, makers)
        legs = [_leg("switch", head, plan.to, makers, plan.names, to_model, tokens)]
    if plan.back_to is not None:
        if 1 in done:
            legs.append(done[1])
        else:
            back, makers = _returned(session, plan, to_model)
            # its first ``at`` messages are the switch's (the same objects, made by the same provider):
            # the return's ledger goes on from the switch's, when that was made here
            start = 0 if tokens is None else plan.at
            tokens = ledger(back.messages, makers, known=tokens, start=start)
            legs.append(_leg("return", back, plan.back_to, makers, plan.names, back_model, tokens))
    return SwitchReport(
        name or session.source.path or "<session>",
        session.source.format,
        len(session.messages),
        plan.made_by,
        plan.evidence,
        tuple(legs),
    )


@paused
def one_leg(
    session: Session,
    at: int,
    to: str,
    *,
    leg: int = 0,
    back_to: str | None = None,
    back_at: int | None = None,
    origin: str | None = None,
    to_model: str | None = None,
    back_model: str | None = None,
    strategies: list[str] | None = None,
) -> Leg:
    """One leg (0: the switch, 1: the return) of `switch` with the same arguments, computed alone.

    The same `Leg` as ``switch(...).legs[leg]``: the return's ledger is made from its own history
    here (equal to the one `switch` continues from the switch's), so either leg can be computed in
    a process of its own.
    """
    plan = _plan(session, at, to, back_to, back_at, origin, strategies)
    if leg == 0:
        history, makers = _switched(session, plan)
        provider, kind, model = plan.to, "switch", to_model
    elif leg == 1 and plan.back_to is not None:
        history, makers = _returned(session, plan, to_model)
        provider, kind, model = plan.back_to, "return", back_model
    else:
        raise UsageError(f"leg {leg}: this what-if has no such leg (0: the switch, 1: the return)")
    return _leg(kind, history, provider, makers, plan.names, model, ledger(history.messages, makers))


def hand_over(
    session: Session,
    at: int,
    to: str,
    strategy: str,
    *,
    leg: int = 0,
    back_to: str | None = None,
    back_at: int | None = None,
    origin: str | None = None,
    to_model: str | None = None,
    back_model: str | None = None,
) -> StrategyLeg:
    """One strategy's hand-over on one leg (0: the switch, 1: the return) of `switch` with the same arguments.

    The same `StrategyLeg` as ``switch(...).legs[leg].strategies[strategy]``, computed alone: the
    Switch page keeps what it shows of each body, not the body, and makes a body again when it is
    downloaded.
    """
    alone = one_leg(
        session,
        at,
        to,
        leg=leg,
        back_to=back_to,
        back_at=back_at,
        origin=origin,
        to_model=to_model,
        back_model=back_model,
        strategies=[strategy],
    )
    return alone.strategies[strategy]
