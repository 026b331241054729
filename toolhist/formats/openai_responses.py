"""OpenAI Responses API: a request body ``{"model", "instructions", "input", "tools", …}`` or an item list.

Input is a flat list of items; the canonical model is turns. Consecutive model-side items
(``reasoning``, ``function_call``, assistant ``message``…) become one ``ai`` message and
consecutive ``function_call_output`` items one ``tool`` message. Each block remembers its source
item (``Location.block_items``), so the exact item list can be rebuilt and a violation on
``input[7]`` points at the right block.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import JsonValue

from toolhist._trusted import construct, filler, replace
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
    unshared,
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

ROLES: dict[str, Speaker] = {"user": "human", "system": "system", "developer": "system", "assistant": "ai"}
CALL_TYPES = {"function_call", "custom_tool_call"}
OUTPUT_TYPES = {"function_call_output", "custom_tool_call_output"}
AI_SIDE = {
    "reasoning",
    *CALL_TYPES,
    "web_search_call",
    "file_search_call",
    "computer_call",
    "code_interpreter_call",
    "image_generation_call",
    "local_shell_call",
    "shell_call",
    "apply_patch_call",
    "mcp_call",
    "mcp_list_tools",
    "mcp_approval_request",
    # Client-run tool search (``execution: "local"``): Codex replays both items as they are
    # (``is_api_message`` is true for ToolSearchCall and ToolSearchOutput, openai/codex
    # codex-rs/core/src/context_manager/history.rs); kept whole, in order, on the model's side.
    "tool_search_call",
    "tool_search_output",
}
TOOL_SIDE = {
    *OUTPUT_TYPES,
    "computer_call_output",
    "local_shell_call_output",
    "shell_call_output",
    "apply_patch_call_output",
    "mcp_approval_response",
}
PART_TYPES = {
    "input_text",
    "output_text",
    "input_image",
    "input_file",
    "input_audio",
    "refusal",
    "summary_text",
}


def _kind(item: dict[str, Any]) -> str:
    """The item type; role-only items are (easy) messages."""
    kind = item.get("type")
    return kind if isinstance(kind, str) else "message"


def read_message_parts(
    content: Any,
    ptr: Pointer,
    fmt: str,
    share: Callable[[dict[str, JsonValue]], dict[str, JsonValue]] = unshared,
) -> list[Block]:
    """A message item's content (string or parts) as blocks (``share``: `toolhist.formats.base.Shared`)."""
    if isinstance(content, str):
        return [construct(TextBlock, text=content)]
    blocks: list[Block] = []
    for j, raw in enumerate(arr(content, ptr)):
        part = obj(raw, (*ptr, j))
        kind = part.get("type")
        if kind in ("input_text", "output_text"):
            blocks.append(
                construct(
                    TextBlock,
                    text=text(part.get("text"), (*ptr, j, "text")),
                    provider_data=share(rest(part, "text")),
                )
            )
        elif kind == "refusal":
            blocks.append(
                construct(
                    TextBlock,
                    text=text(part.get("refusal"), (*ptr, j, "refusal")),
                    provider_data=rest(part, "refusal"),
                )
            )
        elif kind in ("input_image", "input_file", "input_audio"):
            url = part.get("image_url") or part.get("file_url") or part.get("file_id")
            blocks.append(
                construct(
                    MediaBlock,
                    url=url if isinstance(url, str) else None,
                    data=part.get("file_data") if isinstance(part.get("file_data"), str) else None,
                    filename=part.get("filename") if isinstance(part.get("filename"), str) else None,
                    provider_data=dict(part),
                )
            )
        else:
            blocks.append(construct(OpaqueBlock, source_format=fmt, data=dict(part)))
    return blocks


def read_item(
    item: dict[str, Any],
    ptr: Pointer,
    fmt: str,
    share: Callable[[dict[str, JsonValue]], dict[str, JsonValue]] = unshared,
    names: dict[str, str] | None = None,
) -> list[Block]:
    """One non-message item as blocks (usually one; ``share``: see `toolhist.formats.base.Shared`).

    ``names`` (call id → name of the first call with it, gaining this item's call) names an output
    as `toolhist.formats.base.fill_tool_names` would, here, for a reader that reads items in
    message order: an output named after it was read was made twice, and its message too.
    """
    kind = _kind(item)
    if kind in CALL_TYPES:
        call_id = text(item.get("call_id"), (*ptr, "call_id"))
        extra = share(rest(item, "call_id", "name", "arguments", "input"))
        if kind == "function_call":
            raw_args = text(item.get("arguments"), (*ptr, "arguments"))
            params, error = parse_arguments(raw_args)
            name = text(item.get("name", ""), (*ptr, "name"))
            call = construct(
                ToolCallBlock,
                id=call_id,
                name=name,
                parameters=params,
                raw_id=call_id,
                raw_arguments=raw_args,
                arguments_error=error,
                provider_data=extra,
            )
        else:
            # A freeform (custom) tool's input is text, not JSON arguments: kept verbatim, and as
            # {"input": text} for providers whose tools take a JSON object.
            freeform = text(item.get("input", ""), (*ptr, "input"))
            name = text(item.get("name", ""), (*ptr, "name"))
            call = construct(
                ToolCallBlock,
                id=call_id,
                name=name,
                parameters={"input": freeform},
                freeform_input=freeform,
                raw_id=call_id,
                provider_data=extra,
            )
        if names is not None:
            names.setdefault(call_id, name)
        return [call]
    if kind in OUTPUT_TYPES:
        out_id = opt_text(item.get("call_id"), (*ptr, "call_id"))
        extra = rest(item, "call_id", "output")
        if out_id is None:
            extra["_call_id"] = "absent"
        extra = share(extra)
        if names is not None and (out_id or "") in names:
            # every field given, as `toolhist.formats.base.named_blocks` makes a named result
            return [named_result(out_id or "", names[out_id or ""], item.get("output"), out_id, extra)]
        return [
            construct(
                ToolResponseBlock,
                call_id=out_id or "",
                result=item.get("output"),
                raw_call_id=out_id,
                provider_data=extra,
            )
        ]
    if kind == "reasoning":
        summary = item.get("summary")
        parts = summary if isinstance(summary, list) else []
        joined = "\n\n".join(
            p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
        return [
            construct(
                ThinkingBlock,
                text=joined,
                data=opt_text(item.get("encrypted_content"), (*ptr, "encrypted_content")),
                source_provider=fmt,
                provider_data={
                    **rest(item, "encrypted_content"),
                    # An explicit null (Codex writes one) is kept, so the item renders back as it was.
                    **({"_encrypted_content": "null"} if item.get("encrypted_content", "") is None else {}),
                },
            )
        ]
    return [construct(OpaqueBlock, source_format=fmt, data=dict(item))]


class OpenAIResponsesReader(Reader):
    """``openai-responses``: Responses API request bodies and input item lists."""

    id = "openai-responses"
    description = "OpenAI Responses API request body or input item list"
    judgement = "as-sent"

    def recognise(self, value: Any) -> int:
        """Certain on ``input`` in a body or typed items (function_call, reasoning, input_text…)."""
        if isinstance(value, dict):
            if "input" in value and (
                "model" in value or "instructions" in value or isinstance(value["input"], list)
            ):
                return 2 if self._items_ok(value["input"]) or isinstance(value["input"], str) else 0
            return 0
        if not isinstance(value, list) or not value or not self._items_ok(value):
            return 0
        return 2 if any(self._marker(i) for i in value) else 1

    @staticmethod
    def _items_ok(items: Any) -> bool:
        if not isinstance(items, list):
            return False
        for item in items:
            if not isinstance(item, dict):
                return False
            kind = _kind(item)
            if kind == "message":
                if tag(item.get("role")) not in ROLES or "parts" in item:
                    return False
                content = item.get("content")
                if isinstance(content, list) and any(
                    isinstance(p, dict) and tag(p.get("type")) not in PART_TYPES for p in content
                ):
                    return False
                if not isinstance(content, str | list):
                    return False
            elif kind not in AI_SIDE | TOOL_SIDE | {"item_reference", "compaction"}:
                return False
        return True

    @staticmethod
    def _marker(item: dict[str, Any]) -> bool:
        if _kind(item) != "message" or item.get("type") == "message":
            return True
        content = item.get("content")
        return isinstance(content, list) and any(
            isinstance(p, dict) and tag(p.get("type")) in PART_TYPES for p in content
        )

    def read(self, doc: Document) -> Session:
        """Read a body or list; ``instructions`` becomes the first (system) message."""
        value = doc.value
        built = Built(doc)
        request: dict[str, JsonValue] = {}
        tools = None
        if isinstance(value, dict):
            ptr: Pointer = ("input",)
            request = rest(value, "input", "instructions")
            if isinstance(value.get("instructions"), str):
                built.add(
                    construct(
                        Message,
                        speaker="system",
                        blocks=(construct(TextBlock, text=value["instructions"]),),
                        metadata=construct(
                            MessageMetadata, source_role="system", extra={"_request_field": "instructions"}
                        ),
                    ),
                    None,
                    ("instructions",),
                )
            elif "instructions" in value:
                request["instructions"] = value["instructions"]
            if "tools" in value:
                tools = _read_tools(value["tools"])
            raw_input = value.get("input")
            if isinstance(raw_input, str):
                built.add(
                    construct(
                        Message,
                        speaker="human",
                        blocks=(construct(TextBlock, text=raw_input),),
                        metadata=construct(
                            MessageMetadata, source_role="user", extra={"_content_form": "input_string"}
                        ),
                    ),
                    None,
                    ("input",),
                )
                return built.session(self.id, tools=tools, request=request, metadata={"shape": "body"})
            items = arr(raw_input, ptr)
        else:
            ptr = ()
            items = arr(value, ptr)
        self._read_items(items, ptr, built, names={})
        built.named = True  # every output named as read (`read_item`)
        return built.session(
            self.id,
            tools=tools,
            request=request,
            metadata={"shape": "body" if isinstance(value, dict) else "list"},
        )

    def _read_items(
        self,
        items: list[Any],
        ptr: Pointer,
        built: Built,
        *,
        first: int = 0,
        sides: dict[str, MessageMetadata] | None = None,
        share: Callable[[dict[str, JsonValue]], dict[str, JsonValue]] = unshared,
        names: dict[str, str] | None = None,
    ) -> None:
        """``items`` grouped into messages added to ``built``; ``items[0]`` is item ``first`` of the input.

        A caller reading a long list a part at a time (`toolhist.agents.codex.reader`) gives each
        part's place, so indices and pointers are the whole list's, and the same ``sides``
        (`side_metadata_pair`), ``share`` (`toolhist.formats.base.Shared`) and ``names`` (`read_item`:
        outputs named as read) for every part.
        """
        group: list[Block] = []
        group_items: list[int] = []
        group_side: str | None = None
        start = 0
        side_metadata = sides if sides is not None else side_metadata_pair()

        def flush() -> None:
            nonlocal group, group_items, group_side
            if group_side is not None:
                speaker: Speaker = "ai" if group_side == "ai" else "tool"
                # one item when the first is the last (a group's item indices do not decrease)
                path = (
                    (*ptr, start)
                    if group_items[0] == group_items[-1]
                    else (*ptr, f"{start}:{group_items[-1] + 1}")
                )
                built.add(
                    _MESSAGE(
                        {"speaker": speaker, "blocks": tuple(group), "metadata": side_metadata[speaker]}
                    ),
                    start,
                    path,
                    block_items=tuple(group_items),
                )
            group, group_items, group_side = [], [], None

        for i, raw in enumerate(items, first):
            iptr = (*ptr, i)
            item = obj(raw, iptr)
            kind = _kind(item)
            if kind == "message" and item.get("role") != "assistant":
                flush()
                role = item.get("role")
                if not isinstance(role, str) or role not in ROLES:
                    raise ShapeError(
                        (*iptr, "role"),
                        f"unknown role {role!r}; expected user, system, developer or assistant",
                    )
                if "content" not in item:
                    raise ShapeError((*iptr, "content"), "required field 'content' is missing")
                blocks = read_message_parts(item["content"], (*iptr, "content"), self.id, share)
                extra: dict[str, JsonValue] = rest(item, "role", "content")
                extra["_content_form"] = "string" if isinstance(item["content"], str) else "parts"
                extra = share(extra)
                metadata = construct(MessageMetadata, source_role=role, extra=extra)
                built.add(
                    _MESSAGE({"speaker": ROLES[role], "blocks": tuple(blocks), "metadata": metadata}),
                    i,
                    iptr,
                    block_items=(i,) * len(blocks),
                )
                continue
            side = "tool" if kind in TOOL_SIDE else "ai"
            if side != group_side:
                flush()
                group_side, start = side, i
            if kind == "message":
                blocks = read_message_parts(item.get("content", []), (*iptr, "content"), self.id, share)
                # The item's own fields (id, status, type, role) ride on its first block.
                head: dict[str, JsonValue] = {
                    "_item": rest(item, "content"),
                    "_content_form": "string" if isinstance(item.get("content"), str) else "parts",
                }
                if blocks:
                    blocks[0] = (
                        replace(blocks[0], provider_data=share({**blocks[0].provider_data, **head}))
                        if not isinstance(blocks[0], OpaqueBlock)
                        else blocks[0]
                    )
                else:
                    blocks = [construct(OpaqueBlock, source_format=self.id, data=dict(item))]
            else:
                blocks = read_item(item, iptr, self.id, share, names)
            group.extend(blocks)
            group_items += [i] * len(blocks)
        flush()


_MESSAGE = filler(Message)
"""A grouped or single item's `Message`, every field given: what `construct` makes, without its
look-ups by the names given (one Message per message of a Codex rollout: issue 26)."""


def side_metadata_pair() -> dict[str, MessageMetadata]:
    """One metadata object per side (``ai``, ``tool``), shared by the grouped messages of a read.

    Frozen and equal by value: one per message was 8 MB of a 50 MB Codex rollout (issue 26).
    """
    return {
        "ai": construct(MessageMetadata, source_role="assistant"),
        "tool": construct(MessageMetadata, source_role=None),
    }


def opens_turn(item: Any) -> bool:
    """Whether ``item`` closes the group before it and starts none: a message not the assistant's.

    `OpenAIResponsesReader._read_items` flushes at such an item and makes it a message of its
    own, so the items between two of them group the same whether read together or apart.
    """
    return type(item) is dict and _kind(item) == "message" and item.get("role") != "assistant"


def _read_tools(tools: Any) -> tuple[ToolSpec, ...]:
    specs = []
    for i, raw in enumerate(arr(tools, ("tools",))):
        tool = obj(raw, ("tools", i))
        kind = str(tool.get("type", "function"))
        if kind in ("function", "custom") and isinstance(tool.get("name"), str):
            specs.append(
                ToolSpec(
                    name=tool["name"],
                    description=tool.get("description") if isinstance(tool.get("description"), str) else None,
                    parameters=tool.get("parameters"),
                )
            )
        else:
            specs.append(ToolSpec(name=str(tool.get("name", kind)), kind=kind))
    return tuple(specs)
