"""Where each provider is reached, with which key, and how a request is made to cost the least.

Provider differences as data (CRAFT 6): one `Endpoint` per provider, read by `toolhist.verify.plan`.
The variable names are the ones each official SDK reads, so the key and the gateway a user already
set for their own client are the ones used here (checked in the installed SDKs, 2026-11):

- OpenAI (``openai`` 3.x ``lib/_client_auth.py``): ``OPENAI_API_KEY``, ``OPENAI_BASE_URL`` (with
  ``/v1``), default ``https://api.openai.com/v1``.
- Anthropic (``anthropic`` 2.x ``_client.py``): ``ANTHROPIC_API_KEY`` (``x-api-key``), else
  ``ANTHROPIC_AUTH_TOKEN`` (``Authorization: Bearer``, what gateways take); ``ANTHROPIC_BASE_URL``;
  default ``https://api.anthropic.com``; header ``anthropic-version: 2023-06-01``.
- Gemini (``google-genai`` 3.x ``_api_client.get_env_api_key``, ``_base_url.py``): ``GOOGLE_API_KEY``
  before ``GEMINI_API_KEY`` (the SDK's own precedence), ``GOOGLE_GEMINI_BASE_URL``, default
  ``https://generativelanguage.googleapis.com``, ``/v1beta/models/{model}:generateContent``,
  header ``x-goog-api-key``.
- Mistral (``mistralai`` 3.x ``utils/security.py``, ``sdkconfiguration.SERVERS``): ``MISTRAL_API_KEY``;
  the SDK reads no base-URL variable, so ``MISTRAL_BASE_URL`` (and LiteLLM's ``MISTRAL_API_BASE``),
  with ``/v1``, default ``https://api.mistral.ai/v1``.
- Kimi (Moonshot's OpenAI-compatible API, docs at platform.moonshot.ai): ``MOONSHOT_API_KEY``,
  ``MOONSHOT_BASE_URL`` (and LiteLLM's ``MOONSHOT_API_BASE``), with ``/v1``, default
  ``https://api.moonshot.ai/v1`` (``https://api.moonshot.cn/v1`` for the China platform).
- Bedrock (``botocore`` 1.44 ``configprovider.py``, ``utils.py``): botocore's own credential chain
  (``AWS_ACCESS_KEY_ID``/``AWS_SECRET_ACCESS_KEY``/``AWS_SESSION_TOKEN``, ``AWS_PROFILE``, SSO…) or
  ``AWS_BEARER_TOKEN_BEDROCK``; region ``AWS_REGION``/``AWS_DEFAULT_REGION``; endpoint
  ``AWS_ENDPOINT_URL_BEDROCK_RUNTIME`` or ``AWS_ENDPOINT_URL``; ``/model/{modelId}/converse``.

The smallest cost each API allows (`cheapest`): no streaming, tools and every history field kept
(they are what is judged), and the output capped at the least the API accepts: ``max_completion_tokens``
1 (Chat Completions: ``max_tokens`` is refused by reasoning models), ``max_tokens`` 1 (Mistral, Kimi),
``max_output_tokens`` 16 (Responses: "Invalid 'max_output_tokens': integer below minimum value.
Expected a value >= 16", vectorize-io/hindsight#58, braintrustdata/lingua#186), ``max_tokens`` 1 or
the thinking budget + 1 (Anthropic: ``max_tokens`` must exceed ``thinking.budget_tokens``),
``generationConfig.maxOutputTokens`` 1 (Gemini), ``inferenceConfig.maxTokens`` 1 or the budget + 1
(Bedrock). Anthropic's ``/v1/messages/count_tokens`` costs nothing and applies the same history
validation as ``/v1/messages`` (`COUNT_TOKENS_EVIDENCE`); it is used on Anthropic's own host.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

Auth = Literal["bearer", "anthropic", "x-goog-api-key", "aws"]
Route = Literal["generate", "count_tokens"]

COUNT_TOKENS_KEYS = frozenset(
    {
        "messages",
        "model",
        "system",
        "tools",
        "tool_choice",
        "thinking",
        "cache_control",
        "output_config",
        "speed",
    }
)
"""The body keys ``/v1/messages/count_tokens`` takes (``anthropic`` 2.14 ``MessageCountTokensParams``)."""

COUNT_TOKENS_EVIDENCE = (
    'UKGovernmentBEIS/inspect_ai#3108 (count_tokens answered "`tool_use` ids were found without '
    '`tool_result` blocks immediately after"), #3107 ("When thinking is disabled, an `assistant` message '
    'in the final position cannot contain `thinking`"), #4420 (2026-07-06: "the endpoint applies the same '
    'thinking-block validation as generate": empty thinking, invalid signature, modified latest thinking), '
    '#4862 ("user messages must have non-empty content")'
)
"""Why a count_tokens answer stands for the Messages API's on the history rules."""


@dataclass(frozen=True)
class Endpoint:
    """How one provider is reached."""

    provider: str
    """toolhist's provider name."""
    title: str
    """The API, for people (``Chat Completions``)."""
    key_vars: tuple[str, ...]
    """Environment variables holding the key, the first one set wins."""
    base_vars: tuple[str, ...]
    """Environment variables that move the base URL (a gateway, a local server), the first set wins."""
    default_base: str
    """The provider's own base URL."""
    path: str
    """Path after the base; ``{model}`` is filled in (URL-quoted) where the model goes in the URL."""
    auth: Auth
    """How the key is sent."""
    model_key: str
    """The body key that names the model (``model``, Bedrock's ``modelId``)."""
    model_in_url: bool
    """Whether the model goes in the URL and leaves the body (Gemini, Bedrock)."""
    cheapest: Callable[[dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]]
    """body → (the body at the least cost, the fields set for that): see the module docstring."""


def _without(body: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k not in keys}


def _capped(
    key: str, value: int, *drop: str
) -> Callable[[dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]]:
    def cheapest(body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        out = _without(body, key, "stream", "stream_options", *drop)
        out[key] = value
        cost: dict[str, Any] = {key: value}
        if isinstance(body.get("n"), int) and body["n"] > 1:
            out["n"] = cost["n"] = 1
        return out, cost

    return cheapest


def _budget(thinking: Any) -> int | None:
    """The thinking budget of an Anthropic ``thinking`` setting, when it has one."""
    if isinstance(thinking, dict) and thinking.get("type") == "enabled":
        budget = thinking.get("budget_tokens")
        if isinstance(budget, int) and not isinstance(budget, bool):
            return budget
    return None


def _anthropic(body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    budget = _budget(body.get("thinking"))
    least = 1 if budget is None else budget + 1
    out = _without(body, "max_tokens", "stream")
    out["max_tokens"] = least
    return out, {"max_tokens": least}


def count_tokens_body(body: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The body ``count_tokens`` takes (`COUNT_TOKENS_KEYS`) and the keys it leaves out, in body order."""
    kept = {k: v for k, v in body.items() if k in COUNT_TOKENS_KEYS}
    return kept, tuple(k for k in body if k not in COUNT_TOKENS_KEYS)


def _gemini(body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    key = "generation_config" if "generation_config" in body else "generationConfig"
    config = body.get(key)
    out = dict(body)
    out[key] = {**(config if isinstance(config, dict) else {}), "maxOutputTokens": 1}
    return out, {f"{key}.maxOutputTokens": 1}


def _bedrock(body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    extra = body.get("additionalModelRequestFields")
    budget = _budget(extra.get("thinking")) if isinstance(extra, dict) else None
    least = 1 if budget is None else budget + 1
    config = body.get("inferenceConfig")
    out = dict(body)
    out["inferenceConfig"] = {**(config if isinstance(config, dict) else {}), "maxTokens": least}
    return out, {"inferenceConfig.maxTokens": least}


_OPENAI_BASE = ("OPENAI_BASE_URL",)

ENDPOINTS: dict[str, Endpoint] = {
    "openai-chat": Endpoint(
        "openai-chat",
        "Chat Completions",
        ("OPENAI_API_KEY",),
        _OPENAI_BASE,
        "https://api.openai.com/v1",
        "/chat/completions",
        "bearer",
        "model",
        False,
        _capped("max_completion_tokens", 1, "max_tokens"),
    ),
    "openai-responses": Endpoint(
        "openai-responses",
        "Responses",
        ("OPENAI_API_KEY",),
        _OPENAI_BASE,
        "https://api.openai.com/v1",
        "/responses",
        "bearer",
        "model",
        False,
        _capped("max_output_tokens", 16),
    ),
    "anthropic": Endpoint(
        "anthropic",
        "Messages",
        ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"),
        ("ANTHROPIC_BASE_URL",),
        "https://api.anthropic.com",
        "/v1/messages",
        "anthropic",
        "model",
        False,
        _anthropic,
    ),
    "gemini": Endpoint(
        "gemini",
        "generateContent",
        ("GOOGLE_API_KEY", "GEMINI_API_KEY"),
        ("GOOGLE_GEMINI_BASE_URL",),
        "https://generativelanguage.googleapis.com",
        "/v1beta/models/{model}:generateContent",
        "x-goog-api-key",
        "model",
        True,
        _gemini,
    ),
    "mistral": Endpoint(
        "mistral",
        "Chat Completions",
        ("MISTRAL_API_KEY",),
        ("MISTRAL_BASE_URL", "MISTRAL_API_BASE"),
        "https://api.mistral.ai/v1",
        "/chat/completions",
        "bearer",
        "model",
        False,
        _capped("max_tokens", 1, "max_completion_tokens"),
    ),
    "kimi": Endpoint(
        "kimi",
        "Chat Completions (Moonshot)",
        ("MOONSHOT_API_KEY",),
        ("MOONSHOT_BASE_URL", "MOONSHOT_API_BASE"),
        "https://api.moonshot.ai/v1",
        "/chat/completions",
        "bearer",
        "model",
        False,
        _capped("max_tokens", 1, "max_completion_tokens"),
    ),
    "bedrock": Endpoint(
        "bedrock",
        "Converse",
        ("AWS_BEARER_TOKEN_BEDROCK",),
        ("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "AWS_ENDPOINT_URL"),
        "https://bedrock-runtime.{region}.amazonaws.com",
        "/model/{model}/converse",
        "aws",
        "modelId",
        True,
        _bedrock,
    ),
}
"""Provider → how it is reached. Every toolhist provider has one."""

AWS_CHAIN = "AWS credentials (botocore's chain: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, SSO…)"
"""What signs a Bedrock request when no bearer token is set."""

REGION_VARS = ("AWS_REGION", "AWS_DEFAULT_REGION")
"""Where the Bedrock region comes from (botocore reads the same, and its config files)."""


def first_set(names: tuple[str, ...], environ: Mapping[str, str]) -> str | None:
    """The first of ``names`` set (non-empty) in ``environ``."""
    return next((name for name in names if environ.get(name)), None)
