"""Fidelity to the official SDKs: strict request-type checks and the exact HTTP request each SDK sends.

toolhist renders each provider's request body itself. This package holds those bodies against the
official client libraries, with no network and no key:

- `check(body, provider)`: the body validated strictly against the SDK's own request types (unknown
  keys refused, every list item checked), as `Violation` objects;
- `capture(body, provider)`: the HTTP request the SDK sends for the body (method, URL, the headers
  that do not depend on the machine, body bytes), taken from a mock transport;
- `differences` / `undocumented_differences`: the captured body against the rendered one, and which
  differences are not among the SDK's documented rewrites (`Binding.rewrites`).

Rule ids: ``sdk.<provider>.type``, the provider name with ``-`` as ``_`` (``sdk.openai_chat.type``,
``sdk.openai_responses.type``, ``sdk.anthropic.type``, ``sdk.gemini.type``, ``sdk.mistral.type``,
``sdk.kimi.type``, ``sdk.bedrock.type``): one rule per provider, "the SDK's request type refuses this
value". Severity ``error``; ``path`` in the provider's convention; ``error_text`` is the SDK's (pydantic's
or botocore's) message; ``source`` names the SDK package, its version and the type checked.

The SDKs are an optional extra (``pip install 'toolhist[sdk]'``). Without one, `check` and `capture`
raise `SdkUnavailable` saying how to get it; `available` tells beforehand.
"""

from __future__ import annotations

import copy
import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from types import ModuleType
from typing import Any, Literal

from toolhist.errors import ToolhistError
from toolhist.providers import provider_for
from toolhist.providers.base import Violation
from toolhist.sdk.transport import Captured, SdkRejected

INSTALL_HINT = "pip install 'toolhist[sdk]'"
"""How to get every SDK this package uses, in the tested version ranges."""


MODEL_PLACEHOLDER = "model-not-in-body"
"""The model an SDK call is given when the body names none (see `with_model`)."""

MODEL_KEYS = {"bedrock": "modelId"}
"""The body key holding the model, where it is not ``model``."""


class SdkUnavailable(ToolhistError):
    """The SDK a check or capture needs is not installed; the message says how to install it."""


@dataclass(frozen=True)
class Rewrite:
    """One documented way an SDK's sent body differs from the body it was given."""

    kind: Literal["added", "removed", "changed"]
    """``added``: the SDK sends a key the body did not have; ``removed``: it does not send one;
    ``changed``: it sends the key with another JSON spelling of the value (``0`` as ``0.0``)."""
    pattern: str
    """Dotted path pattern, ``*`` for any one key or index: ``messages.*.tool_calls.*.index``."""
    note: str
    """What the SDK does, for docs and pages."""


@dataclass(frozen=True)
class Binding:
    """Which SDK a provider is held against, and how."""

    provider: str
    """toolhist provider name."""
    sdk: str
    """The SDK's package name on PyPI."""
    requirement: str
    """The tested version range (kept equal to the ``sdk`` extra in pyproject.toml)."""
    needs: tuple[str, ...]
    """Top-level modules that must import (the SDK's and its HTTP client's)."""
    module: str
    """The toolhist module that implements the check and the capture."""
    check: str
    """Name of its check function (body → issues)."""
    capture: str
    """Name of its capture function (body → Captured)."""
    rewrites: tuple[Rewrite, ...] = ()
    """Every documented difference between the captured and the rendered body."""

    @property
    def rule(self) -> str:
        """The SDK rule id of this provider (``sdk.openai_chat.type``)."""
        return f"sdk.{self.provider.replace('-', '_')}.type"


_MISTRAL_REWRITES = (
    Rewrite("added", "messages.*.prefix", 'mistralai adds "prefix": false to every assistant message'),
    Rewrite("added", "messages.*.tool_calls.*.index", 'mistralai adds "index": 0 to every tool call'),
    Rewrite("added", "stream", 'mistralai adds "stream": false'),
)
_GEMINI_REWRITES = (
    Rewrite(
        "removed", "model", "google-genai sends the model in the URL (/v1/models/{model}:generateContent)"
    ),
    Rewrite("added", "generationConfig", 'google-genai sends "generationConfig": {} when the body has none'),
    Rewrite(
        "removed",
        "tools.*.functionDeclarations.*.parametersJsonSchema",
        "google-genai sends parametersJsonSchema under the snake_case key parameters_json_schema",
    ),
    Rewrite("added", "tools.*.functionDeclarations.*.parameters_json_schema", "(the same rename)"),
    Rewrite(
        "changed",
        "generationConfig.temperature",
        "google-genai types it as a float: 0 goes out as 0.0 (the same JSON number)",
    ),
    Rewrite("changed", "generationConfig.topP", "(the same float typing: 1 goes out as 1.0)"),
    Rewrite(
        "removed",
        "generationConfig.thinkingConfig.includeThoughts",
        "google-genai sends thinkingConfig.includeThoughts under the snake_case key include_thoughts",
    ),
    Rewrite("added", "generationConfig.thinkingConfig.include_thoughts", "(the same rename)"),
)
_BEDROCK_REWRITES = (
    Rewrite("removed", "modelId", "botocore sends modelId in the URL (/model/{modelId}/converse)"),
)

_OPENAI = ("openai", "openai>=3.54.0,<4", ("openai", "httpx2"), "toolhist.sdk.openai_sdk")
BINDINGS: dict[str, Binding] = {
    "openai-chat": Binding("openai-chat", *_OPENAI, "check_chat", "capture_chat"),
    "openai-responses": Binding("openai-responses", *_OPENAI, "check_responses", "capture_responses"),
    "anthropic": Binding(
        "anthropic",
        "anthropic",
        "anthropic>=2.12.0,<3",
        ("anthropic", "httpx2"),
        "toolhist.sdk.anthropic_sdk",
        "check",
        "capture",
    ),
    "gemini": Binding(
        "gemini",
        "google-genai",
        "google-genai>=3.4.0,<4",
        ("google", "httpx2"),
        "toolhist.sdk.gemini_sdk",
        "check",
        "capture",
        _GEMINI_REWRITES,
    ),
    "mistral": Binding(
        "mistral",
        "mistralai",
        "mistralai>=3.7.0,<4",
        ("mistralai", "httpx2"),
        "toolhist.sdk.mistral_sdk",
        "check",
        "capture",
        _MISTRAL_REWRITES,
    ),
    # Kimi (Moonshot) documents its API as OpenAI-compatible and its docs use the openai SDK.
    # Its thinking models need ``reasoning_content`` on assistant tool-call messages (`check_kimi_chat`).
    "kimi": Binding("kimi", *_OPENAI, "check_kimi_chat", "capture_chat"),
    "bedrock": Binding(
        "bedrock",
        "botocore",
        "botocore>=1.43.117,<2",
        ("botocore",),
        "toolhist.sdk.bedrock_sdk",
        "check",
        "capture",
        _BEDROCK_REWRITES,
    ),
}
"""Provider → its SDK binding. Every toolhist provider has one."""


def binding(provider: str) -> Binding:
    """The binding for ``provider`` (a UsageError for an unknown provider name)."""
    return BINDINGS[provider_for(provider).name]


def sdk_version(provider: str) -> str | None:
    """The installed version of ``provider``'s SDK, or None (read from metadata: nothing is imported)."""
    try:
        return version(binding(provider).sdk)
    except PackageNotFoundError:
        return None


def _module(provider: str) -> ModuleType:
    """The toolhist module binding ``provider``'s SDK, or `SdkUnavailable` saying how to install it.

    Any `ImportError` of a module the SDK needs counts, not only `ModuleNotFoundError`: without
    google-genai, ``from google import genai`` raises a plain ImportError ("cannot import name 'genai'
    from 'google'") wherever protobuf (a dependency of streamlit) has made ``google`` a namespace package.
    """
    bound = binding(provider)
    try:
        return import_module(bound.module)
    except ImportError as exc:
        root = (exc.name or "").split(".")[0]
        if root not in bound.needs:
            raise
        installed = sdk_version(provider)
        if isinstance(exc, ModuleNotFoundError):
            why = f"the {bound.sdk} SDK is not installed (module {exc.name!r} missing)"
        elif installed is None:
            why = f"the {bound.sdk} SDK is not installed ({exc})"
        else:
            why = f"{bound.sdk} {installed} is installed but does not import ({exc})"
        raise SdkUnavailable(
            f"{provider}: {why}; install it with {INSTALL_HINT} (tested range {bound.requirement})"
        ) from None


def available(provider: str) -> bool:
    """Whether ``provider``'s SDK can be used here."""
    try:
        _module(provider)
    except SdkUnavailable:
        return False
    return True


def check(
    body: dict[str, Any],
    provider: str,
    source_map: Mapping[str, tuple[int, int | None]] | None = None,
    *,
    fill_model: bool = False,
) -> list[Violation]:
    """Violations of ``body`` against ``provider``'s SDK request types (empty when the SDK accepts it).

    ``source_map`` (a `Payload`'s) locates each violation in the canonical history. ``fill_model``:
    check a body that names no model as if it named `MODEL_PLACEHOLDER` — the model is a request
    field outside the history, and a source that does not record it renders a body without one.
    """
    bound = binding(provider)
    module = _module(provider)
    if fill_model:
        body = with_model(body, provider)[0]
    fmt = provider_for(provider).path_format
    source = f"{bound.sdk} {sdk_version(provider)}: {module.TYPE_NAMES[bound.check]}"
    out: list[Violation] = []
    for issue in getattr(module, bound.check)(body):
        message_index, block_index = _locate(issue.path, fmt, source_map or {})
        out.append(
            Violation(
                provider=bound.provider,
                rule=bound.rule,
                severity="error",
                path=fmt(issue.path) if issue.path else "(body)",
                message_index=message_index,
                block_index=block_index,
                error_text=issue.message,
                source=source,
                fix=(
                    f"not a provider rule: the official {bound.sdk} SDK's request type refuses this value. "
                    "With strategy none or in a captured body the value comes from the source: curate "
                    "(every strategy starts with conform_to_sdk) or correct it. In a body a curating "
                    "strategy rendered, it is a toolhist bug (please report it)."
                ),
            )
        )
    return out


def capture(body: dict[str, Any], provider: str, *, fill_model: bool = True) -> Captured:
    """The HTTP request ``provider``'s official SDK sends for ``body``; nothing reaches the network.

    Every SDK call needs a model; with ``fill_model`` a body that names none (a history read from a
    source without one) is sent with `MODEL_PLACEHOLDER`, and ``Captured.model_filled`` says so.
    Raises `SdkRejected` when the SDK refuses to build the request (run `check` for the details) and
    `SdkUnavailable` when the SDK is not installed.
    """
    bound = binding(provider)
    module = _module(provider)
    given, filled = with_model(body, provider) if fill_model else (body, False)
    try:
        # The SDK gets its own copy: whatever it does to it in place, ``given`` (which may share
        # values with the session it was rendered from) stays what was rendered, to compare with.
        captured: Captured = getattr(module, bound.capture)(copy.deepcopy(given))
    except (TypeError, ValueError) as exc:
        raise SdkRejected.of(bound.sdk, sdk_version(provider), exc) from None
    return replace(captured, given=given, model_filled=filled)


def with_model(body: dict[str, Any], provider: str, model: str | None = None) -> tuple[dict[str, Any], bool]:
    """``body`` with ``model`` (default `MODEL_PLACEHOLDER`) if it names none, and whether it did so."""
    key = MODEL_KEYS.get(provider, "model")
    if body.get(key):
        return body, False
    return {key: model or MODEL_PLACEHOLDER, **body}, True


def _locate(
    path: tuple[str | int, ...], fmt: Any, source_map: Mapping[str, tuple[int, int | None]]
) -> tuple[int | None, int | None]:
    for n in range(len(path), 0, -1):
        hit = source_map.get(fmt(path[:n]))
        if hit is not None:
            return hit
    return None, None


@dataclass(frozen=True)
class Difference:
    """One place where the body the SDK sent differs from the rendered body."""

    kind: Literal["added", "removed", "changed"]
    """``added``/``removed``: a key only in the sent/rendered body; ``changed``: a different value."""
    path: str
    """Dotted path (``messages.2.tool_calls.0.index``)."""
    rendered: Any = None
    """The rendered value (None when added)."""
    sent: Any = None
    """The sent value (None when removed)."""


def differences(rendered: Any, sent: Any, path: tuple[str | int, ...] = ()) -> list[Difference]:
    """Every difference between two JSON values, as dotted paths; list items compared by position.

    Types count: ``0`` and ``0.0`` differ, as they do on the wire.
    """
    here = ".".join(str(p) for p in path)
    if isinstance(rendered, dict) and isinstance(sent, dict):
        out: list[Difference] = []
        for key in rendered:
            if key not in sent:
                out.append(
                    Difference("removed", ".".join(str(p) for p in (*path, key)), rendered=rendered[key])
                )
            else:
                out += differences(rendered[key], sent[key], (*path, key))
        out += [
            Difference("added", ".".join(str(p) for p in (*path, key)), sent=sent[key])
            for key in sent
            if key not in rendered
        ]
        return out
    if isinstance(rendered, list) and isinstance(sent, list) and len(rendered) == len(sent):
        return [
            d
            for i, (a, b) in enumerate(zip(rendered, sent, strict=True))
            for d in differences(a, b, (*path, i))
        ]
    if rendered != sent or type(rendered) is not type(sent):
        return [Difference("changed", here, rendered=rendered, sent=sent)]
    return []


def undocumented_differences(provider: str, rendered: Any, sent: Any) -> list[Difference]:
    """The differences no documented rewrite of ``provider``'s SDK explains (empty = faithful)."""
    rewrites = binding(provider).rewrites
    return [
        d
        for d in differences(rendered, sent)
        if not any(
            d.kind == r.kind
            and matches(r.pattern, d.path)
            and (r.kind != "changed" or d.rendered == d.sent)  # only a respelling (0 → 0.0) is documented
            for r in rewrites
        )
    ]


def matches(pattern: str, path: str) -> bool:
    """Whether a dotted ``path`` matches a rewrite ``pattern`` (``*`` = any one key or index)."""
    parts, want = path.split("."), pattern.split(".")
    return len(parts) == len(want) and all(
        fnmatch.fnmatchcase(p, w) for p, w in zip(parts, want, strict=True)
    )


__all__ = [
    "BINDINGS",
    "INSTALL_HINT",
    "MODEL_PLACEHOLDER",
    "Binding",
    "Captured",
    "Difference",
    "Rewrite",
    "SdkRejected",
    "SdkUnavailable",
    "available",
    "binding",
    "capture",
    "check",
    "differences",
    "matches",
    "sdk_version",
    "undocumented_differences",
    "with_model",
]
