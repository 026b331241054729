"""The HTTP request each official SDK sends for a rendered body, captured offline.

For every provider, sample and strategy the captured body equals the rendered one, or differs exactly by that SDK's
documented rewrites (`toolhist.sdk.BINDINGS[...].rewrites`); method, path and the machine-independent
headers are pinned, the SDK's own version among them read from the installed package (constraints.txt
pins it; no test names a resolved version).
"""

from __future__ import annotations

import json
import re
import socket
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist import sdk
from toolhist.curation import STRATEGIES
from toolhist.peers.strategies import LABEL as LIBRARY_RUN
from toolhist.providers import PROVIDERS, render

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
SDK_RENDERED = tuple(s for s in STRATEGIES if s not in LIBRARY_RUN)
"""Strategies whose body toolhist renders: the real libraries' (``litellm``, ``openai-agents``) is their own
HTTP request, sent without the official SDKs, so neither the SDKs' capture nor their types apply to it."""
STAINLESS_MACHINE = (
    "x-stainless-arch",
    "x-stainless-async",
    "x-stainless-os",
    "x-stainless-runtime",
    "x-stainless-runtime-version",
)


def _sessions() -> list[toolhist.Session]:
    # README.md and EXPECTED.md describe the samples; every other file must load.
    return [toolhist.load(path) for path in sorted(SAMPLES.iterdir()) if path.suffix != ".md"]


SESSIONS = _sessions()


@pytest.mark.parametrize("provider", PROVIDERS)
def test_captured_body_is_the_rendered_body_up_to_documented_rewrites(provider: str) -> None:
    seen: set[str] = set()
    captured_count = 0
    for session in SESSIONS:
        for strategy in SDK_RENDERED:
            body = render(session, provider, strategy=strategy).body
            captured = sdk.capture(body, provider)
            captured_count += 1
            assert sdk.undocumented_differences(provider, captured.given, captured.body) == []
            for d in sdk.differences(captured.given, captured.body):
                seen |= {r.pattern for r in sdk.binding(provider).rewrites if sdk.matches(r.pattern, d.path)}
    assert captured_count == len(SESSIONS) * len(SDK_RENDERED) == 23 * 9  # canonical joined (issue 24)
    # Every documented rewrite is one the samples really show: the list is exact, not a catch-all.
    assert seen == {r.pattern for r in sdk.binding(provider).rewrites}


def _capture(provider: str, sample: str = "anthropic_request.json") -> sdk.Captured:
    session = toolhist.load(SAMPLES / sample)
    return sdk.capture(render(session, provider, strategy="toolhist").body, provider)


OPENAI_HEADERS = {
    "accept": "application/json",
    "accept-encoding": "gzip, deflate",
    "authorization": "Bearer toolhist-dummy-key",
    "connection": "keep-alive",
    "content-type": "application/json",
    "host": "capture.invalid",
    "user-agent": f"OpenAI/Python {version('openai')}",
    "x-stainless-lang": "python",
    "x-stainless-package-version": version("openai"),
    "x-stainless-read-timeout": "600",
    "x-stainless-retry-count": "0",
}
PINNED: dict[str, tuple[str, str, dict[str, str], tuple[str, ...]]] = {
    "openai-chat": ("openai", "/v1/chat/completions", OPENAI_HEADERS, STAINLESS_MACHINE),
    "kimi": ("openai", "/v1/chat/completions", OPENAI_HEADERS, STAINLESS_MACHINE),
    "openai-responses": ("openai", "/v1/responses", OPENAI_HEADERS, STAINLESS_MACHINE),
    "anthropic": (
        "anthropic",
        "/v1/messages",
        {
            "accept": "application/json",
            "accept-encoding": "gzip, deflate",
            "anthropic-version": "2026-10-21",
            "authorization": "Bearer toolhist-dummy-key",
            "connection": "keep-alive",
            "content-type": "application/json",
            "host": "capture.invalid",
            "user-agent": f"Anthropic/Python {version('anthropic')}",
            "x-stainless-lang": "python",
            "x-stainless-package-version": version("anthropic"),
            "x-stainless-read-timeout": "600",
            "x-stainless-retry-count": "0",
            "x-stainless-timeout": "600",
        },
        STAINLESS_MACHINE,
    ),
    "gemini": (
        "google-genai",
        "/v1/models/claude-sonnet-4-5:generateContent",
        {
            "accept": "*/*",
            "accept-encoding": "gzip, deflate",
            "connection": "keep-alive",
            "content-type": "application/json",
            "host": "capture.invalid",
            "x-goog-api-key": "toolhist-dummy-key",
        },
        ("user-agent", "x-goog-api-client"),
    ),
    "mistral": (
        "mistralai",
        "/v1/chat/completions",
        {
            "accept": "application/json",
            "accept-encoding": "gzip, deflate",
            "authorization": "Bearer toolhist-dummy-key",
            "connection": "keep-alive",
            "content-type": "application/json",
            "host": "capture.invalid",
        },
        ("user-agent",),
    ),
    "bedrock": (
        "botocore",
        "/model/claude-sonnet-4-5/converse",
        {"amz-sdk-request": "attempt=1", "content-type": "application/json"},
        ("amz-sdk-invocation-id", "authorization", "user-agent", "x-amz-date"),
    ),
}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_method_path_and_headers_are_pinned(provider: str) -> None:
    captured = _capture(provider)
    package, path, headers, dropped = PINNED[provider]
    assert (captured.sdk, captured.method, captured.path) == (package, "POST", path)
    assert captured.url == "http://capture.invalid" + path
    sent = {k: v for k, v in captured.headers.items() if k != "content-length"}
    if provider == "bedrock":
        # botocore's retry bookkeeping: the first attempt, and from some release on the most it would
        # make (1.44.5 sends "attempt=1; max=2", 1.43.117 "attempt=1"; the capture never retries)
        assert re.fullmatch(r"attempt=1(; max=\d+)?", sent["amz-sdk-request"]), sent["amz-sdk-request"]
        sent["amz-sdk-request"] = "attempt=1"
    assert sent == headers
    assert captured.headers.get("content-length", str(len(captured.body_bytes))) == str(
        len(captured.body_bytes)
    )
    assert captured.dropped_headers == dropped
    assert captured.version == sdk.sdk_version(provider)
    assert not captured.model_filled


@pytest.mark.parametrize("provider", ["openai-chat", "openai-responses", "kimi"])
def test_openai_sends_the_body_as_given_in_compact_utf8_json(provider: str) -> None:
    captured = _capture(provider)
    assert (
        captured.body_bytes == json.dumps(captured.given, separators=(",", ":"), ensure_ascii=False).encode()
    )
    assert sdk.differences(captured.given, captured.body) == []


def test_anthropic_adds_nothing_and_sorts_the_top_level_keys() -> None:
    captured = _capture("anthropic")
    assert sdk.differences(captured.given, captured.body) == []
    assert list(captured.body) == sorted(captured.given)
    assert (
        captured.body_bytes == json.dumps(captured.body, separators=(",", ":"), ensure_ascii=False).encode()
    )


def test_gemini_moves_the_model_into_the_url_and_adds_an_empty_generation_config() -> None:
    captured = _capture("gemini")
    assert captured.given["model"] == "claude-sonnet-4-5"
    assert sorted((d.kind, d.path) for d in sdk.differences(captured.given, captured.body)) == [
        ("added", "generationConfig"),
        ("added", "tools.0.functionDeclarations.0.parameters_json_schema"),
        ("added", "tools.0.functionDeclarations.1.parameters_json_schema"),
        ("removed", "model"),
        ("removed", "tools.0.functionDeclarations.0.parametersJsonSchema"),
        ("removed", "tools.0.functionDeclarations.1.parametersJsonSchema"),
    ]
    assert captured.body["generationConfig"] == {}
    assert captured.body_bytes == json.dumps(captured.body).encode()  # json.dumps defaults: ", " and ": "


def test_gemini_renames_parameters_json_schema_to_snake_case() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    body: dict[str, Any] = {
        "model": "gemini-2.5-flash",
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "tools": [{"functionDeclarations": [{"name": "f", "parametersJsonSchema": schema}]}],
        "generationConfig": {"temperature": 0.5},
    }
    assert sdk.check(body, "gemini") == []
    captured = sdk.capture(body, "gemini")
    assert captured.body["tools"] == [
        {"functionDeclarations": [{"name": "f", "parameters_json_schema": schema}]}
    ]
    assert captured.body["generationConfig"] == {"temperature": 0.5}
    assert sdk.undocumented_differences("gemini", body, captured.body) == []


def test_mistral_adds_prefix_index_and_stream_and_reorders_keys() -> None:
    body: dict[str, Any] = {
        "model": "mistral-large-latest",
        "messages": [
            {"role": "user", "content": "café"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "abcDEF123", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                    {"id": "abcDEF124", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                ],
            },
        ],
        "temperature": 0.2,
    }
    captured = sdk.capture(body, "mistral")
    assert sorted((d.kind, d.path, d.sent) for d in sdk.differences(body, captured.body)) == [
        ("added", "messages.1.prefix", False),
        ("added", "messages.1.tool_calls.0.index", 0),
        ("added", "messages.1.tool_calls.1.index", 0),
        ("added", "stream", False),
    ]
    assert captured.body_bytes.startswith(
        b'{"model":"mistral-large-latest","messages":[{"content":"caf\\u00e9","role":"user"}'
    )


def test_bedrock_moves_model_id_into_the_url() -> None:
    body: dict[str, Any] = {
        "modelId": "anthropic.claude-3:0",
        "messages": [{"role": "user", "content": [{"text": "hi"}]}],
    }
    captured = sdk.capture(body, "bedrock")
    assert captured.url == "http://capture.invalid/model/anthropic.claude-3%3A0/converse"
    assert captured.body_bytes == b'{"messages": [{"role": "user", "content": [{"text": "hi"}]}]}'
    assert [(d.kind, d.path) for d in sdk.differences(body, captured.body)] == [("removed", "modelId")]


@pytest.mark.parametrize(
    ("provider", "where"), [("openai-chat", "body"), ("gemini", "url"), ("bedrock", "url")]
)
def test_a_body_without_a_model_is_sent_with_the_placeholder(provider: str, where: str) -> None:
    bodies: dict[str, dict[str, Any]] = {
        "openai-chat": {"messages": [{"role": "user", "content": "hi"}]},
        "gemini": {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]},
        "bedrock": {"messages": [{"role": "user", "content": [{"text": "hi"}]}]},
    }
    body = bodies[provider]
    captured = sdk.capture(body, provider)
    assert captured.model_filled
    assert sdk.MODEL_PLACEHOLDER == "model-not-in-body"
    if where == "url":
        assert sdk.MODEL_PLACEHOLDER in captured.path
    else:
        assert captured.body["model"] == sdk.MODEL_PLACEHOLDER
    with pytest.raises(
        sdk.SdkRejected, match=rf"^openai {re.escape(version('openai'))} refused the body: .*model"
    ):
        sdk.capture({"messages": []}, "openai-chat", fill_model=False)


def test_a_body_the_sdk_refuses_is_one_clear_line() -> None:
    body = {
        "model": "g",
        "contents": [{"role": "user", "parts": [{"functionCall": {"name": "f", "args": "{}"}}]}],
    }
    with pytest.raises(sdk.SdkRejected) as caught:
        sdk.capture(body, "gemini")
    message = str(caught.value)
    assert message.startswith(f"google-genai {version('google-genai')} refused the body: ")
    assert "\n" not in message
    assert [(v.rule, v.path) for v in sdk.check(body, "gemini")] == [
        ("sdk.gemini.type", "contents[0].parts[0].functionCall.args")
    ]


def test_capture_opens_no_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a capture tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    paths = {provider: _capture(provider).path for provider in PROVIDERS}
    assert paths == {provider: PINNED[provider][1] for provider in PROVIDERS}


def test_as_text_is_the_request_line_sorted_headers_and_body() -> None:
    captured = _capture("bedrock")
    lines = captured.as_text().split("\n")
    assert lines[:4] == [
        "POST /model/claude-sonnet-4-5/converse",
        f"amz-sdk-request: {captured.headers['amz-sdk-request']}",  # its value: see the pinned headers
        f"content-length: {len(captured.body_bytes)}",
        "content-type: application/json",
    ]
    assert lines[4] == ""
    assert lines[5] == captured.body_bytes.decode()
