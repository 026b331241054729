"""Rendering a Session as a Chat Completions body.

OpenAI, and the providers that take its shape (Mistral, Kimi, DeepSeek…), share this renderer.

With ``strategy="none"`` the history goes out as the source had it: ids untouched, and a body
that was read from a Chat Completions body renders back to the same JSON value (every spelling the
reader recorded: ``content`` null/absent/""/parts, ``tool_calls: []``, argument strings).

What Chat Completions cannot carry (Anthropic thinking, opaque blocks of another format) is left
out and listed in ``Payload.omitted``, never dropped silently.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import JsonValue

from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    OpaqueBlock,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)
from toolhist.providers.base import PathT, SourceMap, bracketed

CHAT_FORMAT = "openai-chat"
Omitted = tuple[int, int, str, str | None]
"""A block left out: message, block, ``thinking`` or ``opaque``, its source provider or format."""
SPEAKER_ROLE = {"system": "system", "human": "user", "ai": "assistant", "tool": "tool"}


def arguments_text(call: ToolCallBlock) -> str:
    """The argument string: verbatim when the source had one, else compact JSON."""
    if call.raw_arguments is not None:
        return call.raw_arguments
    return json.dumps(
        call.parameters if call.parameters is not None else {}, ensure_ascii=False, separators=(",", ":")
    )


def chat_tool_call(
    call: ToolCallBlock, call_id: str, same: bool, freeform: bool = False
) -> dict[str, JsonValue]:
    """One ``tool_calls[]`` entry; a chat source's own extra keys ride along, foreign ones do not.

    A freeform call read from a chat ``type: "custom"`` call goes back as one to OpenAI
    (``freeform``); to the providers without custom tools (Mistral, Kimi), and from another source
    (Codex's ``custom_tool_call``), it goes as a function call with ``{"input": text}``
    (`toolhist.providers.base.freeform_note`).
    """
    data = call.provider_data
    if not same or not data:  # most calls: nothing of the source's to carry
        plain: dict[str, JsonValue] = {}
        if call.raw_id is not None or call.id:
            plain["id"] = call_id
        plain["type"] = "function"
        raw = call.raw_arguments
        plain["function"] = {"name": call.name, "arguments": raw if raw is not None else arguments_text(call)}
        return plain
    kind = data.get("type", "function")
    if kind == "custom":
        return _custom_call(call, call_id, freeform=freeform)
    # A chat source's call ({"type": "function"} and little else): read in place, not copied and
    # popped (a quarter of rendering a 100,000-message chat body back to chat).
    out: dict[str, JsonValue] = {}
    if call.raw_id is not None or call.id:
        out["id"] = call_id
    out["type"] = kind
    form = data.get("_arguments_form")
    fn: dict[str, JsonValue] = {"name": call.name}
    if form == "object":
        fn["arguments"] = call.parameters
    elif form != "absent":
        raw = call.raw_arguments
        fn["arguments"] = raw if raw is not None else arguments_text(call)
    fn_extra = data.get("function")
    if isinstance(fn_extra, dict):
        fn.update(fn_extra)
    out["function"] = fn
    if len(data) > 1 or "type" not in data:
        for key, value in data.items():
            if key not in ("type", "function") and not key.startswith("_"):
                out[key] = value
    return out


def _custom_call(call: ToolCallBlock, call_id: str, *, freeform: bool) -> dict[str, JsonValue]:
    """`chat_tool_call` of a call read from a chat ``type: "custom"`` call."""
    data = dict(call.provider_data)
    form = data.pop("_arguments_form", None)
    data.pop("_legacy", None)
    fn_extra = data.pop("function", {})
    out: dict[str, JsonValue] = {}
    if call.raw_id is not None or call.id:
        out["id"] = call_id
    out["type"] = data.pop("type", "function")
    custom_extra = data.pop("custom", {})
    if freeform and call.freeform_input is not None:
        custom: dict[str, JsonValue] = {"name": call.name, "input": call.freeform_input}
        custom.update(custom_extra if isinstance(custom_extra, dict) else {})
        out["custom"] = custom
        out.update({k: v for k, v in data.items() if not k.startswith("_")})
        return out
    out["type"] = "function"
    fn: dict[str, JsonValue] = {"name": call.name}
    if form == "object":
        fn["arguments"] = call.parameters
    elif form != "absent":
        fn["arguments"] = arguments_text(call)
    if isinstance(fn_extra, dict):
        fn.update(fn_extra)
    out["function"] = fn
    out.update({k: v for k, v in data.items() if not k.startswith("_")})
    return out


def result_content(block: ToolResponseBlock) -> JsonValue:
    """A tool result as chat ``content``: strings and text parts as they are, other JSON as text."""
    result = block.result
    if result is None:
        return block.error or ""
    if isinstance(result, str):
        return result
    if isinstance(result, list) and all(
        isinstance(p, dict) and p.get("type") == "text" and set(p) <= {"type", "text"} for p in result
    ):
        return result
    if isinstance(result, list) and all(isinstance(p, dict) and set(p) == {"text"} for p in result):
        return "\n".join(str(p["text"]) for p in result if isinstance(p, dict))
    return json.dumps(result, ensure_ascii=False, separators=(",", ":"))


def media_part(block: MediaBlock) -> dict[str, JsonValue]:
    """A media block as a chat content part."""
    if block.provider_data.get("type") in ("image_url", "input_audio", "file"):
        return dict(block.provider_data)
    url = block.url or (
        f"data:{block.mime_type or 'application/octet-stream'};base64,{block.data}" if block.data else ""
    )
    return {"type": "image_url", "image_url": {"url": url}}


def _own_fields(source_extra: dict[str, JsonValue], same: bool) -> dict[str, JsonValue]:
    """A message's fields sent as they are: a chat source's own, and Mistral's ``prefix``.

    A chat source's fields less toolhist's ``_`` markers, and the continuation flag curation sets.
    A loop, not a comprehension (a function made and called in Python 3.11): once per message.
    """
    extra: dict[str, JsonValue] = {}
    if same:
        for key, value in source_extra.items():
            if not key.startswith("_"):
                extra[key] = value
    if source_extra and source_extra.get("prefix") is True:
        extra["prefix"] = True
    return extra


class _Renderer:
    """Walks canonical messages and emits chat messages, recording the source map.

    Runs once per message of a history for three providers, so the walk dispatches on each block's
    class once (``type(block) is``: no subclass exists) and builds a plain text's content with
    no part made for it.
    """

    def __init__(self, session: Session, freeform: bool) -> None:
        self.session = session
        self.freeform = freeform
        self.same = session.source.format == CHAT_FORMAT
        self.messages: list[dict[str, JsonValue]] = []
        self.map = SourceMap(bracketed)
        self.put_message = self.map.column("messages", None)
        self.put_part = self.map.column("messages", None, "content", None)
        self.put_call = self.map.column("messages", None, "tool_calls", None)
        self.put_reasoning = self.map.column("messages", None, "reasoning_content")
        self.omitted: list[Omitted] = []
        self.custom = False
        """Whether a chat source's custom call was met (OpenAI's body then differs from the others')."""

    def path(self, *parts: str | int) -> PathT:
        return ("messages", len(self.messages) - 1, *parts)

    def content(self, blocks: list[tuple[int, Block]], message: Message, mi: int) -> JsonValue:
        """Text and media blocks as ``content`` (string when that is how the source had it).

        Called once per message with text (three providers render through here); one plain text
        block, most messages' content, is written as its string without making its part.
        """
        same = self.same
        form = message.metadata.extra.get("_content_form") if same else None
        put = self.put_part
        at = len(self.messages) - 1
        if len(blocks) == 1 and (form == "string" or form is None):
            bi, block = blocks[0]
            if type(block) is TextBlock and not block.provider_data:
                put(at, 0, mi, bi)
                return block.text
        parts: list[JsonValue] = []
        for bi, block in blocks:
            if type(block) is TextBlock:
                data = block.provider_data
                if not data:
                    parts.append({"type": "text", "text": block.text})
                elif data.get("type") == "refusal":
                    parts.append({"type": "refusal", "refusal": block.text})
                elif same:
                    parts.append({"type": "text", "text": block.text, **data})
                else:
                    parts.append({"type": "text", "text": block.text})
            elif type(block) is MediaBlock:
                parts.append(media_part(block))
            put(at, len(parts) - 1, mi, bi)
        if form == "parts":
            return parts
        if form in ("null", "absent") and not parts:
            return None
        if form == "string" or (
            form is None and len(parts) == 1 and isinstance(parts[0], dict) and parts[0].get("type") == "text"
        ):
            first = parts[0] if parts else {"text": ""}
            return first.get("text", "") if isinstance(first, dict) else ""
        if not parts:
            return None
        return parts

    def emit(self, msg: dict[str, JsonValue], mi: int) -> None:
        self.messages.append(msg)
        self.put_message(len(self.messages) - 1, mi, None)

    def run(self) -> list[dict[str, JsonValue]]:
        """Every message in order; a tool message of one result, half of a history's, is made here.

        Its chat ``tool`` message is built inline, as `results` builds it for one result, without
        the calls to `message`, `_own_fields` and `results` and their lists.
        """
        message = self.message
        same = self.same
        messages = self.messages
        put = self.put_message
        for mi, each in enumerate(self.session.messages):
            blocks = each.blocks
            block = blocks[0] if len(blocks) == 1 else None
            if type(block) is not ToolResponseBlock or each.speaker != "tool":
                message(mi, each)
                continue
            tool_msg: dict[str, JsonValue] = {"role": "tool"}
            data = block.provider_data
            if not data or data.get("_tool_call_id") != "absent":
                tool_msg["tool_call_id"] = block.call_id
            result = block.result
            tool_msg["content"] = result if type(result) is str else result_content(block)
            if same:
                metadata = each.metadata
                if metadata.extra:
                    tool_msg.update(_own_fields(metadata.extra, same))
                if metadata.source_role == "function":
                    tool_msg["role"] = "function"
                    tool_msg.pop("tool_call_id", None)
            messages.append(tool_msg)
            put(len(messages) - 1, mi, 0)  # the message, then its block: one entry
        return messages

    def message(self, mi: int, message: Message) -> None:
        same = self.same
        source_extra = message.metadata.extra
        extra = _own_fields(source_extra, same)
        blocks = message.blocks
        pending: list[tuple[int, Block]] = []
        calls: list[tuple[int, ToolCallBlock]] = []
        responses: list[tuple[int, ToolResponseBlock]] = []
        thinking: ThinkingBlock | None = None
        thinking_at = 0
        for bi, block in enumerate(blocks):
            kind = type(block)
            if kind is ToolResponseBlock:
                responses.append((bi, block))  # type: ignore[arg-type]  # its class, tested
            elif kind is ToolCallBlock:
                calls.append((bi, block))  # type: ignore[arg-type]
            elif kind is TextBlock or kind is MediaBlock:
                pending.append((bi, block))
            elif isinstance(block, ThinkingBlock):
                if block.provider_data.get("field") == "reasoning_content" and thinking is None:
                    thinking, thinking_at = block, bi
                else:
                    self.omitted.append((mi, bi, "thinking", block.source_provider))
            elif isinstance(block, OpaqueBlock):
                self.omitted.append((mi, bi, "opaque", block.source_format))
        speaker = message.speaker
        messages = self.messages
        if speaker == "tool":
            if responses:
                self.results(mi, message, responses, extra)
            if calls:
                # A tool message holding calls (seed 000 failure mode A): the calls go out as the
                # assistant turn they are, right after the results, as naive clients send them.
                self.assistant(mi, [], calls, None, extra={}, message=message)
            if pending:  # appended first: `content` maps its parts under the message it is in
                text: dict[str, JsonValue] = {"role": "user"}
                self.emit(text, mi)
                text["content"] = self.content(pending, message, mi)
            return
        if speaker == "ai" or calls:
            self.assistant(mi, pending, calls, thinking, extra=extra, message=message)
            if thinking is not None:
                self.put_reasoning(len(messages) - 1, mi, thinking_at)
            return
        source_role = message.metadata.source_role
        role = (
            source_role if same and source_role in ("system", "developer", "user") else SPEAKER_ROLE[speaker]
        )
        out: dict[str, JsonValue] = {"role": role}
        messages.append(out)
        self.put_message(len(messages) - 1, mi, None)
        value = self.content(pending, message, mi) if pending or same else None
        if not (same and source_extra.get("_content_form") == "absent"):
            out["content"] = value
        if extra:
            out.update(extra)

    def results(
        self,
        mi: int,
        message: Message,
        responses: list[tuple[int, ToolResponseBlock]],
        extra: dict[str, JsonValue],
    ) -> None:
        """A tool message's results, one chat ``tool`` message each."""
        same = self.same
        messages = self.messages
        put = self.put_message
        for bi, block in responses:
            tool_msg: dict[str, JsonValue] = {"role": "tool"}
            data = block.provider_data
            if not data or data.get("_tool_call_id") != "absent":
                tool_msg["tool_call_id"] = block.call_id
            result = block.result
            tool_msg["content"] = result if type(result) is str else result_content(block)
            if same and len(responses) == 1:
                tool_msg.update(extra)
                if message.metadata.source_role == "function":
                    tool_msg["role"] = "function"
                    tool_msg.pop("tool_call_id", None)
            messages.append(tool_msg)
            put(len(messages) - 1, mi, bi)  # the message, then its block: one entry

    def assistant(
        self,
        mi: int,
        pending: list[tuple[int, Block]],
        calls: list[tuple[int, ToolCallBlock]],
        thinking: ThinkingBlock | None,
        *,
        extra: dict[str, JsonValue],
        message: Message,
    ) -> None:
        same = self.same
        out: dict[str, JsonValue] = {"role": "assistant"}
        messages = self.messages
        messages.append(out)
        at = len(messages) - 1
        self.put_message(at, mi, None)
        form = message.metadata.extra.get("_content_form") if same else None
        value = self.content(pending, message, mi) if pending or same else None
        if form != "absent":
            out["content"] = value
        legacy: list[ToolCallBlock] = []
        regular = calls
        if calls:
            for _, c in calls:  # a loop, not a comprehension: once per message with calls
                if c.provider_data.get("_legacy"):
                    legacy.append(c)
            if legacy:
                regular = [(bi, c) for bi, c in calls if not c.provider_data.get("_legacy")]
        if regular or (same and message.metadata.extra.get("tool_calls") == []):
            freeform, custom = self.freeform, self.custom
            put = self.put_call
            entries: list[JsonValue] = []
            for k, (bi, c) in enumerate(regular):  # one loop: the entries, their map, custom calls
                entries.append(chat_tool_call(c, c.id, same, freeform))
                put(at, k, mi, bi)
                if same and not custom and c.freeform_input is not None:
                    custom = c.provider_data.get("type") == "custom"
            self.custom = custom
            out["tool_calls"] = entries
        if legacy:
            fn = chat_tool_call(legacy[0], legacy[0].id, same=same)["function"]
            out["function_call"] = fn
        if thinking is not None:
            out["reasoning_content"] = thinking.text
        if extra:
            out.update({k: v for k, v in extra.items() if k != "tool_calls"})


Rendered = tuple[dict[str, JsonValue], SourceMap, list[Omitted]]
"""A body, its source map, and the blocks left out (`Omitted`: said per provider by `said`)."""


def render_fresh(session: Session, *, freeform: bool) -> tuple[Rendered, bool]:
    """The Chat Completions body for ``session``, and whether a chat source's custom call was met.

    ``freeform``: custom calls go back as custom calls (OpenAI only). The body is the same either
    way when no custom call was met (`toolhist.providers.chat_shared`).
    """
    renderer = _Renderer(session, freeform)
    return _render(session, renderer), renderer.custom


def said(entry: Omitted, fmt: str) -> str:
    """A block left out, in the words of ``Payload.omitted`` for provider ``fmt``."""
    mi, bi, kind, what = entry
    if kind == "thinking":
        return f"message {mi} block {bi}: thinking from {what} has no place in {fmt}"
    return f"message {mi} block {bi}: {what} block kept verbatim cannot be sent to {fmt}"


def _render(session: Session, renderer: _Renderer) -> Rendered:
    messages = renderer.run()
    request = (
        session.request if renderer.same else {k: v for k, v in session.request.items() if k in ("model",)}
    )
    body: dict[str, JsonValue] = {}
    body.update(request)
    body["messages"] = list(messages)
    if not renderer.same and session.tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    **({"description": t.description} if t.description else {}),
                    "parameters": t.parameters
                    if t.parameters is not None
                    else {"type": "object", "properties": {}},
                },
            }
            for t in session.tools
            if t.kind == "function"
        ]
    if renderer.same and session.metadata.get("shape") == "list":
        body = {"messages": body["messages"]}
    return body, renderer.map, renderer.omitted


def chat_messages_key(body: dict[str, Any]) -> list[Any]:
    """The message list of a chat body (empty when missing or malformed)."""
    messages = body.get("messages")
    return messages if isinstance(messages, list) else []
