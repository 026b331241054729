"""The Changes a library made, read off the difference between the history given and the body it sent.

A real library does not say what it changed; its request body shows it. Both sides are canonical
(the body read back by toolhist's reader for that provider), so the diff is over blocks:

- blocks are aligned in order on what they hold (a call by name and arguments, a result by its
  content, text by its words) plus their id when both sides have that id, so a rewritten id still
  pairs its call and result while a kept id is never paired with a dropped twin;
- an aligned call or result whose id differs is a ``rewrite_id`` (once per old id);
- an input block with no partner is a ``drop`` (a result whose call id the body answers with another
  result: ``dedupe``, or ``conflict`` when they differ); an output block with none is an ``insert`` (a
  result: ``synthesize``); a dropped and an inserted block with the same key are one ``move``;
- an input text paired with a different output text (in a replaced run) is a ``rewrite`` (``fill``
  when the input was blank), and a call replaced by text is the call written as text;
- blocks of several input messages sent in one message are a ``merge``; one message's blocks sent
  in several, a ``split``;
- tools the library declared and a ``thinking`` setting it removed are request Changes.

Where the inserted text is one the library's source writes, the reason names that function
(`KNOWN_TEXTS`), so a reviewer can look it up.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from typing import Any

from toolhist.curation.base import Action, Change, Position, block_json
from toolhist.model import (
    Block,
    Message,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

KNOWN_TEXTS: tuple[tuple[str, str], ...] = (
    ("[System: Tool execution skipped/interrupted by user.", "_add_missing_tool_results"),
    ("[System: Empty message content sanitised to satisfy protocol]", "_sanitize_empty_text_content"),
    ("Please continue.", "_bedrock_converse_messages_pt (DEFAULT_*_CONTINUE_MESSAGE)"),
    ("[tool call ", "bedrock_neutralize_orphaned_tool_blocks"),
    ("[tool result ", "bedrock_neutralize_orphaned_tool_blocks"),
    ("Operator note", "the system-message conversion of the provider route"),
)
"""Texts LiteLLM writes itself (``litellm/litellm_core_utils/prompt_templates/factory.py``, 1.106.2)
and the function that writes them, quoted in the Change reason."""

Flat = list[tuple[int, int, Block]]


def _flat(messages: Sequence[Message]) -> Flat:
    return [(mi, bi, block) for mi, message in enumerate(messages) for bi, block in enumerate(message.blocks)]


def _content(value: Any) -> str:
    """A result's content as comparable text (providers reshape strings, part lists and JSON)."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, dict) and len(value) == 1 and next(iter(value)) in ("content", "output", "result"):
        return _content(next(iter(value.values())))  # Gemini's functionResponse.response wrapper
    if isinstance(value, list) and all(isinstance(p, dict) and "text" in p for p in value):
        return "".join(str(p["text"]) for p in value).strip()
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def key(block: Block) -> tuple[str, ...]:
    """What a block is, without its ids: the alignment key."""
    if isinstance(block, TextBlock):
        return ("text", block.text.strip())
    if isinstance(block, ToolCallBlock):
        return ("call", block.name, json.dumps(block.parameters, sort_keys=True, ensure_ascii=False))
    if isinstance(block, ToolResponseBlock):
        return ("result", _content(block.result if block.result is not None else block.error))
    if isinstance(block, ThinkingBlock):
        return ("thinking", block.text)
    return (block.type,)


def _block_id(block: Block) -> str | None:
    if isinstance(block, ToolCallBlock):
        return block.id
    if isinstance(block, ToolResponseBlock):
        return block.call_id
    return None


def _known(text: str) -> str:
    for start, function in KNOWN_TEXTS:
        if start in text:
            return f" (LiteLLM's {function} writes this text)" if "_" in function else f" ({function})"
    return ""


def _describe(block: Block) -> str:
    if isinstance(block, ToolCallBlock):
        return f"call {block.id} ({block.name})"
    if isinstance(block, ToolResponseBlock):
        return f"the result for {block.call_id}"
    if isinstance(block, TextBlock):
        short = block.text if len(block.text) <= 60 else block.text[:57] + "..."
        return f"text {short!r}"
    return f"a {block.type} block"


class _Diff:
    def __init__(self, label: str, pass_name: str, ids_on_wire: bool) -> None:
        self.label = label
        self.pass_name = pass_name
        self.ids_on_wire = ids_on_wire
        self.changes: list[Change] = []
        self.rewritten: set[str] = set()
        self.sent: dict[tuple[str, str], Block] = {}
        """``("result", call id)`` → the result the body holds for that id (ids as sent)."""

    def add(
        self,
        action: Action,
        reason: str,
        before: tuple[int, int | None] | None,
        after: tuple[int, int | None] | None,
        *,
        call_id: str | None = None,
        dropped: Any = None,
        detail: dict[str, Any] | None = None,
    ) -> None:
        self.changes.append(
            Change(
                pass_=self.pass_name,
                action=action,
                reason=reason,
                call_id=call_id,
                before=None if before is None else Position(message=before[0], block=before[1]),
                after=None if after is None else Position(message=after[0], block=after[1]),
                dropped=dropped,
                detail=detail or {},
            )
        )

    def pair(self, old: tuple[int, int, Block], new: tuple[int, int, Block]) -> None:
        old_id, new_id = _block_id(old[2]), _block_id(new[2])
        if not self.ids_on_wire or old_id is None or new_id is None or old_id in (new_id, *self.rewritten):
            return
        self.rewritten.add(old_id)
        self.add(
            "rewrite_id",
            f"{self.label} sent id {old_id!r} as {new_id!r}",
            (old[0], old[1]),
            (new[0], new[1]),
            call_id=old_id,
            detail={"old_id": old_id, "new_id": new_id},
        )

    def drop(self, old: tuple[int, int, Block]) -> None:
        block = old[2]
        kept = self.sent.get(("result", block.call_id)) if isinstance(block, ToolResponseBlock) else None
        if kept is not None and isinstance(block, ToolResponseBlock):
            same = key(kept) == key(block)
            self.add(
                "dedupe" if same else "conflict",
                f"{self.label} sent one result for {block.call_id} and not this one"
                + ("" if same else ", which said something else"),
                (old[0], old[1]),
                None,
                call_id=block.call_id,
                dropped=block_json(block),
                detail={"kept": block_json(kept), "dropped": block_json(block)},
            )
            return
        self.add(
            "drop",
            f"{self.label} did not send {_describe(block)}",
            (old[0], old[1]),
            None,
            call_id=_block_id(block),
            dropped=block_json(block),
        )

    def insert(self, new: tuple[int, int, Block]) -> None:
        block = new[2]
        text = block.text if isinstance(block, TextBlock) else _content(getattr(block, "result", None))
        action: Action = "synthesize" if isinstance(block, ToolResponseBlock) else "insert"
        self.add(
            action,
            f"{self.label} added {_describe(block)}{_known(text)}",
            None,
            (new[0], new[1]),
            call_id=_block_id(block),
            detail={"block": block_json(block)},
        )

    def replace(self, old: tuple[int, int, Block], new: tuple[int, int, Block]) -> None:
        a, b = old[2], new[2]
        if isinstance(b, TextBlock) and isinstance(a, TextBlock):
            action: Action = "fill" if not a.text.strip() else "rewrite"
            self.add(
                action,
                f"{self.label} sent {_describe(a)} as {_describe(b)}{_known(b.text)}",
                (old[0], old[1]),
                (new[0], new[1]),
                detail={"old_text": a.text, "new_text": b.text},
            )
        elif isinstance(b, TextBlock) and isinstance(a, ToolCallBlock | ToolResponseBlock):
            self.add(
                "rewrite",
                f"{self.label} wrote {_describe(a)} as text{_known(b.text)}",
                (old[0], old[1]),
                (new[0], new[1]),
                call_id=_block_id(a),
                dropped=block_json(a),
                detail={"new_text": b.text},
            )
        elif type(a) is type(b):
            self.pair(old, new)
            self.add(
                "rewrite",
                f"{self.label} changed the content of {_describe(a)}",
                (old[0], old[1]),
                (new[0], new[1]),
                call_id=_block_id(a),
                dropped=block_json(a),
                detail={"block": block_json(b)},
            )
        else:
            self.drop(old)
            self.insert(new)


def diff(
    before: Session, after: Session, *, label: str, pass_name: str, ids_on_wire: bool = True
) -> list[Change]:
    """Every Change that turns ``before`` (the history given) into ``after`` (what was sent).

    ``label`` names the library in reasons (``LiteLLM 1.106.2``); ``ids_on_wire`` is false for a
    provider whose body carries no call ids (Gemini), where ids cannot have been rewritten.
    """
    state = _Diff(label, pass_name, ids_on_wire)
    old, new = _flat(before.messages), _flat(after.messages)
    for *_, block in new:
        if isinstance(block, ToolResponseBlock):
            state.sent.setdefault(("result", block.call_id), block)
    # An id both sides have pins its blocks together; other ids (rewritten, or made up by a reader)
    # are left out of the key, so their blocks pair by content.
    both = {_block_id(b) for *_, b in old} & {_block_id(b) for *_, b in new}

    def pinned(block: Block) -> tuple[str, ...]:
        found = _block_id(block)
        return (*key(block), found) if found is not None and found in both else key(block)

    old_keys, new_keys = [pinned(b) for *_, b in old], [pinned(b) for *_, b in new]
    matcher = difflib.SequenceMatcher(None, old_keys, new_keys, autojunk=False)
    paired: list[tuple[int, int]] = []  # (old flat index, new flat index)
    dropped: list[int] = []
    inserted: list[int] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            paired.extend(zip(range(i1, i2), range(j1, j2), strict=True))
        elif op == "delete":
            dropped.extend(range(i1, i2))
        elif op == "insert":
            inserted.extend(range(j1, j2))
        else:
            n = min(i2 - i1, j2 - j1)
            for k in range(n):
                paired.append((i1 + k, j1 + k))
                state.replace(old[i1 + k], new[j1 + k])
            dropped.extend(range(i1 + n, i2))
            inserted.extend(range(j1 + n, j2))
    for i, j in paired:
        if old_keys[i] == new_keys[j]:
            state.pair(old[i], new[j])
    moved: set[int] = set()
    for i in dropped:
        partner = next((j for j in inserted if j not in moved and new_keys[j] == old_keys[i]), None)
        if partner is None:
            state.drop(old[i])
            continue
        moved.add(partner)
        state.pair(old[i], new[partner])
        state.add(
            "move",
            f"{state.label} sent {_describe(old[i][2])} elsewhere in the history",
            (old[i][0], old[i][1]),
            (new[partner][0], new[partner][1]),
            call_id=_block_id(old[i][2]),
        )
        paired.append((i, partner))
    for j in inserted:
        if j not in moved:
            state.insert(new[j])
    _grouping(state, old, new, paired)
    _request(state, before, after)
    return state.changes


def _grouping(state: _Diff, old: Flat, new: Flat, paired: list[tuple[int, int]]) -> None:
    """``merge`` where blocks of several input messages went out in one; ``split`` for the reverse."""
    sources: dict[int, list[int]] = {}
    targets: dict[int, list[int]] = {}
    for i, j in sorted(paired, key=lambda p: p[1]):
        sources.setdefault(new[j][0], [])
        if old[i][0] not in sources[new[j][0]]:
            sources[new[j][0]].append(old[i][0])
        targets.setdefault(old[i][0], [])
        if new[j][0] not in targets[old[i][0]]:
            targets[old[i][0]].append(new[j][0])
    for out_m, ins in sorted(sources.items()):
        if len(ins) > 1:
            state.add(
                "merge",
                f"{state.label} sent the blocks of messages {', '.join(map(str, ins))} as one message",
                (ins[1], None),
                (out_m, None),
                detail={"messages": list(ins)},
            )
    for in_m, outs in sorted(targets.items()):
        if len(outs) > 1:
            state.add(
                "split",
                f"{state.label} sent the blocks of message {in_m} as {len(outs)} messages",
                (in_m, None),
                (outs[0], None),
                detail={"messages": list(outs)},
            )


def _request(state: _Diff, before: Session, after: Session) -> None:
    """Tool declarations the library added, and a ``thinking`` setting it left out."""
    had = {t.name for t in before.tools or ()}
    for spec in after.tools or ():
        if spec.name not in had:
            state.add(
                "insert",
                f"{state.label} declared tool {spec.name!r}, which the history did not"
                + (" (LiteLLM's add_dummy_tool)" if spec.name == "dummy_tool" else ""),
                None,
                None,
                detail={"tool": spec.model_dump(mode="json", exclude_defaults=True)},
            )
    thinking = before.request.get("thinking")
    if thinking is not None and "thinking" not in after.request:
        extra = after.request.get("additionalModelRequestFields")
        if not (isinstance(extra, dict) and "thinking" in extra):
            state.add(
                "drop",
                f"{state.label} sent no thinking setting although the history's request had one",
                None,
                None,
                dropped={"thinking": thinking},
            )
