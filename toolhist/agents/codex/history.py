"""Codex's history rewrites, replayed on the items read from a rollout: compaction and rollback.

Both follow ``reconstruct_history_from_rollout`` (openai/codex
``codex-rs/core/src/codex/rollout_reconstruction.rs`` at 023cedaa25c056edf87e8be2c04190c84c67f966):
a ``compacted`` line replaces the history (its ``replacement_history``, else the user messages plus
the summary), a ``thread_rolled_back`` event drops the newest user turns
(``ContextManager::drop_last_n_user_turns``).
"""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue

from toolhist.formats.jsonl_stream import at_line

ROLLED_BACK = "toolhist:rolled_back"
"""Marker type for an item a ``thread_rolled_back`` event dropped (never a Codex item type)."""
ROLLED_BACK_REASON = (
    "a thread_rolled_back event dropped this turn: Codex replays the rollback on resume "
    "(ContextManager::drop_last_n_user_turns), so the item is never sent again "
    "(codex-rs/core/src/codex/rollout_reconstruction.rs)"
)
CONTEXTUAL_USER_PREFIXES = (
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions for",
    "<skill>",
    "<user_shell_command>",
    "<turn_aborted>",
)
"""Starts of the user-role messages Codex writes itself (``is_contextual_user_fragment``,
codex-rs/core/src/context_manager/ and ``event_mapping.rs``): they are not turns the user typed, so
neither a compaction's kept user messages nor a rollback's turn count includes them."""


def is_user_message(item: dict[str, Any]) -> bool:
    """Whether an item is a turn the user typed (a user message Codex did not write itself)."""
    if item.get("type", "message") != "message" or item.get("role") != "user":
        return False
    content = item.get("content")
    texts = (
        [p.get("text", "") for p in content if isinstance(p, dict)]
        if isinstance(content, list)
        else [content]
    )
    return not any(isinstance(t, str) and t.lstrip().startswith(CONTEXTUAL_USER_PREFIXES) for t in texts)


def roll_back(items: list[dict[str, Any]], turns: int) -> tuple[list[dict[str, Any]], int]:
    """The items after Codex drops the newest ``turns`` user turns, and how many items it dropped.

    Codex's ``ContextManager::drop_last_n_user_turns`` (openai/codex
    codex-rs/core/src/context_manager/history.rs; replayed for a ``thread_rolled_back`` event by
    ``reconstruct_history_from_rollout``, codex-rs/core/src/codex/rollout_reconstruction.rs at
    023cedaa25c056edf87e8be2c04190c84c67f966) cuts the history at the n-th user turn from the end,
    or at the first one when n is larger; no user turn, or n = 0, leaves it as it is. The dropped
    items stay in place as markers, so they are shown as unsent rather than lost.
    """
    positions = [i for i, it in enumerate(items) if is_user_message(it)]
    if turns <= 0 or not positions:
        return items, 0
    cut = positions[0] if turns >= len(positions) else positions[-turns]
    dropped = [it for it in items[cut:] if it.get("type") != ROLLED_BACK]
    kept = [it if it.get("type") == ROLLED_BACK else {"type": ROLLED_BACK, "item": it} for it in items[cut:]]
    return items[:cut] + kept, len(dropped)


def compaction_event(
    items: list[dict[str, Any]],
    payload: dict[str, Any],
    line: int | None,
    notes: list[str],
    compactions: list[JsonValue],
) -> tuple[list[dict[str, Any]], list[int | None]]:
    """A ``compacted`` line applied to the items (see ``compact``), recorded and noted."""
    replaced = len(items)
    items = compact(items, payload, line)
    compactions.append({"line": line, "replaced_items": replaced, "kept_items": len(items)})
    notes.append(
        f"line {line}: compaction replaced {replaced} items with {len(items)} "
        "(earlier items are not in the history Codex sends after it)"
    )
    return items, [line] * len(items)


def rollback_event(
    items: list[dict[str, Any]], payload: dict[str, Any], line: int | None, notes: list[str]
) -> list[dict[str, Any]]:
    """A ``thread_rolled_back`` event applied to the items (see ``roll_back``), with its note."""
    turns = payload.get("num_turns")
    if not isinstance(turns, int) or isinstance(turns, bool) or turns < 0:
        raise at_line(line, ("payload", "num_turns"), "expected a non-negative integer")
    items, dropped = roll_back(items, turns)
    notes.append(
        f"line {line}: thread rolled back {turns} user turn(s); {dropped} item(s) "
        "dropped from the history Codex sends (shown as unsent)"
    )
    return items


def compact(items: list[dict[str, Any]], payload: dict[str, Any], line: int | None) -> list[dict[str, Any]]:
    """The items after a ``compacted`` line: its ``replacement_history``, else user messages + summary."""
    replacement = payload.get("replacement_history")
    if isinstance(replacement, list):
        return [i for i in replacement if isinstance(i, dict)]
    summary = payload.get("message")
    if not isinstance(summary, str):
        raise at_line(line, ("payload", "message"), "a compaction needs a string 'message'")
    kept = [i for i in items if is_user_message(i)]
    kept.append({"type": "message", "role": "user", "content": [{"type": "input_text", "text": summary}]})
    return kept
