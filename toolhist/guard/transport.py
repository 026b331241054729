"""The guard for the SDKs built on ``httpx2``: openai, anthropic, google-genai and mistralai.

Each of these SDKs takes an HTTP client of the caller's (openai/anthropic ``http_client=``,
mistralai ``client=`` / ``async_client=``, google-genai ``HttpOptions(httpx_client=…,
httpx_async_client=…)``). `GuardTransport` wraps the transport of such a client: the request the SDK
built is checked (and per mode repaired or refused) just before it goes out, and the response is
passed through a tee that writes a bundle when the provider said no (4xx, or an error event inside
a 2xx stream) once the SDK has read and closed it. The SDK reads and closes every error response
(it needs the body for its exception), so nothing is held back from it, and a stream reaches the
SDK chunk by chunk as before.

A `GuardRejected` raised here is not one of the transport errors the SDKs retry or wrap
(openai/anthropic catch ``httpx2.RequestError``, TLS and stream-end errors only), so it reaches the
caller as itself. It is the only exception of toolhist's that does: whatever else fails here (the
check, the repair, the bundle) is a `Guard.fault`, and the request and its answer pass as they came.
Only a POST to a generation endpoint is read; every other request (file uploads, model lists) goes
through untouched, its stream unread.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx2
import orjson

from toolhist.guard import bundle as bundles
from toolhist.guard.core import Guard, GuardRejected, Outcome, sdk_of

MAX_TEE = 8 * 1024 * 1024
"""At most this much of a response is kept to look for an error (an error body is a few KB)."""


def _provider(guard: Guard, request: httpx2.Request) -> str | None:
    """The provider a request is checked for; None (passed through unread) for any other request."""
    if request.method != "POST":
        return None
    try:
        return guard.provider_for(str(request.url))
    except Exception as exc:
        guard.fault("could not tell which provider the request is for", exc)
        return None


def _prepare(guard: Guard, provider: str, request: httpx2.Request) -> tuple[httpx2.Request, Outcome]:
    try:
        outcome = guard.before(provider, bytes(request.content))
    except GuardRejected as exc:
        raise _as_sdk_error(exc, request) from None
    if not outcome.repaired:
        return request, outcome
    try:
        headers = [(k, v) for k, v in request.headers.multi_items() if k.lower() != "content-length"]
        sent = httpx2.Request(
            request.method, request.url, headers=headers, content=outcome.body, extensions=request.extensions
        )
    except Exception as exc:
        guard.fault(f"could not build the repaired {provider} request", exc)
        return request, Outcome(provider, bytes(request.content), outcome.violations)
    return sent, outcome


def _as_sdk_error(exc: GuardRejected, request: httpx2.Request) -> GuardRejected:
    """`GuardRejected`, made also an ``AnthropicError`` when the Anthropic SDK is the caller.

    The Anthropic SDK re-raises only its own errors from the transport and turns anything else into
    ``APIConnectionError`` (``anthropic/_base_client.py``, ``except Exception``), which would hide the
    violations; openai, mistralai and google-genai let a foreign exception through as it is.
    """
    if "Anthropic/" not in request.headers.get("user-agent", ""):
        return exc
    try:
        import anthropic
    except ImportError:
        return exc

    class AnthropicGuardRejected(GuardRejected, anthropic.AnthropicError):
        """`GuardRejected` that the Anthropic SDK passes through unwrapped."""

    return AnthropicGuardRejected(exc.provider, exc.violations)


def stream_error(headers: httpx2.Headers, raw: bytes) -> bool:
    """Whether a 2xx event stream carried an error event.

    Anthropic sends ``event: error``; Responses ``response.failed`` or ``error``; Gemini and
    OpenAI-compatible servers a ``data:`` line that is ``{"error": …}``.
    """
    if "text/event-stream" not in headers.get("content-type", ""):
        return False
    for line in raw.splitlines():
        if line.startswith(b"event:") and line[6:].strip() in (b"error", b"response.failed"):
            return True
        if line.startswith(b"data:"):
            try:
                data = orjson.loads(line[5:])
            except orjson.JSONDecodeError:
                continue
            if isinstance(data, dict) and (
                data.get("type") in ("error", "response.failed") or ("error" in data and len(data) <= 2)
            ):
                return True
    return False


def _finish(guard: Guard, request: httpx2.Request, outcome: Outcome, response: Any, raw: bytes) -> None:
    """Write a bundle for a refused request (and for every request when ``keep_last`` is set).

    Runs when the SDK closes the answer: a failure here is a `Guard.fault`, never the SDK's.
    """
    if guard.capture is None:
        return
    try:
        _capture(guard, request, outcome, response, raw)
    except Exception as exc:
        guard.fault(f"could not write the bundle of the {outcome.provider} request to {guard.capture}", exc)


def _capture(guard: Guard, request: httpx2.Request, outcome: Outcome, response: Any, raw: bytes) -> None:
    assert guard.capture is not None
    decoded = httpx2.Response(response.status_code, headers=response.headers, stream=httpx2.ByteStream(raw))
    content = decoded.read()
    in_stream = response.status_code < 400 and stream_error(response.headers, content)
    if response.status_code < 400 and not in_stream and guard.keep_last <= 0:
        return
    headers = dict(request.headers.items())
    sent = bundles.parse_body(outcome.body) if outcome.body else None
    given = bundles.parse_body(request.content) if outcome.repaired and request.content else None
    body_out: Any = bundles.parse_body(content)
    if in_stream:
        body_out = content.decode("utf-8", "replace")
    made = bundles.build(
        provider=outcome.provider,
        endpoint=str(request.url),
        method=request.method,
        sdk=guard.sdk or sdk_of(headers),
        mode=guard.mode,
        body=sent,
        headers=headers,
        status=response.status_code,
        response=body_out,
        stream_error=in_stream,
        violations=[v.model_dump(mode="json") for v in outcome.violations],
        changes=outcome.changes,
        given_body=given if outcome.repaired else None,
    )
    failed = response.status_code >= 400 or in_stream
    path = bundles.write(guard.capture, made, keep_last=guard.keep_last)
    if failed:
        guard.logger.warning(
            "%s answered %s; bundle written to %s", outcome.provider, response.status_code, path
        )


class _Tee(httpx2.SyncByteStream):
    def __init__(self, inner: Any, done: Callable[[bytes], None]) -> None:
        self._inner = inner
        self._done = done
        self._kept = bytearray()
        self._closed = False

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._inner:
            if len(self._kept) < MAX_TEE:
                self._kept += chunk
            yield chunk

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._inner.close()
        finally:
            self._done(bytes(self._kept))


class _AsyncTee(httpx2.AsyncByteStream):
    def __init__(self, inner: Any, done: Callable[[bytes], None]) -> None:
        self._inner = inner
        self._done = done
        self._kept = bytearray()
        self._closed = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._inner:
            if len(self._kept) < MAX_TEE:
                self._kept += chunk
            yield chunk

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await self._inner.aclose()
        finally:
            self._done(bytes(self._kept))


class GuardTransport(httpx2.BaseTransport):
    """An ``httpx2`` transport that guards every generation request through ``inner``."""

    def __init__(self, guard: Guard, inner: httpx2.BaseTransport | None = None) -> None:
        self.guard = guard
        self.inner = inner or httpx2.HTTPTransport()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        """Check (repair, refuse) the request, send it, and tee the answer for a bundle."""
        provider = _provider(self.guard, request)
        if provider is None:
            return self.inner.handle_request(request)
        request.read()
        sent, outcome = _prepare(self.guard, provider, request)
        response = self.inner.handle_request(sent)
        guard = self.guard
        return httpx2.Response(
            response.status_code,
            headers=response.headers,
            stream=_Tee(response.stream, lambda raw: _finish(guard, request, outcome, response, raw)),
            extensions=response.extensions,
        )

    def close(self) -> None:
        """Close the wrapped transport."""
        self.inner.close()


class AsyncGuardTransport(httpx2.AsyncBaseTransport):
    """The asynchronous `GuardTransport` (``AsyncOpenAI``, ``AsyncAnthropic``, ``client.aio``)."""

    def __init__(self, guard: Guard, inner: httpx2.AsyncBaseTransport | None = None) -> None:
        self.guard = guard
        self.inner = inner or httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Check (repair, refuse) the request, send it, and tee the answer for a bundle."""
        provider = _provider(self.guard, request)
        if provider is None:
            return await self.inner.handle_async_request(request)
        await request.aread()
        sent, outcome = _prepare(self.guard, provider, request)
        response = await self.inner.handle_async_request(sent)
        guard = self.guard
        return httpx2.Response(
            response.status_code,
            headers=response.headers,
            stream=_AsyncTee(response.stream, lambda raw: _finish(guard, request, outcome, response, raw)),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        """Close the wrapped transport."""
        await self.inner.aclose()
