"""What `toolhist verify` would send: the body judged, at the least cost, to which URL, with which key.

The body is the one ``check`` gives its verdict on (`toolhist.check`): a captured body in the
provider's own format, unrepaired, exactly as it was captured; anything else rendered by toolhist
under the strategy, an agent log as the request the agent would send next (`toolhist.judgement`).
Only the fields `toolhist.verify.endpoints` names are changed (the output cap, streaming off), and the
plan lists each change. The prediction is toolhist's verdict on that final body as sent
(`toolhist.providers.validate_payload`), so the answer and the prediction are about one request.

A plan holds the *name* of the variable that holds the key, never the key: the key is read from the
environment at the moment of sending (`toolhist.verify.send`) and goes nowhere else.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from toolhist.check import is_as_sent
from toolhist.errors import LoadError, UsageError
from toolhist.formats.document import Document
from toolhist.formats.wire import OWN_FORMAT, own_reader
from toolhist.judgement import Judgement, judge
from toolhist.model import Session
from toolhist.providers import Violation, provider_for, render, validate_payload
from toolhist.verify.endpoints import (
    AWS_CHAIN,
    COUNT_TOKENS_EVIDENCE,
    ENDPOINTS,
    REGION_VARS,
    Endpoint,
    Route,
    count_tokens_body,
    first_set,
)
from toolhist.verify.shape import Shape, shape_of

RouteChoice = Route | None
"""``generate``, ``count_tokens``, or None: the free route where the provider's own host has one."""


@dataclass(frozen=True)
class Plan:
    """One request `toolhist verify` can send, and toolhist's prediction for it."""

    file: str
    """The input's name (a path, or what the app calls an upload)."""
    format: str
    """The reader that read it."""
    judged: Judgement
    """``as-sent`` (a request body) or ``next-request`` (an agent log, with the next request's tail)."""
    provider: str
    strategy: str
    model: str
    """The model asked for (the body's, or ``--model``)."""
    endpoint: Endpoint
    route: Route
    """``generate`` (the provider's generating endpoint) or ``count_tokens`` (Anthropic's free one)."""
    url: str
    base_var: str | None
    """The variable that moved the base URL (a gateway, a local server), None for the provider's own host."""
    body: dict[str, Any]
    """The JSON body on the wire (the model in the URL for Gemini and Bedrock)."""
    data: bytes
    """``body`` serialised: exactly the bytes sent over HTTP (botocore serialises Bedrock's itself)."""
    cost: dict[str, Any]
    """The fields set for the least cost (``{"max_completion_tokens": 1}``), or the free route's note."""
    changes: tuple[str, ...]
    """What differs from the body judged, one line each (output cap, streaming, fields count_tokens
    does not take)."""
    key_var: str | None
    """The variable the key is read from when sending (None: none of `Endpoint.key_vars` is set)."""
    transport: str
    """``urllib`` (the exact bytes) or ``botocore`` (Bedrock, SigV4 signed by the official SDK)."""
    tokens: int
    """Estimated input tokens of the body's JSON text (`tokens_label` says how)."""
    tokens_label: str
    predicted: tuple[Violation, ...]
    """toolhist's verdict on the request as sent (the generating endpoint's body)."""
    shape: Shape | None
    """The sent history's structure without content (counts and a hash), None when it cannot be read back."""
    notes: tuple[str, ...] = field(default=())
    """Things worth saying before sending (the free route's evidence, a region to set…)."""

    @property
    def predicted_errors(self) -> tuple[str, ...]:
        """Error-level rule ids predicted, each once, in order."""
        return tuple(dict.fromkeys(v.rule for v in self.predicted if v.severity == "error"))

    @property
    def predicted_warnings(self) -> tuple[str, ...]:
        """Warning-level rule ids predicted, each once, in order."""
        return tuple(dict.fromkeys(v.rule for v in self.predicted if v.severity == "warning"))

    def key_label(self) -> str:
        """Where the key comes from, for people (never the key)."""
        if self.key_var is not None:
            return self.key_var
        if self.transport == "botocore":
            return AWS_CHAIN
        return f"not set (one of {', '.join(self.endpoint.key_vars)})"


def judged_body(doc: Document, session: Session, provider: str, strategy: str) -> dict[str, Any]:
    """The body ``check`` judges for ``provider``: the captured one as sent, else toolhist's render."""
    if is_as_sent(session, provider, strategy):
        if isinstance(doc.value, dict):
            return dict(doc.value)
        return {OWN_FORMAT[provider][1]: doc.value}
    return dict(render(judge(session).session, provider, strategy=strategy).body)


def _transport(endpoint: Endpoint, environ: Mapping[str, str], forced: str | None) -> str:
    if forced is not None:
        return forced
    if endpoint.auth != "aws":
        return "urllib"
    try:
        import botocore  # noqa: F401
    except ModuleNotFoundError:
        return "urllib"
    return "botocore"


def _region(environ: Mapping[str, str], transport: str) -> str | None:
    found = first_set(REGION_VARS, environ)
    if found is not None:
        return environ[found]
    if transport == "botocore":
        import botocore.session

        region = botocore.session.Session().get_config_variable("region")
        return str(region) if region else None
    return None


def _route(endpoint: Endpoint, base_var: str | None, wanted: RouteChoice) -> Route:
    if wanted == "count_tokens" and endpoint.provider != "anthropic":
        raise UsageError(
            f"{endpoint.provider} has no free endpoint that validates a history; "
            "only anthropic has one (/v1/messages/count_tokens)"
        )
    if wanted is not None:
        return wanted
    # On a gateway (a moved base URL) count_tokens may be answered without the provider's validation.
    return "count_tokens" if endpoint.provider == "anthropic" and base_var is None else "generate"


def plan(
    doc: Document,
    session: Session,
    provider: str,
    *,
    strategy: str = "none",
    model: str | None = None,
    route: RouteChoice = None,
    environ: Mapping[str, str] | None = None,
    transport: str | None = None,
) -> Plan:
    """The request `toolhist verify` would send for ``session`` to ``provider``; nothing is sent.

    ``model`` overrides the body's. ``route``: see `RouteChoice`. ``environ`` (default
    ``os.environ``) is where the key and base-URL variables are looked up. ``transport`` forces
    ``urllib`` or ``botocore`` (default: botocore for Bedrock when installed, urllib otherwise).
    """
    env = os.environ if environ is None else environ
    name = provider_for(provider).name
    endpoint = ENDPOINTS[name]
    judged = judged_body(doc, session, name, strategy)
    chosen = model or judged.get(endpoint.model_key)
    if not isinstance(chosen, str) or not chosen:
        raise UsageError(f"{doc.name}: the request names no model for {name}; give one with --model")
    cheap, cost = endpoint.cheapest({**judged, endpoint.model_key: chosen})
    changes = [c for c in (_change(k, judged, v) for k, v in cost.items()) if c is not None]
    changes += [f"{k} removed (no streaming)" for k in ("stream", "stream_options") if k in judged]
    predicted = tuple(validate_payload(cheap, name))
    wire = {k: v for k, v in cheap.items() if not (endpoint.model_in_url and k == endpoint.model_key)}
    moved = judged.get(endpoint.model_key)
    if moved is not None and moved != chosen:
        changes.append(f"{endpoint.model_key} {moved!r} → {chosen!r}")
    how = _transport(endpoint, env, transport)
    base_var = first_set(endpoint.base_vars, env)
    chosen_route = _route(endpoint, base_var, route)
    notes: list[str] = []
    path = endpoint.path
    if chosen_route == "count_tokens":
        wire, dropped = count_tokens_body(wire)
        path = "/v1/messages/count_tokens"
        cost = {"route": "count_tokens", "generates": 0}
        changes = [f"{k} left out (count_tokens does not take it)" for k in dropped]
        notes.append(f"count_tokens validates the history as /v1/messages does: {COUNT_TOKENS_EVIDENCE}")
    base = env[base_var] if base_var is not None else endpoint.default_base
    if "{region}" in base:
        region = _region(env, how)
        if region is None:
            notes.append("no AWS region is set: set AWS_REGION before sending")
        base = base.replace("{region}", region or "REGION")
    url = base.rstrip("/") + path.replace("{model}", quote(chosen.removeprefix("models/"), safe=""))
    data = json.dumps(wire, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    from toolhist.tokens import counter_for

    counter = counter_for(name, chosen)
    return Plan(
        file=doc.name,
        format=session.source.format,
        judged=judge(session).judgement,
        provider=name,
        strategy=strategy,
        model=chosen,
        endpoint=endpoint,
        route=chosen_route,
        url=url,
        base_var=base_var,
        body=wire,
        data=data,
        cost=cost,
        changes=tuple(changes),
        key_var=first_set(endpoint.key_vars, env),
        transport=how,
        tokens=counter.count(data.decode("utf-8")),
        tokens_label=counter.label,
        predicted=predicted,
        shape=_shape(cheap, name),
        notes=tuple(notes),
    )


def _change(key: str, before: dict[str, Any], value: Any) -> str | None:
    """``max_tokens 4096 → 1`` when the body had another value (a field only added is in ``cost``)."""
    head, _, rest = key.partition(".")
    old = before.get(head)
    if rest:
        old = old.get(rest) if isinstance(old, dict) else None
    return None if old is None or old == value else f"{key} {old} → {value}"


def _shape(body: dict[str, Any], provider: str) -> Shape | None:
    from toolhist.readers import load

    try:
        return shape_of(load(body, format=own_reader(provider), name="the body sent"))
    except LoadError:
        return None
