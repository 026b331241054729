"""Pi coding agent sessions (``~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl``): what Pi sends next.

A Pi session file is a tree (``id`` / ``parentId``) with a header line; Pi replays the path from the
last entry to the root, compaction applied (`toolhist.agents.pi.context`), converts it for the
model (``convertToLlm``), then transforms it for the model it calls next
(`toolhist.agents.pi.transform`): the messages here are that transformed history, each block in
the form the target API's converter sends it (`toolhist.agents.pi.blocks`). The next model is the
path's last ``model_change`` or assistant message; its API (the wire format) is the one that model's
latest assistant message names.

Kept, not sent (``Session.unsent``): entries on other branches, messages a compaction summarised,
superseded compaction summaries, ``!!`` commands, and assistant turns that ended in ``error`` or
``aborted``. Settings entries (model and thinking changes, labels, session names, extension state)
are counted in the notes. An entry type or message role this reader does not know is skipped and
named, as Pi's ``convertToLlm`` drops a role it does not know.

Where it ran: each assistant message names its ``provider`` (Pi's provider id) and ``api`` (the wire
protocol Pi spoke); a message's ``metadata.provider`` is ``<provider>/<api>`` (`sessions.WIRE`
maps the pairs whose endpoint is the vendor's own to toolhist providers).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from pydantic import JsonValue

from toolhist.agents.pi import context as ctx_mod
from toolhist.agents.pi.blocks import assistant_blocks, result_block, user_blocks
from toolhist.agents.pi.transform import WHY_SKIPPED, WHY_SYNTHETIC, Target, transform
from toolhist.formats.base import ShapeError
from toolhist.formats.jsonl_stream import Collector, Lines, StreamReader, at_line, iso_seconds, shape_on_line
from toolhist.formats.records import kind_of
from toolhist.model import Block, Message, MessageMetadata, Session, Unsent

HEADER_KEYS: Final = ("id", "timestamp", "cwd", "version", "parentSession", "branchedFrom")
MAX_SCAN: Final = 64


def looks_pi(value: Any) -> int:
    """2 when line 1 is a Pi session header and every line after it is an entry object with a ``type``."""
    if not isinstance(value, list) or not value:
        return 0
    head = value[0]
    if not (
        isinstance(head, dict)
        and head.get("type") == "session"
        and isinstance(head.get("id"), str)
        and "cwd" in head
        and "sessionId" not in head
    ):
        return 0
    rest = value[1:MAX_SCAN]
    if not all(isinstance(v, dict) and isinstance(v.get("type"), str) for v in rest):
        return 0
    return 2 if not rest or any(v["type"] in ctx_mod.ENTRY_TYPES for v in rest) else 0


def _target(context: ctx_mod.Context) -> Target | None:
    """The next request's model and the API its latest answer came through."""
    if context.model is None:
        return None
    provider, model = context.model
    api = None
    for sent in context.messages:
        msg = sent.message
        if msg.get("role") == "assistant" and (msg.get("provider"), msg.get("model")) == context.model:
            api = msg.get("api") if isinstance(msg.get("api"), str) else api
    return Target(provider, model, api)


class PiReader(StreamReader):
    """``pi``: a Pi coding agent session read as the history Pi sends its current model."""

    id = "pi"
    description = "Pi coding agent session JSONL (~/.pi/agent/sessions/--<cwd>--/*.jsonl)"

    def recognise(self, value: Any) -> int:
        """Certain on a ``{"type": "session", "id", "cwd"}`` header followed by Pi entries."""
        return looks_pi(value)

    def record_kind(self, value: Any) -> str | None:
        """The entry's type when it is one Pi writes: such an entry may be skipped when damaged.

        The header (or a line in its place) may not: without it the file is no Pi session.
        """
        kind = kind_of(value)
        return kind if kind in ctx_mod.ENTRY_TYPES else None

    def read_lines(self, lines: Lines, *, name: str, path: str | None, notes: list[str]) -> Session:
        """Thread the tree, convert and transform as Pi does, then read each message's blocks."""
        header, entries, skips = ctx_mod.entries_of(list(lines))
        context = ctx_mod.build(header, entries, skips)
        target = _target(context)
        done = transform(context.messages, target)
        out = Collector(notes)
        out.skips = context.skips
        api = target.api if target is not None else None
        events: list[tuple[float, int, ctx_mod.Sent | ctx_mod.Dropped, bool]] = [
            (d.before - 0.5, 0, d, False) for d in context.dropped
        ]
        events += [(s.order, 1, s, True) for _, s in done.skipped]
        events += [(s.order, 2, s, False) for s in done.messages]
        left_out = 0
        synthetic: list[str] = []
        gone: set[str] = set()  # calls of assistant messages left out unreadable: Pi's answers go too
        for _, _, item, skipped in sorted(events, key=lambda e: (e[0], e[1])):
            if isinstance(item, ctx_mod.Dropped):
                out.unsent.append(_dropped_unsent(item, len(out.messages)))
            elif skipped:
                out.unsent.append(_skipped_unsent(item, len(out.messages)))
            elif item.made != "synthetic" or item.message.get("toolCallId") not in gone:
                unreadable = out.skips.unreadable()
                left_out += self._add(out, item, api, synthetic)
                if out.skips.unreadable() > unreadable:
                    gone |= _call_ids(item.message)
        out.notes += _notes(context, done, target, left_out, synthetic)
        out.notes += out.skips.note("Pi's convertToLlm leaves out a role it does not know too")
        return out.session(
            self.id,
            path=path,
            request={"model": target.model} if target is not None else {},
            metadata=_metadata(header, context, target),
        )

    def _add(self, out: Collector, sent: ctx_mod.Sent, api: str | None, synthetic: list[str]) -> int:
        """Append one converted message (results join the tool message before them); blocks left out."""
        line = sent.line
        try:  # a damaged entry is left out here and named, its place in the tree kept (records.py)
            with out.record(line, None, "message", {"message": sent.message}):
                return self._convert(out, sent, api, synthetic)
        except ShapeError as exc:  # not skipped (too many, or sniffing): refused on its line
            raise shape_on_line(line, exc) from None
        return 0  # left out: nothing of it was sent

    def _convert(self, out: Collector, sent: ctx_mod.Sent, api: str | None, synthetic: list[str]) -> int:
        """`_add` for one message; a shape error leaves what it added to be taken back."""
        msg = sent.message
        role = msg.get("role")
        line = sent.line
        if role == "toolResult":
            block = result_block(msg, api, ("message",))
            if sent.made == "synthetic":
                block = block.model_copy(
                    update={"is_complete": False, "provider_data": {"_synthetic": WHY_SYNTHETIC}}
                )
                synthetic.append(block.call_id)
            meta = MessageMetadata(source_role="toolResult", timestamp=_millis(msg.get("timestamp")))
            last = out.messages[-1] if out.messages else None
            if last is not None and last.speaker == "tool":
                out.messages[-1] = last.model_copy(update={"blocks": (*last.blocks, block)})
            else:
                out.add(Message(speaker="tool", blocks=(block,), metadata=meta), line, None, "message")
            return 0
        if role == "user":
            blocks: list[Block] = user_blocks(msg.get("content"), ("message", "content"))
            meta = MessageMetadata(
                source_role=sent.made or "user",
                timestamp=_millis(msg.get("timestamp")),
                turn_id=sent.entry,
            )
            out.add(Message(speaker="human", blocks=tuple(blocks), metadata=meta), line, None, "message")
            return 0
        content = msg.get("content")
        if not isinstance(content, list):
            raise ShapeError(("message", "content"), "expected a list of content blocks")
        blocks, left_out = assistant_blocks(content, api, ("message", "content"))
        named = f"{msg.get('provider')}/{msg.get('api')}"
        extra: dict[str, JsonValue] = {
            k: msg[k] for k in ("api", "stopReason", "responseId", "errorMessage") if k in msg
        }
        meta = MessageMetadata(
            source_role="assistant",
            turn_id=sent.entry,
            timestamp=_millis(msg.get("timestamp")),
            provider=named,
            model=msg.get("model") if isinstance(msg.get("model"), str) else None,
            extra=extra,
        )
        out.add(Message(speaker="ai", blocks=tuple(blocks), metadata=meta), line, None, "message")
        return left_out


def _call_ids(message: dict[str, Any]) -> set[str]:
    content = message.get("content")
    blocks = content if isinstance(content, list) else []
    return {b["id"] for b in blocks if isinstance(b, dict) and isinstance(b.get("id"), str)}


def _skipped_unsent(sent: ctx_mod.Sent, before: int) -> Unsent:
    msg = sent.message
    stop = msg.get("stopReason")
    data: dict[str, JsonValue] = {k: v for k, v in msg.items() if k != "content"}
    return Unsent(
        kind=f"{stop} assistant turn",
        reason=WHY_SKIPPED.format(stop=stop),
        before=before,
        line=sent.line,
        json_path="message",
        text=ctx_mod.text_of(msg.get("content")) or str(msg.get("errorMessage") or ""),
        data=data,
    )


def _dropped_unsent(dropped: ctx_mod.Dropped, before: int) -> Unsent:
    return Unsent(
        kind=dropped.kind,
        reason=dropped.reason,
        before=before,
        line=dropped.line,
        json_path="",
        text=dropped.text,
        data=dropped.data,
    )


def _millis(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value / 1000
    return iso_seconds(value)


def _notes(
    context: ctx_mod.Context, done: Any, target: Target | None, left_out: int, synthetic: list[str]
) -> list[str]:
    notes: list[str] = []
    if target is None:
        notes.append(
            "no model on the session path: transformMessages treats every message as another model's"
        )
    elif target.api is None:
        notes.append(
            f"the next model {target.provider}/{target.model} has not answered in this session: its API "
            "(the wire format) is unknown, so every assistant message is read as another model's"
        )
    if context.off_path:
        notes.append(
            f"{context.off_path} entr(y/ies) on other branches of the session tree are not sent "
            "(session.unsent)"
        )
    if done.skipped:
        kinds = Counter(str(s.message.get("stopReason")) for _, s in done.skipped)
        notes.append(
            "assistant turns Pi skips before sending (session.unsent): "
            + ", ".join(f"{k} x{n}" for k, n in sorted(kinds.items()))
        )
    if done.renamed:
        notes.append(
            f"{len(done.renamed)} tool call id(s) from another model normalized for the target API, "
            "as Pi does"
        )
    if synthetic:
        notes.append(
            f"Pi answers {len(synthetic)} call(s) left without a result with 'No result provided': "
            + ", ".join(synthetic)
        )
    if left_out:
        notes.append(
            f"{left_out} blank or unsigned block(s) the target API's converter does not send were left out"
        )
    made = Counter(s.made for s in context.messages if s.made not in (None, "synthetic"))
    if made:
        notes.append(
            "user messages Pi makes from its own entries: "
            + ", ".join(f"{k} x{n}" for k, n in sorted(made.items()))
        )
    if context.settings:
        notes.append(
            "settings entries on the path (not messages): "
            + ", ".join(f"{k} x{n}" for k, n in sorted(context.settings.items()))
        )
    return notes


def _metadata(
    header: dict[str, Any], context: ctx_mod.Context, target: Target | None
) -> dict[str, JsonValue]:
    meta: dict[str, JsonValue] = {f"session.{k}": header[k] for k in HEADER_KEYS if k in header}
    meta["thinking_level"] = context.thinking_level
    if target is not None:
        meta["next_model"] = {"provider": target.provider, "model": target.model, "api": target.api}
    return meta


__all__ = ["PiReader", "at_line", "looks_pi"]
