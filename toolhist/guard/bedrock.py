"""The guard for boto3/botocore ``bedrock-runtime`` clients, through botocore's event hooks.

botocore serialises ``Converse``/``ConverseStream`` parameters into the JSON body, then emits
``before-sign`` with the request before SigV4 signs it (`botocore.signers.RequestSigner.handler`,
registered on ``request-created``), then ``after-call`` with the HTTP response. So:

- ``before-sign``: the body exactly as it will be sent is checked; ``repair`` replaces it before
  the signature is computed (a body changed after signing would fail authentication); ``raise``
  raises `GuardRejected` (botocore lets handler exceptions through to the caller);
- ``after-call``: a 4xx answer (botocore's ``ValidationException``) becomes a bundle.

ConverseStream's errors inside a 2xx answer arrive as binary event-stream frames parsed lazily by
the caller; only its 4xx answers are captured.

As in every adapter, `GuardRejected` is the only exception of toolhist's that reaches the caller:
any other failure in a handler is a `Guard.fault` and the request goes on as botocore built it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolhist.guard import bundle as bundles
from toolhist.guard.core import Guard, GuardRejected, Outcome, sdk_of

OPERATIONS = ("Converse", "ConverseStream")
_KEY = "toolhist_guard"


@dataclass
class BedrockGuard:
    """The handlers registered on one client; `remove` unregisters them."""

    guard: Guard
    client: Any

    def before_sign(self, request: Any, **_: Any) -> None:
        """Check the serialised body; per mode log it, repair it (before signing) or refuse it."""
        try:
            self._before_sign(request)
        except GuardRejected:
            raise
        except Exception as exc:
            self.guard.fault("could not check the bedrock request", exc)

    def _before_sign(self, request: Any) -> None:
        body = request.body
        raw = body if isinstance(body, bytes) else (body or b"")
        if isinstance(raw, str):
            raw = raw.encode()
        outcome = self.guard.before(self.guard.provider or "bedrock", raw)
        if outcome.repaired:
            request.data = outcome.body
            if "Content-Length" in request.headers:
                del request.headers["Content-Length"]
        request.context[_KEY] = (outcome, request.url, dict(request.headers.items()), raw)

    def after_call(self, http_response: Any, context: dict[str, Any], **_: Any) -> None:
        """Write a bundle when Bedrock answered 4xx (and every call when ``keep_last`` is set)."""
        try:
            self._after_call(http_response, context)
        except Exception as exc:
            self.guard.fault(
                f"could not write the bundle of the bedrock request to {self.guard.capture}", exc
            )

    def _after_call(self, http_response: Any, context: dict[str, Any]) -> None:
        stash = context.get(_KEY)
        guard = self.guard
        if stash is None or guard.capture is None:
            return
        outcome, url, headers, given = stash
        status = int(http_response.status_code)
        if status < 400 and guard.keep_last <= 0:
            return
        response: Any = None
        if not getattr(http_response, "raw", None) or status >= 400:
            response = bundles.parse_body(http_response.content)
        _write(guard, outcome, url=url, headers=headers, given=given, status=status, response=response)

    def remove(self) -> None:
        """Unregister the handlers (the client is unguarded again)."""
        events = self.client.meta.events
        for op in OPERATIONS:
            events.unregister(f"before-sign.bedrock-runtime.{op}", self.before_sign)
            events.unregister(f"after-call.bedrock-runtime.{op}", self.after_call)


def _write(
    guard: Guard,
    outcome: Outcome,
    *,
    url: str,
    headers: dict[str, str],
    given: bytes,
    status: int,
    response: Any,
) -> None:
    assert guard.capture is not None
    made = bundles.build(
        provider=outcome.provider,
        endpoint=url,
        method="POST",
        sdk=guard.sdk or sdk_of({k.lower(): v for k, v in headers.items()}),
        mode=guard.mode,
        body=bundles.parse_body(outcome.body) if outcome.body else None,
        headers=headers,
        status=status,
        response=response,
        stream_error=False,
        violations=[v.model_dump(mode="json") for v in outcome.violations],
        changes=outcome.changes,
        given_body=bundles.parse_body(given) if outcome.repaired else None,
    )
    path = bundles.write(guard.capture, made, keep_last=guard.keep_last)
    if status >= 400:
        guard.logger.warning("bedrock answered %s; bundle written to %s", status, path)


def guard_bedrock(client: Any, guard: Guard) -> BedrockGuard:
    """Register the guard's handlers on a ``bedrock-runtime`` client (boto3 or botocore)."""
    hooks = BedrockGuard(guard, client)
    events = client.meta.events
    for op in OPERATIONS:
        events.register(f"before-sign.bedrock-runtime.{op}", hooks.before_sign)
        events.register(f"after-call.bedrock-runtime.{op}", hooks.after_call)
    return hooks
