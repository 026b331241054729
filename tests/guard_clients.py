"""One call through each client the guard wraps, guarded or not, and what the user's code saw.

The fault tests (`tests/guard/test_guard_faults.py`) hold the guard to "nothing toolhist does changes
what the user's call returns or raises": they make the same call twice against the fake provider,
once through the SDK's own client and once guarded while something fails inside toolhist, and
compare what each returned or raised (`observe`).

Clients: openai and anthropic, sync and async; mistralai; google-genai, sync and async; botocore's
``bedrock-runtime``. Each sends one body of its provider (`guard_calls.BODIES`) given as keyword
arguments the way a user's code would.
"""

from __future__ import annotations

import copy
from typing import Any

from guard_calls import BODIES, run_coroutine

from toolhist import guard

CLIENTS: dict[str, str] = {
    "openai": "openai-chat",
    "openai-async": "openai-chat",
    "anthropic": "anthropic",
    "anthropic-async": "anthropic",
    "mistralai": "mistral",
    "google-genai": "gemini",
    "google-genai-async": "gemini",
    "botocore": "bedrock",
}
"""Client name → the provider its body is for."""

Observed = tuple[Any, ...]


def sound(provider: str) -> dict[str, Any]:
    """``provider``'s body with its history cut to the first user turn: the provider accepts it."""
    body = copy.deepcopy(BODIES[provider])
    key = {"openai-responses": "input", "gemini": "contents"}.get(provider, "messages")
    body[key] = body[key][:1]
    return body


def broken(provider: str) -> dict[str, Any]:
    """``provider``'s body with a tool call never answered: the provider answers 400."""
    return copy.deepcopy(BODIES[provider])


def call(client: str, base: str, body: dict[str, Any], options: dict[str, Any] | None) -> Any:
    """Send ``body`` with ``client``; ``options`` are the guard's (mode, capture, keep_last), None for
    the SDK's own client, unguarded."""
    body = copy.deepcopy(body)
    if client.startswith("google-genai"):
        return _genai(base, body, options, aio=client.endswith("-async"))
    if client == "botocore":
        return _bedrock(base, body, options)
    aio = client.endswith("-async")
    named: dict[str, Any] = {"provider": "mistral"} if client == "mistralai" else {}
    import httpx2

    if aio:
        http: Any = (
            guard.async_http_client(**named, **options) if options is not None else httpx2.AsyncClient()
        )
    else:
        http = guard.http_client(**named, **options) if options is not None else httpx2.Client()
    if client == "mistralai":
        from mistralai.client import Mistral

        return Mistral(api_key="test-key", server_url=base, client=http).chat.complete(**body)
    if client.startswith("anthropic"):
        import anthropic

        if aio:
            aclient = anthropic.AsyncAnthropic(api_key="k", base_url=base, max_retries=0, http_client=http)
            return run_coroutine(aclient.messages.create(**body))
        return anthropic.Anthropic(
            api_key="k", base_url=base, max_retries=0, http_client=http
        ).messages.create(**body)
    import openai

    if aio:
        oclient = openai.AsyncOpenAI(api_key="k", base_url=f"{base}/v1", max_retries=0, http_client=http)
        return run_coroutine(oclient.chat.completions.create(**body))
    return openai.OpenAI(
        api_key="k", base_url=f"{base}/v1", max_retries=0, http_client=http
    ).chat.completions.create(**body)


def _genai(base: str, body: dict[str, Any], options: dict[str, Any] | None, *, aio: bool) -> Any:
    from google import genai
    from google.genai import types

    retry = types.HttpRetryOptions(attempts=1)
    http_options = (
        guard.genai_options(**options, base_url=base, retry_options=retry)
        if options is not None
        else types.HttpOptions(base_url=base, retry_options=retry)
    )
    client = genai.Client(api_key="test-key", http_options=http_options)
    config = types.GenerateContentConfig(tools=body["tools"])
    if aio:
        return run_coroutine(
            client.aio.models.generate_content(model=body["model"], contents=body["contents"], config=config)
        )
    return client.models.generate_content(model=body["model"], contents=body["contents"], config=config)


def _bedrock(base: str, body: dict[str, Any], options: dict[str, Any] | None) -> Any:
    import botocore.session
    from botocore.config import Config

    client = botocore.session.Session().create_client(
        "bedrock-runtime",
        region_name="us-east-1",
        endpoint_url=base,
        aws_access_key_id="AKIDTOOLHISTDUMMY",
        aws_secret_access_key="toolhist-dummy-secret",
        config=Config(retries={"max_attempts": 1, "mode": "standard"}),
    )
    if options is not None:
        guard.bedrock(client, **options)
    return client.converse(**body)


def observe(client: str, base: str, body: dict[str, Any], options: dict[str, Any] | None) -> Observed:
    """What the user's code saw: ``("returned", value)`` or ``("raised", type, text)``.

    The value is the SDK's answer as plain data without what differs from call to call (google-genai's
    HTTP headers, botocore's ResponseMetadata, which carry the server's date).
    """
    try:
        result = call(client, base, body, options)
    except Exception as exc:
        return ("raised", type(exc).__module__, type(exc).__qualname__, str(exc))
    return ("returned", _plain(result))


def _plain(result: Any) -> Any:
    if hasattr(result, "model_dump"):
        return result.model_dump(mode="json", exclude={"sdk_http_response"})
    if isinstance(result, dict):
        return {k: v for k, v in result.items() if k != "ResponseMetadata"}
    return result
