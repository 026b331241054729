"""Broken bodies per provider and how to send each through its real SDK client, guarded.

Shared by the guard tests (`tests/guard`) and the app tests that open the bundles it writes.

The guard around the real SDK clients, against a fake provider on 127.0.0.1 (no network).

For each SDK, a broken history (a tool call never answered) is sent in each mode:

- ``warn``: the body reaches the provider unchanged, the SDK raises its own 400 error, a bundle
  holds the body as sent and the answer, and its rule is the one toolhist predicted;
- ``repair``: the provider receives the ``toolhist`` curation, accepts it (its own check, not
  toolhist's), every field outside the history is as given, and no bundle is written;
- ``raise``: `GuardRejected` with the violations, and nothing reaches the provider.

Sync and async clients, and streaming where the SDK streams over HTTP.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from toolhist import guard

T = TypeVar("T")

CHAT: dict[str, Any] = {
    "model": "gpt-4.1",
    "temperature": 0.25,
    "messages": [
        {"role": "user", "content": "Read a.txt"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "read_file", "arguments": '{"path":"a.txt"}'},
                }
            ],
        },
        {"role": "user", "content": "Never mind, say hi."},
    ],
    "tools": [
        {
            "type": "function",
            "function": {"name": "read_file", "parameters": {"type": "object", "properties": {}}},
        }
    ],
}
MISTRAL: dict[str, Any] = {**copy.deepcopy(CHAT), "model": "mistral-large-latest"}
MISTRAL["messages"][1]["tool_calls"][0]["id"] = "abcDEF123"
RESPONSES: dict[str, Any] = {
    "model": "gpt-4.1",
    "max_output_tokens": 100,
    "input": [
        {"role": "user", "content": "Read a.txt"},
        {"type": "function_call", "call_id": "call_1", "name": "read_file", "arguments": '{"path":"a.txt"}'},
        {"role": "user", "content": "Never mind, say hi."},
    ],
    "tools": [{"type": "function", "name": "read_file", "parameters": {"type": "object", "properties": {}}}],
}
ANTHROPIC: dict[str, Any] = {
    "model": "claude-sonnet-4-6",
    "max_tokens": 100,
    "system": "Be brief.",
    "messages": [
        {"role": "user", "content": "Read a.txt"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "toolu_01", "name": "read_file", "input": {"path": "a.txt"}}
            ],
        },
        {"role": "user", "content": "Never mind, say hi."},
    ],
    "tools": [{"name": "read_file", "input_schema": {"type": "object", "properties": {}}}],
}
GEMINI: dict[str, Any] = {
    "model": "gemini-2.5-flash",
    "contents": [
        {"role": "user", "parts": [{"text": "Read a.txt"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "read_file", "args": {"path": "a.txt"}}}]},
        {"role": "user", "parts": [{"text": "Never mind, say hi."}]},
    ],
    "tools": [
        {"functionDeclarations": [{"name": "read_file", "parameters": {"type": "OBJECT", "properties": {}}}]}
    ],
}
BEDROCK: dict[str, Any] = {
    "modelId": "anthropic.claude-3-5-sonnet-20240620-v1:0",
    "inferenceConfig": {"maxTokens": 100},
    "messages": [
        {"role": "user", "content": [{"text": "Read a.txt"}]},
        {
            "role": "assistant",
            "content": [
                {"toolUse": {"toolUseId": "tooluse_1", "name": "read_file", "input": {"path": "a.txt"}}}
            ],
        },
        {"role": "user", "content": [{"text": "Never mind, say hi."}]},
    ],
    "toolConfig": {
        "tools": [
            {"toolSpec": {"name": "read_file", "inputSchema": {"json": {"type": "object", "properties": {}}}}}
        ]
    },
}

HISTORY = {
    "openai-chat": "messages",
    "openai-responses": "input",
    "anthropic": "messages",
    "gemini": "contents",
    "mistral": "messages",
    "bedrock": "messages",
}
RULE = {
    "openai-chat": "oai.call_unanswered",
    "openai-responses": "resp.call_unanswered",
    "anthropic": "ant.result_missing",
    "gemini": "gem.fr_count",
    "mistral": "mis.count",
    "bedrock": "brk.result_missing",
}


def run_coroutine(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on a thread of its own.

    The browser tests' session-wide Playwright (its sync API) keeps an event loop running on the main
    thread, where ``asyncio.run`` refuses to start another; an async SDK client is a user's own code,
    so it gets a thread with no loop, as it would in an application.
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _openai(base: str, http: Any, body: dict[str, Any], *, responses: bool, stream: bool) -> Any:
    import openai

    client = openai.OpenAI(
        api_key="sk-test-not-a-key", base_url=f"{base}/v1", max_retries=0, http_client=http
    )
    if responses:
        result = client.responses.create(**body, stream=stream) if stream else client.responses.create(**body)
    else:
        result = (
            client.chat.completions.create(**body, stream=stream)
            if stream
            else client.chat.completions.create(**body)
        )
    if stream:
        return list(result)
    return result


async def _openai_async(base: str, http: Any, body: dict[str, Any], *, responses: bool) -> Any:
    import openai

    client = openai.AsyncOpenAI(
        api_key="sk-test-not-a-key", base_url=f"{base}/v1", max_retries=0, http_client=http
    )
    if responses:
        return await client.responses.create(**body)
    return await client.chat.completions.create(**body)


def _anthropic(base: str, http: Any, body: dict[str, Any], *, stream: bool) -> Any:
    import anthropic

    client = anthropic.Anthropic(api_key="test-key", base_url=base, max_retries=0, http_client=http)
    if stream:
        return list(client.messages.create(**body, stream=True))
    return client.messages.create(**body)


async def _anthropic_async(base: str, http: Any, body: dict[str, Any]) -> Any:
    import anthropic

    client = anthropic.AsyncAnthropic(api_key="test-key", base_url=base, max_retries=0, http_client=http)
    return await client.messages.create(**body)


def _mistral(base: str, http: Any, body: dict[str, Any]) -> Any:
    from mistralai.client import Mistral

    return Mistral(api_key="test-key", server_url=base, client=http).chat.complete(**body)


def _gemini(base: str, mode: guard.Mode, capture: Path, body: dict[str, Any], *, aio: bool = False) -> Any:
    from google import genai
    from google.genai import types

    options = guard.genai_options(
        mode, capture=capture, base_url=base, retry_options=types.HttpRetryOptions(attempts=1)
    )
    client = genai.Client(api_key="test-key", http_options=options)
    config = types.GenerateContentConfig(tools=body["tools"])
    if aio:
        return run_coroutine(
            client.aio.models.generate_content(model=body["model"], contents=body["contents"], config=config)
        )
    return client.models.generate_content(model=body["model"], contents=body["contents"], config=config)


def _bedrock(base: str, mode: guard.Mode, capture: Path, body: dict[str, Any]) -> Any:
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
    return guard.bedrock(client, mode, capture=capture).converse(**copy.deepcopy(body))


def send(
    provider: str, mode: guard.Mode, base: str, capture: Path, *, aio: bool = False, stream: bool = False
) -> Any:
    """Send ``provider``'s broken body through its SDK, guarded in ``mode``."""
    body = copy.deepcopy(BODIES[provider])
    if provider == "gemini":
        return _gemini(base, mode, capture, body, aio=aio)
    if provider == "bedrock":
        return _bedrock(base, mode, capture, body)
    named = "mistral" if provider == "mistral" else None
    if aio:
        http = guard.async_http_client(mode, provider=named, capture=capture)
        if provider == "anthropic":
            return run_coroutine(_anthropic_async(base, http, body))
        return run_coroutine(_openai_async(base, http, body, responses=provider == "openai-responses"))
    http = guard.http_client(mode, provider=named, capture=capture)
    if provider == "anthropic":
        return _anthropic(base, http, body, stream=stream)
    if provider == "mistral":
        return _mistral(base, http, body)
    return _openai(base, http, body, responses=provider == "openai-responses", stream=stream)


BODIES: dict[str, dict[str, Any]] = {
    "openai-chat": CHAT,
    "openai-responses": RESPONSES,
    "anthropic": ANTHROPIC,
    "gemini": GEMINI,
    "mistral": MISTRAL,
    "bedrock": BEDROCK,
}
ASYNC = ["openai-chat", "openai-responses", "anthropic", "gemini", "mistral"]
STREAM = ["openai-chat", "openai-responses", "anthropic"]
CASES = [pytest.param(p, False, id=f"{p}-sync") for p in BODIES] + [
    pytest.param(p, True, id=f"{p}-async") for p in ASYNC
]
"""Every SDK synchronously; every one with an async client (not botocore) asynchronously too."""


def write_bundles(folder: Path, providers: tuple[str, ...] = tuple(BODIES)) -> dict[str, Path]:
    """One bundle per provider in ``folder``: its broken body sent by its real SDK, guarded in ``warn``
    mode, answered 400 by the fake provider. Returns provider → bundle path."""
    import pytest
    from fake_provider import serve

    from toolhist.guard.bundle import SUFFIX

    out: dict[str, Path] = {}
    for provider in providers:
        with (
            serve(mistral=provider == "mistral") as (base, _),
            pytest.raises(Exception, match=r"(?i)tool|function"),  # the SDK's own 400 error
        ):
            send(provider, "warn", base, folder / provider)
        [out[provider]] = list((folder / provider).glob(f"*{SUFFIX}"))
    return out
