"""Rendering a Session as an OpenAI Responses request body.

A body read from Responses renders back to the same JSON value. The reader grouped consecutive
model-side items into one ``ai`` message and outputs into one ``tool`` message; the items are
rebuilt from ``Location.block_items`` (which source item each block came from) and the markers on
the blocks: ``_item`` (an assistant message's own fields, on its first block), ``_content_form``
(string or parts), ``_call_id: absent``, ``input`` given as a plain string, ``instructions``.

From another format the body is built the way Responses clients build it: each canonical message
becomes items in order: text and media as one message item (``user``, ``system``/``developer``,
``assistant``; assistant text of several parts as one string item per part, as the AI SDK sends
it and the SDK types take it), each call a ``function_call`` (no item ``id``: the source had none), each result a
``function_call_output`` whose ``output`` is a string (non-string results are JSON-dumped). System
messages stay message items where they were, as the Agents SDK and the AI SDK send them, so a
boundary is never moved. Reasoning items only replay to Responses; other formats' thinking is left
out and listed in ``Payload.omitted``. Declared tools are sent with ``strict: false``, since strict
mode (the Responses default) would reject schemas written for other APIs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from pydantic import JsonValue

from toolhist.formats.openai_responses import AI_SIDE, TOOL_SIDE
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
from toolhist.providers.base import Payload, SourceMap, bracketed, new_payload
from toolhist.providers.chat_render import arguments_text

NAME = "openai-responses"
ITEM_TYPES = AI_SIDE | TOOL_SIDE | {"item_reference", "compaction", "message"}
ROLE = {"human": "user", "system": "system", "ai": "assistant", "tool": "user"}
Group = list[tuple[int, Block]]
_ITEM_BLOCKS = (ToolCallBlock, ToolResponseBlock, ThinkingBlock)
"""The blocks that are items of their own (`_Renderer.turn_block`), matched by class."""


def output_text(block: ToolResponseBlock) -> str:
    """A tool result as the string ``output`` (text parts joined, other JSON dumped)."""
    result = block.result
    if result is None:
        return block.error or ""
    if isinstance(result, str):
        return result
    if isinstance(result, list) and all(
        isinstance(p, dict) and isinstance(p.get("text"), str) and p.get("type", "text") == "text"
        for p in result
    ):
        return "\n".join(str(p["text"]) for p in result if isinstance(p, dict))
    return json.dumps(result, ensure_ascii=False, separators=(",", ":"))


def _input_parts(result: JsonValue) -> bool:
    """Whether a result is already written as Responses ``input_text`` parts.

    The API takes ``output`` as a list of them; the AI SDK's Responses adapter sends a ``content``
    output that way.
    """
    return (
        isinstance(result, list)
        and bool(result)
        and all(isinstance(p, dict) and p.get("type") == "input_text" for p in result)
    )


def _is_item(block: OpaqueBlock) -> bool:
    """An opaque Responses block that was a whole item (not an unknown part of a message)."""
    kind = block.data.get("type")
    return "role" in block.data or (isinstance(kind, str) and kind in ITEM_TYPES)


def _public(data: dict[str, JsonValue]) -> dict[str, JsonValue]:
    return {k: v for k, v in data.items() if not k.startswith("_")}


class _Renderer:
    """Walks canonical messages and emits input items, recording the source map."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.same = session.source.format == NAME
        self.items: list[JsonValue] = []
        self.instructions: str | None = None
        self.map = SourceMap(bracketed)
        self.put_item = self.map.column("input", None)
        self.put_part = self.map.column("input", None, "content", None)
        self.omitted: list[str] = []
        self.freeform: set[str] = set()
        """Ids of freeform calls emitted so far: their results are ``custom_tool_call_output``."""
        self.freeform_names: set[str] = set()
        """Their tools' names, to declare as ``custom`` tools (`_tools`): every call is emitted here."""

    def part(self, block: Block, role: str) -> JsonValue:
        """A text or media block (or an opaque part) as a content part."""
        if isinstance(block, TextBlock):
            data = _public(block.provider_data) if self.same else {}
            if data.get("type") == "refusal":
                return {**data, "refusal": block.text}
            kind = data.pop("type", "output_text" if role == "assistant" else "input_text")
            return {"type": kind, "text": block.text, **data}
        if isinstance(block, MediaBlock):
            if self.same and block.provider_data:
                return _public(block.provider_data)
            url = block.url or (
                f"data:{block.mime_type or 'application/octet-stream'};base64,{block.data}"
                if block.data
                else ""
            )
            if block.mime_type and not block.mime_type.startswith("image/"):
                out: dict[str, JsonValue] = {"type": "input_file"}
                if block.filename:
                    out["filename"] = block.filename
                out["file_url" if block.data is None else "file_data"] = url
                return out
            return {"type": "input_image", "image_url": url}
        assert isinstance(block, OpaqueBlock)
        return dict(block.data)

    def message_item(
        self, mi: int, group: Group, role: str, fields: dict[str, JsonValue], form: JsonValue
    ) -> None:
        """One message item from content blocks; ``form`` is the source's content spelling.

        One text block from another format (most messages) is written as its string at once: its
        part would be made only to be dropped.
        """
        index = len(self.items)
        item: dict[str, JsonValue] = {}
        item.update(fields)
        item.setdefault("role", role)
        self.items.append(item)
        self.put_item(index, mi, group[0][0] if group and role == "assistant" else None)
        if len(group) == 1 and form is None and not self.same and type(group[0][1]) is TextBlock:
            bi, text = group[0]
            self.put_part(index, 0, mi, bi)
            item["content"] = text.text  # type: ignore[union-attr]  # its class, tested
            return
        parts: list[JsonValue] = []
        for bi, block in group:
            if isinstance(block, OpaqueBlock) and block.source_format != NAME:
                self._omit_opaque(mi, bi, block)
                continue
            parts.append(self.part(block, str(item["role"])))
            self.put_part(index, len(parts) - 1, mi, bi)
        single = len(group) == 1 and isinstance(group[0][1], TextBlock)
        if single and (form in ("string", "input_string") or (form is None and not self.same)):
            item["content"] = group[0][1].text if isinstance(group[0][1], TextBlock) else ""
        elif form is None and not self.same and not parts:
            item["content"] = ""
        else:
            item["content"] = parts

    def _omit_opaque(self, mi: int, bi: int, block: OpaqueBlock) -> None:
        self.omitted.append(
            f"message {mi} block {bi}: {block.source_format} block kept verbatim cannot be sent to {NAME}"
        )

    def emit(self, item: dict[str, JsonValue], mi: int, bi: int) -> None:
        self.put_item(len(self.items), mi, bi)
        self.items.append(item)

    def call(self, mi: int, bi: int, block: ToolCallBlock) -> None:
        freeform = block.freeform_input is not None
        item: dict[str, JsonValue]
        if self.same:
            data = _public(block.provider_data)
            kind = data.pop("type", "custom_tool_call" if freeform else "function_call")
            item = {"type": kind, **data, "call_id": block.id, "name": block.name}
        else:  # another format's call: nothing of its own to carry (a literal, no unpacking)
            kind = "custom_tool_call" if freeform else "function_call"
            item = {"type": kind, "call_id": block.id, "name": block.name}
        if freeform:
            # Freeform tools replay as Codex sends them (ResponseItem::CustomToolCall): the text input.
            self.freeform.add(block.id)
            self.freeform_names.add(block.name)
            item["input"] = block.freeform_input
        elif kind == "custom_tool_call":
            item["input"] = block.parameters
        else:
            raw = block.raw_arguments
            item["arguments"] = raw if raw is not None else arguments_text(block)
        self.put_item(len(self.items), mi, bi)
        self.items.append(item)

    def output(self, mi: int, bi: int, block: ToolResponseBlock) -> None:
        kind = "custom_tool_call_output" if block.call_id in self.freeform else "function_call_output"
        result = block.result
        item: dict[str, JsonValue]
        if self.same:
            data = block.provider_data
            item = {"type": kind, **_public(data)}
            if data.get("_call_id") != "absent":
                item["call_id"] = block.call_id
            item["output"] = result
        else:  # another format's result: its own fields stay behind (a literal, no unpacking)
            item = {"type": kind, "call_id": block.call_id}
            item["output"] = result if type(result) is str or _input_parts(result) else output_text(block)
        self.put_item(len(self.items), mi, bi)
        self.items.append(item)

    def reasoning(self, mi: int, bi: int, block: ThinkingBlock) -> None:
        if block.source_provider != NAME:
            self.omitted.append(
                f"message {mi} block {bi}: thinking from {block.source_provider or 'another format'} "
                f"cannot be replayed to {NAME} (reasoning items only come from Responses)"
            )
            return
        item: dict[str, JsonValue] = {"type": "reasoning", **_public(block.provider_data)}
        if block.data is not None:
            item["encrypted_content"] = block.data
        elif block.provider_data.get("_encrypted_content") == "null":
            item["encrypted_content"] = None
        self.emit(item, mi, bi)

    def groups(self, mi: int, message: Message) -> Iterator[Group]:
        """Blocks grouped by source item: ``block_items`` when they fit, else content runs."""
        locations = self.session.source.locations
        items = locations[mi].block_items if self.same and mi < len(locations) else None
        blocks = message.blocks
        if items is not None and len(items) == len(blocks):
            keys: list[object] = list(items)
            group: Group = []
            for bi, block in enumerate(blocks):
                if group and keys[bi] != keys[group[-1][0]]:
                    yield group
                    group = []
                group.append((bi, block))
            if group:
                yield group
            return
        # Content runs, keyed and grouped in one pass (a group's blocks are consecutive: its last
        # block's key is the previous block's).
        group = []
        previous: tuple[str, int] | None = None
        run = 0
        for bi, block in enumerate(blocks):
            content = isinstance(block, (TextBlock, MediaBlock)) or (
                isinstance(block, OpaqueBlock) and block.source_format == NAME and not _is_item(block)
            )
            starts = (
                not content
                or bi == 0
                or "_item" in getattr(block, "provider_data", {})
                or previous != ("content", run)
            )
            if starts:
                run += 1
            key = ("content", run) if content else ("item", bi)
            if group and key != previous:
                yield group
                group = []
            group.append((bi, block))
            previous = key
        if group:
            yield group

    def turn(self, mi: int, message: Message) -> None:
        """An ``ai`` or ``tool`` message: one item per source item (an empty one stays, as an empty message)."""
        if not message.blocks:
            self.message_item(mi, [], ROLE[message.speaker], {}, None)
            return
        blocks = message.blocks
        grouped: Iterable[Group] = (
            ([(0, blocks[0])],) if len(blocks) == 1 else self.groups(mi, message)
        )  # one block: one group
        same = self.same
        for group in grouped:
            bi, first = group[0]
            kind = type(first)  # one dispatch on the class (no subclass exists)
            if kind is ToolCallBlock:
                self.call(mi, bi, first)  # type: ignore[arg-type]  # its class, tested
            elif kind is ToolResponseBlock:
                self.output(mi, bi, first)  # type: ignore[arg-type]
            elif kind is ThinkingBlock:
                self.reasoning(mi, bi, first)  # type: ignore[arg-type]
            elif isinstance(first, OpaqueBlock) and (_is_item(first) or first.source_format != NAME):
                if first.source_format == NAME:
                    self.emit(dict(first.data), mi, bi)
                else:
                    self._omit_opaque(mi, bi, first)
            elif not same and self._blank(group, message):
                self.omitted.append(f"message {mi} block {bi}: empty text not sent (clients leave it out)")
            elif not same and message.speaker == "ai" and self._texts(group):
                # The SDK types take assistant text only as a string (EasyInputMessageParam) or in an
                # output message with a server id; one string item per part keeps every part as it was.
                for part in group:
                    self.message_item(mi, [part], "assistant", {}, None)
            elif same:
                head = getattr(first, "provider_data", {})
                fields = head.get("_item")
                self.message_item(
                    mi,
                    group,
                    ROLE[message.speaker],
                    dict(fields) if isinstance(fields, dict) else {},
                    head.get("_content_form"),
                )
            else:
                self.message_item(mi, group, ROLE[message.speaker], {}, None)
            if len(group) > 1:
                for bi, extra in group[1:]:
                    if type(extra) in _ITEM_BLOCKS:
                        self.turn_block(mi, bi, extra)

    @staticmethod
    def _texts(group: Group) -> bool:
        """Two or more text blocks and nothing else."""
        return len(group) > 1 and all(isinstance(b, TextBlock) for _, b in group)

    @staticmethod
    def _blank(group: Group, message: Message) -> bool:
        """Only empty text, in a message that says something else (a chat ``content: ""`` beside calls)."""
        return len(group) < len(message.blocks) and all(
            isinstance(b, TextBlock) and b.text == "" for _, b in group
        )

    def turn_block(self, mi: int, bi: int, block: Block) -> None:
        """A second non-content block sharing a source item (not produced by the reader)."""
        kind = type(block)
        if kind is ToolCallBlock:
            self.call(mi, bi, block)  # type: ignore[arg-type]  # its class, tested
        elif kind is ToolResponseBlock:
            self.output(mi, bi, block)  # type: ignore[arg-type]
        elif kind is ThinkingBlock:
            self.reasoning(mi, bi, block)  # type: ignore[arg-type]

    def said(self, mi: int, message: Message) -> None:
        """A human or system message: one message item, then any other blocks as their own items."""
        extra = message.metadata.extra if self.same else {}
        content: Group = []
        others: Group = []
        for bi, b in enumerate(message.blocks):  # one loop sorts the blocks (once per message)
            (others if type(b) in _ITEM_BLOCKS else content).append((bi, b))
        source_role = message.metadata.source_role
        role = (
            source_role
            if source_role in ("system", "developer")
            or (source_role == "user" and message.speaker == "human")
            else ROLE[message.speaker]
        )
        fields = _public(extra) if extra else {}
        fields["role"] = role
        self.message_item(mi, content, role, fields, extra.get("_content_form"))
        for bi, block in others:
            self.turn_block(mi, bi, block)

    def run(self) -> None:
        same, said, turn = self.same, self.said, self.turn
        for mi, message in enumerate(self.session.messages):
            if (
                same
                and message.metadata.extra.get("_request_field") == "instructions"
                and len(message.blocks) == 1
            ):
                block = message.blocks[0]
                if isinstance(block, TextBlock):
                    self.instructions = block.text
                    self.map.add(("instructions",), mi, 0)
                    continue
            if message.speaker in ("human", "system"):
                said(mi, message)
            else:
                turn(mi, message)


def _tools(session: Session, omitted: list[str], freeform: set[str]) -> list[JsonValue]:
    """Session.tools as Responses function tools (built-in tools of other formats cannot go).

    A tool the history calls freeform (a Chat ``custom`` tool, Codex's ``apply_patch``) is declared as
    a Responses ``custom`` tool, as its calls go out as ``custom_tool_call`` items: a ``function``
    declaration would contradict them. Shape: the openai SDK 3.57.0,
    ``openai/types/responses/custom_tool_param.py`` (``type: "custom"``, ``name``, optional
    ``description`` and ``format``, whose default is "unconstrained text"; a Chat declaration's ``format``
    is not carried over, as ``ToolSpec`` holds none).
    """
    if not session.tools:
        return []
    tools: list[JsonValue] = []
    for spec in session.tools:
        if spec.kind != "function":
            omitted.append(f"tool {spec.name!r}: built-in {spec.kind} tool of another provider")
            continue
        if spec.name in freeform:
            custom: dict[str, JsonValue] = {"type": "custom", "name": spec.name}
            if spec.description:
                custom["description"] = spec.description
            tools.append(custom)
            continue
        tool: dict[str, JsonValue] = {"type": "function", "name": spec.name}
        if spec.description:
            tool["description"] = spec.description
        tool["parameters"] = (
            spec.parameters if spec.parameters is not None else {"type": "object", "properties": {}}
        )
        tool["strict"] = False
        tools.append(tool)
    return tools


def render(session: Session) -> Payload:
    """The Responses body for ``session``, ids as the session has them."""
    renderer = _Renderer(session)
    renderer.run()
    body: dict[str, JsonValue] = {}
    if renderer.same:
        body.update(session.request)
    elif isinstance(session.request.get("model"), str):
        body["model"] = session.request["model"]
    if renderer.instructions is not None:
        body["instructions"] = renderer.instructions
    items = renderer.items
    last = session.messages[-1] if session.messages else None
    if (
        renderer.same
        and len(items) == 1
        and last is not None
        and last.metadata.extra.get("_content_form") == "input_string"
        and isinstance(items[0], dict)
    ):
        body["input"] = items[0].get("content")
        renderer.map = renderer.map.remapped(lambda path: ("input",) if path[:2] == ("input", 0) else path)
    else:
        body["input"] = list(items)
    omitted = renderer.omitted
    if not renderer.same:
        tools = _tools(session, omitted, renderer.freeform_names)
        if tools:
            body["tools"] = tools
    if renderer.same and session.metadata.get("shape") == "list":
        body = {"input": body["input"]}
    return new_payload(NAME, body, renderer.map, tuple(omitted))
