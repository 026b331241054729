"""Inspect AI eval logs: each sample's ``messages``, from a ``.json`` log or a ``.eval`` archive.

Inspect writes an ``EvalLog`` (UKGovernmentBEIS/inspect_ai ``src/inspect_ai/log/_log.py``; the
messages are ``src/inspect_ai/model/_chat_message.py`` at 9a8f5b464c3f9aeee113bb4846927b643f7589df,
content parts ``_content.py``; inspect-ai 0.3.285 wrote the corpus logs):

- ``.json``: one object ``{version, status, eval: {model, …}, plan, results, stats, samples: [...]}``;
- ``.eval``: a zip archive with ``header.json`` (the log without samples) and one member per
  sample, ``samples/{id}_epoch_{epoch}.json`` (``src/inspect_ai/log/_recorders/eval.py`` at
  44b41cd36a6bf4b63dc7dfb17554fc7e0eed3566); 0.3.285 compresses the members with zstd.

A sample (``EvalSample``: ``id``, ``epoch``, ``input``, ``messages``, ``output``, ``attachments``)
is one session, named ``{id}_epoch_{epoch}`` (the archive member's name; the locator
``LOG#1_epoch_1`` picks one, and the first is read when none is named). Its ``messages`` are the
conversation as the solver left it, what the model was sent on its last generate plus its answer:

- ``role`` ``system`` / ``user`` / ``assistant`` / ``tool``; ``content`` a string or a list of parts
  (``text``, ``reasoning`` with ``signature`` and ``redacted``, ``image``, ``audio``, ``video``,
  ``document``, ``data``);
- an assistant's ``tool_calls``: ``[{"id", "function", "arguments": {...}, "parse_error"}]``
  (``arguments`` already parsed; ``parse_error`` when the model's JSON did not parse);
- a tool message answers ``tool_call_id`` for ``function``; ``error`` ``{"type", "message"}`` when
  the tool failed (Inspect sends the error message as the result).

Content Inspect moved out of the messages to save space is written ``attachment://<hash>`` and
kept in the sample's ``attachments``: it is put back before reading. A bare sample (one archive
member extracted) and a bare message list read too.
"""

from __future__ import annotations

import zipfile
from typing import Any, Final

import orjson
from pydantic import JsonValue

from toolhist.agents.archives import ArchiveReader, pick_note, read_member
from toolhist.errors import LoadError
from toolhist.formats.base import Built, Pointer, ShapeError, arr, obj, rest
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
)

FORMAT: Final = "inspect-ai"
ROLES: Final[dict[str, Speaker]] = {"system": "system", "user": "human", "assistant": "ai", "tool": "tool"}
ATTACHMENT: Final = "attachment://"
SAMPLE_MEMBER: Final = "samples/"


def sample_id(sample: dict[str, Any]) -> str:
    """``{id}_epoch_{epoch}``, as Inspect names a sample's archive member."""
    return f"{sample.get('id')}_epoch_{sample.get('epoch', 1)}"


def _is_inspect_message(m: Any) -> bool:
    """A message only Inspect writes: a call whose ``function`` is a name, or its ``source`` tag."""
    if not isinstance(m, dict) or m.get("role") not in ROLES:
        return False
    calls = m.get("tool_calls")
    if (
        isinstance(calls, list)
        and calls
        and all(isinstance(c, dict) and isinstance(c.get("function"), str) for c in calls)
    ):
        return True
    if m.get("role") == "tool" and isinstance(m.get("function"), str):
        return True
    return m.get("source") in ("input", "generate")


def _resolve(value: Any, attachments: dict[str, Any]) -> Any:
    """``value`` with every ``attachment://<hash>`` string replaced by its attachment."""
    if isinstance(value, str):
        if value.startswith(ATTACHMENT):
            found = attachments.get(value[len(ATTACHMENT) :])
            return found if isinstance(found, str) else value
        return value
    if isinstance(value, list):
        return [_resolve(v, attachments) for v in value]
    if isinstance(value, dict):
        return {k: _resolve(v, attachments) for k, v in value.items()}
    return value


def _part(raw: Any, ptr: Pointer) -> Block:
    if isinstance(raw, str):
        return TextBlock(text=raw)
    part = obj(raw, ptr)
    kind = part.get("type")
    if kind == "text" and isinstance(part.get("text"), str):
        return TextBlock(text=part["text"], provider_data=rest(part, "type", "text"))
    if kind == "reasoning" and isinstance(part.get("reasoning"), str):
        signature = part.get("signature")
        return ThinkingBlock(
            text=part["reasoning"],
            signature=signature if isinstance(signature, str) else None,
            redacted=bool(part.get("redacted")),
            provider_data=rest(part, "type", "reasoning", "signature", "redacted"),
        )
    if kind == "image" and isinstance(part.get("image"), str):
        image = part["image"]
        if image.startswith("data:"):
            head, _, data = image.partition(",")
            mime = head[5:].split(";")[0] or None
            return MediaBlock(data=data, mime_type=mime, provider_data=rest(part, "type", "image"))
        return MediaBlock(url=image, provider_data=rest(part, "type", "image"))
    return OpaqueBlock(source_format=FORMAT, data=dict(part))


def _content(content: Any, ptr: Pointer) -> list[Block]:
    if isinstance(content, str):
        return [TextBlock(text=content)] if content else []
    if content is None:
        return []
    return [_part(p, (*ptr, k)) for k, p in enumerate(arr(content, ptr))]


def _calls(calls: Any, ptr: Pointer) -> list[Block]:
    out: list[Block] = []
    for k, raw in enumerate(arr(calls, ptr)):
        call = obj(raw, (*ptr, k))
        call_id, name = call.get("id"), call.get("function")
        if not isinstance(call_id, str) or not isinstance(name, str):
            raise ShapeError((*ptr, k), "a tool call needs a string 'id' and 'function'")
        error = call.get("parse_error")
        extra = {
            k2: v
            for k2, v in rest(call, "id", "function", "arguments", "parse_error").items()
            if v is not None
        }
        out.append(
            ToolCallBlock(
                id=call_id,
                name=name,
                parameters=call.get("arguments") if call.get("arguments") is not None else {},
                arguments_error=error if isinstance(error, str) else None,
                provider_data=extra,
            )
        )
    return out


def read_messages(messages: list[Any], base: Pointer, built: Built) -> None:
    """Add each Inspect ``ChatMessage`` of ``messages`` to ``built``."""
    for i, raw in enumerate(messages):
        ptr: Pointer = (*base, i)
        message = obj(raw, ptr)
        role = message.get("role")
        speaker = ROLES.get(role) if isinstance(role, str) else None
        if speaker is None:
            raise ShapeError((*ptr, "role"), f"expected system, user, assistant or tool, got {role!r}")
        content = message.get("content")
        model = message.get("model")
        extra = {
            k: v
            for k, v in rest(
                message, "role", "content", "tool_calls", "tool_call_id", "function", "error"
            ).items()
            if v is not None
        }
        meta = MessageMetadata(source_role=role, model=model if isinstance(model, str) else None, extra=extra)
        if speaker == "tool":
            call_id = message.get("tool_call_id")
            if not isinstance(call_id, str):
                raise ShapeError((*ptr, "tool_call_id"), "a tool message needs the 'tool_call_id' it answers")
            error = message.get("error")
            said = error.get("message") if isinstance(error, dict) else None
            name = message.get("function")
            block = ToolResponseBlock(
                call_id=call_id,
                tool_name=name if isinstance(name, str) else None,
                result=content,
                error=(said if isinstance(said, str) else "error") if error else None,
                provider_data={"error": error} if error else {},
            )
            built.add(Message(speaker="tool", blocks=(block,), metadata=meta), i, ptr)
            continue
        blocks = _content(content, (*ptr, "content"))
        if speaker == "ai" and message.get("tool_calls"):
            blocks += _calls(message["tool_calls"], (*ptr, "tool_calls"))
        built.add(Message(speaker=speaker, blocks=tuple(blocks), metadata=meta), i, ptr)


def _samples(value: Any) -> list[Any] | None:
    if isinstance(value, dict) and isinstance(value.get("eval"), dict) and "status" in value:
        samples = value.get("samples")
        return samples if isinstance(samples, list) else []
    return None


def _is_sample(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and "epoch" in value
        and "id" in value
        and isinstance(value.get("messages"), list)
    )


class InspectReader(ArchiveReader):
    """``inspect-ai``: an Inspect AI log's samples (``.json`` or ``.eval``), a sample, or its messages."""

    id = FORMAT
    description = (
        "Inspect AI eval log (.eval or .json; LOG#ID_epoch_N picks a sample), a sample or its messages"
    )
    holds_many = True

    def recognise(self, value: Any) -> int:
        """Certain on an EvalLog, an EvalSample, or messages with Inspect's own fields."""
        if _samples(value) is not None or _is_sample(value):
            return 2
        if (
            isinstance(value, list)
            and value
            and all(isinstance(m, dict) and m.get("role") in ROLES for m in value)
        ):
            return 2 if any(_is_inspect_message(m) for m in value) else 0
        return 0

    def recognise_archive(self, names: frozenset[str]) -> int:
        """Inspect's ``header.json`` or ``_journal/start.json`` beside ``samples/``."""
        return 2 if "header.json" in names or "_journal/start.json" in names else 0

    def read(self, doc: Document) -> Session:
        """A log's sample (``doc.session``, else its first), a bare sample, or a message list."""
        value = doc.value
        samples = _samples(value)
        if samples is not None:
            if not samples:
                raise ShapeError(("samples",), "the log holds no samples (written with --no-log-samples?)")
            ids = [sample_id(obj(s, ("samples", k))) for k, s in enumerate(samples)]
            at = self._pick(ids, doc.session, doc.name)
            header = rest(value, "samples")
            notes = [] if doc.session else pick_note(len(ids), ids[at], doc.name, "sample")
            return self._sample(samples[at], ("samples", at), doc, header=header, ids=ids, notes=notes)
        if _is_sample(value):
            return self._sample(value, (), doc, header={}, ids=[sample_id(value)], notes=[])
        built = Built(doc)
        read_messages(arr(value, ()), (), built)
        return built.session(self.id, tools=None, request={})

    @staticmethod
    def _pick(ids: list[str], wanted: str | None, name: str) -> int:
        if wanted is None:
            return 0
        for k, sid in enumerate(ids):
            if wanted in (sid, sid.rsplit("_epoch_", 1)[0]):
                return k
        raise LoadError(f"no sample {wanted!r} in this log (its samples: {', '.join(ids[:8])})", file=name)

    def _sample(
        self,
        sample: dict[str, Any],
        ptr: Pointer,
        doc: Document,
        *,
        header: dict[str, JsonValue],
        ids: list[str],
        notes: list[str],
    ) -> Session:
        attachments = sample.get("attachments")
        messages = _resolve(sample.get("messages"), attachments if isinstance(attachments, dict) else {})
        built = Built(doc)
        built.notes += notes
        read_messages(arr(messages, (*ptr, "messages")), (*ptr, "messages"), built)
        eval_info = header.get("eval")
        model = eval_info.get("model") if isinstance(eval_info, dict) else None
        meta: dict[str, JsonValue] = {
            "log_session": sample_id(sample),
            "samples": list(ids),
            "sample": {
                k: v
                for k, v in rest(sample, "messages", "attachments", "events").items()
                if k in ("id", "epoch", "target", "scores", "error", "limit")
            },
        }
        if isinstance(model, str):
            meta["model"] = model
        if header:
            meta["eval"] = {k: v for k, v in header.items() if k in ("version", "status", "eval")}
        return built.session(self.id, tools=None, request={}, metadata=meta)

    def read_archive(self, zf: zipfile.ZipFile, session: str | None, name: str, path: str | None) -> Session:
        """The sample member ``session`` names (its first when None), with ``header.json``."""
        members = sorted(
            (n for n in zf.namelist() if n.startswith(SAMPLE_MEMBER) and n.endswith(".json")),
            key=_member_order,
        )
        ids = [n[len(SAMPLE_MEMBER) : -len(".json")] for n in members]
        if not ids:
            raise LoadError(
                "the log holds no samples (written with --no-log-samples, or still running)", file=name
            )
        at = self._pick(ids, session, name)
        header = _member(zf, "header.json", name) if "header.json" in zf.namelist() else {}
        sample = _member(zf, members[at], name)
        where = f"{name}#{ids[at]}"
        doc = Document(value=None, name=where, path=path)
        notes = [] if session else pick_note(len(ids), ids[at], name, "sample")
        try:
            return self._sample(
                obj(sample, ()), (), doc, header=rest(obj(header, ()), "samples"), ids=ids, notes=notes
            )
        except ShapeError as exc:
            raise LoadError(
                f"not a valid {self.id} sample: {exc.reason}",
                file=f"{where} ({members[at]})",
                json_path=json_path(exc.pointer),
            ) from None


def _member_order(member: str) -> tuple[int, str]:
    """Samples in id order, numerically where ids are numbers (``2_epoch_1`` before ``10_epoch_1``)."""
    stem = member[len(SAMPLE_MEMBER) :].rsplit("_epoch_", 1)[0]
    return (int(stem), member) if stem.isdigit() else (1 << 62, member)


def _member(zf: zipfile.ZipFile, member: str, name: str) -> Any:
    try:
        return orjson.loads(read_member(zf, member))
    except (KeyError, ValueError, zipfile.BadZipFile, orjson.JSONDecodeError) as exc:
        raise LoadError(f"cannot read {member} in the archive: {exc}", file=name) from None
