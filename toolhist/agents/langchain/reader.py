"""LangChain message lists, in each of the three forms LangChain serialises them to.

- ``messages_to_dict(messages)``: ``[{"type": "ai", "data": {...fields}}]``
  (langchain-ai/langchain ``libs/core/langchain_core/messages/utils.py``, ``message_to_dict``);
- ``dumpd(message)`` / ``dumps``: ``{"lc": 1, "type": "constructor", "id": ["langchain", "schema",
  "messages", "AIMessage"], "kwargs": {...fields}}`` (``langchain_core/load/serializable.py``);
- ``message.model_dump()``: the fields themselves, ``{"type": "ai", "content": …}``.

A list of any of them, or an object with a ``messages`` list (a LangGraph state, a dumped
``MessagesState``), is read. The fields (``langchain_core/messages/ai.py``, ``tool.py``,
``base.py``, ``utils.py`` at langchain-ai/langchain 911f4d4ebd56f591d10de3689fa97f3c57a1eb83;
langchain-core 1.8's own files; tests/by_agent/test_langchain.py reads what the real library dumps):

- ``type`` ``human`` / ``ai`` / ``system`` / ``tool`` (``chat`` with its own ``role``; the
  ``…Chunk`` types of a stream read as their message);
- ``content``: a string or a list of blocks (``text``, ``image_url``, ``image``, provider blocks
  such as Anthropic's ``thinking``, and the v1 standard blocks ``reasoning``, ``tool_call``);
- ``tool_calls`` ``[{"name", "args", "id"}]`` on an ai message are its calls (a provider's
  ``tool_use`` block in ``content`` with the same id is the same call, not a second one), and
  ``invalid_tool_calls`` ``[{"name", "args": str, "id", "error"}]`` are calls whose arguments did not
  parse (kept verbatim, as the integrations send them back);
- a ``tool`` message answers ``tool_call_id``; ``status: "error"`` marks a failed tool.

``RemoveMessage`` (``type: "remove"``) and the legacy ``function`` message are not sent by any chat
model integration: each is skipped and counted, never dropped silently.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import JsonValue

from toolhist.formats.base import Built, Pointer, Reader, ShapeError, arr, obj, parse_arguments, rest
from toolhist.formats.document import Document
from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    MessageMetadata,
    OpaqueBlock,
    Session,
    Speaker,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

FORMAT: Final = "langchain"
SPEAKERS: Final[dict[str, Speaker]] = {
    "human": "human",
    "ai": "ai",
    "system": "system",
    "tool": "tool",
    "developer": "system",
}
CHAT_ROLES: Final[dict[str, Speaker]] = {
    "user": "human",
    "human": "human",
    "assistant": "ai",
    "ai": "ai",
    "system": "system",
    "developer": "system",
    "tool": "tool",
}
NOT_SENT: Final = frozenset({"remove", "function"})
CLASS_TYPES: Final = {
    "HumanMessage": "human",
    "AIMessage": "ai",
    "SystemMessage": "system",
    "ToolMessage": "tool",
    "ChatMessage": "chat",
    "FunctionMessage": "function",
    "RemoveMessage": "remove",
}
KNOWN_TYPES: Final = frozenset({*SPEAKERS, "chat", *NOT_SENT})


def _type_of(raw: Any) -> str | None:
    """The message type of one serialised entry in any of the three forms, or None."""
    if not isinstance(raw, dict):
        return None
    if raw.get("lc") in (1, 2) and raw.get("type") == "constructor" and isinstance(raw.get("id"), list):
        kwargs = raw.get("kwargs")
        said = kwargs.get("type") if isinstance(kwargs, dict) else None
        cls = raw["id"][-1] if raw["id"] else None
        found = said if isinstance(said, str) else CLASS_TYPES.get(str(cls).removesuffix("Chunk"))
        return found if found in KNOWN_TYPES else None
    kind = raw.get("type")
    if not isinstance(kind, str):
        return None
    kind = kind.removesuffix("MessageChunk").lower() if kind.endswith("MessageChunk") else kind
    if kind not in KNOWN_TYPES:
        return None
    if isinstance(raw.get("data"), dict) and "content" in raw["data"]:
        return kind
    return kind if "content" in raw else None


def _fields(raw: dict[str, Any]) -> tuple[dict[str, Any], Pointer]:
    """The message's own fields and their pointer suffix, whatever the form."""
    if raw.get("lc") in (1, 2):
        return raw.get("kwargs") or {}, ("kwargs",)
    if isinstance(raw.get("data"), dict) and "content" not in raw:
        return raw["data"], ("data",)
    return raw, ()


def messages_of(value: Any) -> tuple[list[Any], Pointer] | None:
    """The message list in ``value`` (a list, or an object's ``messages``), when it is LangChain's."""
    ptr: Pointer = ()
    if isinstance(value, dict):
        if value.get("lc") == 1 and isinstance(value.get("kwargs"), dict) and "messages" in value["kwargs"]:
            value, ptr = value["kwargs"]["messages"], ("kwargs", "messages")
        elif "messages" in value and len(value) <= 8:
            value, ptr = value["messages"], ("messages",)
        else:
            return None
    if not isinstance(value, list) or not value:
        return None
    if all(_type_of(m) is not None for m in value) and any(_type_of(m) in SPEAKERS for m in value):
        return value, ptr
    return None


def _block(item: Any, ptr: Pointer, calls: set[str]) -> Block | None:
    """One content block; None for a provider's copy of a call already in ``tool_calls``."""
    if isinstance(item, str):
        return TextBlock(text=item)
    part = obj(item, ptr)
    kind = part.get("type")
    if kind == "text" and isinstance(part.get("text"), str):
        return TextBlock(text=part["text"], provider_data=rest(part, "type", "text"))
    if kind in ("tool_use", "tool_call", "function_call") and part.get("id") in calls:
        return None
    if kind == "thinking" and isinstance(part.get("thinking"), str):
        signature = part.get("signature")
        return ThinkingBlock(
            text=part["thinking"],
            signature=signature if isinstance(signature, str) else None,
            source_provider="anthropic",
            provider_data=rest(part, "type", "thinking", "signature"),
        )
    if kind == "reasoning" and isinstance(part.get("reasoning"), str):
        return ThinkingBlock(text=part["reasoning"], provider_data=rest(part, "type", "reasoning"))
    if kind == "image_url":
        url = part.get("image_url")
        url = url.get("url") if isinstance(url, dict) else url
        if isinstance(url, str):
            return MediaBlock(url=url, provider_data=rest(part, "type", "image_url"))
    if kind == "image" and isinstance(part.get("url"), str):
        return MediaBlock(url=part["url"], mime_type=part.get("mime_type"), provider_data=rest(part, "url"))
    return OpaqueBlock(source_format=FORMAT, data=dict(part))


def _content(content: Any, ptr: Pointer, calls: set[str]) -> list[Block]:
    if isinstance(content, str):
        return [TextBlock(text=content)] if content else []
    blocks = [_block(item, (*ptr, k), calls) for k, item in enumerate(arr(content, ptr))]
    return [b for b in blocks if b is not None]


def _calls(fields: dict[str, Any], ptr: Pointer) -> list[ToolCallBlock]:
    out: list[ToolCallBlock] = []
    for k, raw in enumerate(fields.get("tool_calls") or []):
        call = obj(raw, (*ptr, "tool_calls", k))
        name, call_id = call.get("name"), call.get("id")
        if not isinstance(name, str):
            raise ShapeError((*ptr, "tool_calls", k, "name"), "a tool call needs a string 'name'")
        out.append(
            ToolCallBlock(
                id=call_id if isinstance(call_id, str) else "",
                name=name,
                parameters=call.get("args") if call.get("args") is not None else {},
                provider_data=rest(call, "name", "id", "args"),
            )
        )
    for k, raw in enumerate(fields.get("invalid_tool_calls") or []):
        call = obj(raw, (*ptr, "invalid_tool_calls", k))
        args = call.get("args")
        name, call_id = call.get("name"), call.get("id")
        text = args if isinstance(args, str) else ""
        parsed, error = parse_arguments(text) if text else (None, "no arguments")
        out.append(
            ToolCallBlock(
                id=call_id if isinstance(call_id, str) else "",
                name=name if isinstance(name, str) else "",
                parameters=parsed,
                raw_arguments=text,
                arguments_error=error or (call.get("error") if isinstance(call.get("error"), str) else None),
                provider_data={**rest(call, "name", "id", "args"), "invalid_tool_call": True},
            )
        )
    return out


def read_messages(entries: list[Any], base: Pointer, built: Built) -> None:
    """Add each LangChain message of ``entries`` (any serialised form) to ``built``."""
    for i, raw in enumerate(entries):
        ptr: Pointer = (*base, i)
        kind = _type_of(raw)
        if kind is None:
            raise ShapeError(ptr, "expected a LangChain message (a 'type' and 'content')")
        if kind in NOT_SENT:
            built.skips.add(f"type {kind!r}")
            continue
        fields, inner = _fields(obj(raw, ptr))
        _message(kind, fields, (*ptr, *inner), i, built)


def _message(kind: str, fields: dict[str, Any], ptr: Pointer, i: int, built: Built) -> None:
    if kind == "chat":
        role = fields.get("role")
        speaker = CHAT_ROLES.get(role) if isinstance(role, str) else None
        if speaker is None:
            raise ShapeError(
                (*ptr, "role"), f"a chat message's role {role!r} is none of user/assistant/system/tool"
            )
    else:
        speaker = SPEAKERS[kind]
    content = fields.get("content")
    extra = {
        k: v
        for k, v in rest(
            fields, "content", "type", "tool_calls", "invalid_tool_calls", "tool_call_id"
        ).items()
        if v not in (None, {}, [])
    }
    meta = MessageMetadata(
        source_role=kind,
        turn_id=fields.get("id") if isinstance(fields.get("id"), str) else None,
        extra=extra,
    )
    if speaker == "tool":
        call_id = fields.get("tool_call_id")
        if not isinstance(call_id, str):
            raise ShapeError((*ptr, "tool_call_id"), "a tool message needs the 'tool_call_id' it answers")
        error = fields.get("status") == "error"
        name = fields.get("name")
        block = ToolResponseBlock(
            call_id=call_id,
            tool_name=name if isinstance(name, str) else None,
            result=content,
            error=(content if isinstance(content, str) else "error") if error else None,
        )
        built.add(Message(speaker="tool", blocks=(block,), metadata=meta), i, ptr)
        return
    calls = _calls(fields, ptr) if speaker == "ai" else []
    ids = {c.id for c in calls}
    blocks: list[Block] = [*_content(content, (*ptr, "content"), ids), *calls]
    model = (fields.get("response_metadata") or {}).get("model_name")
    if isinstance(model, str):
        meta = meta.model_copy(update={"model": model})
    built.add(Message(speaker=speaker, blocks=tuple(blocks), metadata=meta), i, ptr)


class LangChainReader(Reader):
    """``langchain``: LangChain ``BaseMessage`` lists, as dicts, ``dumpd`` or ``model_dump``."""

    id = FORMAT
    description = (
        "LangChain messages (messages_to_dict, dumpd/dumps or model_dump; a list or a state's messages)"
    )

    def recognise(self, value: Any) -> int:
        """Certain on a list whose every entry is a LangChain message in one of its forms."""
        return 2 if messages_of(value) is not None else 0

    def read(self, doc: Document) -> Session:
        """Read every message in order (see the module docstring)."""
        found = messages_of(doc.value)
        if found is None:
            raise ShapeError((), "expected a list of LangChain messages (type human/ai/system/tool)")
        entries, base = found
        built = Built(doc)
        read_messages(entries, base, built)
        built.notes += built.skips.note("no chat model integration sends these")
        state: dict[str, JsonValue] = rest(doc.value, "messages") if isinstance(doc.value, dict) else {}
        return built.session(self.id, tools=None, request={}, metadata={"state": state} if state else {})
