"""Redact secrets from what leaves the machine: the report, bundles, datasets, notebook HTML, downloads.

What the user looks at locally (the app's pages, ``render``, ``curate``) shows the body exactly as it
was sent; every artefact meant to be shared passes through here first (`redact_text`,
`redact_value`, `redact_session`), and so does a local view when the user asks (``--redact``).
A secret is replaced by a marker naming its kind (``[REDACTED:openai-key]``); what surrounds it
(``Bearer ``, ``password=``, ``postgres://user:``) stays, so the reader still sees what it was.

Fifteen kinds (`KINDS`), each a shape or a context, with the rule it follows (gitleaks'
``config/gitleaks.toml`` rules of the same names, gitleaks/gitleaks@v8.x; GitHub's token formats;
RFC 7617 Basic; RFC 3986 userinfo):

- shapes that are secrets wherever they appear: ``openai-key`` (``sk-``, ``sk-proj-``,
  ``sk-svcacct-``, ``sk-admin-``), ``anthropic-key`` (``sk-ant-``), ``google-key`` (``AIza`` + 35),
  ``aws-access-key`` (``AKIA``/``ASIA`` + 16), ``github-token`` (``ghp_``… ``github_pat_``),
  ``huggingface-token`` (``hf_``), ``slack-token`` (``xox?-``), ``jwt`` (three base64url parts,
  the first two JSON objects: ``eyJ….eyJ….sig``), ``private-key`` (a PEM ``BEGIN … PRIVATE KEY``
  block, to its END line or as far as its base64 runs when cut short);
- secrets known by their context: ``url-password`` (``scheme://user:PASSWORD@host``), ``password``
  (the value of ``password``/``passwd``/``passphrase``/``pwd`` after ``=`` or ``:``),
  ``basic-auth`` (``Basic`` + base64 of ``user:password``), ``bearer-token`` (``Bearer`` + token),
  ``aws-secret-key`` (40 base64 characters named ``aws_secret_access_key``/``SecretAccessKey``),
  ``credential`` (the value of a credential-named field or header: ``api_key``, ``x-api-key``,
  ``access_token``, ``client_secret``…; a Mistral, Groq or DeepSeek key has no shape of its own).

A value known only by its context is left alone when it is code that names a variable rather than
a secret (`is_reference`): ``DEBUG_API_KEY: process.env.DEBUG_API_KEY``, ``api_key=os.environ[…]``,
``password=${DB_PASSWORD}``, ``apiKey: config.apiKey``, ``password=password``.

A secret-detection library was considered: detect-secrets (Yelp, 1.5.0, last release 2024-05) scans
a file line by line with a plugin per kind and reports which line holds a secret, for an audit; it
neither gives the spans to replace nor scans a 1 GB export in one pass. Here one linear scan of
the ASCII-lowered text finds where a secret can start (`_STARTS`) and only there are the full
patterns tried, anchored. No replacement contains a quote or a backslash, and a match never ends
inside an escape, so redacting JSON text keeps it valid JSON.
"""

from __future__ import annotations

import base64
import binascii
import io
import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolhist.model import Session

_Q = rb"(?:\\?[\"']|&quot;|&#x27;|&#39;)?"
"""An optional quote around a name or value: escaped inside JSON text, an entity inside HTML."""
_BLANK = rb"(?:\s|\\[nrt])*"
"""Blanks between a name and its value; inside JSON text also the escapes ``\\n``, ``\\r``, ``\\t``."""
_SEP = _Q + _BLANK + rb"[:=]" + _BLANK + _Q
_TOKEN = rb"[A-Za-z0-9._~+/=\-]"


@dataclass(frozen=True)
class Kind:
    """One kind of secret: where it can start, its pattern (the secret in group ``s``), a check."""

    name: str
    fragment: str
    """A lower-case regex for where a match can start (at most `_LOOKBEHIND` bytes before it)."""
    pattern: bytes
    check: Callable[[bytes], bool] | None = None
    """Whether the ``s`` group is really a secret (None: always)."""


def _shape(name: str, fragment: str, pattern: bytes) -> Kind:
    return Kind(name, fragment, rb"(?P<s>" + pattern + rb")")


def _named(name: str, fragment: str, names: bytes, value: bytes, check: Callable[[bytes], bool]) -> Kind:
    return Kind(name, fragment, rb"(?:" + _Q + names + _SEP + rb")(?P<s>" + value + rb")", check)


_REFERENCE = re.compile(
    r"""
    [A-Za-z_$][A-Za-z_$]*\d*(?:\??\.[A-Za-z_$][A-Za-z_$]*\d*|\[[^\]]{0,80}\])+(?:\(\))?  # process.env.X
    | [A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+                                      # DEBUG_API_KEY
    | [$%]\{[^}]{1,80}\} | \$[A-Za-z_]\w* | \{\{[^}]{1,80}\}\} | <[^>]{1,80}> | \$\([^)]{1,80}\)
    | (?i:null|none|true|false|undefined|nil|string|str|required|optional|redacted|\*+|x+|\.\.\.)
    """,
    re.VERBOSE,
)
_VARIABLE = re.compile(r"[a-z_][A-Za-z_]*|[a-z]+(?:[A-Z][a-z]+)+")
"""An identifier without digits: ``apiKey``, ``db_password``, ``password`` (names, not keys)."""


def is_reference(value: str) -> bool:
    """Whether a value found by its context is code naming a variable, not a secret.

    Dotted or indexed paths of names (``process.env.DEBUG_API_KEY``, ``os.environ["KEY"]``; a digit
    only at the end of a name, as a token's parts have them inside), environment
    variable names (``DEBUG_API_KEY``), templates (``${X}``, ``$X``, ``{{x}}``, ``<your-key>``),
    placeholders (``null``, ``***``), and identifiers with no digit (``apiKey``, ``password``): a
    random key of 32 characters has no digit once in 300.
    """
    return bool(_REFERENCE.fullmatch(value) or _VARIABLE.fullmatch(value))


def _not_reference(raw: bytes) -> bool:
    return not is_reference(raw.decode("utf-8", "replace"))


def _basic(raw: bytes) -> bool:
    """RFC 7617: base64 of ``user:password``."""
    try:
        decoded = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in decoded and all(32 <= c < 127 for c in decoded)


_NAME_HINT = re.compile(r"(?i)pass|pwd|secret|key|token|cred")


def _password(raw: bytes) -> bool:
    """Whether a value named as a password is one: anything but a reference.

    A bare word is a reference only when it reads as a variable (``password=password``,
    ``password=db_pass``, ``userPassword``), not when it reads as a word password.
    """
    text = raw.decode("utf-8", "replace")
    if _REFERENCE.fullmatch(text):
        return False
    if re.fullmatch(r"[A-Za-z_]+", text):
        return not ("_" in text or re.search(r"[a-z][A-Z]", text) or _NAME_HINT.search(text))
    return True


_CREDENTIAL_NAMES = (
    rb"(?i:x-api-key|x-goog-api-key|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret[_-]?key"
    rb"|client[_-]?secret|refresh[_-]?token)"
)
KINDS: tuple[Kind, ...] = (
    # Distinctive prefixes match anywhere (a key glued to a word is still a key); bare ``sk-`` only
    # at a word boundary, so "task-runner-…" is not a key.
    _shape("anthropic-key", "sk-ant-", rb"sk-ant-[A-Za-z0-9_\-]{16,}"),
    _shape("openai-key", "sk-", rb"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{16,}|\bsk-[A-Za-z0-9_\-]{20,}"),
    _shape("google-key", "aiza", rb"\bAIza[0-9A-Za-z_\-]{35}\b"),
    _shape("aws-access-key", "akia|asia", rb"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    _shape(
        "github-token", "gh[pousr]_|github_pat_", rb"\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}"
    ),
    _shape("huggingface-token", "hf_", rb"\bhf_[A-Za-z0-9]{30,}\b"),
    _shape("slack-token", "xox[abposr]-", rb"\bxox[abposr]-[A-Za-z0-9\-]{10,}"),
    _shape("jwt", "eyj", rb"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*"),
    _shape(
        "private-key",
        "-----begin",
        rb"-----BEGIN[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----"
        rb"(?:[^<]{0,20000}?-----END[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----"
        rb"|(?:[A-Za-z0-9+/=:\- ]|\s|\\[nrt])*)",
    ),
    Kind("url-password", "://", rb"://[^\s:/@'\"\\<>]{0,256}:(?P<s>[^\s@/'\"\\<>]{1,256})@", _password),
    _named(
        "aws-secret-key",
        "secret.?access.?key",
        rb"(?i:aws[_-]?secret[_-]?access[_-]?key|secret[_-]?access[_-]?key)",
        rb"[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])",
        _not_reference,
    ),
    Kind(
        "password",
        "passw|passphrase",
        rb"(?:" + _Q + rb"(?i:password|passwd|passphrase)" + _SEP + rb"|--(?i:password|passwd)[ \t]+)"
        rb"(?P<s>[^\s\"'\\&,;()\[\]{}<>]{3,256})",
        _password,
    ),
    Kind("basic-auth", "basic", rb"\b(?i:basic)\s+(?P<s>[A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])", _basic),
    Kind("bearer-token", "bearer", rb"\b(?i:bearer)\s+(?P<s>" + _TOKEN + rb"{12,})", _not_reference),
    _named(
        "credential",
        "api.?key|apikey|access.?token|auth.?token|secret.?key|client.?secret|refresh.?token",
        _CREDENTIAL_NAMES,
        _TOKEN + rb"{12,}",
        _not_reference,
    ),
)
"""The kinds, most specific first: at one place the first that matches is the one replaced."""

_COMPILED = tuple((kind, re.compile(kind.pattern)) for kind in KINDS)
_FRAGMENTS = re.compile("|".join(f"(?P<f{i}>{kind.fragment})" for i, kind in enumerate(KINDS)).encode())
"""Which kinds can start at a place `_STARTS` found (named groups: each kind's fragment)."""
_STARTS = re.compile("|".join(kind.fragment for kind in KINDS).encode())
"""Where a secret can start, searched in the ASCII-lower-cased bytes (one linear scan).

The same places `_FRAGMENTS` matches at, found 13 times as fast without its groups (2.7 MB/s with
them on a generated Claude Code log, 34 MB/s without), so the groups are matched only there."""
_LOOKBEHIND = 4
"""A match may start this many bytes before its fragment (an escaped quote, the ``x-`` of ``x-api-key``)."""
_SHAPES = tuple((kind.name, rx) for kind, rx in _COMPILED[:9])
_FIELD_NAME_RE = re.compile(_CREDENTIAL_NAMES.decode() + r"|(?i:password|passwd|passphrase|authorization)")
_FIELD_VALUE_RE = re.compile(r"(\w+\s+)?(\S{3,})")
"""A value under a credential-named key: a secret, after an optional scheme (``Token …``)."""


def _candidates(hit: re.Match[bytes]) -> list[int]:
    return [i for i in range(len(KINDS)) if hit.group(f"f{i}")]


def redact_text(text: str, counts: Counter[str] | None = None) -> tuple[str, Counter[str]]:
    """``text`` with secrets replaced, and how many of each kind were replaced."""
    raw = text.encode("utf-8", "surrogatepass")
    redacted, counts = redact_utf8(raw, counts)
    return (text if redacted is raw else redacted.decode("utf-8", "surrogatepass")), counts


def redact_utf8(raw: bytes, counts: Counter[str] | None = None) -> tuple[bytes, Counter[str]]:
    """`redact_text` on UTF-8 bytes: ``raw`` itself when nothing was replaced.

    A file redacted in pieces (`toolhist.redact_file`) goes through here without a decode.
    """
    counts = Counter() if counts is None else counts
    lowered = raw.lower()  # ASCII-only lowering: same length, same offsets as ``raw``
    pieces: list[bytes] = []
    last = 0
    pos = 0
    while True:
        place = _STARTS.search(lowered, pos)
        if place is None:
            break
        at = place.start()
        pos = at + 1
        if at < last:
            continue
        hit = _FRAGMENTS.match(lowered, at)
        assert hit is not None, "the same alternatives match where `_STARTS` found one"
        found = _match_at(raw, at, last, _candidates(hit))
        if found is None:
            continue
        kind, start, end = found
        counts[kind.name] += 1
        pieces += [raw[last:start], f"[REDACTED:{kind.name}]".encode()]
        last = pos = end
    if not pieces:
        return raw, counts
    pieces.append(raw[last:])
    return b"".join(pieces), counts


def _match_at(raw: bytes, at: int, last: int, candidates: list[int]) -> tuple[Kind, int, int] | None:
    for start in range(max(last, at - _LOOKBEHIND), at + 1):
        for i in candidates:
            kind, rx = _COMPILED[i]
            match = rx.match(raw, start)
            if match is None or match.end() <= at:
                continue
            secret = match.group("s")
            if kind.check is not None and not kind.check(secret):
                continue
            return kind, match.start("s"), match.end("s")
    return None


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
        # Parsed input has no ``key: value`` text for the context kinds to see: a credential-named
        # key (a header dict's ``x-api-key``, ``MISTRAL_API_KEY`` in an env dump) marks its value here.
        if isinstance(v, str) and isinstance(key, str) and _FIELD_NAME_RE.search(key):
            redacted = redact_text(v, counts)[0]
            if redacted != v:
                return redacted
            found = _FIELD_VALUE_RE.fullmatch(v)
            if found is None:
                return v
            kind = _field_kind(key, found.group(2))
            secret = found.group(2).encode()
            if not (_password(secret) if kind == "password" else _not_reference(secret)):
                return v
            counts[kind] += 1
            return f"{found.group(1) or ''}[REDACTED:{kind}]"
        return walk(v)

    return walk(value), counts


def _field_kind(key: str, value: str) -> str:
    shaped = next((name for name, rx in _SHAPES if rx.fullmatch(value.encode())), None)
    if shaped:
        return shaped
    lowered = key.lower()
    if "pass" in lowered:
        return "password"
    if "secret" in lowered and "access" in lowered:
        return "aws-secret-key"
    return "credential"


def redact_session(session: Session) -> tuple[Session, Counter[str]]:
    """``session`` with every string redacted (a new Session), and the counts.

    For artefacts built from a Session (the report, notebook HTML): the canonical form is redacted
    as parsed JSON and read back, so nothing outside the strings changes.
    """
    from toolhist.model import Session as SessionModel

    redacted, counts = redact_value(session.model_dump(mode="json"))
    if not counts:
        return session, counts
    return SessionModel.model_validate(redacted), counts


def redact_bytes(data: bytes) -> bytes:
    """UTF-8 text (a JSON download, an HTML page) with secrets replaced; other bytes as given."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    return redact_text(text)[0].encode("utf-8")


def shareable_json(value: Any) -> str:
    """``value`` as indented JSON text with secrets replaced: a download, a file to attach."""
    import json

    return redact_text(json.dumps(value, indent=2, ensure_ascii=False))[0]


@contextmanager
def redacting_streams() -> Iterator[None]:
    """Standard output and error with secrets replaced in every write (``toolhist --redact``).

    The CLI writes each line or JSON document in one call, so a secret never straddles two writes.
    """
    import sys

    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Redacting(sys.stdout), _Redacting(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


class _Redacting(io.TextIOBase):
    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        self._inner.write(redact_text(text)[0])
        return len(text)

    def flush(self) -> None:
        self._inner.flush()

    def isatty(self) -> bool:
        return bool(self._inner.isatty())

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(getattr(self._inner, "encoding", "utf-8"))


def describe(counts: Counter[str]) -> str | None:
    """A note for an artefact, or None when nothing was redacted."""
    if not counts:
        return None
    parts = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
    return f"redacted {sum(counts.values())} secret(s): {parts}"
