"""Pass ``merge_turns``: the turn order each provider insists on, beyond pairing.

- Bedrock Converse: the conversation starts with a user turn and roles alternate (``A conversation
  must alternate between user and assistant roles``): a placeholder user turn is prepended when the
  history opens with the assistant. The Converse renderer sends consecutive messages of one role as
  one message itself (`toolhist.providers.bedrock_render`), so a merge is a repair only where that
  fold would not do: a Converse body's own turns (sent as they are while nothing else changes), and a
  user turn followed by tool results (Converse wants the results first, so the merge reorders).
- Gemini: a function call must follow a user turn or a function response (``Please ensure that
  function call turn comes immediately after a user turn or after a function response turn``):
  the assistant text turns right before a call turn are merged into it, and a history opening with
  a call gets a placeholder user turn first. Consecutive tool messages become one response turn,
  results first; the renderer already folds result-only ones, so only those with text merge here.
- Mistral: the validator skips the first message, so a history opening with an assistant call
  leaves its result "unexpected": a placeholder user turn goes first (an opening assistant text
  turn is taken as it is). After tool results only the assistant (or more results) may speak: a minimal assistant
  bridge turn goes between results and the next user or system message; a history ending on an
  assistant message marks it ``prefix: true`` (Mistral's continuation flag) instead of dropping it.

Every merge, bridge and placeholder is a Change; merged blocks keep their order.
"""

from __future__ import annotations

from toolhist._trusted import replace
from toolhist.curation.base import Change, Pass, Trace
from toolhist.curation.util import synthetic
from toolhist.model import Message, TextBlock, ToolResponseBlock

PASS = "merge_turns"
PLACEHOLDER_USER = "(The conversation continues from earlier turns that are not in this history.)"
BRIDGE = "(Tool results received.)"


def _side(message: Message) -> str:
    return {"human": "user", "tool": "user", "ai": "assistant"}.get(message.speaker, "system")


def _merge(a: Message, b: Message, trace: Trace) -> Message:
    blocks = (*a.blocks, *b.blocks)
    speaker = "tool" if any(isinstance(x, ToolResponseBlock) for x in blocks) else a.speaker
    if speaker == "tool":  # results first, then the text (Converse's own shape for a user turn)
        blocks = (
            *(x for x in blocks if isinstance(x, ToolResponseBlock)),
            *(x for x in blocks if not isinstance(x, ToolResponseBlock)),
        )
    merged = replace(a, speaker=speaker, blocks=blocks)
    trace.derive(merged, a)
    return merged


def _first_turn(out: list[Message], changes: list[Change], provider: str, trace: Trace) -> None:
    first = next((i for i, m in enumerate(out) if m.speaker != "system"), None)
    if first is None or out[first].speaker != "ai":
        return
    if provider in ("gemini", "mistral") and not any(True for _ in out[first].tool_calls()):
        return  # both take an opening assistant text turn; a call needs the user turn before it
    placeholder = synthetic("human", [TextBlock(text=PLACEHOLDER_USER)], "placeholder_user_turn")
    out.insert(first, placeholder)
    changes.append(
        Change.trusted(
            pass_=PASS,
            action="insert",
            reason=f"{provider} requires the conversation to open with a user turn; a placeholder user turn was inserted",
        ).with_subject(placeholder)
    )


def _bedrock_needs_merge(prev: Message, message: Message, source_format: str | None) -> bool:
    """Whether merging ``message`` into ``prev`` repairs something the Converse renderer's own fold would not."""
    if source_format == "bedrock":
        return True
    results = any(isinstance(b, ToolResponseBlock) for b in message.blocks)
    return results and any(not isinstance(b, ToolResponseBlock) for b in prev.blocks)


_TURN_RULES = ("bedrock", "gemini", "mistral")
"""The providers with turn-order rules beyond the system prompt's place (the others: `_hoist_system` alone)."""


def merge_turns(provider: str, source_format: str | None = None) -> Pass:
    """The pass for ``provider`` (a no-op for providers without turn-order rules)."""

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        out: list[Message] = []
        changes: list[Change] = []
        messages = _hoist_system(messages, trace, changes, provider)
        if provider not in _TURN_RULES:  # every message goes out where it is
            return messages, changes
        for message in messages:
            prev = out[-1] if out else None
            if (
                prev is not None
                and provider == "bedrock"
                and _side(prev) == _side(message) != "system"
                and not (prev.speaker == "ai" and any(True for _ in prev.tool_calls()))
                and _bedrock_needs_merge(prev, message, source_format)
            ):
                out[-1] = _merge(prev, message, trace)
                changes.append(_merged(message, trace, provider))
                continue
            if (
                prev is not None
                and provider == "gemini"
                and prev.speaker == "ai"
                and message.speaker == "ai"
                and not any(True for _ in prev.tool_calls())
                and any(True for _ in message.tool_calls())  # two text turns in a row are taken
            ):
                # The whole run of assistant text turns before the call turn goes into one turn.
                start = len(out) - 1
                while (
                    start > 0
                    and out[start - 1].speaker == "ai"
                    and not any(True for _ in out[start - 1].tool_calls())
                ):
                    start -= 1
                merged = out[start]
                for later in (*out[start + 1 :], message):
                    merged = _merge(merged, later, trace)
                    changes.append(_merged(later, trace, provider))
                del out[start:]
                out.append(merged)
                continue
            if (
                prev is not None
                and provider == "gemini"
                and prev.speaker == message.speaker == "tool"
                and (source_format == "gemini" or not (_results_only(prev) and _results_only(message)))
            ):
                # One function-response turn per function-call turn, with as many parts as calls.
                # The Gemini renderer folds result-only messages itself (not a body sent back as it
                # was); one with text it does not, so then the whole run of tool messages is merged.
                start = len(out) - 1
                while start > 0 and out[start - 1].speaker == "tool":
                    start -= 1
                merged = out[start]
                for later in (*out[start + 1 :], message):
                    merged = _merge(merged, later, trace)
                    changes.append(_merged(later, trace, provider))
                del out[start:]
                out.append(merged)
                continue
            if (
                prev is not None
                and provider == "mistral"
                and prev.speaker == "tool"
                and message.speaker in ("human", "system")
            ):
                bridge = synthetic("ai", [TextBlock(text=BRIDGE)], "assistant_bridge_after_tool_results")
                out.append(bridge)
                changes.append(
                    Change.trusted(
                        pass_=PASS,
                        action="insert",
                        reason="Mistral does not accept a user or system message right after tool results; a minimal assistant turn bridges them",
                    ).with_subject(bridge)
                )
            out.append(message)
        _first_turn(out, changes, provider, trace)
        if (
            provider == "mistral"
            and len(out) > 1
            and out[-1].speaker == "ai"
            and out[-1].metadata.extra.get("prefix") is not True
        ):
            last = out[-1]
            marked = last.model_copy(
                update={
                    "metadata": last.metadata.model_copy(
                        update={"extra": {**last.metadata.extra, "prefix": True}}
                    )
                }
            )
            trace.derive(marked, last)
            out[-1] = marked
            changes.append(
                Change.trusted(
                    pass_=PASS,
                    action="fill",
                    reason="Mistral rejects a history ending on an assistant message unless it is marked prefix: true (continue it); send the next user message as tail instead to avoid this",
                    before=trace.origin(last),
                ).with_subject(marked)
            )
        return tuple(out), changes

    return run


def _merged(message: Message, trace: Trace, provider: str) -> Change:
    return Change.trusted(
        pass_=PASS,
        action="merge",
        reason=f"{provider} needs alternating turns; this message was merged into the one before it",
        before=trace.origin(message),
    )


def _results_only(message: Message) -> bool:
    return bool(message.blocks) and all(isinstance(b, ToolResponseBlock) for b in message.blocks)


def _said(message: Message) -> bool:
    """Whether ``message`` says anything: a block other than blank text."""
    return any(not isinstance(b, TextBlock) or b.text.strip() for b in message.blocks)


def _hoist_system(
    messages: tuple[Message, ...], trace: Trace, changes: list[Change], provider: str
) -> tuple[Message, ...]:
    """System messages before the first user message are the system prompt: they go first.

    Mistral accepts a system message only after a user or system message, and the other providers
    take the system prompt out of the turns only when it leads; one that ended up after an
    assistant or tool turn (results stored before the prompt, a reconstructed call) moves up.
    """
    first_human = next(  # a blank user turn (kept where the provider takes it) does not start the talk
        (i for i, m in enumerate(messages) if m.speaker == "human" and _said(m)), len(messages)
    )
    hoisted = {id(m) for m in messages[:first_human] if m.speaker == "system"}
    if provider == "mistral":
        # Mistral refuses a system message after an assistant or tool turn wherever it sits (mis.order:
        # FOLLOWERS in toolhist/providers/mistral.py), also after the first user message (text a tool
        # message carried becomes that message once split off); a bridge turn would be an assistant
        # turn too. Anthropic's and Gemini's renderers lift such a message out of the turns themselves.
        previous: str | None = None
        for message in messages:
            if id(message) in hoisted:
                continue
            if message.speaker == "system" and previous in ("ai", "tool"):
                hoisted.add(id(message))
                continue
            previous = message.speaker
    head = [m for m in messages if id(m) in hoisted]
    leading = next((i for i, m in enumerate(messages) if m.speaker != "system"), len(messages))
    if len(head) <= leading:
        return messages
    for message in head[leading:]:
        changes.append(
            Change.trusted(
                pass_=PASS,
                action="move",
                reason=f"the system prompt sat after assistant or tool turns; {provider} takes it only at the start",
                before=trace.origin(message),
            ).with_subject(message)
        )
    rest = [m for m in messages if id(m) not in hoisted]
    return (*head, *rest)
