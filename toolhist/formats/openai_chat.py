"""OpenAI Chat Completions: a request body ``{"model", "messages", "tools", …}`` or a bare message list.

The same wire shape is what Mistral, Kimi, DeepSeek, Qwen, Groq and most gateways take, so this
reader is also how their captured bodies come in. Round-trip fidelity matters here because users
paste the exact body that got the 400: ``content`` null vs absent vs ``""``, an empty
``tool_calls: []`` (itself a 400, `oai.empty_tool_calls`) and argument strings are kept exactly.
"""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue

from toolhist._trusted import construct
from toolhist.formats.base import (
    Built,
    Pointer,
    Reader,
    ShapeError,
    arr,
    named_result,
    obj,
    opt_text,
    parse_arguments,
    rest,
    tag,
    text,
)
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
    ToolSpec,
)

ROLES: dict[str, Speaker] = {
    "system": "system",
    "developer": "system",
    "user": "human",
    "assistant": "ai",
    "tool": "tool",
    "function": "tool",
}
CHAT_PART_TYPES = {"text", "image_url", "input_audio", "file", "refusal"}


def content_form(message: dict[str, Any]) -> str:
    """How the source spelled ``content``: ``absent``, ``null``, ``string`` or ``parts``."""
    if "content" not in message:
        return "absent"
    value = message["content"]
    return "null" if value is None else "string" if isinstance(value, str) else "parts"


def read_parts(content: Any, ptr: Pointer, fmt: str, notes: list[str]) -> list[Block]:
    """Chat content (string or list of parts) as canonical blocks."""
    if content is None:
        return []
    if isinstance(content, str):
        return [construct(TextBlock, text=content)]
    blocks: list[Block] = []
    for j, raw in enumerate(arr(content, ptr)):
        pptr = (*ptr, j)
        part = obj(raw, pptr)
        kind = part.get("type")
        if kind == "text":
            value = text(part.get("text"), (*pptr, "text"))
            blocks.append(construct(TextBlock, text=value, provider_data=rest(part, "type", "text")))
        elif kind == "refusal":
            value = text(part.get("refusal"), (*pptr, "refusal"))
            blocks.append(
                construct(
                    TextBlock, text=value, provider_data={"type": "refusal", **rest(part, "type", "refusal")}
                )
            )
        elif kind == "image_url":
            image = obj(part.get("image_url"), (*pptr, "image_url"))
            url = text(image.get("url"), (*pptr, "image_url", "url"))
            blocks.append(
                construct(MediaBlock, url=url, mime_type=_data_url_mime(url), provider_data=dict(part))
            )
        elif kind == "input_audio":
            audio = obj(part.get("input_audio"), (*pptr, "input_audio"))
            blocks.append(
                construct(
                    MediaBlock,
                    data=opt_text(audio.get("data"), (*pptr, "input_audio", "data")),
                    mime_type=f"audio/{audio.get('format', 'wav')}",
                    provider_data=dict(part),
                )
            )
        elif kind == "file":
            file = obj(part.get("file"), (*pptr, "file"))
            blocks.append(
                construct(
                    MediaBlock,
                    data=opt_text(file.get("file_data"), (*pptr, "file", "file_data")),
                    filename=opt_text(file.get("filename"), (*pptr, "file", "filename")),
                    url=opt_text(file.get("file_id"), (*pptr, "file", "file_id")),
                    provider_data=dict(part),
                )
            )
        else:
            notes.append(f"{_path(pptr)}: content part of type {kind!r} kept verbatim (not modelled)")
            blocks.append(construct(OpaqueBlock, source_format=fmt, data=dict(part)))
    return blocks


def _data_url_mime(url: str) -> str | None:
    if url.startswith("data:") and ";" in url:
        return url[5 : url.index(";")]
    return None


def _path(ptr: Pointer) -> str:
    from toolhist.formats.document import json_path

    return json_path(ptr)


def read_custom_call(call: dict[str, Any], call_id: str | None, ptr: Pointer) -> ToolCallBlock:
    """A freeform ``{"type": "custom", "custom": {"name", "input"}}`` call (GPT-5's custom tools).

    Its input is text, not JSON arguments: kept verbatim in ``freeform_input`` (and as
    ``{"input": text}`` for providers whose tools take an object), as the Responses reader keeps a
    ``custom_tool_call``. Shape: openai/openai-python@4677fff463bea8e0331c94d1316c7f009af4271d
    ``src/openai/types/chat/chat_completion_message_custom_tool_call_param.py`` (``id``,
    ``type: "custom"``, ``custom: {input, name}``, all required).
    """
    custom = obj(call.get("custom"), (*ptr, "custom"))
    name = text(custom.get("name"), (*ptr, "custom", "name"))
    freeform = text(custom.get("input"), (*ptr, "custom", "input"))
    provider_data: dict[str, JsonValue] = rest(call, "id", "custom")
    custom_rest = rest(custom, "name", "input")
    if custom_rest:
        provider_data["custom"] = custom_rest
    return construct(
        ToolCallBlock,
        id=call_id or "",
        name=name,
        parameters={"input": freeform},
        freeform_input=freeform,
        raw_id=call_id,
        provider_data=provider_data,
    )


def read_tool_call(raw: Any, ptr: Pointer) -> ToolCallBlock:
    """One ``tool_calls[]`` entry as a ToolCallBlock, arguments kept verbatim."""
    call = obj(raw, ptr)
    call_id = opt_text(call.get("id"), (*ptr, "id"))
    if call.get("type") == "custom":
        return read_custom_call(call, call_id, ptr)
    fn = obj(call.get("function"), (*ptr, "function"))
    name = text(fn.get("name", ""), (*ptr, "function", "name"))
    raw_args = fn.get("arguments")
    provider_data: dict[str, JsonValue] = rest(call, "id", "function")
    fn_rest = rest(fn, "name", "arguments")
    if fn_rest:
        provider_data["function"] = fn_rest
    if isinstance(raw_args, str):
        params, error = parse_arguments(raw_args)
        return construct(
            ToolCallBlock,
            id=call_id or "",
            name=name,
            parameters=params,
            raw_id=call_id,
            raw_arguments=raw_args,
            arguments_error=error,
            provider_data=provider_data,
        )
    if raw_args is None and "arguments" not in fn:
        provider_data["_arguments_form"] = "absent"
    elif not isinstance(raw_args, dict):
        raise ShapeError((*ptr, "function", "arguments"), "expected a JSON string (or object)")
    else:
        provider_data["_arguments_form"] = "object"
    return construct(
        ToolCallBlock,
        id=call_id or "",
        name=name,
        parameters=raw_args,
        raw_id=call_id,
        provider_data=provider_data,
    )


def read_message(
    raw: Any, ptr: Pointer, fmt: str, notes: list[str], names: dict[str, str] | None = None
) -> Message:
    """One chat message as a canonical Message.

    ``names`` (call id → name of the first call with it, gaining this message's calls) names an
    unnamed result as `toolhist.formats.base.fill_tool_names` would, here: a result named after
    it was read was made twice, and its message too (issue 26).
    """
    msg = obj(raw, ptr)
    role = msg.get("role")
    if not isinstance(role, str) or role not in ROLES:
        raise ShapeError((*ptr, "role"), f"unknown role {role!r}; expected one of {', '.join(ROLES)}")
    extra: dict[str, JsonValue] = rest(
        msg, "role", "content", "tool_calls", "tool_call_id", "reasoning_content", "function_call"
    )
    extra["_content_form"] = content_form(msg)
    blocks: list[Block] = []
    if role == "assistant" and isinstance(msg.get("reasoning_content"), str):
        blocks.append(
            construct(
                ThinkingBlock,
                text=msg["reasoning_content"],
                source_provider=fmt,
                provider_data={"field": "reasoning_content"},
            )
        )
    elif "reasoning_content" in msg:
        extra["reasoning_content"] = msg["reasoning_content"]
    if role in ("tool", "function"):
        call_id = msg.get("tool_call_id")
        if role == "tool" and "tool_call_id" in msg:
            call_id = text(call_id, (*ptr, "tool_call_id"))
        elif not isinstance(call_id, str):  # a legacy function message has none to speak of
            call_id = None
        name = msg.get("name")
        provider_data: dict[str, JsonValue] = {}
        if role == "tool" and "tool_call_id" not in msg:
            provider_data["_tool_call_id"] = "absent"
        if not isinstance(name, str) and names is not None and (call_id or "") in names:
            # every field given, as `toolhist.formats.base.named_blocks` makes a named result
            blocks.append(
                named_result(call_id or "", names[call_id or ""], msg.get("content"), call_id, provider_data)
            )
        else:
            blocks.append(
                construct(
                    ToolResponseBlock,
                    call_id=call_id or "",
                    tool_name=name if isinstance(name, str) else None,
                    result=msg.get("content"),
                    raw_call_id=call_id,
                    provider_data=provider_data,
                )
            )
    else:
        blocks.extend(read_parts(msg.get("content"), (*ptr, "content"), fmt, notes))
    if "tool_calls" in msg:
        calls = arr(msg["tool_calls"], (*ptr, "tool_calls"))
        if not calls:
            extra["tool_calls"] = []
        blocks.extend(read_tool_call(c, (*ptr, "tool_calls", k)) for k, c in enumerate(calls))
    if "function_call" in msg and msg["function_call"] is not None:
        legacy = read_tool_call({"function": msg["function_call"]}, (*ptr,))
        blocks.append(legacy.model_copy(update={"provider_data": {**legacy.provider_data, "_legacy": True}}))
    if names is not None:
        for block in blocks:
            if isinstance(block, ToolCallBlock):
                names.setdefault(block.id, block.name)
    speaker = ROLES[role]
    return construct(
        Message,
        speaker=speaker,
        blocks=tuple(blocks),
        metadata=construct(MessageMetadata, source_role=role, extra=extra),
    )


def read_tools(tools: Any, ptr: Pointer) -> tuple[ToolSpec, ...]:
    """``tools`` (and legacy ``functions``) declarations."""
    specs = []
    for i, raw in enumerate(arr(tools, ptr)):
        tool = obj(raw, (*ptr, i))
        kind = tool.get("type", "function")
        # A custom tool declares {"type": "custom", "custom": {"name", "description", "format"}}
        # (openai-python ``chat/chat_completion_custom_tool_param.py``); calls to it are freeform.
        fn = tool.get(kind, tool) if kind in ("function", "custom") else None
        if isinstance(fn, dict) and isinstance(fn.get("name"), str):
            specs.append(
                ToolSpec(
                    name=fn["name"],
                    description=fn.get("description") if isinstance(fn.get("description"), str) else None,
                    parameters=fn.get("parameters"),
                )
            )
        else:
            specs.append(
                ToolSpec(name=str(tool.get("name", tool.get("type", "?"))), kind=str(tool.get("type")))
            )
    return tuple(specs)


def _is_chat_message(m: Any) -> bool:
    """A role-tagged object that is not another format's entry.

    ``type`` marks agents' log lines, ``parts`` Gemini, ``message`` a Cursor transcript line.
    """
    return (
        isinstance(m, dict)
        and tag(m.get("role")) in ROLES
        and "type" not in m
        and "parts" not in m
        and "message" not in m
    )


def _chat_markers(messages: list[Any]) -> bool:
    for m in messages:
        if (
            m.get("role") in ("system", "developer", "tool", "function")
            or "tool_calls" in m
            or "tool_call_id" in m
        ):
            return True
        content = m.get("content")
        if content is None:
            return True
        if isinstance(content, list) and any(
            isinstance(p, dict) and tag(p.get("type")) in CHAT_PART_TYPES - {"text"} for p in content
        ):
            return True
    return False


class OpenAIChatReader(Reader):
    """``openai-chat``: Chat Completions request bodies and message lists."""

    id = "openai-chat"
    description = "OpenAI Chat Completions request body or message list (also Mistral, Kimi, DeepSeek…)"
    judgement = "as-sent"
    history_key = "messages"

    def recognise(self, value: Any) -> int:
        """Certain on chat-only markers (tool role, tool_calls, null content); plausible on role/content."""
        messages = value.get("messages") if isinstance(value, dict) else value
        if not isinstance(messages, list) or not messages or not all(_is_chat_message(m) for m in messages):
            return 0
        if any(
            isinstance(c, dict) and isinstance(c.get("function"), str)
            for m in messages
            if isinstance(m.get("tool_calls"), list)
            for c in m["tool_calls"]
        ):
            return 0  # a call whose function is a name, not an object: Inspect AI's ToolCall, not OpenAI's
        if any(
            isinstance(m.get("content"), list)
            and any(isinstance(p, dict) and tag(p.get("type")) not in CHAT_PART_TYPES for p in m["content"])
            for m in messages
        ):
            return 0
        return 2 if _chat_markers(messages) else 1

    def read(self, doc: Document) -> Session:
        """Read a body or list; everything outside ``messages`` is kept in ``Session.request``."""
        value = doc.value
        built = Built(doc)
        if isinstance(value, dict):
            ptr: Pointer = ("messages",)
            messages = arr(value.get("messages"), ptr)
            request: dict[str, JsonValue] = rest(value, "messages")
            tools_key = "tools" if "tools" in value else "functions" if "functions" in value else None
            tools = read_tools(value[tools_key], (tools_key,)) if tools_key else None
        else:
            ptr = ()
            messages = arr(value, ptr)
            request, tools = {}, None
        names: dict[str, str] = {}
        for i, raw in enumerate(messages):
            where = (*ptr, i)
            built.add(read_message(raw, where, self.id, built.notes, names), i, where)
        built.named = True  # every result named as read
        return built.session(
            self.id,
            tools=tools,
            request=request,
            metadata={"shape": "body" if isinstance(value, dict) else "list"},
        )
