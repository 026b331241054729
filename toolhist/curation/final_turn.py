"""Passes ``append_user_turn`` (Claude prefill) and ``demote_system`` (o1-mini, o1-preview).

Two model-specific repairs the provider rules name, decided by the same rule predicates the checks use
(`toolhist.providers.base.Rule.applies_to` on the request fields), so check and curation never disagree:

- ``append_user_turn``: Claude 4.6 and later refuse a request that ends on an assistant message
  (``ant.prefill_unsupported``, ``brk.prefill_unsupported``), and Claude on Bedrock refuses it right
  after a tool result turn (``brk.prefill_tools``). A placeholder user turn asks the model to continue, as
  llxprt-code (PR#3695) and Hermes do; the assistant message stays where it was.
- ``demote_system``: o1-mini and o1-preview refuse a system message (``oai.system_role_unsupported``),
  Perplexity's sonar models one after the conversation has started (``pplx.alternate``); its text goes
  out as a user message, in the same place.
"""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue

from toolhist._trusted import replace
from toolhist.curation.base import Change, Pass, Trace
from toolhist.curation.util import synthetic
from toolhist.model import Message, TextBlock

CONTINUE = "Continue."
REASON_ALL = (
    "o1-mini and o1-preview reject a system message ('messages[N].role' does not support 'system' with this "
    "model); its text goes out as a user message"
)
REASON_LATE = (
    "Perplexity rejects a system message after the conversation has started (After the (optional) system "
    "message(s), user or tool message(s) should alternate with assistant message(s).); its text goes out as a "
    "user message"
)
PREFILL_RULES = {
    "anthropic": ("ant.prefill_unsupported",),
    "bedrock": ("brk.prefill_unsupported", "brk.prefill_tools"),
}
"""The rules a final assistant message breaks, per provider."""


def _applies(provider: str, rule: str, body: dict[str, Any]) -> bool:
    from toolhist.providers import provider_for

    return provider_for(provider).rule(rule).applies_to(body)


def _after_results(messages: tuple[Message, ...]) -> bool:
    """Whether the turn before the last message holds tool results (the tool round is still open).

    Assistant messages right before the last are one turn with it: the Converse renderer sends
    consecutive messages of a role as one message.
    """
    k = len(messages) - 2
    while k >= 0 and messages[k].speaker == "ai":
        k -= 1
    while k >= 0 and messages[k].speaker != "ai":
        if any(True for _ in messages[k].tool_responses()):
            return True
        k -= 1
    return False


def end_on_user(provider: str, request: dict[str, JsonValue]) -> Pass:
    """The ``append_user_turn`` pass for ``provider`` and the session's request fields."""
    rules = PREFILL_RULES.get(provider, ())

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        if not rules or not messages or messages[-1].speaker != "ai":
            return messages, []
        if any(True for _ in messages[-1].tool_calls()):
            return messages, []  # a final call is close_orphans' (the result goes after it)
        body = {"model": request.get("modelId", request.get("model"))}
        broken = [
            rule
            for rule in rules
            if _applies(provider, rule, body) and (rule != "brk.prefill_tools" or _after_results(messages))
        ]
        if not broken:
            return messages, []
        turn = synthetic("human", [TextBlock(text=CONTINUE)], "append_user_turn")
        change = Change.trusted(
            pass_="append_user_turn",
            action="insert",
            reason=f"this model rejects a request that ends on an assistant message ({', '.join(broken)}); a user "
            "turn asks it to continue",
        ).with_subject(turn)
        return (*messages, turn), [change]

    return run


def demote_system(provider: str, request: dict[str, JsonValue]) -> Pass:
    """The ``demote_system`` pass: system messages as user messages, for the models that refuse them."""
    body = {"model": request.get("model")}
    chat = provider == "openai-chat"
    refuses_all = chat and _applies(provider, "oai.system_role_unsupported", body)
    refuses_late = chat and _applies(provider, "pplx.alternate", body)

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        if not (refuses_all or refuses_late):
            return messages, []
        out: list[Message] = []
        changes: list[Change] = []
        leading = True
        for message in messages:
            if message.speaker != "system":
                leading = False
            if message.speaker != "system" or (leading and not refuses_all):
                out.append(message)
                continue
            metadata = replace(
                message.metadata, source_role=None
            )  # the renderer would send a system role again
            new = replace(message, speaker="human", metadata=metadata)
            trace.derive(new, message)
            out.append(new)
            changes.append(
                Change.trusted(
                    pass_="demote_system",
                    action="rename",
                    reason=REASON_ALL if refuses_all else REASON_LATE,
                    before=trace.origin(message),
                    detail={"speaker": "system", "new_speaker": "human"},
                ).with_subject(new)
            )
        return tuple(out), changes

    return run
