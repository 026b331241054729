"""Amp threads (``~/.local/share/amp/threads/T-<uuid>.json``): the messages Amp sends next (inferred).

Amp (Sourcegraph, ampcode.com) is closed source and documents no thread schema, so this reader
follows what three independent readers of real thread files agree on, each citing the files it
was checked against:

- txcript: ``docs/formats/amp.md`` (Adityakk9031/txcript at
  3f71bbd558384d08059a1e72f77e4808583bc900: "reverse-engineered from real thread files written by
  the local-first-era CLI") and ``tests/integration/amp.rs`` (skillsynchq/txcript at
  64293fd3264fe595aaecf49789a93ac5104c31c0: a fixture "shaped like a real legacy local-first file
  (anonymized)");
- jonathan-kellerai/cross_agent_session_resumer ``src/providers/amp.rs`` at
  ec0eab964866394f77bbd157e773656a109e7ab3 (its reader and writer of the same files);
- noamsto/houston ``docs/AMP_AGENT_SUPPORT.md`` at de78dc0c76db60de122d9674b7f12235589aaa54 (a thread
  file's fields, read from an install).

A thread is one JSON document ``{v, id, created, title, agentMode, env, messages: [...]}``. Its
messages are already in the Anthropic Messages convention: ``role`` ``user`` or ``assistant``
and a ``content`` list of ``text``, ``thinking`` (with ``signature`` and ``provider``),
``redacted_thinking``, ``image`` and ``tool_use`` blocks, and a user message carrying the
``tool_result`` blocks of the calls before it. Two things are Amp's own and are translated here
as Amp must translate them for the API (inferred, since its request code is not public):

- a ``tool_result`` names its call ``toolUseID`` (not ``tool_use_id``) and holds a ``run``: status
  ``done`` sends ``run.result`` (a string as it is, anything else as JSON); ``error`` sends
  ``run.error.message`` as an error result; ``cancelled`` and ``rejected-by-user`` send
  ``run.reason`` (or the status) as an error result, as txcript maps them. A run with any other
  status (queued, in progress, waiting on the user) has no result yet: the call is pending, and
  the block is kept unsent;
- an ``image`` block's source spells ``mediaType`` in camelCase.

Messages with role ``info`` (Amp's notices: a thread summary, a handoff link) are Amp's, not the
model's: kept unsent. Any other role is a record this reader does not know: skipped and named
(shared threads carry ``parent`` records, txcript notes). Block kinds not listed above are kept
verbatim and noted. What Amp adds to each request (its system prompt, tools, the files it
attaches from ``userState``) is not in the file. Current Amp versions keep threads on
ampcode.com and no longer write this folder (txcript ``docs/formats/amp.md``, "Caveats"): the
files read here are the local mirrors older versions wrote, or what a user saved.

Where it ran: each answer's ``usage.model`` (``claude-opus-4-5-20251101``…) names the model, and
a ``thinking`` block names its ``provider``; Amp's modes mostly run on Anthropic models.
"""

from __future__ import annotations

import json
from typing import Any, Final

from pydantic import JsonValue

from toolhist._trusted import construct
from toolhist.formats.base import Built, Pointer, Reader, ShapeError, arr, obj, opt_text, rest, tag, text
from toolhist.formats.document import Document, json_path
from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    MessageMetadata,
    OpaqueBlock,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

SPECIFIC: Final = 3
"""A thread's score: above the Anthropic reader's 2, which its Anthropic-shaped messages would tie
(Cline's reader scores the same for the same reason, `toolhist.agents.cline.reader.SPECIFIC`)."""
DONE: Final = "done"
FAILED: Final = frozenset({"error", "cancelled", "rejected-by-user"})
"""Run statuses that end a tool run with an error result (txcript ``docs/formats/amp.md``)."""
INFO_REASON: Final = "an Amp notice (summary, handoff): Amp shows it, the model is not sent it"
PENDING_REASON: Final = "the tool run had not finished (status {status!r}): no result is sent yet"


def _run_result(run: dict[str, Any], ptr: Pointer) -> tuple[JsonValue, str | None]:
    """What a finished ``run`` sends: (the result, the error text when it failed)."""
    status = run.get("status")
    if status == DONE:
        result = run.get("result")
        return (result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)), None
    if status == "error":
        error = run.get("error")
        said = error.get("message") if isinstance(error, dict) else error
        said = said if isinstance(said, str) else json.dumps(error, ensure_ascii=False)
        return said, said
    reason = opt_text(run.get("reason"), (*ptr, "reason")) or f"[tool run {status}]"
    return reason, reason


def _block(built: Built, raw: Any, ptr: Pointer) -> Block | None:
    """One content block as a canonical block; None for a result kept unsent (its run unfinished)."""
    block = obj(raw, ptr)
    kind = block.get("type")
    if kind == "text":
        return construct(TextBlock, text=text(block.get("text"), (*ptr, "text")))
    if kind == "thinking":
        return construct(
            ThinkingBlock,
            text=text(block.get("thinking", ""), (*ptr, "thinking")),
            signature=opt_text(block.get("signature"), (*ptr, "signature")),
            source_provider=opt_text(block.get("provider"), (*ptr, "provider")) or "amp",
            provider_data=rest(block, "type", "thinking", "signature", "provider"),
        )
    if kind == "redacted_thinking":
        return construct(
            ThinkingBlock,
            redacted=True,
            data=opt_text(block.get("data"), (*ptr, "data")),
            source_provider=opt_text(block.get("provider"), (*ptr, "provider")) or "amp",
        )
    if kind == "tool_use":
        call_id = text(block.get("id"), (*ptr, "id"))
        if "input" in block:
            obj(block["input"], (*ptr, "input"))
        return construct(
            ToolCallBlock,
            id=call_id,
            name=text(block.get("name"), (*ptr, "name")),
            parameters=block.get("input"),
            raw_id=call_id,
            provider_data=rest(block, "type", "id", "name", "input"),
        )
    if kind == "tool_result":
        call_id = text(block.get("toolUseID"), (*ptr, "toolUseID"))
        run = obj(block.get("run"), (*ptr, "run"))
        status = tag(run.get("status"))
        if status != DONE and status not in FAILED:
            built.keep_unsent(
                "unfinished tool run",
                PENDING_REASON.format(status=run.get("status")),
                ptr,
                data={"toolUseID": call_id, "status": status},
            )
            return None
        result, error = _run_result(run, (*ptr, "run"))
        return construct(
            ToolResponseBlock,
            call_id=call_id,
            result=result,
            error=error,
            raw_call_id=call_id,
            provider_data={"status": status},
        )
    if kind == "image":
        source = obj(block.get("source"), (*ptr, "source"))
        return construct(
            MediaBlock,
            mime_type=opt_text(source.get("mediaType"), (*ptr, "source", "mediaType")),
            data=opt_text(source.get("data"), (*ptr, "source", "data")),
            url=opt_text(source.get("url"), (*ptr, "source", "url")),
        )
    if not isinstance(kind, str):
        raise ShapeError((*ptr, "type"), "content block has no string 'type'")
    built.notes.append(f"{json_path(ptr)}: block of type {kind!r} kept verbatim (not modelled)")
    return construct(OpaqueBlock, source_format="amp", data=dict(block))


def _info_text(message: dict[str, Any]) -> str:
    """An ``info`` message's words: its texts, or its summary (``summary.summary`` or the thread linked)."""
    said: list[str] = []
    for block in message.get("content") or []:
        if not isinstance(block, dict):
            continue
        if isinstance(block.get("text"), str):
            said.append(block["text"])
        summary = block.get("summary")
        if isinstance(summary, dict):
            inner = summary.get("summary") or summary.get("thread")
            if isinstance(inner, str):
                said.append(inner)
    return "\n".join(said)


class AmpReader(Reader):
    """``amp``: an Amp thread file, as Amp sends its messages (see the module notes)."""

    id = "amp"
    description = "Amp thread (~/.local/share/amp/threads/T-<id>.json): its messages as Amp sends them"

    def recognise(self, value: Any) -> int:
        """`SPECIFIC` on a thread: a ``T-`` id, a revision ``v`` and a ``messages`` list."""
        if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
            return 0
        thread_id = value.get("id")
        if isinstance(thread_id, str) and thread_id.startswith("T-") and isinstance(value.get("v"), int):
            return SPECIFIC
        return 1 if "agentMode" in value and "nextMessageId" in value else 0

    def read(self, doc: Document) -> Session:
        """Each user and assistant message in order; notices unsent; unknown roles skipped and named."""
        value = obj(doc.value, ())
        built = Built(doc)
        for i, raw in enumerate(arr(value.get("messages"), ("messages",))):
            ptr: Pointer = ("messages", i)
            message = obj(raw, ptr)
            role = tag(message.get("role"))
            if role == "info":
                built.keep_unsent("info message", INFO_REASON, ptr, text=_info_text(message))
                continue
            if role not in ("user", "assistant"):
                built.skips.add(f"message role {role!r}")
                continue
            with built.record(ptr, role, message):
                self._message(built, message, role, ptr)
        if built.skips.unreadable() and not built.messages and not built.unsent:
            # nothing of it reads as a thread: a wrong shape, not a thread with a damaged record
            raise ShapeError(("messages",), f"no message of this thread could be read ({built.notes[-1]})")
        built.notes += built.skips.note("Amp's thread schema is not public")
        return built.session(self.id, tools=None, request=_request(built), metadata=_metadata(value))

    @staticmethod
    def _message(built: Built, message: dict[str, Any], role: str, ptr: Pointer) -> None:
        content = message.get("content")
        blocks: list[Block] = []
        if isinstance(content, str):
            blocks.append(construct(TextBlock, text=content))
        else:
            for j, raw in enumerate(arr(content, (*ptr, "content"))):
                block = _block(built, raw, (*ptr, "content", j))
                if block is not None:
                    blocks.append(block)
        if not blocks:
            built.keep_unsent(f"empty {role} message", "nothing left to send in it", ptr)
            return
        usage = message.get("usage")
        model = usage.get("model") if isinstance(usage, dict) else None
        named = [b.source_provider for b in blocks if isinstance(b, ThinkingBlock)]
        provider = next((p for p in named if p != "amp"), None)
        state = message.get("state")
        extra: dict[str, JsonValue] = {"state": state} if isinstance(state, dict) else {}
        meta = MessageMetadata(
            source_role=role,
            model=model if isinstance(model, str) else None,
            provider=provider,
            extra=extra,
        )
        if role == "assistant":
            speaker = "ai"
        else:
            speaker = "tool" if any(isinstance(b, ToolResponseBlock) for b in blocks) else "human"
        built.add(Message(speaker=speaker, blocks=tuple(blocks), metadata=meta), None, ptr)


def _request(built: Built) -> dict[str, JsonValue]:
    """The newest answer's model: the model Amp would ask next."""
    models = [m.metadata.model for m in built.messages if m.metadata.model]
    return {"model": models[-1]} if models else {}


def _metadata(value: dict[str, Any]) -> dict[str, JsonValue]:
    """The thread's own fields (``id``, ``title``, ``agentMode``, ``env``…) without its messages."""
    return rest(value, "messages")
