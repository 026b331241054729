"""Explain a pasted HTTP 400: peel the wrappers, name the provider rule, point at the culprit message.

Provider texts rarely reach a user bare (``research/providers.md`` §0.1). OpenRouter nests the
upstream JSON as a string in ``error.metadata.raw``; Vertex nests Anthropic's JSON as a string in
``error.message``; LiteLLM prefixes ``litellm.BadRequestError: XException - ``; boto says ``An error
occurred (ValidationException) when calling the Converse operation: ``; Anthropic-on-Bedrock adds
``The model returned the following errors: ``; the AI SDK prefixes ``AI_APICallError: ``; one-api
style relays append ``(request id: …)`` again at every hop; the Python SDKs print ``Error code: 400 -
{…}`` as a dict repr. `explain` peels these one layer at a time (bounded depth and input size, so a
pasted log file cannot stall it), matches the inner text against `toolhist.explain_patterns`, and,
given the Session the request came from, maps the payload path in the text back to the canonical
message through the provider renderer's source map.

Unknown text is an answer, not an error: ``rule`` is None and ``reason`` says why.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from toolhist import providers
from toolhist.errors import ToolhistError
from toolhist.explain_patterns import LANGGRAPH_IDS, PATTERNS, RULE_INFO, Pattern
from toolhist.model import Session, ToolCallBlock, ToolResponseBlock
from toolhist.providers.base import PathT, bracketed, dotted

MAX_CHARS = 100_000
"""Only this much of the pasted text is read: real provider errors are a few kilobytes at most."""
MAX_LAYERS = 12
"""At most this many wrappers are peeled (an OpenRouter raw in a repr in a relay is four)."""
_PREFIX_SCAN = 300
"""An embedded JSON or repr envelope must start within this many characters (``Error code: 400 - {``)."""


class Explanation(BaseModel):
    """Which provider rule an error text is, and where in the history it points."""

    model_config = ConfigDict(frozen=True, use_attribute_docstrings=True)

    provider: str | None
    """The toolhist provider whose rules predict this text (DeepSeek, Qwen, Groq: ``openai-chat``);
    None for client-side checks (AI SDK, LangGraph) and unknown texts."""
    rule: str | None
    """Rule slug (``oai.tool_orphan``), or None when no known pattern matched (see ``reason``)."""
    error_text: str
    """The provider's own text, with every recognised wrapper peeled off."""
    wrappers: tuple[str, ...] = ()
    """What was peeled off, outermost first: ``openrouter``, ``vertex``, ``litellm``, ``bedrock-validation``,
    ``bedrock-model``, ``ai-sdk``, ``relay-request-id``, ``python-repr``, ``json``."""
    variant: str | None = None
    """Which wording or sender: ``deepseek``, ``qwen``, ``groq``, ``kimi``, ``preceeding-typo``, ``old``…"""
    paths: tuple[str, ...] = ()
    """Payload paths named in the text or in OpenAI's ``param``, in the provider's convention, cut after
    the last index (``messages[3]``, ``messages.3.content.1``, ``input[95]``, ``contents[2].parts[0]``)."""
    indices: tuple[int, ...] = ()
    """The offending path's message index and, when the text names one, its block index."""
    call_ids: tuple[str, ...] = ()
    """Tool call (or Responses item) ids named in the text, in order."""
    message_index: int | None = None
    """Canonical message index of the culprit; only with a Session and a registered provider."""
    block_index: int | None = None
    """Canonical block index within that message, when known."""
    meaning: str = ""
    """What the rule means, in plain words."""
    fix: str = ""
    """The curation pass that repairs it (or why none can)."""
    reason: str | None = None
    """When ``rule`` is None: why no rule was named."""


_PATH_STYLE: dict[str, Callable[[PathT], str]] = {"anthropic": dotted, "bedrock": dotted}
"""Providers whose texts index with dots (``messages.3.content.0``); the rest use brackets."""

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
_PATH = re.compile(
    r"\b(?:GenerateContentRequest\.)?(?:messages?|contents|input|tools)(?:\.?\[\d{1,9}\]|\.\d{1,9})"
    r"(?:\.?\[\d{1,9}\]|\.[A-Za-z_]\w{0,60}|\.\d{1,9}){0,12}",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[A-Za-z_]\w*|\d+")
_ID_SPLIT = re.compile(r"[,\s]+")
_ID_STRIP = ".,;'\"`()[]{}"


@dataclass
class _Unwrapped:
    """The text after peeling, what was peeled, and OpenAI ``param`` values met on the way."""

    text: str
    wrappers: list[str] = field(default_factory=list)
    params: list[str] = field(default_factory=list)


def explain(error_text: str, session: Session | None = None) -> Explanation:
    """Name the provider rule behind ``error_text`` and, with ``session``, the message that breaks it.

    Never raises on odd input: empty, binary or unrecognised text gives ``rule=None`` and a ``reason``.
    """
    if not isinstance(error_text, str) or not error_text.strip():
        return Explanation(provider=None, rule=None, error_text="", reason="the error text is empty")
    truncated = len(error_text) > MAX_CHARS
    original = error_text[:MAX_CHARS].strip()
    peeled = _unwrap(original)
    found = _match(peeled.text) or (_match(original) if peeled.wrappers else None)
    if found is None:
        reason = "no known provider error pattern matched"
        if truncated:
            reason += f" (only the first {MAX_CHARS} characters were read)"
        return Explanation(
            provider=None, rule=None, error_text=peeled.text, wrappers=tuple(peeled.wrappers), reason=reason
        )
    pattern, match = found
    fmt = _PATH_STYLE.get(pattern.provider or "", bracketed)
    paths = _paths(peeled, match, fmt)
    param = next((p for p in map(_parse_path, peeled.params) if p is not None), None)
    culprit = param or ((paths[-1] if pattern.culprit == "last" else paths[0]) if paths else None)
    call_ids = _call_ids(pattern, match, peeled.text)
    message_index = block_index = None
    if session is not None and pattern.provider is not None:
        message_index, block_index = _locate(session, pattern, culprit, call_ids)
    meaning, fix = RULE_INFO[pattern.rule]
    return Explanation(
        provider=pattern.provider,
        rule=pattern.rule,
        error_text=peeled.text,
        wrappers=tuple(peeled.wrappers),
        variant=pattern.variant,
        paths=tuple(dict.fromkeys(fmt(p) for p in paths)),
        indices=_indices(culprit),
        call_ids=call_ids,
        message_index=message_index,
        block_index=block_index,
        meaning=meaning,
        fix=_provider_fix(pattern) or fix,
    )


# --- unwrapping ----------------------------------------------------------------------------------


def _unwrap(text: str) -> _Unwrapped:
    """Peel wrappers from the outside in until none is recognised (or MAX_LAYERS is reached)."""
    out = _Unwrapped(text)
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


# --- matching and extraction ---------------------------------------------------------------------


def _match(text: str) -> tuple[Pattern, re.Match[str]] | None:
    for pattern in PATTERNS:
        if (m := pattern.regex.search(text)) is not None:
            return pattern, m
    return None


def _paths(peeled: _Unwrapped, match: re.Match[str], fmt: Callable[[PathT], str]) -> list[PathT]:
    """Payload paths from OpenAI's param, the text itself, and an index written in words."""
    found = [p for p in (_parse_path(s) for s in peeled.params) if p is not None]
    found += [p for p in (_parse_path(m.group(0)) for m in _PATH.finditer(peeled.text)) if p is not None]
    if "mi" in match.re.groupindex and match.group("mi") is not None:
        found.append(("messages", int(match.group("mi"))))
    unique: dict[str, PathT] = {}
    for path in found:
        unique.setdefault(fmt(path), path)
    return list(unique.values())


def _parse_path(text: str) -> PathT | None:
    """A path as written in an error text, as a tuple cut after its last index.

    ``messages.[3].role`` → ``("messages", 3)``; ``GenerateContentRequest.contents[2].parts[0].data`` →
    ``("contents", 2, "parts", 0)``. The field after the last index locates nothing more. Bedrock's
    ``member`` segments and DashScope's singular ``message`` are normalised away.
    """
    tokens = [t for t in _TOKEN.findall(text) if t.lower() not in ("member", "generatecontentrequest")]
    if not tokens or tokens[0].isdigit():
        return None
    root = tokens[0].lower()
    parts: list[str | int] = ["messages" if root == "message" else root]
    parts += [int(t) if t.isdigit() else t for t in tokens[1:]]
    last = max((i for i, p in enumerate(parts) if isinstance(p, int)), default=-1)
    if last < 1:
        return None
    return tuple(parts[: last + 1])


def _indices(path: PathT | None) -> tuple[int, ...]:
    if path is None or path[0] not in ("messages", "contents", "input"):
        return ()
    return tuple(p for p in path if isinstance(p, int))[:2]


def _call_ids(pattern: Pattern, match: re.Match[str], text: str) -> tuple[str, ...]:
    """Ids the text names: single ``id``/``id2`` groups, an ``ids`` list, or LangGraph's dict reprs."""
    groups = match.groupdict()
    raw: list[str] = [groups[g] for g in ("id", "id2") if groups.get(g)]
    if groups.get("ids"):
        listed = re.split(r"\.\s", groups["ids"], maxsplit=1)[0]
        raw += _ID_SPLIT.split(listed)
    if pattern.rule == "lg.invalid_chat_history":
        raw += LANGGRAPH_IDS.findall(text)
    ids = (token.strip(_ID_STRIP) for token in raw)
    return tuple(dict.fromkeys(i for i in ids if i))


# --- locating in a session -----------------------------------------------------------------------


def _locate(
    session: Session, pattern: Pattern, culprit: PathT | None, call_ids: tuple[str, ...]
) -> tuple[int | None, int | None]:
    """The culprit's canonical (message, block): through the renderer's source map, else by call id."""
    name = pattern.provider
    if culprit is not None and name in providers.PROVIDERS:
        try:
            source_map = providers.render(session, name).source_map
        except ToolhistError:
            source_map = {}
        fmt = providers.provider_for(name).path_format
        for n in range(len(culprit), 0, -1):
            hit = source_map.get(fmt(culprit[:n]))
            if hit is not None:
                return hit
    if not call_ids:
        return None, None
    hits: list[tuple[int, int]] = []
    for mi, message in enumerate(session.messages):
        for bi, block in enumerate(message.blocks):
            if isinstance(block, ToolCallBlock) and pattern.side != "result":
                ids = {block.id, block.raw_id}
            elif isinstance(block, ToolResponseBlock) and pattern.side != "call":
                ids = {block.call_id, block.raw_call_id}
            else:
                continue
            if ids & set(call_ids):
                hits.append((mi, bi))
    if not hits:
        return None, None
    return hits[-1] if pattern.culprit == "last" else hits[0]


def _provider_fix(pattern: Pattern) -> str | None:
    """The registered provider's own fix for this rule, so explain and check never disagree."""
    if pattern.provider not in providers.PROVIDERS:
        return None
    for rule in providers.PROVIDER_REGISTRY[pattern.provider].rules:
        if rule.id == pattern.rule:
            return rule.fix
    return None
