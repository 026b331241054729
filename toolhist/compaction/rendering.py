"""The two ways RFC 026 sends tool history, and when to fall back from one to the other.

- ``native``: calls and results stay the provider's own items (``function_call`` /
  ``function_call_output``, ``tool_use`` / ``tool_result``…). An older pair keeps its call (id and
  name; long argument values elided) and its result becomes the one-line summary, so the message
  structure every provider checks is exactly the input's.
- ``text-embed``: what the Vercel AI Gateway forced in January 2026 (seed 004): tool calls are
  omitted (the extension's comment: "avoid adding any tool-call text to assistant history to reduce
  mimicry risk") and results go back as user text behind a marker,
  ``<!-- prior-tool-result: CALL_ID -->`` (the marker of Kilo's ``tool-history.ts``). Older pairs
  become one user message holding the historical summary.

The fallback: the Gateway answered ``400 Bad Request {"error":{"message":"input: Invalid input"}}``
to ``function_call`` input items (GATEWAY_SPEC_GAP_REPORT.md, research kilo_rfc_vscode.md §2.5);
the RFC's migration plan is "try native first; fallback to text embedding on `Invalid input`".
`should_fall_back` is that decision.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Final, Literal

from pydantic import JsonValue

Rendering = Literal["native", "text-embed"]
RENDERINGS: Final[tuple[Rendering, ...]] = ("native", "text-embed")

ELIDE_OVER: Final = 200
"""Argument strings longer than this are elided in an older call (write contents, patches)."""

_INVALID_INPUT: Final = re.compile(r"(?i)\binvalid input\b")
_NOT_FALLBACK: Final = re.compile(r"(?i)invalid input:\s*expected object,\s*received string")


def should_fall_back(error_text: str) -> bool:
    """True when a rejected native request should be retried with ``text-embed``.

    The Gateway's own rejection of ``function_call`` items is ``input: Invalid input`` (HTTP 400),
    whether or not the body is wrapped in JSON. A Zod message that names a type mismatch
    (``Invalid input: expected object, received string``, vercel/ai#8101) is a different bug in the
    body: text-embedding would not fix it, so it does not trigger the fallback.
    """
    text = error_text
    try:  # the body as the Gateway sent it: {"error": {"message": "input: Invalid input"}}
        parsed = json.loads(error_text)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        error = parsed.get("error")
        message = error.get("message") if isinstance(error, dict) else error
        if isinstance(message, str):
            text = message
    return bool(_INVALID_INPUT.search(text)) and not _NOT_FALLBACK.search(text)


def elide(value: JsonValue, limit: int = ELIDE_OVER) -> JsonValue:
    """``value`` with every string over ``limit`` characters replaced by ``[N chars elided]``."""
    if isinstance(value, str):
        return value if len(value) <= limit else f"[{len(value)} chars elided]"
    if isinstance(value, list):
        return [elide(v, limit) for v in value]
    if isinstance(value, dict):
        return {k: elide(v, limit) for k, v in value.items()}
    return value


def has_long(value: JsonValue, limit: int = ELIDE_OVER) -> bool:
    """Whether `elide` would change ``value``: a string in it is over ``limit`` characters."""
    if isinstance(value, str):
        return len(value) > limit
    if isinstance(value, dict):
        values: Iterable[JsonValue] = value.values()
    elif isinstance(value, list):
        values = value
    else:
        return False
    for v in values:  # a loop, strings looked at here: no generator and call per argument (51,000 calls)
        if type(v) is str:
            if len(v) > limit:
                return True
        elif has_long(v, limit):
            return True
    return False


def result_marker(call_id: str, name: str | None, error: bool) -> str:
    """The line that opens an embedded result (Kilo's HTML-comment marker, chosen against mimicry)."""
    tool = f" {name}" if name else ""
    return f"<!-- prior-tool-result: {call_id}{tool}{' error' if error else ''} -->"
