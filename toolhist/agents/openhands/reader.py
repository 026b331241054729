"""OpenHands CLI conversations (``~/.openhands/conversations/<id>/``) read as the agent sends them.

A conversation is a folder, not a file: ``base_state.json`` (the agent, its ``llm`` and the
conversation's state) and ``events/event-<index>-<id>.json``, one event per file
(OpenHands/software-agent-sdk ``openhands-sdk/openhands/sdk/conversation/persistence_const.py``
@611629e6). `gather` reads such a folder as one JSON document, ``{"base_state": …, "events": […]}``
(events in index order, each with ``file`` added: its name), which is what `OpenHandsReader` reads;
``toolhist.load`` and the app take the folder's path and gather it. A bare list of events (an
agent-server ``/events`` answer, or JSONL) is read too, without the model.

The events become messages as `toolhist.agents.openhands.events` says; each message's chat form
(``openhands-sdk/openhands/sdk/llm/message.py``, ``Message``) is read as ``openai-chat`` reads it,
with Anthropic ``thinking_blocks`` and the Responses ``responses_reasoning_item`` as thinking blocks
of their providers. What says where it ran is ``base_state.agent.llm.model``, a LiteLLM model name
(`sessions.provider_of`).
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any, Final

import orjson
from pydantic import JsonValue

from toolhist.agents.openhands.events import CONVERTIBLE, ERROR_HEADER, NOT_SENT, WHY, Event, branch, view
from toolhist.formats.base import Built, Pointer, Reader, ShapeError, obj, text
from toolhist.formats.document import Document
from toolhist.formats.openai_chat import read_message
from toolhist.formats.openai_responses import read_item
from toolhist.model import Block, Message, MessageMetadata, Session, ThinkingBlock

KNOWN: Final = CONVERTIBLE | NOT_SENT
MAX_FOLDER_EVENTS: Final = 200_000


def _is_event(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("kind"), str)
        and "id" in value
        and "timestamp" in value
    )


def looks_openhands(value: Any) -> int:
    """2 on a gathered conversation, or on a list of events of which one is an OpenHands kind."""
    if (
        isinstance(value, dict)
        and set(value) == {"base_state", "events"}
        and isinstance(value["events"], list)
    ):
        return 2
    if isinstance(value, list) and value and all(_is_event(v) for v in value):
        return 2 if any(v["kind"] in KNOWN for v in value) else 0
    return 0


def is_conversation(path: str) -> bool:
    """Whether ``path`` is a conversation folder (``base_state.json`` and/or ``events/``): two stats."""
    return os.path.isdir(os.path.join(path, "events")) or os.path.isfile(
        os.path.join(path, "base_state.json")
    )


def gather(path: str) -> bytes | None:
    """A conversation folder (``base_state.json`` and/or ``events/``) as one JSON document; None otherwise."""
    events_dir = os.path.join(path, "events")
    base = os.path.join(path, "base_state.json")
    if not is_conversation(path):
        return None
    # regular files only (no symbolic link, FIFO or device): a folder's events are its own files
    names = (
        sorted(e.name for e in os.scandir(events_dir) if e.is_file(follow_symlinks=False))
        if os.path.isdir(events_dir)
        else []
    )
    events: list[Any] = []
    for name in names[:MAX_FOLDER_EVENTS]:
        if not (name.startswith("event-") and name.endswith(".json")):
            continue
        with open(os.path.join(events_dir, name), "rb") as fh:
            raw = fh.read()
        try:
            value = orjson.loads(raw)
        except orjson.JSONDecodeError:
            value = {"file": name, "unreadable": "not valid JSON"}
        if isinstance(value, dict):
            value = {**value, "file": name}
        events.append(value)
    state: Any = None
    if os.path.isfile(base) and not os.path.islink(base):
        with open(base, "rb") as fh:
            try:
                state = orjson.loads(fh.read())
            except orjson.JSONDecodeError:
                state = {"unreadable": "base_state.json is not valid JSON"}
    return orjson.dumps({"base_state": state, "events": events})


def _index(name: Any, fallback: int) -> int:
    if isinstance(name, str) and name.startswith("event-"):
        digits = name[6:].split("-", 1)[0]
        if digits.isdigit():
            return int(digits)
    return fallback


class OpenHandsReader(Reader):
    """``openhands``: an OpenHands (CLI / SDK) conversation's events, as the agent sends them."""

    id = "openhands"
    description = "OpenHands conversation folder (~/.openhands/conversations/<id>/: base_state.json, events/)"

    def recognise(self, value: Any) -> int:
        """Certain on a gathered conversation folder or a list of OpenHands events."""
        return looks_openhands(value)

    def gather(self, path: str) -> bytes | None:
        """`gather`: a conversation folder as the document this reader reads."""
        return gather(path)

    def read(self, doc: Document) -> Session:
        """Order the events, take the branch and the view, and read each message."""
        value = doc.value
        state = value.get("base_state") if isinstance(value, dict) else None
        if isinstance(value, dict) and "events" not in value:
            raise ShapeError(
                ("events",), "expected a gathered conversation {base_state, events} or a list of events"
            )
        raw = value["events"] if isinstance(value, dict) else value
        ptr: Pointer = ("events",) if isinstance(value, dict) else ()
        built = Built(doc)
        events = self._events(raw, ptr, built)
        leaf = state.get("leaf_event_id") if isinstance(state, dict) else None
        path, off = branch(events, leaf if isinstance(leaf, str) else None)
        seen = view(path)
        left = [(e, "branch") for e in off if e.kind in CONVERTIBLE] + seen.left_out
        messages = _messages(seen.events)
        pending = sorted(left, key=lambda x: x[0].index)
        for group, message in messages:
            first = group[0]
            while pending and pending[0][0].index < first.index:
                self._unsent(built, ptr, *pending.pop(0))
            built.add(message, first.pos, (*ptr, first.pos))
        for e, why in pending:
            self._unsent(built, ptr, e, why)
        built.notes += _notes(seen.state, left, state)
        built.notes += built.skips.note(
            "the OpenHands SDK refuses an event kind it does not know when it loads one"
        )
        llm = _llm(state)
        metadata: dict[str, JsonValue] = {"events": len(events)}
        if llm:
            metadata["llm"] = llm
        if isinstance(state, dict) and isinstance(state.get("id"), str):
            metadata["conversation_id"] = state["id"]
        model = llm.get("model") if llm else None
        return built.session(
            self.id, tools=None, request={"model": model} if isinstance(model, str) else {}, metadata=metadata
        )

    @staticmethod
    def _unsent(built: Built, ptr: Pointer, event: Event, why: str) -> None:
        built.keep_unsent(
            f"{why} {event.kind}", WHY[why], (*ptr, event.pos), data=_brief(event), index=event.pos
        )

    def _events(self, raw: Any, ptr: Pointer, built: Built) -> list[Event]:
        if not isinstance(raw, list):
            raise ShapeError(ptr, "expected a list of events")
        out: list[Event] = []
        for i, value in enumerate(raw):
            event = obj(value, (*ptr, i))
            if "unreadable" in event:
                built.skips.add(f"unreadable event file ({event['unreadable']})", None)
                continue
            kind = event.get("kind")
            if not isinstance(kind, str) or kind not in KNOWN:
                built.skips.add(
                    f"event kind {kind!r}" if isinstance(kind, str) else "event without a string 'kind'"
                )
                continue
            text(event.get("id"), (*ptr, i, "id"))
            out.append(Event(event, _index(event.get("file"), i), event.get("file"), i))
        if raw and not out:
            # At the first entry, not its kind: a list of others' events is not "closest" to OpenHands.
            skipped = "".join(f"; {n}" for n in built.skips.note())
            raise ShapeError(
                (*ptr, 0), f"no OpenHands event (an object with kind, id and timestamp){skipped}"
            )
        out.sort(key=lambda e: e.index)
        for i, e in enumerate(out):
            e.index = i
        return out


def _llm(state: Any) -> dict[str, JsonValue]:
    agent = state.get("agent") if isinstance(state, dict) else None
    llm = agent.get("llm") if isinstance(agent, dict) else None
    if not isinstance(llm, dict):
        return {}
    return {k: llm[k] for k in ("model", "base_url", "usage_id") if isinstance(llm.get(k), str)}


def _brief(event: Event) -> dict[str, JsonValue]:
    return {
        k: v
        for k, v in event.value.items()
        if k in ("id", "kind", "source", "timestamp", "tool_call_id", "file")
    }


def _texts(items: Any) -> list[dict[str, Any]]:
    """OpenHands ``TextContent`` / ``ImageContent`` as chat content parts."""
    out: list[dict[str, Any]] = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("type") == "text":
            out.append({"type": "text", "text": item.get("text", "")})
        elif isinstance(item, dict) and item.get("type") == "image":
            out += [
                {"type": "image_url", "image_url": {"url": u}}
                for u in item.get("image_urls") or []
                if isinstance(u, str)
            ]
    return out


def _llm_message(event: Event) -> dict[str, Any]:
    """The event's ``to_llm_message()``, as a serialized OpenHands ``Message``."""
    v, kind = event.value, event.kind
    if kind == "SystemPromptEvent":
        parts = [v.get("system_prompt"), v.get("dynamic_context")]
        return {"role": "system", "content": [p for p in parts if isinstance(p, dict)]}
    if kind == "MessageEvent":
        msg = dict(v.get("llm_message") or {})
        msg["content"] = list(msg.get("content") or []) + list(v.get("extended_content") or [])
        return msg
    if kind == "ActionEvent":
        return {
            "role": "assistant",
            "content": list(v.get("thought") or []),
            "tool_calls": [v.get("tool_call")],
            "reasoning_content": v.get("reasoning_content"),
            "thinking_blocks": v.get("thinking_blocks") or [],
            "responses_reasoning_item": v.get("responses_reasoning_item"),
        }
    if kind == "CondensationSummaryEvent":
        return {"role": "user", "content": [{"type": "text", "text": v.get("summary", "")}]}
    base = {"role": "tool", "name": v.get("tool_name"), "tool_call_id": v.get("tool_call_id")}
    if kind == "UserRejectObservation":
        return {
            **base,
            "content": [{"type": "text", "text": f"Action rejected: {v.get('rejection_reason', '')}"}],
        }
    if kind == "AgentErrorEvent":
        return {**base, "content": [{"type": "text", "text": v.get("error", "")}], "_error": v.get("error")}
    found = v.get("observation")
    observation: dict[str, Any] = found if isinstance(found, dict) else {}
    content = observation.get("content")
    items = (
        content
        if isinstance(content, list)
        else [{"type": "text", "text": content}]
        if isinstance(content, str)
        else []
    )
    if observation.get("is_error"):
        items = [{"type": "text", "text": ERROR_HEADER}, *items]
    error = (
        ERROR_HEADER + "".join(i.get("text", "") for i in items[1:]) if observation.get("is_error") else None
    )
    return {**base, "content": items + list(v.get("extended_content") or []), "_error": error}


def _messages(events: list[Event]) -> list[tuple[list[Event], Message]]:
    """``events_to_messages``: one response's actions as one message; adjacent plain user messages merged."""
    out: list[tuple[list[Event], dict[str, Any]]] = []
    i = 0
    while i < len(events):
        event = events[i]
        if event.kind == "ActionEvent":
            group = [event]
            while (
                i + len(group) < len(events)
                and events[i + len(group)].kind == "ActionEvent"
                and (
                    events[i + len(group)].value.get("llm_response_id") == event.value.get("llm_response_id")
                )
            ):
                group.append(events[i + len(group)])
            msg = _llm_message(event)
            msg["tool_calls"] = [g.value.get("tool_call") for g in group]
            out.append((group, msg))
            i += len(group)
            continue
        msg = _llm_message(event)
        last = out[-1][1] if out else None
        if last is not None and _plain_user(last) and _plain_user(msg):
            last["content"] = list(last["content"]) + list(msg["content"])
            out[-1][0].append(event)
        else:
            out.append(([event], msg))
        i += 1
    return [(group, _canonical(msg, group[0])) for group, msg in out]


def _plain_user(msg: dict[str, Any]) -> bool:
    return (
        msg.get("role") == "user"
        and not msg.get("tool_calls")
        and not msg.get("tool_call_id")
        and not msg.get("name")
    )


def _canonical(msg: dict[str, Any], event: Event) -> Message:
    """The chat form read as ``openai-chat`` reads it, thinking blocks and reasoning item put first."""
    chat: dict[str, Any] = {"role": msg.get("role"), "content": _texts(msg.get("content"))}
    calls = [c for c in msg.get("tool_calls") or [] if isinstance(c, dict)]
    if calls:  # ``_remove_content_if_empty``: blank text goes, and ``content`` with it when nothing is left
        kept = [p for p in chat["content"] if p.get("type") != "text" or str(p.get("text", "")).strip()]
        if kept:
            chat["content"] = kept
        else:
            del chat["content"]
        chat["tool_calls"] = [
            {
                "id": c.get("id"),
                "type": "function",
                "function": {"name": c.get("name"), "arguments": c.get("arguments")},
            }
            for c in calls
        ]
    for key in ("tool_call_id", "name"):
        if isinstance(msg.get(key), str):
            chat[key] = msg[key]
    if isinstance(msg.get("reasoning_content"), str):
        chat["reasoning_content"] = msg["reasoning_content"]
    message = read_message(chat, (), "openai-chat", [])
    thinking: list[Block] = []
    for block in msg.get("thinking_blocks") or []:
        if isinstance(block, dict) and block.get("type") == "thinking":
            thinking.append(
                ThinkingBlock(
                    text=str(block.get("thinking", "")),
                    signature=block.get("signature"),
                    source_provider="anthropic",
                )
            )
        elif isinstance(block, dict) and block.get("type") == "redacted_thinking":
            thinking.append(ThinkingBlock(redacted=True, data=block.get("data"), source_provider="anthropic"))
    item = msg.get("responses_reasoning_item")
    if isinstance(item, dict):
        summary = [
            {"type": "summary_text", "text": s} for s in item.get("summary") or [] if isinstance(s, str)
        ]
        reasoning = {
            "type": "reasoning",
            "id": item.get("id"),
            "summary": summary,
            "encrypted_content": item.get("encrypted_content"),
        }
        thinking += read_item(reasoning, (), "openai-responses")
    blocks = list(message.blocks)
    if isinstance(msg.get("_error"), str):
        blocks = [
            b.model_copy(update={"error": msg["_error"]}) if hasattr(b, "call_id") else b for b in blocks
        ]
    meta = MessageMetadata(
        source_role=event.kind,
        turn_id=event.id,
        extra=dict(message.metadata.extra),
    )
    return Message(speaker=message.speaker, blocks=(*thinking, *blocks), metadata=meta)


def _notes(state_kinds: dict[str, int], left: list[tuple[Event, str]], state: Any) -> list[str]:
    notes: list[str] = []
    if state is None:
        notes.append("no base_state.json: the conversation's model (where it ran) is not known")
    if state_kinds:
        notes.append(
            "events that are state, not messages (not sent): "
            + ", ".join(f"{k} x{n}" for k, n in sorted(state_kinds.items()))
        )
    if left:
        kinds = Counter(why for _, why in left)
        notes.append(
            "events left out before the LLM call (session.unsent): "
            + ", ".join(f"{k} x{n}" for k, n in sorted(kinds.items()))
        )
    return notes


__all__ = ["OpenHandsReader", "gather", "looks_openhands"]
