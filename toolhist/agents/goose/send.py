"""What Goose sends of a conversation: its agent-visible messages, repaired by ``fix_conversation``.

Goose keeps every message with ``metadata.agentVisible``; a message the agent does not see (a
summary shown to the user, messages hidden by a compaction) is never sent. Before a reply, Goose
runs ``fix_conversation`` on the agent-visible messages (block/goose
``crates/goose/src/conversation/mod.rs`` at 08dc47863f2f07dfc35fd9f467438ec0554776c9,
``fix_messages``), in this order:

1. ``merge_text_content_items``: an assistant message's consecutive texts become one;
2. ``trim_assistant_text_whitespace``: trailing whitespace is cut from assistant texts;
3. ``remove_empty_messages``: a message whose every item is an empty text (or that has none) goes;
4. ``fix_tool_calling``: a user message loses tool requests, confirmation requests and thinking;
   an assistant message loses tool responses and frontend tool requests; a response to no earlier
   request goes, and a request never answered goes;
5. ``merge_consecutive_messages``: messages of the same effective role (a user message with a
   tool response is ``tool``) are merged;
6. ``fix_lead_trail``: a leading assistant message goes (the trailing one is not dropped here: the
   next request follows it with the user's new message);
7. ``populate_if_empty``: an empty conversation becomes one user message "Hello".

Each removal is kept in ``Session.unsent`` (or said in a note when only an item of a message
goes). Content Goose never formats for a provider (``toolConfirmationRequest``,
``actionRequired``, ``systemNotification``, ``frontendToolRequest``…) is counted in a note.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final

from toolhist.formats.base import Built, Pointer

NEVER_SENT: Final = frozenset(
    {
        "toolConfirmationRequest",
        "actionRequired",
        "frontendToolRequest",
        "systemNotification",
        "summarizationRequested",
        "contextLengthExceeded",
        "conversationCompacted",
    }
)
SENT: Final = frozenset({"text", "image", "toolRequest", "toolResponse", "thinking", "redactedThinking"})
FIX: Final = "fix_conversation (crates/goose/src/conversation/mod.rs)"
PLACEHOLDER: Final = "Hello"


@dataclass
class Stored:
    """One Goose message as stored: role, content items, where it came from."""

    role: str
    content: list[dict[str, Any]]
    ptr: Pointer
    pos: int = 0
    """Its position among the stored messages (where what is removed from it is shown)."""
    created: float | None = None
    merged: list[Pointer] = field(default_factory=list)


@dataclass(frozen=True)
class Dropped:
    """What the repair removed, to be kept in ``Session.unsent`` at its place."""

    pos: int
    kind: str
    ptr: Pointer
    data: dict[str, Any]


def _effective(message: Stored) -> str:
    if message.role == "user" and any(c.get("type") == "toolResponse" for c in message.content):
        return "tool"
    return message.role


def _empty(message: Stored) -> bool:
    return all(c.get("type") == "text" and c.get("text") == "" for c in message.content)


def fix(built: Built, messages: list[Stored]) -> tuple[list[Stored], list[Dropped]]:
    """``fix_messages`` on the agent-visible messages: what is sent, and what was removed."""
    changed: Counter[str] = Counter()
    dropped: list[Dropped] = []
    for message in messages:
        if message.role == "assistant":
            message.content = _trimmed(_merged(message.content, changed), changed)
    messages = _drop_empty(dropped, messages)
    _fix_tool_calling(messages, dropped)
    messages = _drop_empty(dropped, messages)
    out: list[Stored] = []
    for message in messages:
        if out and _effective(out[-1]) == _effective(message):
            out[-1].content.extend(message.content)
            out[-1].merged.append(message.ptr)
            changed[f"consecutive {_effective(message)} messages merged"] += 1
            continue
        out.append(message)
    if out and out[0].role == "assistant":
        first = out.pop(0)
        dropped.append(Dropped(first.pos, "leading assistant message", first.ptr, {"content": first.content}))
    if not out:
        out.append(Stored("user", [{"type": "text", "text": PLACEHOLDER}], ("sessions",)))
        changed['empty conversation: Goose sends a user "Hello"'] += 1
    if changed:
        said = "; ".join(f"{k} x{n}" for k, n in sorted(changed.items()))
        built.notes.append(f"as Goose repairs the conversation before it sends ({FIX}): {said}")
    return out, sorted(dropped, key=lambda d: d.pos)


def _merged(content: list[dict[str, Any]], changed: Counter[str]) -> list[dict[str, Any]]:
    """``merge_text_content_items``: consecutive texts of an assistant message become one."""
    merged: list[dict[str, Any]] = []
    for item in content:
        if item.get("type") == "text" and merged and merged[-1].get("type") == "text":
            merged[-1] = {**merged[-1], "text": str(merged[-1].get("text", "")) + str(item.get("text", ""))}
            changed["texts merged in an assistant message"] += 1
        else:
            merged.append(item)
    return merged


def _trimmed(content: list[dict[str, Any]], changed: Counter[str]) -> list[dict[str, Any]]:
    """``trim_assistant_text_whitespace``: trailing whitespace cut from assistant texts."""
    out = []
    for item in content:
        body = item.get("text")
        if item.get("type") == "text" and isinstance(body, str) and body != body.rstrip():
            out.append({**item, "text": body.rstrip()})
            changed["trailing whitespace trimmed from an assistant text"] += 1
        else:
            out.append(item)
    return out


def _fix_tool_calling(messages: list[Stored], dropped: list[Dropped]) -> None:
    """``fix_tool_calling``: misplaced items, orphaned responses and unanswered requests removed."""
    pending: set[str] = set()
    for message in messages:
        kept = []
        for item in message.content:
            drop = _misplaced(message.role, item, pending)
            if drop is None:
                kept.append(item)
            else:
                dropped.append(Dropped(message.pos, drop, message.ptr, {"item": item}))
        message.content = kept
    for message in messages:
        if message.role == "assistant":
            kept = []
            for item in message.content:
                if item.get("type") == "toolRequest" and item.get("id") in pending:
                    dropped.append(
                        Dropped(message.pos, "unanswered tool request", message.ptr, {"item": item})
                    )
                else:
                    kept.append(item)
            message.content = kept


def _misplaced(role: str, item: dict[str, Any], pending: set[str]) -> str | None:
    """Why ``fix_tool_calling`` removes ``item`` from a message of ``role`` (None: kept)."""
    kind = item.get("type")
    if role == "user":
        if kind in ("toolRequest", "toolConfirmationRequest", "thinking", "redactedThinking"):
            return f"{kind} in a user message"
        if kind == "toolResponse":
            if item.get("id") in pending:
                pending.discard(str(item.get("id")))
                return None
            return "tool response to no earlier request"
        return None
    if kind in ("toolResponse", "frontendToolRequest"):
        return f"{kind} in an assistant message"
    if kind == "toolRequest":
        pending.add(str(item.get("id")))
    return None


def _drop_empty(dropped: list[Dropped], messages: list[Stored]) -> list[Stored]:
    kept = []
    for message in messages:
        if _empty(message):
            dropped.append(Dropped(message.pos, "empty message", message.ptr, {}))
        else:
            kept.append(message)
    return kept
