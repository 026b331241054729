"""Tool-call ids in each provider's own form, as pure functions (seed 001: ids are mapped at the edge).

The canonical history keeps the ids it was read with; a provider that constrains ids gets them
rewritten only when a body is rendered for it (`toolhist.providers.idmap` walks the history and
calls these). Each mapper is deterministic, so the same history always renders the same body, and
keeps distinct ids distinct, so a call and its result still pair after mapping.
"""

from __future__ import annotations

import hashlib
import re

_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
MISTRAL_ID = re.compile(r"^[a-zA-Z0-9]{9}$")
"""Mistral's tool-call id rule (mistral_common ``MistralRequestValidatorV3``)."""
ANTHROPIC_ID = re.compile(r"^[a-zA-Z0-9_-]+$")
"""Anthropic's ``tool_use.id`` pattern, quoted in its 400 text."""
KIMI_ID = re.compile(r"^functions\.[\w.-]+:\d+$")
"""The form Kimi's tool-call parser reads back (``functions.{name}:{index}``)."""


def kimi_id(name: str, index: int) -> str:
    """Kimi's id for the ``index``-th call of the request (counting from 0), to function ``name``.

    Kimi K2's chat template writes history ids verbatim and its parser reads the function name back
    out of ``functions.{name}:{index}``; with foreign ids in the history the model imitates them and
    the parser fails (MoonshotAI/Kimi-K2 docs/tool_call_guidance.md). The index is the call's position
    in request order across the whole conversation, so no two calls share an id even when a turn-local
    ``:0`` would repeat (llxprt-code#712).
    """
    return f"functions.{name}:{index}"


def _base62(data: bytes) -> str:
    number = int.from_bytes(data, "big")
    digits = []
    while number:
        number, rest = divmod(number, 62)
        digits.append(_BASE62[rest])
    return "".join(reversed(digits)).rjust(9, "0")


def _mistral_hash(text: str) -> str:
    return _base62(hashlib.sha256(text.encode()).digest())[:9]


def mistral_id(raw: str, taken: set[str]) -> str:
    """A Mistral id (exactly 9 characters of ``[a-zA-Z0-9]``) for the raw id ``raw``.

    Mistral rejects any other id (``Tool call id was … but must be a-z, A-Z, 0-9, with a length of
    9.``). An id that already has that form is kept, so a Mistral history keeps its own ids; any
    other id becomes the first 9 base62 digits of its SHA-256, the same every run.

    ``taken`` holds the ids already handed out to *other* raw ids of the request (the caller maps
    each raw id once and records the result). Nine base62 characters leave collisions unlikely but
    possible, and a collision would silently pair a result with the wrong call, so it is handled
    explicitly: while the candidate is taken, the raw id is hashed again with a counter suffix
    (``raw#1``, ``raw#2``, …). The function itself never changes ``taken``.
    """
    candidate = raw if MISTRAL_ID.fullmatch(raw) else _mistral_hash(raw)
    counter = 0
    while candidate in taken:
        counter += 1
        candidate = _mistral_hash(f"{raw}#{counter}")
    return candidate


def anthropic_safe_id(raw: str) -> str:
    """``raw`` made to match Anthropic's ``^[a-zA-Z0-9_-]+$`` (Bedrock uses the same characters).

    Kimi ids (``functions.read:0``), MCP-style ``server.tool`` ids and ids with pipes fail that
    pattern with a 400. Valid ids are returned unchanged. Otherwise each other character becomes
    ``_`` and an underscore plus the first 8 hex digits of the raw id's SHA-256 is appended: plain
    replacement alone would send ``a.b`` and ``a:b`` to the same ``a_b`` and pair results with the
    wrong call. Distinct raw ids therefore stay distinct, except in the 2^-32-unlikely case of a
    hash-prefix collision or of a valid raw id spelled exactly like another id's rewritten form.
    """
    if ANTHROPIC_ID.fullmatch(raw):
        return raw
    digest = hashlib.sha256(raw.encode()).hexdigest()[:8]
    return f"{re.sub(r'[^a-zA-Z0-9_-]', '_', raw)}_{digest}"
