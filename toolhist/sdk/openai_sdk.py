"""The ``openai`` SDK: Chat Completions (also Kimi, which speaks the same wire format) and Responses.

Types: ``CompletionCreateParamsNonStreaming`` and ``ResponseCreateParamsNonStreaming`` (TypedDicts),
with the message/input-item unions discriminated on ``role``/``type`` so a bad message gets one
error, not one per variant. Capture: ``client.chat.completions.create(**body)`` /
``client.responses.create(**body)`` through the mock transport. The SDK sends the body as given
(compact JSON, keys in the body's order): no documented additions.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import version
from typing import Any

import openai
from openai.types.chat import ChatCompletionMessageParam, completion_create_params
from openai.types.responses import ResponseInputItemParam, response_create_params

from toolhist.sdk.strict import Issue, StrictRequest, list_of, tagged_union
from toolhist.sdk.transport import CAPTURE_BASE, DUMMY_KEY, Captured, capture_httpx

SDK = "openai"
VERSION = version(SDK)
CHAT_TYPE = "openai.types.chat.completion_create_params.CompletionCreateParamsNonStreaming"
RESPONSES_TYPE = "openai.types.responses.response_create_params.ResponseCreateParamsNonStreaming"

TYPE_NAMES = {"check_chat": CHAT_TYPE, "check_kimi_chat": CHAT_TYPE, "check_responses": RESPONSES_TYPE}
"""Check function → the SDK type it validates against (for ``Violation.source``)."""

VOLATILE = frozenset(
    {
        # Describe this machine (OS, CPU, Python build), not the request.
        "x-stainless-os",
        "x-stainless-arch",
        "x-stainless-runtime",
        "x-stainless-runtime-version",
        "x-stainless-async",
    }
)


STREAM = bool | None
"""The non-streaming types pin ``stream`` to False, the streaming ones to True; a body may have either."""


@cache
def _chat() -> StrictRequest:
    messages = list_of(tagged_union(ChatCompletionMessageParam, "role"))
    return StrictRequest.from_typeddict(
        completion_create_params.CompletionCreateParamsNonStreaming, {"messages": messages, "stream": STREAM}
    )


@cache
def _responses() -> StrictRequest:
    items = list_of(tagged_union(ResponseInputItemParam, "type", default="message"))
    return StrictRequest.from_typeddict(
        response_create_params.ResponseCreateParamsNonStreaming, {"input": str | items, "stream": STREAM}
    )


def check_chat(body: dict[str, Any]) -> list[Issue]:
    """Issues of a Chat Completions body against the SDK's request type."""
    return _chat().issues(body)


def check_kimi_chat(body: dict[str, Any]) -> list[Issue]:
    """Issues of a Kimi body: the Chat Completions type, but an assistant's ``reasoning_content`` passes.

    Kimi's thinking models refuse an assistant tool-call message without ``reasoning_content``
    ("thinking is enabled but reasoning_content is missing in assistant tool call message at index N",
    research/providers.md: continuedev/continue#11600, bytedance/deer-flow#3043), and Moonshot's docs
    send it back through this SDK as a plain key of the message dict, which the SDK sends as given
    (its TypedDicts are not enforced at run time). Only that key, only a string, only on an assistant
    message is let through; every other extra key is still reported.
    """
    messages = body.get("messages")
    if isinstance(messages, list) and any(_has_reasoning(m) for m in messages):
        body = {**body, "messages": [_without_reasoning(m) for m in messages]}
    return _chat().issues(body)


def _has_reasoning(message: object) -> bool:
    return (
        isinstance(message, dict)
        and message.get("role") == "assistant"
        and isinstance(message.get("reasoning_content"), str)
    )


def _without_reasoning(message: object) -> object:
    if not _has_reasoning(message):
        return message
    assert isinstance(message, dict)
    return {k: v for k, v in message.items() if k != "reasoning_content"}


def check_responses(body: dict[str, Any]) -> list[Issue]:
    """Issues of a Responses body against the SDK's request type."""
    return _responses().issues(body)


def _client(http_client: Any) -> openai.OpenAI:
    return openai.OpenAI(
        api_key=DUMMY_KEY, base_url=f"{CAPTURE_BASE}/v1", max_retries=0, http_client=http_client
    )


def capture_chat(body: dict[str, Any]) -> Captured:
    """The request ``client.chat.completions.create(**body)`` sends."""
    return capture_httpx(
        lambda http: _client(http).chat.completions.create(**body),
        openai.APIStatusError,
        sdk=SDK,
        version=VERSION,
        volatile=VOLATILE,
    )


def capture_responses(body: dict[str, Any]) -> Captured:
    """The request ``client.responses.create(**body)`` sends."""
    return capture_httpx(
        lambda http: _client(http).responses.create(**body),
        openai.APIStatusError,
        sdk=SDK,
        version=VERSION,
        volatile=VOLATILE,
    )
