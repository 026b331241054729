"""The captured request, and the mock transport that captures it without any network.

The SDKs built on ``httpx2`` (openai, anthropic, google-genai, mistralai) accept an ``httpx2.Client``;
we give them one whose ``MockTransport`` records the request and answers ``418``, which every SDK
raises at once as its own status error (no retry with ``max_retries=0`` / one attempt). The request
object is the exact one the SDK would have put on the wire: method, URL, headers and body bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from toolhist.errors import ToolhistError

CAPTURE_BASE = "http://capture.invalid"
"""Base URL the SDKs are pointed at (``.invalid`` can never resolve, should the mock ever be bypassed)."""

DUMMY_KEY = "toolhist-dummy-key"
"""The API key handed to every SDK: a visible placeholder, never a real credential."""


class SdkRejected(ToolhistError):
    """The SDK refused to build a request from the body (before anything would be sent)."""

    @classmethod
    def of(cls, sdk: str, version: str | None, exc: BaseException) -> SdkRejected:
        """One line: a pydantic error is summarised (`toolhist.sdk.check` lists each by path)."""
        from pydantic import ValidationError

        if isinstance(exc, ValidationError):
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            reason = (
                f"{exc.error_count()} validation error(s) for {exc.title}, first at {where}: {first['msg']} "
                "(the SDK type check lists them by body path)"
            )
        else:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return cls(f"{sdk} {version} refused the body: {reason}")


@dataclass(frozen=True)
class Captured:
    """The HTTP request an official SDK would send for a rendered body."""

    method: str
    """HTTP method (``POST``)."""
    url: str
    """Full URL against `CAPTURE_BASE` (the provider's real host is configured in the SDK)."""
    headers: dict[str, str]
    """Request headers, lower-cased names, without the machine-specific or per-request ones."""
    body_bytes: bytes
    """The body exactly as the SDK serialises it (separators, key order, number format)."""
    sdk: str
    """The SDK's package name on PyPI (``openai``, ``google-genai``…)."""
    version: str
    """The SDK's installed version."""
    dropped_headers: tuple[str, ...] = field(default=())
    """Names of the headers left out of `headers` because they vary by machine or by request."""
    given: dict[str, Any] = field(default_factory=dict)
    """The body handed to the SDK: the rendered one, plus the placeholder model if it named none."""
    model_filled: bool = False
    """Whether the body named no model and `toolhist.sdk.MODEL_PLACEHOLDER` was used."""

    @property
    def path(self) -> str:
        """The URL path (``/v1/chat/completions``), which is what differs between providers."""
        return self.url.removeprefix(CAPTURE_BASE)

    @property
    def body(self) -> Any:
        """The parsed body."""
        return json.loads(self.body_bytes)

    def as_text(self) -> str:
        """The request as an HTTP message: request line, headers, blank line, body."""
        lines = [f"{self.method} {self.path}"]
        lines += [f"{name}: {value}" for name, value in sorted(self.headers.items())]
        return "\n".join([*lines, "", self.body_bytes.decode("utf-8")])


def split_headers(
    headers: Iterable[tuple[str, str]], volatile: frozenset[str]
) -> tuple[dict[str, str], tuple[str, ...]]:
    """Headers (lower-cased names) minus the volatile ones, and the sorted names of those dropped."""
    kept: dict[str, str] = {}
    dropped: set[str] = set()
    for name, value in headers:
        low = name.lower()
        if low in volatile:
            dropped.add(low)
        else:
            kept[low] = value
    return kept, tuple(sorted(dropped))


def mock_client(sink: list[Any]) -> Any:
    """An ``httpx2.Client`` whose transport appends each request to ``sink`` and answers 418."""
    import httpx2

    def handler(request: httpx2.Request) -> httpx2.Response:
        request.read()
        sink.append(request)
        return httpx2.Response(418, json={"error": {"message": "captured by toolhist, not sent"}})

    return httpx2.Client(transport=httpx2.MockTransport(handler))


def capture_httpx(
    send: Callable[[Any], None],
    expected: type[BaseException],
    *,
    sdk: str,
    version: str,
    volatile: frozenset[str],
) -> Captured:
    """Call ``send(http_client)`` and return the one request it made.

    ``send`` must raise ``expected`` (the SDK's status error for our 418); any other exception from
    the SDK means it refused the body and becomes `SdkRejected` with the SDK's message.
    """
    sink: list[Any] = []
    client = mock_client(sink)
    try:
        send(client)
    except expected:
        pass
    except (TypeError, ValueError) as exc:  # pydantic's ValidationError is a ValueError
        raise SdkRejected.of(sdk, version, exc) from None
    finally:
        client.close()
    if len(sink) != 1:
        raise SdkRejected(f"{sdk} {version} sent {len(sink)} requests for one call, expected 1")
    request = sink[0]
    headers, dropped = split_headers(request.headers.multi_items(), volatile)
    return Captured(
        method=request.method,
        url=str(request.url),
        headers=headers,
        body_bytes=bytes(request.content),
        sdk=sdk,
        version=version,
        dropped_headers=dropped,
    )
