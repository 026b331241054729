"""The ``anthropic`` SDK: the Messages API.

Types: ``MessageCreateParamsNonStreaming`` (a TypedDict) with the message union discriminated on
``role``. Its content unions also hold the *response* block models (pydantic models that allow any
key), so a block with an unknown key "validates" as a response model: `toolhist.sdk.strict.materialize`
reports such a loose match. Capture: ``client.messages.create(**body)`` through the mock transport.
The SDK re-serialises the body with its keys sorted; the value is unchanged (no documented additions).
"""

from __future__ import annotations

import warnings
from functools import cache
from importlib.metadata import version
from typing import Any

import anthropic
from anthropic.types import MessageParam, message_create_params

from toolhist.sdk.strict import Issue, StrictRequest, list_of, tagged_union
from toolhist.sdk.transport import CAPTURE_BASE, DUMMY_KEY, Captured, capture_httpx

SDK = "anthropic"
VERSION = version(SDK)
TYPE = "anthropic.types.message_create_params.MessageCreateParamsNonStreaming"

TYPE_NAMES = {"check": TYPE}

VOLATILE = frozenset(
    {
        "x-stainless-os",
        "x-stainless-arch",
        "x-stainless-runtime",
        "x-stainless-runtime-version",
        "x-stainless-async",
    }
)
"""Headers describing this machine (OS, CPU, Python build), not the request."""


@cache
def _messages() -> StrictRequest:
    messages = list_of(tagged_union(MessageParam, "role"))
    return StrictRequest.from_typeddict(
        message_create_params.MessageCreateParamsNonStreaming,
        {"messages": messages, "stream": bool | None},  # NonStreaming pins stream to False, Streaming to True
    )


def check(body: dict[str, Any]) -> list[Issue]:
    """Issues of a Messages API body against the SDK's request type."""
    return _messages().issues(body)


def capture(body: dict[str, Any]) -> Captured:
    """The request ``client.messages.create(**body)`` sends."""

    def send(http: Any) -> None:
        client = anthropic.Anthropic(
            api_key=DUMMY_KEY, base_url=CAPTURE_BASE, max_retries=0, http_client=http
        )
        with warnings.catch_warnings():  # a deprecated model name is the history's, not a capture problem
            warnings.simplefilter("ignore", DeprecationWarning)
            client.messages.create(**body)

    return capture_httpx(send, anthropic.APIStatusError, sdk=SDK, version=VERSION, volatile=VOLATILE)
