"""Gemini ``generateContent``: rules on what one content may mix, and on the signatures it replays.

The turn-order and part rules are in `toolhist.providers.gemini`; the walk over every part that finds
its part rules and these two is here (`check_walk`). These two:

- a function-call turn holds calls only: a content with both ``functionCall`` and ``functionResponse``
  parts is rejected (a client that folds a call and its answer into one turn sends it);
- a thought signature is an opaque base64 token the model issued; one that is not base64 at all cannot
  be valid. Signatures from another model, route or key are rejected too (``Corrupted thought
  signature.``), but a body cannot tell those from good ones, so only the malformed ones are flagged, as a
  warning.
"""

from __future__ import annotations

import re
from typing import Any

from toolhist.providers.base import Finding, Rule

NAME = "gemini"
DATA_FIELDS = {
    "text": "text",
    "inlineData": "inlineData",
    "inline_data": "inlineData",
    "fileData": "fileData",
    "file_data": "fileData",
    "functionCall": "functionCall",
    "function_call": "functionCall",
    "functionResponse": "functionResponse",
    "function_response": "functionResponse",
    "executableCode": "executableCode",
    "executable_code": "executableCode",
    "codeExecutionResult": "codeExecutionResult",
    "code_execution_result": "codeExecutionResult",
}
"""The members of Part's ``data`` oneof in both spellings, mapped to the name the API reports."""
VALID_ROLES = ("user", "model", "function")
"""``function`` is outside the documented pair, but older official SDKs sent it for responses and
it was accepted; only roles no Google client sends (``tool``, ``assistant``, ``system``…) are flagged."""
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


def _thought_part(part: dict[str, Any]) -> bool:
    """A part carrying only a thought signature (or ``thought: true``): Gemini returns these and takes them back."""
    return any(k in part for k in ("thoughtSignature", "thought_signature", "thought"))


Walked = tuple[list[Finding], list[Finding], list[tuple[int, int]], int]


def check_walk(contents: list[Any]) -> Walked:  # noqa: PLR0915 - one walk; the one-key fast path saves a list per part
    """The part rules of `toolhist.providers.gemini` and the two above, in one walk; each its own list.

    Roles, empty part lists and the data oneof of every part (gemini.py's), the mixed turn and the
    malformed signature (this module's).

    The walk also counts each content's functionCall and functionResponse parts (`toolhist.providers.gemini.check_turns`
    counted them again, three times a content) and finds where the last user text turn ends
    (`toolhist.providers.gemini.check_signatures`): one walk over the parts instead of five.
    """
    found: list[Finding] = []
    mixed: list[Finding] = []
    counts: list[tuple[int, int]] = []
    start = 0
    none = (0, 0)
    for i, content in enumerate(contents):
        if not isinstance(content, dict):
            counts.append(none)
            continue
        role = content.get("role")
        if role is not None and role not in VALID_ROLES:
            found.append(Finding("gem.role", ("contents", i, "role")))
        parts = content.get("parts")
        if parts is None or parts == []:
            found.append(Finding("gem.parts_nonempty", ("contents", i, "parts"), {"index": i}))
            counts.append(none)
            continue
        if not isinstance(parts, list):
            counts.append(none)
            continue
        calls = responses = 0
        talk = False  # a part that is not a functionResponse
        bad: list[int] = []  # parts with a signature that is not base64
        for j, part in enumerate(parts):
            if not isinstance(part, dict):
                continue
            if len(part) == 1:  # most parts: one data field, no signature, nothing the rules below find
                if "text" in part:
                    talk = True
                    continue
                if "functionCall" in part:
                    calls += 1
                    talk = True
                    continue
                if "functionResponse" in part:
                    responses += 1
                    continue
            fields = [k for k in part if k in DATA_FIELDS and not (k == "text" and part[k] == "")]
            if not fields and "text" not in part and not _thought_part(part):
                found.append(Finding("gem.part_oneof", ("contents", i, "parts", j), {"index": i, "part": j}))
            elif len(fields) > 1:
                values = {"index": i, "part": j, "field": DATA_FIELDS[fields[1]]}
                found.append(Finding("gem.part_oneof_multi", ("contents", i, "parts", j), values))
            if "functionCall" in part or "function_call" in part:
                calls += 1
            if "functionResponse" in part or "function_response" in part:
                responses += 1
            else:
                talk = True
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
            mixed.append(Finding("gem.fc_fr_mixed", ("contents", i)))
        if bad:  # (rare: the list comprehension's own call, every content, was a sixth of the walk)
            mixed.extend([Finding("gem.thought_sig_invalid", ("contents", i, "parts", j)) for j in bad])
        if talk and role != "model":
            start = i + 1
        counts.append((calls, responses))
    return found, mixed, counts, start
