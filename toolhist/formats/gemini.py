"""Google Gemini ``generateContent``: ``{"contents", "systemInstruction", "tools", "generationConfig", …}``.

Both spellings are read: the REST API's camelCase (``functionCall``) and the Python SDK's
snake_case dumps (``function_call``); which one the file used is kept in ``Session.metadata``.

Gemini ids are optional and usually absent, and the API pairs responses to calls by position and
name within the call turn. For an id-less response this reader does the same: the first
still-unanswered call of the same name in the latest call turn, else the first unanswered one.
An id-less call gets the deterministic id ``gemini-{message}-{part}`` (``raw_id`` stays None).
"""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue

from toolhist.formats.base import Built, Pointer, Reader, ShapeError, arr, obj, opt_text, required, rest, text
from toolhist.formats.document import Document, json_path
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

CAMEL = {
    "function_call": "functionCall",
    "function_response": "functionResponse",
    "inline_data": "inlineData",
    "file_data": "fileData",
    "thought_signature": "thoughtSignature",
    "executable_code": "executableCode",
    "code_execution_result": "codeExecutionResult",
    "system_instruction": "systemInstruction",
    "mime_type": "mimeType",
    "file_uri": "fileUri",
    "function_declarations": "functionDeclarations",
    "parameters_json_schema": "parametersJsonSchema",
}
PART_KEYS = {"text", "thought", *CAMEL.values(), "videoMetadata", "functionCall", "functionResponse"}


def _get(d: dict[str, Any], camel: str) -> Any:
    """``d[camel]`` or its snake_case spelling."""
    if camel in d:
        return d[camel]
    for snake, c in CAMEL.items():
        if c == camel and snake in d:
            return d[snake]
    return None


def _key(d: dict[str, Any], camel: str) -> str:
    for snake, c in CAMEL.items():
        if c == camel and snake in d:
            return snake
    return camel


class _Pairing:
    """Pairs id-less function responses with the calls of the latest call turn."""

    def __init__(self) -> None:
        self.open: list[ToolCallBlock] = []

    def new_call_turn(self, calls: list[ToolCallBlock]) -> None:
        if calls:
            self.open = list(calls)

    def match(self, name: str | None) -> ToolCallBlock | None:
        for i, call in enumerate(self.open):
            if call.name == name:
                return self.open.pop(i)
        return self.open.pop(0) if self.open else None

    def answered(self, call_id: str) -> None:
        self.open = [c for c in self.open if c.id != call_id]


def read_part(raw: Any, ptr: Pointer, msg_index: int, fmt: str, notes: list[str]) -> Block:
    """One part as a canonical block (responses get their call id later, in `read_contents`)."""
    part = obj(raw, ptr)
    signature = _get(part, "thoughtSignature")
    sig_data: dict[str, JsonValue] = {"thoughtSignature": signature} if signature is not None else {}
    call = _get(part, "functionCall")
    if call is not None:
        cptr = (*ptr, _key(part, "functionCall"))
        fc = obj(call, cptr)
        raw_id = opt_text(fc.get("id"), (*cptr, "id"))
        if fc.get("args") is not None:
            obj(fc["args"], (*cptr, "args"))  # a protobuf Struct: always an object
        return ToolCallBlock(
            id=raw_id or f"gemini-{msg_index}-{ptr[-1]}",
            name=text(required(fc, "name", cptr), (*cptr, "name")),
            parameters=fc.get("args"),
            raw_id=raw_id,
            provider_data={
                **sig_data,
                **rest(fc, "id", "name", "args"),
                **rest(part, "functionCall", "function_call", "thoughtSignature", "thought_signature"),
            },
        )
    response = _get(part, "functionResponse")
    if response is not None:
        rptr = (*ptr, _key(part, "functionResponse"))
        fr = obj(response, rptr)
        raw_id = opt_text(fr.get("id"), (*rptr, "id"))
        return ToolResponseBlock(
            call_id=raw_id or "",
            tool_name=opt_text(fr.get("name"), (*rptr, "name")),
            result=fr.get("response"),
            raw_call_id=raw_id,
            provider_data={**sig_data, **rest(fr, "id", "name", "response")},
        )
    if "text" in part:
        value = text(part["text"], (*ptr, "text"))
        if part.get("thought") is True:
            return ThinkingBlock(
                text=value,
                signature=signature,
                source_provider=fmt,
                provider_data=rest(part, "text", "thought", "thoughtSignature", "thought_signature"),
            )
        return TextBlock(
            text=value,
            provider_data={**sig_data, **rest(part, "text", "thoughtSignature", "thought_signature")},
        )
    for key in ("inlineData", "fileData"):
        media = _get(part, key)
        if isinstance(media, dict):
            return MediaBlock(
                mime_type=_get(media, "mimeType"),
                data=media.get("data") if isinstance(media.get("data"), str) else None,
                url=_get(media, "fileUri"),
                provider_data=dict(part),
            )
    if not part:
        raise ShapeError(ptr, "part is an empty object")
    notes.append(f"{json_path(ptr)}: part with keys {sorted(part)} kept verbatim (not modelled)")
    return OpaqueBlock(source_format=fmt, data=dict(part))


def read_contents(contents: list[Any], ptr: Pointer, built: Built, fmt: str) -> None:
    """Read every content turn, pairing id-less responses positionally."""
    pairing = _Pairing()
    for i, raw in enumerate(contents):
        cptr = (*ptr, i)
        content = obj(raw, cptr)
        role = content.get("role")
        if role is not None and role not in ("user", "model", "function", "tool"):
            raise ShapeError((*cptr, "role"), f"unknown role {role!r}; expected 'user' or 'model'")
        parts = arr(content.get("parts", []), (*cptr, "parts"))
        blocks: list[Block] = []
        for j, p in enumerate(parts):
            block = read_part(p, (*cptr, "parts", j), len(built.messages), fmt, built.notes)
            if isinstance(block, ToolResponseBlock):
                if block.raw_call_id is None:
                    match = pairing.match(block.tool_name)
                    block = block.model_copy(
                        update={
                            "call_id": match.id if match else f"gemini-unmatched-{len(built.messages)}-{j}"
                        }
                    )
                else:
                    pairing.answered(block.raw_call_id)
            blocks.append(block)
        pairing.new_call_turn([b for b in blocks if isinstance(b, ToolCallBlock)])
        has_results = any(isinstance(b, ToolResponseBlock) for b in blocks)
        speaker: Speaker = (
            "ai" if role == "model" else "tool" if has_results or role in ("function", "tool") else "human"
        )
        extra: dict[str, JsonValue] = rest(content, "role", "parts")
        if "parts" not in content:
            extra["_parts"] = "absent"
        built.add(
            Message(
                speaker=speaker, blocks=tuple(blocks), metadata=MessageMetadata(source_role=role, extra=extra)
            ),
            i,
            cptr,
        )


def read_tools(tools: Any, ptr: Pointer) -> tuple[ToolSpec, ...]:
    """Function declarations (and built-in tools by their key)."""
    specs: list[ToolSpec] = []
    for i, raw in enumerate(arr(tools, ptr)):
        tool = obj(raw, (*ptr, i))
        decls = _get(tool, "functionDeclarations")
        if decls is None:
            specs.extend(ToolSpec(name=k, kind=k) for k in tool)
            continue
        for j, d in enumerate(arr(decls, (*ptr, i, _key(tool, "functionDeclarations")))):
            decl = obj(d, (*ptr, i, "functionDeclarations", j))
            specs.append(
                ToolSpec(
                    name=text(decl.get("name"), (*ptr, i, "functionDeclarations", j, "name")),
                    description=decl.get("description") if isinstance(decl.get("description"), str) else None,
                    parameters=decl.get("parameters", _get(decl, "parametersJsonSchema")),
                )
            )
    return tuple(specs)


def looks_gemini(contents: Any) -> int:
    """0/2 score: ``parts`` lists are unique to Gemini among the formats read here."""
    if not isinstance(contents, list) or not contents:
        return 0
    for c in contents:
        if not isinstance(c, dict) or not isinstance(c.get("parts"), list) or "speaker" in c:
            return 0
        if "kind" in c or any(isinstance(p, dict) and "part_kind" in p for p in c["parts"]):
            return 0  # pydantic-ai's ModelMessage JSON (`toolhist.agents.pydantic_ai`), not Gemini
        if c.get("role") not in (None, "user", "model", "function", "tool"):
            return 0
    return 2


def _snake(value: Any) -> bool:
    text_ = str(value)
    return any(
        f'"{k}"' in text_ or f"'{k}'" in text_
        for k in ("function_call", "function_response", "system_instruction")
    )


class GeminiReader(Reader):
    """``gemini``: generateContent request bodies and content lists."""

    id = "gemini"
    description = "Google Gemini generateContent request body or contents list (camelCase or snake_case)"
    judgement = "as-sent"

    def recognise(self, value: Any) -> int:
        """Certain when turns carry ``parts`` lists."""
        if isinstance(value, dict):
            return looks_gemini(value.get("contents"))
        return looks_gemini(value)

    def read(self, doc: Document) -> Session:
        """Read a body or list; ``systemInstruction`` becomes the first message."""
        value = doc.value
        built = Built(doc)
        request: dict[str, JsonValue] = {}
        tools = None
        if isinstance(value, dict):
            ptr: Pointer = ("contents",)
            contents = arr(value.get("contents"), ptr)
            request = rest(value, "contents", "systemInstruction", "system_instruction")
            system = _get(value, "systemInstruction")
            if system is not None:
                sptr: Pointer = (_key(value, "systemInstruction"),)
                extra: dict[str, JsonValue] = {"_request_field": sptr[0]}
                if isinstance(system, str):
                    blocks: list[Block] = [TextBlock(text=system)]
                    extra["_content_form"] = "string"
                else:
                    sys_obj = obj(system, sptr)
                    blocks = [
                        read_part(p, (*sptr, "parts", j), 0, self.id, built.notes)
                        for j, p in enumerate(arr(sys_obj.get("parts", []), (*sptr, "parts")))
                    ]
                    extra.update(rest(sys_obj, "parts"))
                built.add(
                    Message(
                        speaker="system",
                        blocks=tuple(blocks),
                        metadata=MessageMetadata(source_role="system", extra=extra),
                    ),
                    None,
                    sptr,
                )
            if "tools" in value:
                tools = read_tools(value["tools"], ("tools",))
        else:
            ptr = ()
            contents = arr(value, ptr)
        read_contents(contents, ptr, built, self.id)
        metadata: dict[str, JsonValue] = {
            "shape": "body" if isinstance(value, dict) else "list",
            "key_style": "snake_case" if _snake(doc.value) else "camelCase",
        }
        return built.session(self.id, tools=tools, request=request, metadata=metadata)
