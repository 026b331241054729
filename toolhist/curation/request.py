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


def open_round_unsigned(messages: tuple[Message, ...]) -> bool:
    """Whether the latest tool round is still open (no user text after it) and lacks its thinking.

    Mirrors the provider check: the last assistant message with calls owns the round; the round is
    open while every user-side message after it carries results.
    """
    owner = next(
        (
            i
            for i in range(len(messages) - 1, -1, -1)
            if messages[i].speaker == "ai" and any(True for _ in messages[i].tool_calls())
        ),
        None,
    )
    if owner is None:
        return False
    if any(m.speaker in ("human", "system") for m in messages[owner + 1 :]):
        return False
    first = messages[owner].blocks[0] if messages[owner].blocks else None
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
        or not thinking_enabled(session.request)
        or not open_round_unsigned(curated)
    ):
        return session, None
    request = {k: v for k, v in session.request.items() if k != "thinking"}
    change = Change(
        pass_=PASS,
        action="strip",
        reason="thinking is enabled but the open tool round has no signed thinking block to replay, and none can be made; the request goes without thinking, as Anthropic's error text advises",
        dropped={"thinking": session.request["thinking"]},
    )
    return session.model_copy(update={"request": request}), change
