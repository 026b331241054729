"""The ``google-genai`` SDK: ``models.generate_content`` on the Gemini Developer API.

Types: the SDK's request types are pydantic models with ``extra='forbid'`` and camelCase aliases
(``types.Content``, ``types.Tool``, ``types.ToolConfig``, ``types.GenerationConfig``…). A REST body is
checked key by key against them; the body's ``model`` is toolhist's record of the model, which the
SDK puts in the URL. (The SDK types leave ``Content.role`` a free string; the provider rules check it.)

Capture: ``client.models.generate_content(model=…, contents=…, config=…)`` with the mock transport in
``http_options``; the body's generation fields are spread into ``GenerateContentConfig``, as a user of
the SDK writes them. Documented differences: ``model`` moves into the URL path.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import version
from typing import Any

from google import genai
from google.genai import errors, types

from toolhist.sdk.strict import Issue, StrictRequest
from toolhist.sdk.transport import CAPTURE_BASE, DUMMY_KEY, Captured, capture_httpx

SDK = "google-genai"
VERSION = version(SDK)
TYPE = "google.genai.types (Content, Tool, ToolConfig, GenerationConfig, SafetySetting)"

TYPE_NAMES = {"check": TYPE}

VOLATILE = frozenset({"user-agent", "x-goog-api-client"})
"""Both name this machine's Python version next to the SDK's."""

# The REST body's top-level keys (camelCase, as toolhist renders them) and the SDK type of each.
_FIELDS: dict[str, Any] = {
    "model": str,
    "contents": list[types.Content],
    "systemInstruction": types.Content,
    "tools": list[types.Tool],
    "toolConfig": types.ToolConfig,
    "generationConfig": types.GenerationConfig,
    "safetySettings": list[types.SafetySetting],
    "cachedContent": str,
    "labels": dict[str, str],
}
# Body key → the GenerateContentConfig field it becomes (generationConfig is spread instead).
_CONFIG_KEYS = {
    "systemInstruction": "system_instruction",
    "tools": "tools",
    "toolConfig": "tool_config",
    "safetySettings": "safety_settings",
    "cachedContent": "cached_content",
    "labels": "labels",
}


@cache
def _request() -> StrictRequest:
    return StrictRequest(_FIELDS, frozenset({"contents"}), loose=False, name=TYPE)


def check(body: dict[str, Any]) -> list[Issue]:
    """Issues of a ``generateContent`` body against the SDK's types."""
    return _request().issues(body)


def _config(body: dict[str, Any]) -> types.GenerateContentConfig:
    fields: dict[str, Any] = {}
    for key, value in body.items():
        if key in _CONFIG_KEYS:
            fields[_CONFIG_KEYS[key]] = value
        elif key not in {"model", "contents", "generationConfig"}:
            raise ValueError(f"no GenerateContentConfig field for the body key {key!r}")
    generation = body.get("generationConfig") or {}
    return types.GenerateContentConfig.model_validate({**generation, **fields})


def capture(body: dict[str, Any]) -> Captured:
    """The request ``client.models.generate_content`` sends for this body."""
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise ValueError("google-genai needs a model for the URL and the body names none")

    def send(http: Any) -> None:
        options = types.HttpOptions(
            base_url=CAPTURE_BASE,
            httpx_client=http,
            retry_options=types.HttpRetryOptions(attempts=1),
        )
        client = genai.Client(api_key=DUMMY_KEY, http_options=options)
        client.models.generate_content(model=model, contents=body.get("contents", []), config=_config(body))

    return capture_httpx(send, errors.APIError, sdk=SDK, version=VERSION, volatile=VOLATILE)
