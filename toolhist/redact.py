"""Redact API keys and bearer tokens from session content as it is loaded.

Agent logs and captured request bodies routinely carry credentials (an ``Authorization`` header in a
debug dump, a key pasted into a prompt). toolhist shows, exports and shares what it loads, so
secrets are replaced on the way in, before anything else sees them, with a marker naming the kind
(``[REDACTED:openai-key]``). The session's notes say how many of each were replaced.

Patterns are specific key shapes (OpenAI ``sk-``, Anthropic ``sk-ant-``, Google ``AIza``, AWS
``AKIA``, GitHub, Hugging Face, Slack) plus the values of credential-named fields and headers
(``api_key``, ``x-api-key``, ``Authorization: Bearer …``), where a generic key such as Mistral's
32-character one can only be recognised by its context. None of the replacements contains a quote
or backslash, so redacting JSON text keeps it valid JSON.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

_KEY_SHAPES: tuple[tuple[str, str], ...] = (
    # Distinctive prefixes match anywhere (a key glued to a word is still a key); bare ``sk-`` only
    # at a word boundary, so "task-runner-…" is not a key.
    ("anthropic-key", r"sk-ant-[A-Za-z0-9_\-]{16,}"),
    ("openai-key", r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{16,}|\bsk-[A-Za-z0-9_\-]{20,}"),
    ("google-key", r"\bAIza[0-9A-Za-z_\-]{35}\b"),
    ("aws-access-key", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    ("github-token", r"\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}"),
    ("huggingface-token", r"\bhf_[A-Za-z0-9]{30,}\b"),
    ("slack-token", r"\bxox[abprs]-[A-Za-z0-9\-]{10,}"),
)
_BEARER = r"(?i)\b(bearer)(\s+)[A-Za-z0-9._~+/=\-]{12,}"
_FIELD = (
    r"(?i)(\\?[\"']?(?:x-api-key|x-goog-api-key|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret[_-]?key)"
    r"\\?[\"']?\s*[:=]\s*\\?[\"']?)([A-Za-z0-9._~+/=\-]{12,})"
)

_COMBINED = re.compile(
    "|".join(f"(?P<k{i}>{pattern})" for i, (_, pattern) in enumerate(_KEY_SHAPES))
    + f"|(?P<bearer>{_BEARER.removeprefix('(?i)')})|(?P<field>{_FIELD.removeprefix('(?i)')})",
    re.IGNORECASE,
)
_BEARER_RE = re.compile(_BEARER)
_FIELD_RE = re.compile(_FIELD)
_SHAPE_RES = tuple((kind, re.compile(pattern)) for kind, pattern in _KEY_SHAPES)
_QUICK = re.compile(r"(?i)sk-|aiza|akia|asia|gh[pousr]_|github_pat_|hf_|xox|bearer|key|token")
"""Cheap pre-check: text with none of these fragments cannot contain a secret."""


def _replace(match: re.Match[str], counts: Counter[str]) -> str:
    text = match.group(0)
    if match.group("bearer"):
        counts["bearer-token"] += 1
        return _BEARER_RE.sub(lambda m: f"{m.group(1)}{m.group(2)}[REDACTED:bearer-token]", text)
    if match.group("field"):
        inner = _FIELD_RE.match(text)
        if inner is None or inner.group(2).startswith("[REDACTED"):
            return text
        kind = next((k for k, r in _SHAPE_RES if r.fullmatch(inner.group(2))), "credential")
        counts[kind] += 1
        return f"{inner.group(1)}[REDACTED:{kind}]"
    for i, (kind, _) in enumerate(_KEY_SHAPES):
        if match.group(f"k{i}"):
            counts[kind] += 1
            return f"[REDACTED:{kind}]"
    return text


def redact_text(text: str, counts: Counter[str] | None = None) -> tuple[str, Counter[str]]:
    """``text`` with secrets replaced, and how many of each kind were replaced."""
    counts = Counter() if counts is None else counts
    if not _QUICK.search(text):
        return text, counts
    return _COMBINED.sub(lambda m: _replace(m, counts), text), counts


def redact_value(value: Any, counts: Counter[str] | None = None) -> tuple[Any, Counter[str]]:
    """A parsed JSON value with secrets replaced in every string (keys included), copy-on-write."""
    counts = Counter() if counts is None else counts

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            return redact_text(v, counts)[0]
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {walk(k): walk(x) for k, x in v.items()}
        return v

    return walk(value), counts


def describe(counts: Counter[str]) -> str | None:
    """A note for the session, or None when nothing was redacted."""
    if not counts:
        return None
    parts = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
    return f"redacted {sum(counts.values())} secret(s) on load: {parts}"
