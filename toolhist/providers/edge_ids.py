"""Tool-call ids in each provider's own form, as pure functions (seed 001: ids are mapped at the edge).

The canonical history keeps the ids it was read with; a provider that constrains ids gets them
rewritten only when a body is rendered for it (`toolhist.providers.idmap` walks the history and
calls these). Each mapper is deterministic, so the same history always renders the same body, and
keeps distinct ids distinct, so a call and its result still pair after mapping.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_right

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


_POWERS = tuple(62**n for n in range(45))
"""62**0 … 62**44: a SHA-256 digest (the only input) has at most 43 base62 digits."""


def _base62_head(data: bytes) -> str:
    """The first 9 base62 digits of ``data`` read as a big-endian number, zero-padded to 9.

    The first 9 of a number's ``k`` base62 digits are those of ``number // 62**(k - 9)``: one
    division instead of ``k`` (Mistral ids are made for every call of a long history).
    """
    number = int.from_bytes(data, "big")
    k = bisect_right(_POWERS, number)  # the number of digits (0 for 0)
    if k > 9:
        number //= _POWERS[k - 9]
    digits = []
    while number:
        number, rest = divmod(number, 62)
        digits.append(_BASE62[rest])
    return "".join(reversed(digits)).rjust(9, "0")


def _mistral_hash(text: str) -> str:
    return _base62_head(hashlib.sha256(text.encode()).digest())


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


OPENAI_CHAT_ID_MAX = 40
"""OpenAI Chat's ``tool_calls[].id`` limit (``oai.id_len``; ``check_shapes(id_max=40)``)."""
RESPONSES_CALL_ID_MAX = 64
"""The Responses API's ``call_id`` limit (``resp.call_id_len``, `toolhist.providers.openai_responses`)."""


def id_problem(provider: str, call_id: str, *, server_tool: bool = False) -> tuple[str | None, str] | None:
    """Why ``provider`` refuses ``call_id`` as a tool-call id: ``(rule id, reason)``, or None when it takes it.

    The same tests the provider checks make on the body (the rule named, its pattern or length), so
    a history whose ids pass here passes them there. An empty id is refused everywhere ids pair
    calls and results (no rule names it: the payload would pair on ``""``); Gemini pairs by order
    and name, so it takes any id. ``server_tool`` marks an Anthropic ``server_tool_use`` block,
    which has its own pattern.
    """
    if provider == "gemini":
        return None
    if not call_id:
        return None, "the call has no id to pair its result on"
    if provider == "openai-chat" and len(call_id) > OPENAI_CHAT_ID_MAX:
        return (
            "oai.id_len",
            f"OpenAI Chat takes at most {OPENAI_CHAT_ID_MAX} characters ({len(call_id)} here)",
        )
    if provider == "openai-responses" and len(call_id) > RESPONSES_CALL_ID_MAX:
        return (
            "resp.call_id_len",
            f"the Responses API takes at most {RESPONSES_CALL_ID_MAX} characters ({len(call_id)} here)",
        )
    if provider == "anthropic":
        if server_tool:
            from toolhist.providers.anthropic import SERVER_TOOL_USE_ID

            return None if SERVER_TOOL_USE_ID.match(call_id) else ("ant.id_pattern", "not a server tool id")
        if not ANTHROPIC_ID.fullmatch(call_id):
            return "ant.id_pattern", f"Anthropic ids must match {ANTHROPIC_ID.pattern}"
        if call_id.startswith("srvtoolu_"):
            return (
                "ant.server_tool_as_tool_use",
                "a server tool id, which Anthropic does not pair with a tool_result",
            )
    if provider == "bedrock":
        from toolhist.providers.bedrock_rules import ID_PATTERN, field_constraint

        constraint = field_constraint(call_id, ID_PATTERN)
        if constraint is not None:
            return "brk.id_pattern", f"Bedrock: {constraint}"
    if provider == "mistral" and not MISTRAL_ID.fullmatch(call_id):
        return "mis.id_format", "Mistral ids are exactly 9 characters of a-z, A-Z, 0-9"
    if provider == "kimi" and not KIMI_ID.fullmatch(call_id):
        return "kimi.id_format", "Kimi reads ids back as functions.{name}:{index} and imitates foreign ones"
    return None


DUPLICATE_RULE = {"anthropic": "ant.dup_tool_use_id", "bedrock": "brk.dup_ids", "mistral": "mis.dup_call"}
"""The rule two calls of one assistant turn sharing an id break, per provider (elsewhere the results
cannot say which call they answer)."""
REUSED_RULE = {"anthropic": "ant.reused_tool_use_id"}
"""The rule an id reused by a call of a later turn breaks, per provider that flags it."""
PAIRS_BY_TURN = frozenset({"openai-chat", "kimi", "mistral", "gemini", "bedrock"})
"""Providers that pair results with the calls of the turn right before them, so a later turn may
reuse an earlier turn's id. Anthropic flags the reuse (``ant.reused_tool_use_id``) and the Responses
API pairs ``call_id`` across the whole input."""
