"""Step ``disable_thinking``: Anthropic thinking on, but the open tool round lost its thinking.

With ``thinking`` enabled, the assistant message of the tool round still open at the end of the
request (its results are the last turn) must start with a signed thinking block: ``Expected
`thinking` or `redacted_thinking`, but found `tool_use`. … To avoid this requirement, disable
`thinking`.`` A signature cannot be made up, so when that block is not in the history the only
repair is the one the error text names: send this request without ``thinking``. The request field
is removed and the Change keeps it.
"""

from __future__ import annotations

from pydantic import JsonValue

from toolhist.curation.base import Change
from toolhist.model import Message, Session, ThinkingBlock

PASS = "disable_thinking"


def thinking_enabled(request: dict[str, JsonValue]) -> bool:
    """Whether the request turns Anthropic extended thinking on."""
    thinking = request.get("thinking")
    return isinstance(thinking, dict) and thinking.get("type") in ("enabled", "adaptive")


def budgeted(request: dict[str, JsonValue]) -> bool:
    """Whether thinking is on with a budget (``enabled``): with ``adaptive`` a turn without thinking is accepted."""
    thinking = request.get("thinking")
    return isinstance(thinking, dict) and thinking.get("type") == "enabled"


def without_clear_thinking(management: JsonValue) -> dict[str, JsonValue] | None:
    """``context_management`` without its ``clear_thinking_20251015`` edits; None when it has none.

    An empty result means nothing else was in it, and the field goes altogether. Claude Code 2.x sends
    ``{"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]}`` with thinking on, and the API
    answers that edit without thinking with "`clear_thinking_20251015` strategy requires `thinking` to
    be enabled" (anthropics/claude-code#11229).
    """
    if not isinstance(management, dict):
        return None
    edits = management.get("edits")
    if not isinstance(edits, list):
        return None
    kept = [e for e in edits if not (isinstance(e, dict) and e.get("type") == "clear_thinking_20251015")]
    if len(kept) == len(edits):
        return None
    rest = {k: v for k, v in management.items() if k != "edits"}
    return {**rest, "edits": kept} if kept or rest else {}


def open_round_unsigned(messages: tuple[Message, ...]) -> bool:
    """Whether the turn still open at the end (tool calls, then only results) lacks its thinking.

    Mirrors the provider check (``ant.thinking_first``): the turn starts after the last human or
    system message; its first assistant message must open with a signed Anthropic thinking block
    when any assistant message of the turn made calls.
    """
    start = next(
        (i + 1 for i in range(len(messages) - 1, -1, -1) if messages[i].speaker in ("human", "system")), 0
    )
    turn = [m for m in messages[start:] if m.speaker == "ai"]
    if not turn or not any(any(True for _ in m.tool_calls()) for m in turn):
        return False
    first = turn[0].blocks[0] if turn[0].blocks else None
    signed = isinstance(first, ThinkingBlock) and bool(first.signature or (first.redacted and first.data))
    return not (signed and isinstance(first, ThinkingBlock) and first.source_provider == "anthropic")


def disable_thinking(
    session: Session, curated: tuple[Message, ...], provider: str
) -> tuple[Session, Change | None]:
    """``session`` without ``thinking`` when Anthropic would reject the curated history because of it."""
    # Only a body in Anthropic's own format carries the request's thinking field (the renderer sends
    # model and max_tokens alone for other sources), so only then can it be on.
    same = session.source.format == provider
    if (
        provider != "anthropic"
        or not same
        or not budgeted(session.request)
        or not open_round_unsigned(curated)
    ):
        return session, None
    request = {k: v for k, v in session.request.items() if k != "thinking"}
    dropped: dict[str, JsonValue] = {"thinking": session.request["thinking"]}
    management = without_clear_thinking(session.request.get("context_management"))
    if management is not None:
        # Without thinking a clear_thinking edit is itself a 400 (ant.clear_thinking_needs_thinking).
        dropped["context_management"] = session.request["context_management"]
        request.pop("context_management")
        if management:
            request["context_management"] = management
    change = Change(
        pass_=PASS,
        action="strip",
        reason="thinking is enabled but the open tool round has no signed thinking block to replay, and none can be made; the request goes without thinking, as Anthropic's error text advises",
        dropped=dropped,
    )
    return session.model_copy(update={"request": request}), change
