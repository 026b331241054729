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

_KEY_SHAPES: tuple[tuple[str, bytes], ...] = (
    # Distinctive prefixes match anywhere (a key glued to a word is still a key); bare ``sk-`` only
    # at a word boundary, so "task-runner-…" is not a key.
    ("anthropic-key", rb"sk-ant-[A-Za-z0-9_\-]{16,}"),
    ("openai-key", rb"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{16,}|\bsk-[A-Za-z0-9_\-]{20,}"),
    ("google-key", rb"\bAIza[0-9A-Za-z_\-]{35}\b"),
    ("aws-access-key", rb"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    ("github-token", rb"\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}"),
    ("huggingface-token", rb"\bhf_[A-Za-z0-9]{30,}\b"),
    ("slack-token", rb"\bxox[abprs]-[A-Za-z0-9\-]{10,}"),
)
_BEARER = rb"\b((?i:bearer))(\s+)[A-Za-z0-9._~+/=\-]{12,}"
_FIELD_NAMES = (
    rb"(?i:x-api-key|x-goog-api-key|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret[_-]?key)"
)
_FIELD_VALUE = rb"[A-Za-z0-9._~+/=\-]{12,}"
# Between name and value: quotes (escaped inside JSON text) and blanks, which in JSON text may be
# the escapes ``\n``, ``\r``, ``\t``. A backslash is only ever taken with what it escapes, so the
# value never starts inside an escape sequence and redacted JSON text stays valid JSON.
_QUOTE = rb"(?:\\?[\"'])?"
_BLANK = rb"(?:\s|\\[nrt])*"
_FIELD = (
    rb"("
    + _QUOTE
    + _FIELD_NAMES
    + _QUOTE
    + _BLANK
    + rb"[:=]"
    + _BLANK
    + _QUOTE
    + rb")("
    + _FIELD_VALUE
    + rb")"
)
_COMBINED = re.compile(
    b"|".join(b"(?P<k%d>%s)" % (i, pattern) for i, (_, pattern) in enumerate(_KEY_SHAPES))
    + b"|(?P<bearer>"
    + _BEARER
    + b")|(?P<field>"
    + _FIELD
    + b")"
)
_BEARER_RE = re.compile(_BEARER)
_FIELD_NAME_RE = re.compile(_FIELD_NAMES.decode())
_FIELD_VALUE_RE = re.compile(_FIELD_VALUE.decode())
_FIELD_RE = re.compile(_FIELD)
_SHAPE_RES = tuple((kind, re.compile(pattern)) for kind, pattern in _KEY_SHAPES)
_FRAGMENTS = re.compile(
    rb"sk-|aiza|akia|asia|gh[pousr]_|github_pat_|hf_|xox[abprs]-|bearer|api.?key|access.?token|auth.?token|secret.?key"
)
"""Where a secret can start, searched in the ASCII-lower-cased bytes (cheap: one linear scan).

Every pattern above starts at one of these fragments or at most a few bytes before it (an escaped
quote, the ``x-`` of ``x-api-key``), so the full patterns are only tried there, anchored.
"""
_LOOKBEHIND = 4


def _replace(match: re.Match[bytes], counts: Counter[str]) -> bytes:
    found = match.group(0)
    if match.group("bearer"):
        counts["bearer-token"] += 1
        return _BEARER_RE.sub(lambda m: m.group(1) + m.group(2) + b"[REDACTED:bearer-token]", found)
    if match.group("field"):
        inner = _FIELD_RE.match(found)
        if inner is None:
            return found
        kind = next((k for k, r in _SHAPE_RES if r.fullmatch(inner.group(2))), "credential")
        counts[kind] += 1
        return inner.group(1) + f"[REDACTED:{kind}]".encode()
    for i, (kind, _) in enumerate(_KEY_SHAPES):
        if match.group(f"k{i}"):
            counts[kind] += 1
            return f"[REDACTED:{kind}]".encode()
    return found


def redact_text(text: str, counts: Counter[str] | None = None) -> tuple[str, Counter[str]]:
    """``text`` with secrets replaced, and how many of each kind were replaced."""
    counts = Counter() if counts is None else counts
    raw = text.encode("utf-8", "surrogatepass")
    lowered = raw.lower()  # ASCII-only lowering: same length, same offsets as ``raw``
    pieces: list[bytes] = []
    last = 0
    for hit in _FRAGMENTS.finditer(lowered):
        at = hit.start()
        if at < last:
            continue
        for start in range(max(last, at - _LOOKBEHIND), at + 1):
            match = _COMBINED.match(raw, start)
            if match is not None and match.end() > at:
                pieces += [raw[last : match.start()], _replace(match, counts)]
                last = match.end()
                break
    if not pieces:
        return text, counts
    pieces.append(raw[last:])
    return b"".join(pieces).decode("utf-8", "surrogatepass"), counts


def redact_value(value: Any, counts: Counter[str] | None = None) -> tuple[Any, Counter[str]]:
    """A parsed JSON value with secrets replaced in every string (keys included), copy-on-write."""
    counts = Counter() if counts is None else counts

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            return redact_text(v, counts)[0]
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {walk(k): field(k, x) for k, x in v.items()}
        return v

    def field(key: Any, v: Any) -> Any:
        # Parsed input has no ``key: value`` text for _FIELD to see: a credential-named key (a
        # header dict's ``x-api-key``, ``MISTRAL_API_KEY`` in an env dump) marks its value here.
        if (
            isinstance(v, str)
            and isinstance(key, str)
            and _FIELD_NAME_RE.search(key)
            and _FIELD_VALUE_RE.fullmatch(v)
        ):
            kind = next((k for k, r in _SHAPE_RES if r.fullmatch(v.encode())), "credential")
            counts[kind] += 1
            return f"[REDACTED:{kind}]"
        return walk(v)

    return walk(value), counts


def describe(counts: Counter[str]) -> str | None:
    """A note for the session, or None when nothing was redacted."""
    if not counts:
        return None
    parts = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
    return f"redacted {sum(counts.values())} secret(s) on load: {parts}"
