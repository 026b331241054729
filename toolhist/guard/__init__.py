"""Guard and capture: check a request inside the agent's own process, and keep it when it fails.

One line around the official SDK clients, through what each SDK offers for it::

    from toolhist import guard

    client = openai.OpenAI(http_client=guard.http_client(mode="repair", capture="bundles/"))
    client = anthropic.Anthropic(http_client=guard.http_client(mode="warn", capture="bundles/"))
    client = mistralai.Mistral(api_key=..., client=guard.http_client(mode="raise"))
    client = genai.Client(api_key=..., http_options=guard.genai_options(mode="warn", capture="bundles/"))
    client = guard.bedrock(boto3.client("bedrock-runtime"), mode="warn", capture="bundles/")

Async clients take ``guard.async_http_client(...)`` (``AsyncOpenAI``, ``AsyncAnthropic``,
``Mistral(async_client=…)``); ``genai_options`` sets both of google-genai's clients. Streaming
needs nothing more: the body is checked before it leaves and the stream is passed through.

Modes (`toolhist.guard.core`): ``warn`` logs each violation (logger ``toolhist.guard``) and sends the
body unchanged; ``repair`` sends the ``toolhist`` curation of the history, every other field as
given, and logs the Changes; ``raise`` sends nothing and raises `GuardRejected` with the violations.
With ``capture=DIR``, a 4xx answer (or an error inside a 2xx stream) writes a bundle
(`toolhist.guard.bundle`) that ``toolhist check``, ``toolhist explain`` and the app open directly;
``keep_last=N`` also keeps the newest N requests of the session, accepted or not.

The checks, the Bedrock guard and the bundles need only toolhist's core; the HTTP clients need
httpx2 (``pip install 'toolhist[guard]'``), imported when one is made, so importing this package (the
app's home page lists bundles through it) works on a core install.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolhist.extras import require
from toolhist.guard.bedrock import BedrockGuard, guard_bedrock
from toolhist.guard.core import MODES, Guard, GuardRejected, Mode, Outcome, provider_of_url, repair_body

if TYPE_CHECKING:
    from toolhist.guard.transport import AsyncGuardTransport, GuardTransport


def __getattr__(name: str) -> Any:
    """``GuardTransport`` and ``AsyncGuardTransport``, imported on first use (they need httpx2)."""
    if name in ("GuardTransport", "AsyncGuardTransport"):
        require(f"toolhist.guard.{name}", "guard")
        from toolhist.guard import transport

        return getattr(transport, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _guard(
    mode: Mode, provider: str | None, capture: str | Path | None, keep_last: int, sdk: str | None
) -> Guard:
    return Guard(
        mode=mode,
        provider=provider,
        capture=Path(capture) if capture is not None else None,
        keep_last=keep_last,
        sdk=sdk,
    )


def http_client(
    mode: Mode = "warn",
    *,
    provider: str | None = None,
    capture: str | Path | None = None,
    keep_last: int = 0,
    sdk: str | None = None,
    transport: Any = None,
    **client_options: Any,
) -> Any:
    """An ``httpx2.Client`` whose transport guards every generation request (see the module doc).

    ``transport`` is the transport to send through (default: a real ``httpx2.HTTPTransport``);
    ``client_options`` go to ``httpx2.Client`` (timeouts, proxies…). Without httpx2:
    `toolhist.extras.ExtraMissing` naming the ``guard`` extra.
    """
    require("toolhist.guard.http_client", "guard")
    import httpx2

    from toolhist.guard.transport import GuardTransport

    guard = _guard(mode, provider, capture, keep_last, sdk)
    return httpx2.Client(transport=GuardTransport(guard, transport), **client_options)


def async_http_client(
    mode: Mode = "warn",
    *,
    provider: str | None = None,
    capture: str | Path | None = None,
    keep_last: int = 0,
    sdk: str | None = None,
    transport: Any = None,
    **client_options: Any,
) -> Any:
    """An ``httpx2.AsyncClient`` whose transport guards every generation request."""
    require("toolhist.guard.async_http_client", "guard")
    import httpx2

    from toolhist.guard.transport import AsyncGuardTransport

    guard = _guard(mode, provider, capture, keep_last, sdk)
    return httpx2.AsyncClient(transport=AsyncGuardTransport(guard, transport), **client_options)


def genai_options(
    mode: Mode = "warn",
    *,
    capture: str | Path | None = None,
    keep_last: int = 0,
    base_url: str | None = None,
    **options: Any,
) -> Any:
    """google-genai ``HttpOptions`` with both its sync and async clients guarded."""
    require("toolhist.guard.genai_options", "sdk", ("google.genai", "httpx2"))
    from google.genai import types

    return types.HttpOptions(
        base_url=base_url,
        httpx_client=http_client(mode, provider="gemini", capture=capture, keep_last=keep_last),
        httpx_async_client=async_http_client(mode, provider="gemini", capture=capture, keep_last=keep_last),
        **options,
    )


def bedrock(
    client: Any,
    mode: Mode = "warn",
    *,
    capture: str | Path | None = None,
    keep_last: int = 0,
) -> Any:
    """Guard a ``bedrock-runtime`` client in place (botocore event hooks) and return it."""
    guard_bedrock(client, _guard(mode, "bedrock", capture, keep_last, None))
    return client


__all__ = [
    "MODES",
    "AsyncGuardTransport",
    "BedrockGuard",
    "Guard",
    "GuardRejected",
    "GuardTransport",
    "Mode",
    "Outcome",
    "async_http_client",
    "bedrock",
    "genai_options",
    "guard_bedrock",
    "http_client",
    "provider_of_url",
    "repair_body",
]
