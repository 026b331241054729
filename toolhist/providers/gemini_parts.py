"""Gemini ``generateContent``: rules on what one content may mix, and on the signatures it replays.

The turn-order and part rules are in `toolhist.providers.gemini`. These two:

- a function-call turn holds calls only: a content with both ``functionCall`` and ``functionResponse``
  parts is rejected (a client that folds a call and its answer into one turn sends it);
- a thought signature is an opaque base64 token the model issued; one that is not base64 at all cannot
  be valid. Signatures from another model, route or key are rejected too (``Corrupted thought
  signature.``), but a body cannot tell those from good ones, so only the malformed ones are flagged, as a
  warning.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from toolhist.providers.base import Finding, Rule

NAME = "gemini"
SENTINELS = ("skip_thought_signature_validator", "context_engineering_is_the_way_to_go")
"""The placeholder signatures Google documents for calls that did not come from the model."""
BASE64 = re.compile(r"[A-Za-z0-9+/_-]+={0,2}")
"""Standard or URL-safe base64 (the Python SDK dumps ``bytes`` URL-safe)."""

RULES: tuple[Rule, ...] = (
    Rule(
        "gem.fc_fr_mixed",
        NAME,
        "error",
        "a content does not mix functionCall and functionResponse parts (calls in a model turn, responses in "
        "the next user turn)",
        "Please ensure that function call turn contains at least one function_call part which can not be mixed "
        "with function_response parts.",
        "rabuckley/GeminiDotnet#7 (gemini-2.0-flash, v1beta, 2025-04)",
        "split_tool_calls (calls and responses in their own turns)",
        since="2025-04",
        observed="2025-04",
    ),
    Rule(
        "gem.thought_sig_invalid",
        NAME,
        "warning",
        "Gemini 3+: a thoughtSignature is a base64 token the model issued; a malformed one is rejected (one "
        "from another model, route or key too, which a body cannot show)",
        "Corrupted thought signature.",
        "earendil-works/pi#471; google-gemini/gemini-cli#13467 (2025-11); charmbracelet/crush#1698 "
        "(gemini-3-flash-preview, 2025-12); lbjlaq/Antigravity-Manager#970 (Claude then gemini-3-flash, "
        "2026-01); router-for-me/CLIProxyAPI#1538 (gemini-3-pro, 2026-02). A warning: the reported cases are "
        "signatures from elsewhere; only a signature that is not base64 is checked",
        "drop_foreign_thinking (the call goes out with the documented sentinel instead)",
        models=(r"gemini-([3-9]|[1-9]\d)",),
        since="2025-11",
        observed="2026-02",
    ),
)


def check(contents: list[Any]) -> Iterator[Finding]:
    """The rules above over a Gemini body's contents, in one walk over the parts."""
    for i, content in enumerate(contents):
        parts = content.get("parts") if isinstance(content, dict) else None
        if not isinstance(parts, list):
            continue
        calls = responses = False
        bad: list[int] = []  # parts with a signature that is not base64
        for j, part in enumerate(parts):
            if not isinstance(part, dict):
                continue
            if "functionCall" in part or "function_call" in part:
                calls = True
            if "functionResponse" in part or "function_response" in part:
                responses = True
            signature = (
                part["thoughtSignature"] if "thoughtSignature" in part else part.get("thought_signature")
            )
            if (
                isinstance(signature, str)
                and signature
                and signature not in SENTINELS
                and not BASE64.fullmatch(signature)
            ):
                bad.append(j)
        if calls and responses:
            yield Finding("gem.fc_fr_mixed", ("contents", i))
        for j in bad:
            yield Finding("gem.thought_sig_invalid", ("contents", i, "parts", j))
