"""The ``mistralai`` SDK: chat completions.

Types: the SDK's request models are pydantic models that ignore unknown keys, so the check uses their
TypedDict twins (``ChatCompletionRequestTypedDict``) with the message union discriminated on ``role``.
Capture: ``client.chat.complete(**body)`` through the mock transport. This SDK *rewrites* the body
(`ADDITIONS`): the captured body is the only exact record of what it sends.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import version
from typing import Any

from mistralai.client import Mistral, models
from mistralai.client.errors import SDKError

from toolhist.sdk.strict import Issue, StrictRequest, list_of, tagged_union
from toolhist.sdk.transport import CAPTURE_BASE, DUMMY_KEY, Captured, capture_httpx

SDK = "mistralai"
VERSION = version(SDK)
TYPE = "mistralai.client.models.ChatCompletionRequestTypedDict"

TYPE_NAMES = {"check": TYPE}

VOLATILE = frozenset({"user-agent"})
"""``user-agent`` names this machine's Python version and OS."""


@cache
def _request() -> StrictRequest:
    union = getattr(
        models.ChatCompletionRequestMessageTypedDict,
        "__value__",
        models.ChatCompletionRequestMessageTypedDict,
    )
    return StrictRequest.from_typeddict(
        models.ChatCompletionRequestTypedDict,
        {"messages": list_of(tagged_union(union, "role"))},
    )


def check(body: dict[str, Any]) -> list[Issue]:
    """Issues of a Mistral chat body against the SDK's request type."""
    return _request().issues(body)


def capture(body: dict[str, Any]) -> Captured:
    """The request ``client.chat.complete(**body)`` sends."""

    def send(http: Any) -> None:
        Mistral(api_key=DUMMY_KEY, server_url=CAPTURE_BASE, client=http).chat.complete(**body)

    return capture_httpx(send, SDKError, sdk=SDK, version=VERSION, volatile=VOLATILE)
