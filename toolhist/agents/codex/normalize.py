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
from typing import Any, NamedTuple

from toolhist.formats.openai_responses import opens_turn
from toolhist.model import Message, ToolResponseBlock

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


def mark_synthetic(messages: list[Message], ids: list[str]) -> None:
    """Mark, in place, the result blocks of Codex's made-up outputs (``SYNTHETIC_KEY``) in ``messages``.

    A marked message replaces its unmarked self in the reader's own list, before the Session is
    made of it: marking the made Session copied it, with a new tuple of all its messages.
    """
    if not ids:
        return
    wanted = set(ids)
    for index, message in enumerate(messages):
        if any(isinstance(b, ToolResponseBlock) and b.call_id in wanted for b in message.blocks):
            blocks = tuple(
                b.model_copy(update={"provider_data": {**b.provider_data, SYNTHETIC_KEY: SYNTHETIC_WHY}})
                if isinstance(b, ToolResponseBlock) and b.call_id in wanted
                else b
                for b in message.blocks
            )
            messages[index] = message.model_copy(update={"blocks": blocks})


class Normalized(NamedTuple):
    """The history Codex sends (`normalize`), each item's line, and what normalizing did."""

    items: list[dict[str, Any]]
    """The items, orphan outputs dropped and synthetic outputs inserted."""
    lines: list[int | None]
    """Each item's rollout line (a synthetic output: its call's)."""
    opens: list[bool]
    """Whether each item opens a turn (`toolhist.formats.openai_responses.opens_turn`)."""
    orphans: list[tuple[int, dict[str, Any], int | None]]
    """The dropped outputs, each with how many items of ``items`` come before it, and its line."""
    answered: list[str]
    """The ids of the calls given a synthetic output, in order."""
    where: list[int]
    """For each index of the items given (and their count), the index its place has among ``items``:
    a record kept unsent before given item ``i`` goes before item ``where[i]`` of the history sent."""


def normalize(
    items: list[dict[str, Any]], lines: list[int | None], is_turn: Callable[[dict[str, Any]], bool]
) -> Normalized:
    """The items as Codex sends them: ``remove_orphan_outputs``, then ``ensure_call_outputs_present``.

    Two passes: what the whole history holds (each output type's call ids and answered ids, the
    last user turn), then the items kept with synthetic outputs inserted. Codex's two steps run
    one after the other on the whole list (a pass each, and one more for each of their facts)
    make the same items: an orphan is never a user turn, and its id is never one a kept call
    looks up (it has no call of its kind), so what the second step finds is the same with or
    without the orphans.

    Only calls followed by a later user turn are answered (see the module notes).
    """
    calls: dict[str, set[str]] = {kind: set() for kind in OUTPUT_OF.values()}
    answered: dict[str, set[str]] = {kind: set() for kind in OUTPUT_OF.values()}
    last_turn = -1
    for index, item in enumerate(items):
        kind = item.get("type")
        if kind in OUTPUT_OF:
            if isinstance(call_id := item.get("call_id"), str):
                calls[OUTPUT_OF[kind]].add(call_id)
        elif kind in answered:
            if isinstance(call_id := item.get("call_id"), str):
                answered[kind].add(call_id)
        elif (kind is None or kind == "message") and is_turn(item):
            last_turn = index
    out: list[dict[str, Any]] = []
    out_lines: list[int | None] = []
    opens: list[bool] = []
    orphans: list[tuple[int, dict[str, Any], int | None]] = []
    ids: list[str] = []
    where: list[int] = []
    for index, (item, line) in enumerate(zip(items, lines, strict=True)):
        where.append(len(out))
        kind = item.get("type")
        call_id = item.get("call_id")
        if (
            kind in calls
            and isinstance(call_id, str)
            and call_id not in calls[kind]
            and not (kind == "tool_search_output" and item.get("execution") == "server")
        ):
            orphans.append((len(out), item, line))
            continue
        out.append(item)
        out_lines.append(line)
        opens.append(opens_turn(item))
        if (
            kind in OUTPUT_OF
            and isinstance(call_id, str)
            and call_id not in answered[OUTPUT_OF[kind]]
            and index < last_turn
        ):
            out.append(_synthetic(item))
            out_lines.append(line)
            opens.append(False)
            ids.append(call_id)
    where.append(len(out))
    return Normalized(out, out_lines, opens, orphans, ids, where)
