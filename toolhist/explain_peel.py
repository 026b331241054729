"""Peel the wrappers a provider's 400 text arrives in, one layer at a time (`toolhist.explain`).

OpenRouter nests the upstream JSON as a string in ``error.metadata.raw``; Vertex nests Anthropic's JSON
as a string in ``error.message``; LiteLLM prefixes ``litellm.BadRequestError: XException - ``; boto says
``An error occurred (ValidationException) when calling the Converse operation: ``; Anthropic-on-Bedrock
adds ``The model returned the following errors: ``; the AI SDK prefixes ``AI_APICallError: ``; one-api
style relays append ``(request id: …)`` again at every hop; the Python SDKs print ``Error code: 400 -
{…}`` as a dict repr (``research/providers.md`` §0.1). Depth and scan are bounded, so a pasted log file
cannot stall it.
"""

from __future__ import annotations

import ast
import json
import re
import warnings
from dataclasses import dataclass, field
from typing import Any

MAX_LAYERS = 12
"""At most this many wrappers are peeled (an OpenRouter raw in a repr in a relay is four)."""
_PREFIX_SCAN = 300
"""An embedded JSON or repr envelope must start within this many characters (``Error code: 400 - {``)."""
_LITELLM = re.compile(
    r"\Alitellm\.(?:exceptions\.)?[A-Za-z]\w{0,80}:\s*(?:[A-Za-z]\w{0,80}Exception\s*-\s*)?"
)
_BOTO = re.compile(
    r"\A(?:[\w.]{1,120}:\s*)?An error occurred \(\w{1,80}\) when calling the \w{1,80} operation(?:\s*\([^)\n]{0,80}\))?:\s*"
)
_BEDROCK_MODEL = re.compile(
    r"\A(?:[\w.]{1,120}:\s*)?The model returned the following errors:\s*", re.IGNORECASE
)
_AI_SDK = re.compile(r"\A\[?AI_[A-Za-z]{1,60}Error\]?:\s*")


@dataclass
class Unwrapped:
    """The text after peeling, what was peeled, and OpenAI ``param`` values met on the way."""

    text: str
    wrappers: list[str] = field(default_factory=list)
    params: list[str] = field(default_factory=list)


def unwrap(text: str) -> Unwrapped:
    """Peel wrappers from the outside in until none is recognised (or MAX_LAYERS is reached)."""
    out = Unwrapped(text)
    for _ in range(MAX_LAYERS):
        step = _peel(out.text)
        if step is None:
            break
        inner, wrapper, param = step
        inner = inner.strip()
        if inner == out.text or not inner:
            break
        out.text = inner
        out.wrappers.append(wrapper)
        if param:
            out.params.append(param)
    return out


def _peel(text: str) -> tuple[str, str, str | None] | None:
    """One wrapper layer: (inner text, wrapper name, OpenAI ``param`` if the layer had one)."""
    if (inner := _strip_relay(text)) is not None:
        return inner, "relay-request-id", None
    if (m := _LITELLM.match(text)) is not None:
        inner = text[m.end() :]
        for marker in ("Received Model Group=", "LiteLLM Retried:"):  # LiteLLM proxy trailers
            if (cut := inner.find(marker)) > 0:
                inner = inner[:cut]
        return inner, "litellm", None
    for regex, name in (
        (_BOTO, "bedrock-validation"),
        (_BEDROCK_MODEL, "bedrock-model"),
        (_AI_SDK, "ai-sdk"),
    ):
        if (m := regex.match(text)) is not None:
            return text[m.end() :], name, None
    return _embedded_envelope(text)


def _strip_relay(text: str) -> str | None:
    """``… (request id: A) (request id: B)`` → ``…``; None when there is no such suffix.

    Done by hand from the end rather than by regex: a regex anchored at the end would retry from
    every position of a long run of whitespace.
    """
    end = _rstrip_index(text, len(text))
    cut = None
    while end > 0 and text[end - 1] == ")":
        start = text.rfind("(", 0, end)
        if (
            start <= 0
            or text[start + 1 : start + 12].lower() != "request id:"
            or text.find("\n", start, end) >= 0
        ):
            break
        cut = end = _rstrip_index(text, start)
    return None if cut is None else text[:cut]


def _rstrip_index(text: str, end: int) -> int:
    while end > 0 and text[end - 1].isspace():
        end -= 1
    return end


def _embedded_envelope(text: str) -> tuple[str, str, str | None] | None:
    """A JSON document or Python dict repr near the start of ``text`` that is a known error envelope.

    Whatever precedes it (``Error code: 400 - ``, ``OpenAI completion error: 400 ``) is dropped.
    """
    starts = sorted(i for i in (text.find("{", 0, _PREFIX_SCAN), text.find("[", 0, _PREFIX_SCAN)) if i >= 0)
    for start in starts:
        for obj, syntax in _decode_at(text, start):
            if (found := _envelope(obj, syntax)) is not None:
                return found
    return None


def _decode_at(text: str, start: int) -> list[tuple[Any, str]]:
    """The JSON value, else the Python literal, that starts at ``start`` (none when neither parses)."""
    try:
        obj, _ = json.JSONDecoder().raw_decode(text, start)
    except (ValueError, RecursionError):
        pass
    else:
        return [(obj, "json")]
    end = text.rfind("}" if text[start] == "{" else "]")
    if end <= start:
        return []
    try:  # ast.literal_eval evaluates literals only, never code
        with warnings.catch_warnings():  # a pasted "\ " is an invalid escape, not news for the user
            warnings.simplefilter("ignore")
            return [(ast.literal_eval(text[start : end + 1]), "python-repr")]
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return []


def _envelope(obj: Any, syntax: str) -> tuple[str, str, str | None] | None:
    """The message inside a known error envelope, or None when ``obj`` is not one."""
    if isinstance(obj, list) and obj and isinstance(obj[0], dict):
        obj = obj[0]  # Gemini sometimes answers with a one-element list
    if not isinstance(obj, dict):
        return None
    err = obj.get("error")
    if isinstance(err, dict):
        meta = err.get("metadata")
        raw = meta.get("raw") if isinstance(meta, dict) else None
        if isinstance(raw, str) and raw.strip():
            return raw, "openrouter", None
        message = err.get("message")
        if isinstance(message, str):
            nested = message.lstrip().startswith("{") and ("status" in err or "code" in err)
            param = err.get("param")
            return message, "vertex" if nested else syntax, param if isinstance(param, str) else None
    if isinstance(err, str):
        return err, syntax, None
    for key in ("message", "Message", "detail"):
        value = obj.get(key)
        if isinstance(value, str):
            param = obj.get("param")
            return value, syntax, param if isinstance(param, str) else None
        if isinstance(value, dict | list) and (inner := _envelope(value, syntax)) is not None:
            return inner
    msg = obj.get("msg")  # FastAPI-style validation detail, e.g. Mistral's {"detail": [{"msg": ...}]}
    return (msg, syntax, None) if isinstance(msg, str) else None
