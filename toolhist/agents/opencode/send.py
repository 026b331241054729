"""What OpenCode sends: its stored messages and parts turned into the model messages of the next request.

OpenCode keeps a session as messages (``info``: role, ids, model…) each with ordered parts
(``text``, ``reasoning``, ``tool``, ``file``, ``step-start``…). Before each request it:

1. keeps the history from the last completed compaction on (``MessageV2.filterCompacted``: walking
   newest first, it stops at the user message holding a ``compaction`` part whose summary
   assistant finished without error, or at that part's ``tail_start_id``); what lies before is
   kept here as ``Session.unsent`` (``compacted``);
2. turns each message into an AI SDK ``UIMessage`` (``MessageV2.toModelMessages``,
   anomalyco/opencode ``packages/opencode/src/session/message-v2.ts`` at
   007a9409bafea06d6b9084ff1f6d1fe9f5e3a803): a user message sends its non-ignored texts, its
   files (not ``text/plain`` or directories, which OpenCode inlined as text already), "What did
   we do so far?" for a ``compaction`` part and "The following tool was executed by the user" for
   a ``subtask``; an assistant message with an ``error`` is not sent (unless aborted after some
   content); a completed tool part sends its output ("[Old tool result content cleared]" once
   compacted), an errored one its error (or the ``output`` an interrupted call kept), a pending or
   running one "[Tool execution was interrupted]";
3. ``convertToModelMessages`` (vercel/ai ``packages/ai/src/ui/convert-to-model-messages.ts`` at
   004d06cd58a91a509a4d6e2413844dcba6b1e87c) splits an assistant message at its ``step-start``
   parts: each step is one assistant message (texts, reasoning and tool calls in part order)
   followed by one tool message with that step's results;
4. ``ProviderTransform.message`` (``packages/opencode/src/provider/transform.ts`` at
   000f6280d904296fe8628344b98bef096ae26fb4) adapts the history to the next request's model:
   Anthropic drops empty texts and reasoning (and messages left empty), a Claude model gets call
   ids with every character outside ``[a-zA-Z0-9_-]`` replaced by ``_``, a Mistral model gets ids
   of 9 alphanumerics (padded with ``0``) and an assistant "Done." between a tool message and a
   user message.

Reasoning keeps its provider metadata (Anthropic's ``signature``) only when it was produced by
the model of the next request (``differentModel`` in ``toModelMessages``). Which SDK package a
provider uses is read from its id, not from models.dev (``model.api.npm``): inferred, said in
`toolhist.agents.opencode.sessions`. Parts OpenCode keeps for its own UI (``step-finish``,
``snapshot``, ``patch``, ``agent``, ``retry``) are counted in a note; a part type this reader does
not know is skipped and named.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from pydantic import JsonValue

from toolhist.formats.base import Built, Pointer, ShapeError, Skips, arr, obj, text
from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    MessageMetadata,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

COMPACTED_OUTPUT: Final = "[Old tool result content cleared]"
INTERRUPTED: Final = "[Tool execution was interrupted]"
COMPACTION_PROMPT: Final = "What did we do so far?"
SUBTASK_PROMPT: Final = "The following tool was executed by the user"
DONE: Final = "Done."
UI_PARTS: Final = frozenset({"step-finish", "snapshot", "patch", "agent", "retry"})
"""Parts OpenCode shows or uses itself and never sends (``toModelMessages`` has no case for them)."""
KNOWN_PARTS: Final = frozenset(
    {"text", "reasoning", "file", "tool", "step-start", "compaction", "subtask", *UI_PARTS}
)
INLINED_FILES: Final = frozenset({"text/plain", "application/x-directory"})
COMPACTED_REASON: Final = (
    "before the last completed compaction: OpenCode sends the history from the compaction on "
    "(MessageV2.filterCompacted, packages/opencode/src/session/message-v2.ts)"
)
ERRORED_REASON: Final = (
    "an assistant message that ended in an error: toModelMessages skips it "
    "(packages/opencode/src/session/message-v2.ts)"
)
IGNORED_REASON: Final = "a text part marked ignored: toModelMessages does not send it"


@dataclass(frozen=True)
class Entry:
    """One stored message: its ``info``, its parts, and where each came from (for errors)."""

    info: dict[str, Any]
    parts: list[dict[str, Any]]
    ptr: Pointer
    part_ptrs: list[Pointer]


@dataclass(frozen=True)
class Target:
    """The model the next request goes to (OpenCode's ``Provider.Model``, as far as a session says)."""

    provider: str | None
    model: str | None

    @property
    def anthropic_sdk(self) -> bool:
        """Whether the provider sends through ``@ai-sdk/anthropic`` (inferred from its id)."""
        return self.provider in {"anthropic", "google-vertex-anthropic"}

    @property
    def claude(self) -> bool:
        """Whether the model is a Claude model (``model.api.id.includes("claude")``)."""
        return "claude" in (self.model or "")

    @property
    def mistral(self) -> bool:
        """Whether the provider or model is Mistral's (``ProviderTransform``'s Mistral branch)."""
        return self.provider == "mistral" or "mistral" in (self.model or "").lower()


def next_target(entries: list[Entry]) -> Target:
    """The newest user message's ``model``, else the newest assistant's provider and model."""
    for entry in reversed(entries):
        info = entry.info
        if info.get("role") == "user" and isinstance(info.get("model"), dict):
            model = info["model"]
            return Target(_str(model.get("providerID")), _str(model.get("modelID")))
        if info.get("role") == "assistant" and isinstance(info.get("providerID"), str):
            return Target(info["providerID"], _str(info.get("modelID")))
    return Target(None, None)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def filter_compacted(entries: list[Entry]) -> tuple[list[Entry], list[Entry]]:
    """(what is sent, what lies before the last completed compaction), as ``filterCompacted`` walks."""
    kept: list[Entry] = []
    completed: set[str] = set()
    retain: str | None = None
    for entry in reversed(entries):
        kept.append(entry)
        info = entry.info
        if retain is not None:
            if info.get("id") == retain:
                break
            continue
        if info.get("role") == "user" and info.get("id") in completed:
            part = next((p for p in entry.parts if p.get("type") == "compaction"), None)
            if part is None:
                continue
            tail = part.get("tail_start_id")
            if not isinstance(tail, str) or not tail:
                break
            retain = tail
            if info.get("id") == retain:
                break
            continue
        if (
            info.get("role") == "assistant"
            and info.get("summary")
            and info.get("finish")
            and not info.get("error")
            and isinstance(info.get("parentID"), str)
        ):
            completed.add(info["parentID"])
    kept.reverse()
    return kept, entries[: len(entries) - len(kept)]


@dataclass
class _Step:
    """One step of an assistant message: its content blocks and its results."""

    blocks: list[Block] = field(default_factory=list)
    results: list[ToolResponseBlock] = field(default_factory=list)


class Sender:
    """Builds the sent history into ``built``, as OpenCode would for ``target``."""

    def __init__(self, built: Built, skips: Skips, target: Target) -> None:
        self.built = built
        self.skips = skips
        self.target = target
        self.kept: Counter[str] = Counter()
        self.changed: Counter[str] = Counter()

    def send(self, entries: list[Entry]) -> None:
        """Every entry in order; the compacted-away ones go to ``unsent``."""
        sent, dropped = filter_compacted(entries)
        for entry in dropped:
            self.built.keep_unsent(
                "compacted",
                COMPACTED_REASON,
                entry.ptr,
                text=_first_text(entry.parts),
                data={"id": entry.info.get("id"), "role": entry.info.get("role")},
            )
        for entry in sent:
            if not entry.parts:
                continue
            role = entry.info.get("role")
            if role == "user":
                self._user(entry)
            elif role == "assistant":
                self._assistant(entry)
            else:
                self.skips.add(
                    f"message role {role!r}" if isinstance(role, str) else "message without a role"
                )
        if self.kept:
            kinds = ", ".join(f"{k} x{n}" for k, n in sorted(self.kept.items()))
            self.built.notes.append(f"parts OpenCode keeps for itself and never sends: {kinds}")
        if self.changed:
            said = "; ".join(f"{k} x{n}" for k, n in sorted(self.changed.items()))
            self.built.notes.append(
                f"as OpenCode adapts the history to {self.target.provider}/{self.target.model} "
                f"(ProviderTransform.message): {said}"
            )

    def _user(self, entry: Entry) -> None:
        blocks: list[Block] = []
        for part, ptr in zip(entry.parts, entry.part_ptrs, strict=True):
            kind = part.get("type")
            if kind == "text":
                if part.get("ignored"):
                    self.built.keep_unsent(
                        "ignored text", IGNORED_REASON, ptr, text=text(part.get("text"), (*ptr, "text"))
                    )
                    continue
                blocks.append(TextBlock(text=text(part.get("text"), (*ptr, "text"))))
            elif kind == "file":
                mime = text(part.get("mime"), (*ptr, "mime"))
                if mime in INLINED_FILES:
                    self.kept[f"{mime} file"] += 1
                    continue
                blocks.append(_media(part, ptr, mime))
            elif kind == "compaction":
                blocks.append(
                    TextBlock(text=COMPACTION_PROMPT, provider_data={"opencode_part": "compaction"})
                )
            elif kind == "subtask":
                blocks.append(TextBlock(text=SUBTASK_PROMPT, provider_data={"opencode_part": "subtask"}))
            else:
                self._other(kind, ptr)
        if blocks:
            self._add("human", blocks, entry)

    def _assistant(self, entry: Entry) -> None:
        info = entry.info
        error = info.get("error")
        if error and not (
            isinstance(error, dict)
            and error.get("name") == "MessageAbortedError"
            and any(p.get("type") not in ("step-start", "reasoning") for p in entry.parts)
        ):
            self.built.keep_unsent(
                "errored assistant message",
                ERRORED_REASON,
                entry.ptr,
                text=_error_text(error),
                data={"id": info.get("id"), "error": error},
            )
            return
        same = (info.get("providerID"), info.get("modelID")) == (self.target.provider, self.target.model)
        steps = [_Step()]
        for part, ptr in zip(entry.parts, entry.part_ptrs, strict=True):
            kind = part.get("type")
            step = steps[-1]
            if kind == "step-start":
                steps.append(_Step())
            elif kind == "text":
                meta = part.get("metadata") if same else None
                data = {"providerMetadata": meta} if isinstance(meta, dict) else {}
                step.blocks.append(TextBlock(text=text(part.get("text"), (*ptr, "text")), provider_data=data))
            elif kind == "reasoning":
                step.blocks.append(_reasoning(part, ptr, same))
            elif kind == "tool":
                call, result = _tool(part, ptr, same)
                step.blocks.append(call)
                step.results.append(result)
            else:
                self._other(kind, ptr)
        for step in steps:
            if step.blocks:
                self._add("ai", step.blocks, entry)
            if step.results:
                self._add("tool", list(step.results), entry)

    def _other(self, kind: Any, ptr: Pointer) -> None:
        if kind in UI_PARTS:
            self.kept[str(kind)] += 1
        elif isinstance(kind, str) and kind in KNOWN_PARTS:
            self.kept[f"{kind} in a {ptr[0]} of another role"] += 1
        else:
            self.skips.add(f"part type {kind!r}" if isinstance(kind, str) else "part without a string 'type'")

    def _add(self, speaker: Any, blocks: list[Block], entry: Entry) -> None:
        """Add one model message, adapted to the target as ``ProviderTransform.message`` adapts it."""
        info = entry.info
        ai = speaker == "ai"
        meta = MessageMetadata(
            source_role=str(info.get("role")),
            turn_id=_str(info.get("id")),
            timestamp=_time(info),
            provider=_str(info.get("providerID")) if ai else None,
            model=_str(info.get("modelID")) if ai else None,
        )
        if self.target.anthropic_sdk:
            kept = [b for b in blocks if not _empty(b)]
            if len(kept) < len(blocks):
                self.changed["empty text or reasoning dropped (Anthropic)"] += len(blocks) - len(kept)
            if not kept:
                self.changed["message left empty and dropped (Anthropic)"] += 1
                return
            blocks = kept
        if self.target.claude:
            blocks = self._ids(blocks, _claude_id, "call id made Claude-safe")
        elif self.target.mistral:
            blocks = self._ids(blocks, _mistral_id, "call id cut to Mistral's 9 alphanumerics")
            if speaker == "human" and self.built.messages and self.built.messages[-1].speaker == "tool":
                done = MessageMetadata(synthetic=True, reason="OpenCode's Mistral transform (transform.ts)")
                self.built.add(
                    Message(speaker="ai", blocks=(TextBlock(text=DONE),), metadata=done), None, entry.ptr
                )
                self.changed['assistant "Done." added between tool results and a user turn (Mistral)'] += 1
        self.built.add(Message(speaker=speaker, blocks=tuple(blocks), metadata=meta), None, entry.ptr)

    def _ids(self, blocks: list[Block], fix: Callable[[str], str], change: str) -> list[Block]:
        out: list[Block] = []
        for block in blocks:
            if isinstance(block, ToolCallBlock) and fix(block.id) != block.id:
                out.append(block.model_copy(update={"id": fix(block.id)}))
                self.changed[change] += 1
            elif isinstance(block, ToolResponseBlock) and fix(block.call_id) != block.call_id:
                out.append(block.model_copy(update={"call_id": fix(block.call_id)}))
            else:
                out.append(block)
        return out


_CLAUDE_BAD: Final = re.compile(r"[^a-zA-Z0-9_-]")
_ALNUM_BAD: Final = re.compile(r"[^a-zA-Z0-9]")


def _claude_id(raw: str) -> str:
    return _CLAUDE_BAD.sub("_", raw)


def _mistral_id(raw: str) -> str:
    return _ALNUM_BAD.sub("", raw)[:9].ljust(9, "0")


def _empty(block: Block) -> bool:
    """An empty text, or an empty reasoning with nothing opaque to replay (Anthropic's filter)."""
    if isinstance(block, TextBlock):
        return block.text == ""
    return isinstance(block, ThinkingBlock) and block.text == "" and not block.redacted and not block.data


def _media(part: dict[str, Any], ptr: Pointer, mime: str) -> MediaBlock:
    url = text(part.get("url"), (*ptr, "url"))
    filename = part.get("filename") if isinstance(part.get("filename"), str) else None
    if url.startswith("data:") and "," in url:
        return MediaBlock(mime_type=mime, data=url.split(",", 1)[1], filename=filename)
    return MediaBlock(mime_type=mime, url=url, filename=filename)


def _reasoning(part: dict[str, Any], ptr: Pointer, same: bool) -> ThinkingBlock:
    body = text(part.get("text"), (*ptr, "text"))
    meta = part.get("metadata")
    if not same or not isinstance(meta, dict):
        return ThinkingBlock(text=body, source_provider="opencode")
    anthropic = meta.get("anthropic")
    signature = anthropic.get("signature") if isinstance(anthropic, dict) else None
    redacted = anthropic.get("redactedData") if isinstance(anthropic, dict) else None
    openai = meta.get("openai")
    encrypted = openai.get("reasoningEncryptedContent") if isinstance(openai, dict) else None
    data: str | None = (
        redacted if isinstance(redacted, str) else encrypted if isinstance(encrypted, str) else None
    )
    return ThinkingBlock(
        text=body,
        signature=signature if isinstance(signature, str) else None,
        redacted=isinstance(redacted, str),
        data=data,
        source_provider="anthropic"
        if isinstance(anthropic, dict)
        else "openai-responses"
        if openai
        else None,
        provider_data={"providerMetadata": meta},
    )


def _tool(part: dict[str, Any], ptr: Pointer, same: bool) -> tuple[ToolCallBlock, ToolResponseBlock]:
    call_id = text(part.get("callID"), (*ptr, "callID"))
    name = text(part.get("tool"), (*ptr, "tool"))
    state = obj(part.get("state"), (*ptr, "state"))
    status = state.get("status")
    params: JsonValue = state.get("input")
    if not isinstance(params, dict):
        params = obj(params, (*ptr, "state", "input"))
    meta = part.get("metadata")
    data: dict[str, JsonValue] = {"state": str(status)}
    if same and isinstance(meta, dict) and meta:
        data["callProviderMetadata"] = {k: v for k, v in meta.items() if k != "providerExecuted"}
    if isinstance(meta, dict) and meta.get("providerExecuted"):
        data["providerExecuted"] = True
    call = ToolCallBlock(id=call_id, name=name, parameters=params, raw_id=call_id, provider_data=data)
    result: JsonValue
    error: str | None = None
    complete = True
    if status == "completed":
        time = state.get("time")
        compacted = isinstance(time, dict) and bool(time.get("compacted"))
        result = COMPACTED_OUTPUT if compacted else text(state.get("output"), (*ptr, "state", "output"))
        attachments = [] if compacted else state.get("attachments") or []
        media = [a for a in arr(attachments, (*ptr, "state", "attachments")) if isinstance(a, dict)]
        if media:
            result = [{"type": "text", "text": result}, *media]
    elif status == "error":
        meta_state = state.get("metadata")
        kept = (
            meta_state.get("output")
            if isinstance(meta_state, dict) and meta_state.get("interrupted")
            else None
        )
        if isinstance(kept, str):
            result = kept
        else:
            error = text(state.get("error"), (*ptr, "state", "error"))
            result = error
    elif status in ("pending", "running"):
        error = INTERRUPTED
        result = INTERRUPTED
        complete = False
    else:
        raise ShapeError((*ptr, "state", "status"), f"unknown tool status {status!r}")
    response = ToolResponseBlock(
        call_id=call_id, tool_name=name, result=result, error=error, is_complete=complete, raw_call_id=call_id
    )
    return call, response


def _time(info: dict[str, Any]) -> float | None:
    time = info.get("time")
    created = time.get("created") if isinstance(time, dict) else None
    return created / 1000 if isinstance(created, int | float) and not isinstance(created, bool) else None


def _first_text(parts: list[dict[str, Any]]) -> str:
    return next((p["text"] for p in parts if p.get("type") == "text" and isinstance(p.get("text"), str)), "")


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        data = error.get("data")
        message = data.get("message") if isinstance(data, dict) else None
        return f"{error.get('name')}: {message}" if isinstance(message, str) else str(error.get("name"))
    return str(error)
