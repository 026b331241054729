"""The guard around the real SDK clients, against a fake provider on 127.0.0.1 (no network).

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
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from fake_provider import serve

from toolhist import guard
from toolhist.guard import bundle as bundles

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
        return asyncio.run(
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


def _send(
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
            return asyncio.run(_anthropic_async(base, http, body))
        return asyncio.run(_openai_async(base, http, body, responses=provider == "openai-responses"))
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


def _history(provider: str, body: dict[str, Any]) -> Any:
    return body[HISTORY[provider]]


def _only_bundle(folder: Path) -> dict[str, Any]:
    found = sorted(folder.glob(f"*{bundles.SUFFIX}"))
    assert len(found) == 1, found
    return dict(orjson.loads(found[0].read_bytes()))


@pytest.mark.parametrize(("provider", "aio"), CASES)
def test_warn_sends_unchanged_and_bundles_the_400(
    provider: str, aio: bool, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with (
        serve(mistral=provider == "mistral") as (base, recorder),
        caplog.at_level(logging.WARNING, "toolhist.guard"),
        pytest.raises(Exception, match=r"tool|function") as raised,
    ):
        _send(provider, "warn", base, tmp_path, aio=aio)
    assert type(raised.value).__name__ in {
        "BadRequestError",
        "ClientError",
        "SDKError",
        "MistralError",
        "ValidationException",
    }, raised.value
    [(_, received, status)] = recorder.calls
    assert status == 400
    bundle = _only_bundle(tmp_path)
    assert bundle["request"]["body"] == received  # what the SDK built is what was sent, unchanged
    if provider != "mistral":  # mistralai serialises messages its own way (drops content: null)
        assert _history(provider, received) == _history(provider, BODIES[provider])
    assert bundle["toolhist_bundle"] == 1
    assert bundle["provider"] == provider
    assert bundle["mode"] == "warn"
    assert bundle["response"]["status"] == 400
    assert RULE[provider] in {v["rule"] for v in bundle["violations"]}
    assert "authorization" not in bundle["request"]["headers"]
    assert "x-api-key" not in bundle["request"]["headers"]
    assert any(RULE[provider] in r.getMessage() for r in caplog.records)
    info = bundles.info(Path("b"), bundle)
    assert (info.provider, info.status, info.rule) == (provider, 400, RULE[provider])


@pytest.mark.parametrize(("provider", "aio"), CASES)
def test_repair_sends_the_curation_and_the_provider_accepts_it(
    provider: str, aio: bool, tmp_path: Path
) -> None:
    with serve(mistral=provider == "mistral") as (base, recorder):
        _send(provider, "repair", base, tmp_path, aio=aio)
    [(_, received, status)] = recorder.calls
    assert status == 200, received
    given = BODIES[provider]
    assert _history(provider, received) != _history(provider, given)
    # every field outside the history is exactly as given
    outside = {k: v for k, v in received.items() if k != HISTORY[provider]}
    if provider == "gemini":
        assert outside["tools"][0]["functionDeclarations"][0]["name"] == "read_file"
    elif provider == "bedrock":
        assert outside == {k: v for k, v in given.items() if k not in (HISTORY[provider], "modelId")}
    elif provider == "mistral":
        assert {k: outside[k] for k in ("model", "tools")} == {k: given[k] for k in ("model", "tools")}
    else:
        assert {k: outside[k] for k in given if k != HISTORY[provider]} == {
            k: v for k, v in given.items() if k != HISTORY[provider]
        }
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("provider", "aio"), CASES)
def test_raise_sends_nothing(provider: str, aio: bool, tmp_path: Path) -> None:
    with (
        serve(mistral=provider == "mistral") as (base, recorder),
        pytest.raises(guard.GuardRejected) as raised,
    ):
        _send(provider, "raise", base, tmp_path, aio=aio)
    assert recorder.calls == []
    assert raised.value.provider == provider
    assert RULE[provider] in {v.rule for v in raised.value.violations}
    assert str(raised.value).startswith(f"toolhist guard: {provider} would reject this request")


@pytest.mark.parametrize("provider", STREAM)
def test_streaming_repair_and_raise(provider: str, tmp_path: Path) -> None:
    with serve() as (base, recorder):
        events = _send(provider, "repair", base, tmp_path, stream=True)
        with pytest.raises(guard.GuardRejected):
            _send(provider, "raise", base, tmp_path, stream=True)
    assert len(events) >= 1
    assert [status for _, _, status in recorder.calls] == [200]
    assert recorder.calls[0][1]["stream"] is True


@pytest.mark.parametrize("provider", STREAM)
def test_an_error_inside_a_2xx_stream_is_bundled(provider: str, tmp_path: Path) -> None:
    import anthropic
    import openai

    sound = copy.deepcopy(BODIES[provider])
    key = HISTORY[provider]
    sound[key] = [sound[key][0]]
    with serve() as (base, _):
        http = guard.http_client("warn", capture=tmp_path, headers={"x-fake-stream-error": "1"})
        raised: list[BaseException] = []
        try:
            if provider == "anthropic":
                list(
                    anthropic.Anthropic(
                        api_key="k", base_url=base, max_retries=0, http_client=http
                    ).messages.create(**sound, stream=True)
                )
            else:
                client = openai.OpenAI(api_key="k", base_url=f"{base}/v1", max_retries=0, http_client=http)
                api: Callable[..., Any] = (
                    client.responses.create
                    if provider == "openai-responses"
                    else client.chat.completions.create
                )
                list(api(**sound, stream=True))
        except Exception as exc:  # the SDK may raise on the error event; the bundle is what is tested
            raised.append(exc)
    assert all(type(exc).__module__.split(".")[0] in {"openai", "anthropic"} for exc in raised), raised
    bundle = _only_bundle(tmp_path)
    assert bundle["response"]["status"] == 200
    assert bundle["response"]["stream_error"] is True
    assert "error" in bundle["response"]["body"]


def test_keep_last_rotates_the_captured_requests(tmp_path: Path) -> None:
    import openai

    sound: dict[str, Any] = {**CHAT, "messages": [CHAT["messages"][0]]}
    with serve() as (base, _):
        http = guard.http_client("warn", capture=tmp_path, keep_last=2)
        client = openai.OpenAI(api_key="k", base_url=f"{base}/v1", max_retries=0, http_client=http)
        for n in range(4):
            client.chat.completions.create(
                **{**sound, "messages": [{"role": "user", "content": f"turn {n}"}]}
            )
    kept = sorted(tmp_path.glob(f"*{bundles.SUFFIX}"))
    assert len(kept) == 2
    texts = sorted(orjson.loads(p.read_bytes())["request"]["body"]["messages"][0]["content"] for p in kept)
    assert texts == ["turn 2", "turn 3"]


def test_a_key_in_the_history_is_redacted_in_the_bundle(tmp_path: Path) -> None:
    body = copy.deepcopy(CHAT)
    body["messages"][0]["content"] = "my key is sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"
    import openai

    with serve() as (base, _):
        http = guard.http_client("warn", capture=tmp_path)
        client = openai.OpenAI(
            api_key="sk-proj-SECRETSECRETSECRETSECRET0123",
            base_url=f"{base}/v1",
            max_retries=0,
            http_client=http,
        )
        with pytest.raises(openai.BadRequestError):
            client.chat.completions.create(**body)
    text = next(tmp_path.iterdir()).read_text()
    assert "sk-proj-ABCDEFGHIJ" not in text
    assert "SECRETSECRET" not in text
    assert "[REDACTED:openai-key]" in text
