"""Rendering a Session as a Gemini ``generateContent`` body.

A body read from Gemini renders back to the same JSON value: the reader's markers are honoured
(``systemInstruction`` as a string or an object under the key the source used, contents without
``parts``, a role left out), ``thoughtSignature`` goes back beside its ``functionCall`` in the part,
and a snake_case SDK dump (``Session.metadata["key_style"]``) is written in snake_case again.

From another format the body is built the way Gemini clients build it: leading system messages
become ``systemInstruction``; human turns are ``user``, AI turns ``model``; a tool message is a
``user`` turn of ``functionResponse`` parts (consecutive result-only tool messages, OpenAI's one
message per result, share one turn, as Gemini wants all of a call turn's responses together), whose
``response`` must be an object
(a string result is sent as ``{"output": …}``, an error as ``{"error": …}``). A call keeps its
``id`` only when the source had one. Declared tools become ``functionDeclarations`` with
``parametersJsonSchema``, because a JSON Schema written for another API is not the OpenAPI subset
``parameters`` takes. Message boundaries are kept, so a broken history stays broken.
"""

from __future__ import annotations

from pydantic import JsonValue

from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)
from toolhist.providers.base import Payload, SourceMap, bracketed, new_payload

NAME = "gemini"
SNAKE = {
    "functionCall": "function_call",
    "functionResponse": "function_response",
    "thoughtSignature": "thought_signature",
    "systemInstruction": "system_instruction",
}
FC_FIELDS = {"partialArgs", "partial_args", "willContinue", "will_continue"}
"""FunctionCall fields besides id/name/args. The reader keeps a call's own extra fields and its
part's extra fields in one ``provider_data``; these go back into ``functionCall``, the rest into the part."""
ROLE = {"human": "user", "ai": "model", "tool": "user", "system": "user"}


def response_object(block: ToolResponseBlock) -> dict[str, JsonValue]:
    """A tool result as the object ``functionResponse.response`` must be."""
    result = block.result
    if block.error is not None:
        out: dict[str, JsonValue] = {"error": block.error}
        if result is not None:
            out["output"] = _plain(result)
        return out
    if isinstance(result, dict):
        return dict(result)
    return {"output": "" if result is None else _plain(result)}


def _plain(result: JsonValue) -> JsonValue:
    """Text-only content-part lists (Anthropic, OpenAI) as one string; anything else unchanged."""
    if (
        isinstance(result, list)
        and result
        and all(
            isinstance(p, dict) and isinstance(p.get("text"), str) and p.get("type", "text") == "text"
            for p in result
        )
    ):
        return "\n".join(str(p["text"]) for p in result if isinstance(p, dict))
    return result


def _media(block: MediaBlock) -> dict[str, JsonValue]:
    """A media block as an ``inlineData`` or ``fileData`` part."""
    url = block.url or ""
    if block.data is None and url.startswith("data:") and ";base64," in url:
        head, data = url[5:].split(";base64,", 1)
        return {"inlineData": {"mimeType": head or "application/octet-stream", "data": data}}
    if block.data is not None:
        return {"inlineData": {"mimeType": block.mime_type or "application/octet-stream", "data": block.data}}
    file: dict[str, JsonValue] = {"fileUri": url}
    if block.mime_type:
        file["mimeType"] = block.mime_type
    return {"fileData": file}


class _Renderer:
    """Walks canonical messages and emits Gemini contents, recording the source map."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.same = session.source.format == NAME
        self.snake = self.same and session.metadata.get("key_style") == "snake_case"
        self.contents: list[dict[str, JsonValue]] = []
        self.system: dict[str, JsonValue] = {}
        self.system_parts: list[JsonValue] = []
        self.map = SourceMap(bracketed)
        self.put_content = self.map.column("contents", None)
        self.put_part = self.map.column("contents", None, "parts", None)
        self.omitted: list[str] = []
        self.results_turn = False
        self.function_call = self.k("functionCall")
        self.function_response = self.k("functionResponse")
        """The part keys in the session's spelling, looked up once (a part is made per block)."""

    def k(self, camel: str) -> str:
        """A key in the session's own spelling."""
        return SNAKE.get(camel, camel) if self.snake else camel

    def part(self, mi: int, bi: int, block: Block, *, drop_blank: bool) -> dict[str, JsonValue] | None:
        """One block as a part, or None when Gemini cannot carry it (said in ``omitted``)."""
        if isinstance(block, ToolResponseBlock):
            return self.response(mi, bi, block)
        if isinstance(block, ToolCallBlock):
            return self.call(mi, bi, block)
        if isinstance(block, TextBlock):
            if drop_blank and block.text == "":
                self.omitted.append(
                    f"message {mi} block {bi}: empty text not sent (Gemini rejects a part with no data)"
                )
                return None
            if self.same and block.provider_data:
                return {"text": block.text, **self._data(block.provider_data)}
            return {"text": block.text}
        if isinstance(block, ThinkingBlock):
            if block.source_provider != NAME:
                self.omitted.append(
                    f"message {mi} block {bi}: thinking from {block.source_provider or 'another format'} has no place in Gemini"
                )
                return None
            out: dict[str, JsonValue] = {"text": block.text, "thought": True}
            if block.signature is not None:
                out[self.k("thoughtSignature")] = block.signature
            out.update(block.provider_data)
            return out
        if isinstance(block, MediaBlock):
            return dict(block.provider_data) if self.same and block.provider_data else _media(block)
        if block.source_format == NAME:
            return dict(block.data)
        self.omitted.append(
            f"message {mi} block {bi}: {block.source_format} block kept verbatim cannot be sent to Gemini"
        )
        return None

    def _data(self, data: dict[str, JsonValue]) -> dict[str, JsonValue]:
        """Part-level provider data with ``thoughtSignature`` in the session's spelling."""
        return {self.k(key) if key == "thoughtSignature" else key: v for key, v in data.items()}

    def call(self, mi: int, bi: int, block: ToolCallBlock) -> dict[str, JsonValue]:
        fc: dict[str, JsonValue] = {}
        if block.raw_id is not None:
            fc["id"] = block.id
        fc["name"] = block.name
        part: dict[str, JsonValue] = {}
        if self.same:
            if block.parameters is not None:
                fc["args"] = block.parameters
            for key, value in block.provider_data.items():
                (fc if key in FC_FIELDS else part)[key] = value
            return self._with(self.function_call, fc, part)
        data = block.provider_data
        signature = data.get("thoughtSignature") if data else None
        if isinstance(signature, str):  # kept by llxprt, moved or set (the sentinel) by curation
            part["thoughtSignature"] = signature
        parameters = block.parameters
        if isinstance(parameters, dict):
            fc["args"] = parameters
        else:
            fc["args"] = {} if parameters is None else {"value": parameters}
            if parameters is not None or block.raw_arguments is not None:
                self.omitted.append(
                    f"message {mi} block {bi}: arguments of {block.name!r} are not a JSON object; "
                    + ("sent as {'value': …}" if parameters is not None else "sent as {}")
                )
        if not part:  # `_with`, inline: most calls
            return {self.function_call: fc}
        return self._with(self.function_call, fc, part)

    def _with(
        self, key: str, value: dict[str, JsonValue], part: dict[str, JsonValue]
    ) -> dict[str, JsonValue]:
        """``{key: value, **part}``, the part's own fields in the session's spelling (most have none)."""
        if not part:
            return {key: value}
        return {key: value, **self._data(part)}

    def response(self, mi: int, bi: int, block: ToolResponseBlock) -> dict[str, JsonValue]:
        fr: dict[str, JsonValue] = {}
        if block.raw_call_id is not None:
            fr["id"] = block.call_id
        if block.tool_name is not None:
            fr["name"] = block.tool_name
        elif not self.same:
            fr["name"] = ""
            self.omitted.append(f"message {mi} block {bi}: result with no tool name (no matching call)")
        part: dict[str, JsonValue] = {}
        if self.same:
            if block.result is not None:
                fr["response"] = block.result
            for key, value in block.provider_data.items():
                (part if key == "thoughtSignature" else fr)[key] = value
        else:
            result = block.result
            if type(result) is str and block.error is None:  # `response_object` of most results
                fr["response"] = {"output": result}
            else:
                fr["response"] = response_object(block)
            return {self.function_response: fr}  # no part fields from another format
        return self._with(self.function_response, fr, part)

    def content(self, mi: int, message: Message, role: str | None) -> None:
        """One canonical message as one content (consecutive result-only messages share one)."""
        extra = message.metadata.extra if self.same else {}
        blocks = message.blocks
        results_only = bool(blocks)  # every block a result (loops, not generators: once per message)
        has_other = False  # a block other than empty text
        for b in blocks:
            kind = type(b)
            if kind is not ToolResponseBlock:
                results_only = False
                if kind is not TextBlock or b.text != "":  # type: ignore[union-attr]  # a TextBlock
                    has_other = True
            else:
                has_other = True
        previous = self.contents[-1] if self.contents and self.results_turn else None
        parts: list[JsonValue] = []
        if (
            not self.same
            and results_only
            and previous is not None
            and isinstance(previous.get("parts"), list)
        ):
            # OpenAI-style sources send one message per result; Gemini wants them in one turn.
            index = len(self.contents) - 1
            out = previous
            existing = previous["parts"]
            assert isinstance(existing, list)
            parts = existing
        else:
            index = len(self.contents)
            out = {}
            if role is not None:
                out["role"] = role
            self.contents.append(out)
            self.put_content(index, mi, None)
        self.results_turn = results_only
        drop_blank = not self.same and has_other
        put = self.put_part
        part_of, response, call = self.part, self.response, self.call
        part: dict[str, JsonValue] | None
        for bi, block in enumerate(blocks):
            kind = type(block)  # the two frequent classes here, the rest through `part`
            if kind is ToolResponseBlock:
                part = response(mi, bi, block)  # type: ignore[arg-type]  # its class, tested
            elif kind is ToolCallBlock:
                part = call(mi, bi, block)  # type: ignore[arg-type]
            else:
                part = part_of(mi, bi, block, drop_blank=drop_blank)
            if part is not None:
                parts.append(part)
                put(index, len(parts) - 1, mi, bi)
        if not (extra and extra.get("_parts") == "absent" and not parts):
            out["parts"] = parts
        if extra:
            out.update({key: v for key, v in extra.items() if not key.startswith("_")})

    def system_message(self, mi: int, message: Message, *, leading: bool) -> None:
        """A system message: the source's own field, ``systemInstruction`` parts, or a user turn."""
        extra = message.metadata.extra
        field = extra.get("_request_field") if self.same else None
        if isinstance(field, str):
            if extra.get("_content_form") == "string" and len(message.blocks) == 1:
                block = message.blocks[0]
                self.system[field] = block.text if isinstance(block, TextBlock) else ""
                self.map.add((field,), mi, 0)
                return
            parts: list[JsonValue] = []
            for bi, block in enumerate(message.blocks):
                part = self.part(mi, bi, block, drop_blank=False)
                if part is not None:
                    parts.append(part)
                    self.map.add((field, "parts", len(parts) - 1), mi, bi)
            self.system[field] = {
                "parts": parts,
                **{key: v for key, v in extra.items() if not key.startswith("_")},
            }
            self.map.add((field,), mi)
            return
        if not leading:
            self.omitted.append(
                f"message {mi}: a system message after the conversation started is sent as a user turn "
                "(Gemini has no system role in contents)"
            )
            self.content(mi, message, "user")
            return
        key = self.k("systemInstruction")
        for bi, block in enumerate(message.blocks):
            if isinstance(block, TextBlock):
                self.system_parts.append({"text": block.text})
                self.map.add((key, "parts", len(self.system_parts) - 1), mi, bi)
            else:
                self.omitted.append(f"message {mi} block {bi}: only text fits in systemInstruction")
        self.system[key] = {"parts": self.system_parts}
        self.map.add((key,), mi)

    def run(self) -> None:
        """Every message, in order; a foreign message of one result, call or text is made here.

        Those are most of a long agent history (one call, then its one result, per step), so their
        content is built inline, as `content` builds it, without a call and its two block loops.
        """
        leading = True
        same = self.same
        contents = self.contents
        put_content, put = self.put_content, self.put_part
        response, call, content = self.response, self.call, self.content
        for mi, message in enumerate(self.session.messages):
            speaker = message.speaker
            if speaker == "system":
                self.system_message(mi, message, leading=leading)
                continue
            leading = False
            if same:
                # A message curation made has no source role to reproduce: it takes the canonical one.
                role = ROLE[speaker] if message.metadata.synthetic else message.metadata.source_role
                content(mi, message, role)
                continue
            blocks = message.blocks
            first = blocks[0] if len(blocks) == 1 else None
            kind = type(first)
            if kind is ToolResponseBlock:
                previous = contents[-1] if self.results_turn and contents else None
                self.results_turn = True
                parts = previous.get("parts") if previous is not None else None
                if isinstance(parts, list):  # OpenAI's one message per result: one Gemini turn
                    parts.append(response(mi, 0, first))  # type: ignore[arg-type]  # its class, tested
                    put(len(contents) - 1, len(parts) - 1, mi, 0)
                    continue
                part = response(mi, 0, first)  # type: ignore[arg-type]
            elif kind is ToolCallBlock:
                self.results_turn = False
                part = call(mi, 0, first)  # type: ignore[arg-type]
            elif kind is TextBlock:  # alone, even empty it is no blank beside other content: sent
                self.results_turn = False
                part = {"text": first.text}  # type: ignore[union-attr]  # its class, tested
            else:
                content(mi, message, ROLE[speaker])
                continue
            index = len(contents)
            contents.append({"role": ROLE[speaker], "parts": [part]})
            put_content(index, mi, None)
            put(index, 0, mi, 0)


def _declarations(session: Session, omitted: list[str]) -> list[JsonValue]:
    """Session.tools as one ``functionDeclarations`` tool (built-in tools of other formats cannot go)."""
    decls: list[JsonValue] = []
    for spec in session.tools or ():
        if spec.kind != "function":
            omitted.append(f"tool {spec.name!r}: built-in {spec.kind} tool of another provider")
            continue
        decl: dict[str, JsonValue] = {"name": spec.name}
        if spec.description:
            decl["description"] = spec.description
        if spec.parameters is not None:
            decl["parametersJsonSchema"] = spec.parameters
        decls.append(decl)
    return [{"functionDeclarations": decls}] if decls else []


def render(session: Session) -> Payload:
    """The generateContent body for ``session``, ids as the session has them."""
    renderer = _Renderer(session)
    renderer.run()
    body: dict[str, JsonValue] = {}
    if renderer.same:
        body.update(session.request)
    elif isinstance(session.request.get("model"), str):
        body["model"] = session.request["model"]
    body.update(renderer.system)
    body["contents"] = list(renderer.contents)
    omitted = renderer.omitted
    if not renderer.same:
        tools = _declarations(session, omitted)
        if tools:
            body["tools"] = tools
    if renderer.same and session.metadata.get("shape") == "list":
        body = {"contents": body["contents"]}
    return new_payload(NAME, body, renderer.map, tuple(omitted))
