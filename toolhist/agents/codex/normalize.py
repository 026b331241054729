"""Codex's last step before a request: every call gets an output, every output a call.

Codex does not send its history as recorded: ``ContextManager::for_prompt`` normalizes it first
(openai/codex ``codex-rs/core/src/context_manager/normalize.rs`` at
0803cc58789f6445cd3829bc33c6ca21fde17fac):

- ``ensure_call_outputs_present``: a ``function_call`` (or ``local_shell_call``),
  ``custom_tool_call`` or ``tool_search_call`` with no output in the history gets a synthetic one
  inserted right after it: ``"aborted"`` for function and custom calls, an empty completed
  ``tool_search_output`` for a tool search. A rollout records such a call when the user interrupted
  the turn or declined an escalation, so the recorded history has an unanswered call the provider
  would refuse, but the request Codex sends does not.
- ``remove_orphan_outputs``: an output whose call is not in the history is dropped (a server-run
  ``tool_search_output``, or one without a ``call_id``, stays).

Calls of the last turn (no user turn after them) are left as they are: their results may still be
coming, and the judgement supplies the pending results itself (``toolhist.judgement``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolhist.model import Message, Session, ToolResponseBlock

ABORTED = "aborted"
"""The output text Codex inserts for a call that has none (``FunctionCallOutputPayload::from_text``)."""

OUTPUT_OF = {
    "function_call": "function_call_output",
    "custom_tool_call": "custom_tool_call_output",
    "tool_search_call": "tool_search_output",
}


SYNTHETIC_KEY = "_synthetic"
"""Marks, in a result block's provider data, an output Codex makes up (``_`` keys are toolhist's own
and never rendered)."""
SYNTHETIC_WHY = "not in the rollout: Codex inserts it before sending (ensure_call_outputs_present)"


def _synthetic(call: dict[str, Any]) -> dict[str, Any]:
    kind = OUTPUT_OF[call["type"]]
    if kind == "tool_search_output":
        return {
            "type": kind,
            "call_id": call["call_id"],
            "status": "completed",
            "execution": "client",
            "tools": [],
        }
    return {"type": kind, "call_id": call["call_id"], "output": ABORTED}


def mark_synthetic(session: Session, ids: list[str]) -> Session:
    """The session with the result blocks of Codex's made-up outputs marked (``SYNTHETIC_KEY``)."""
    if not ids:
        return session
    wanted = set(ids)

    def marked(message: Message) -> Message:
        """The message with its synthetic results marked; itself when it has none.

        Not a copy: a copy of every message was the whole history twice while it was read.
        """
        if not any(isinstance(b, ToolResponseBlock) and b.call_id in wanted for b in message.blocks):
            return message
        blocks = tuple(
            b.model_copy(update={"provider_data": {**b.provider_data, SYNTHETIC_KEY: SYNTHETIC_WHY}})
            if isinstance(b, ToolResponseBlock) and b.call_id in wanted
            else b
            for b in message.blocks
        )
        return message.model_copy(update={"blocks": blocks})

    return session.model_copy(update={"messages": tuple(marked(m) for m in session.messages)})


def _answered(items: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Call ids with an output, by the output's type."""
    found: dict[str, set[str]] = {kind: set() for kind in OUTPUT_OF.values()}
    for item in items:
        if item.get("type") in found and isinstance(item.get("call_id"), str):
            found[item["type"]].add(item["call_id"])
    return found


def ensure_outputs(
    items: list[dict[str, Any]], lines: list[int | None], is_turn: Callable[[dict[str, Any]], bool]
) -> tuple[list[dict[str, Any]], list[int | None], list[str]]:
    """The items with Codex's synthetic outputs inserted, their lines, and the call ids answered so.

    Only calls followed by a later user turn are answered (see the module notes).
    """
    answered = _answered(items)
    last_turn = max((i for i, item in enumerate(items) if is_turn(item)), default=-1)
    out: list[dict[str, Any]] = []
    out_lines: list[int | None] = []
    ids: list[str] = []
    for index, (item, line) in enumerate(zip(items, lines, strict=True)):
        out.append(item)
        out_lines.append(line)
        kind = item.get("type")
        call_id = item.get("call_id")
        if (
            kind in OUTPUT_OF
            and isinstance(call_id, str)
            and call_id not in answered[OUTPUT_OF[kind]]
            and index < last_turn
        ):
            out.append(_synthetic(item))
            out_lines.append(line)
            ids.append(call_id)
    return out, out_lines, ids


def split_orphans(
    items: list[dict[str, Any]], lines: list[int | None]
) -> tuple[list[dict[str, Any]], list[int | None], list[tuple[int, dict[str, Any], int | None]]]:
    """The items without outputs whose call is absent, and those outputs with the sent index before them."""
    calls: dict[str, set[str]] = {kind: set() for kind in OUTPUT_OF.values()}
    for item in items:
        if item.get("type") in OUTPUT_OF and isinstance(item.get("call_id"), str):
            calls[OUTPUT_OF[item["type"]]].add(item["call_id"])
    kept: list[dict[str, Any]] = []
    kept_lines: list[int | None] = []
    orphans: list[tuple[int, dict[str, Any], int | None]] = []
    for item, line in zip(items, lines, strict=True):
        kind = item.get("type")
        call_id = item.get("call_id")
        orphan = (
            kind in calls
            and isinstance(call_id, str)
            and call_id not in calls[kind]
            and not (kind == "tool_search_output" and item.get("execution") == "server")
        )
        if orphan:
            orphans.append((len(kept), item, line))
        else:
            kept.append(item)
            kept_lines.append(line)
    return kept, kept_lines, orphans
