"""The two judgements a verdict can make, said plainly (DESIGN §2 "What a verdict means").

- A **request body** (captured, pasted, from a bundle: the ``openai-chat``, ``openai-responses``,
  ``anthropic``, ``gemini`` and ``bedrock`` readers, and toolhist's own canonical JSON) is judged
  **as sent**: the history exactly as it stands.
- An **agent log** (every other reader) is judged as **the request the agent would send next**:
  the history its reader keeps (the agent's send path decides what that is), plus
  - the pending results, when the log ends on the model's tool calls (the agent runs them and
    sends their results next), or
  - a placeholder human turn, when the log ends with the model's answer: a finished session is
    not a request, and no agent sends a request that ends with the model's own reply (Mistral's
    ``mis.last_role`` would otherwise fail every finished session);
  - nothing, when the log already ends with the user's new input or the tool results.

Each reader says which judgement applies (`toolhist.formats.base.Reader.judgement`); this module
builds the judged history, so `toolhist.check`, the report and the app apply one rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from toolhist.model import Message, MessageMetadata, Session, TextBlock, ToolCallBlock, ToolResponseBlock

Judgement = Literal["as-sent", "next-request"]
"""``as-sent``: a request body, judged as it stands; ``next-request``: an agent log, judged as the
request the agent would send next."""

NEXT_TURN_TEXT: Final = "(the next user turn)"
"""The placeholder human turn's text."""
PENDING_RESULT_TEXT: Final = "(the result the agent sends next)"
"""Each placeholder result's text."""
NEXT_TURN_REASON: Final = (
    "next-request: the log ends with the model's answer; the next request adds a user turn"
)
PENDING_REASON: Final = (
    "next-request: the log ends on the model's tool calls; the next request sends their results"
)


def judgement_of(session: Session) -> Judgement:
    """The judgement for ``session``, from the reader that read it (``as-sent`` for an unknown format)."""
    from toolhist.readers import READERS  # formats import the model; keep this module import-light

    reader = READERS.get(session.source.format)
    return reader.judgement if reader is not None else "as-sent"


@dataclass(frozen=True)
class Judged:
    """What a verdict validates: the history under its judgement."""

    judgement: Judgement
    session: Session
    """The history validated: the session itself (as sent), or with the next request's tail."""
    appended: str | None
    """What the next request adds to the log, in words (None when nothing is added)."""
    tail: tuple[Message, ...] = ()
    """The placeholder messages appended (their blocks, for pending results added to a last tool
    message, are in that message)."""

    def describe(self) -> str:
        """One line for ``check`` and the report: which judgement, and what was added."""
        return describe(self.judgement, self.appended)


def describe(judgement: Judgement, appended: str | None) -> str:
    """The judgement in words, as ``check``, the report and the app say it."""
    if judgement == "as-sent":
        return "judged as sent (a request body)"
    head = "judged as the next request the agent would send: its history"
    return f"{head} as logged (it ends with the new input)" if appended is None else f"{head} + {appended}"


def judge(session: Session) -> Judged:
    """``session`` under its judgement: as it stands, or with the next request's tail."""
    judgement = judgement_of(session)
    if judgement == "as-sent":
        return Judged("as-sent", session, None)
    return next_request(session)


def next_request(session: Session) -> Judged:
    """The request the agent would send next: the log plus pending results or a placeholder turn."""
    messages = session.messages
    last_ai, pending = _pending(session)
    if last_ai is None:
        return Judged("next-request", session, None)
    if pending:
        return _with_results(session, last_ai, pending)
    if last_ai != len(messages) - 1:
        return Judged("next-request", session, None)  # ends on the results: they are the new input
    turn = Message(
        speaker="human",
        blocks=(TextBlock(text=NEXT_TURN_TEXT),),
        metadata=MessageMetadata(source_role="user", synthetic=True, reason=NEXT_TURN_REASON),
    )
    return Judged(
        "next-request",
        session.model_copy(update={"messages": (*messages, turn)}),
        "a placeholder user turn (the log ends with the model's answer)",
        (turn,),
    )


def pending_calls(session: Session) -> list[ToolCallBlock]:
    """The calls an agent log ends on with no result yet: the next request sends their results."""
    return _pending(session)[1] if judgement_of(session) == "next-request" else []


def _pending(session: Session) -> tuple[int | None, list[ToolCallBlock]]:
    """The last model turn the next request follows, and its calls with no result.

    The turn is None when a human turn came after it (nothing is pending then).
    """
    messages = session.messages
    last_ai = next((i for i in range(len(messages) - 1, -1, -1) if messages[i].speaker == "ai"), None)
    if last_ai is None or any(m.speaker not in ("ai", "tool") for m in messages[last_ai + 1 :]):
        return None, []
    calls = list(messages[last_ai].tool_calls())
    return last_ai, [c for c in calls if c.id not in _answered({c.id for c in calls}, messages)]


def _answered(ids: set[str], messages: Sequence[Message]) -> set[str]:
    """Which of ``ids`` some result anywhere in ``messages`` answers.

    From the end, where a turn's results are, until all are found: a set of every call id answered
    in a 400,000-message log was seconds of Home's first run at 1 GB (issue 26), for a few ids.
    """
    found: set[str] = set()
    for message in reversed(messages):
        for block in message.blocks:
            if isinstance(block, ToolResponseBlock) and block.call_id in ids:
                found.add(block.call_id)
        if len(found) == len(ids):
            break
    return found


def _with_results(session: Session, last_ai: int, pending: list[ToolCallBlock]) -> Judged:
    """Placeholder results for ``pending``: in the trailing tool message, or a new one."""
    blocks = tuple(
        ToolResponseBlock(call_id=c.id, tool_name=c.name, result=PENDING_RESULT_TEXT, raw_call_id=c.raw_id)
        for c in pending
    )
    messages = session.messages
    ids = ", ".join(c.raw_id or c.id for c in pending)
    said = f"placeholder results for {len(pending)} pending call(s): {ids}"
    last = messages[-1]
    if last.speaker == "tool" and len(messages) - 1 > last_ai:
        # The agent sends every result of one turn together: complete the results already logged.
        grown = last.model_copy(update={"blocks": (*last.blocks, *blocks)})
        return Judged("next-request", session.model_copy(update={"messages": (*messages[:-1], grown)}), said)
    results = Message(
        speaker="tool",
        blocks=blocks,
        metadata=MessageMetadata(source_role="tool", synthetic=True, reason=PENDING_REASON),
    )
    return Judged(
        "next-request", session.model_copy(update={"messages": (*messages, results)}), said, (results,)
    )


__all__ = ["Judged", "Judgement", "describe", "judge", "judgement_of", "next_request"]
