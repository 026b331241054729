"""The passes of llxprt-code's ``getCuratedForProvider`` (``research/llxprt.md`` §3.2-3.3), one per step.

Each pass is a `toolhist.curation.base.Pass`: pure, one Change per decision, llxprt's own reason
strings on what llxprt synthesises. Names are llxprt's function names, so a maintainer can read the
Change log against the TypeScript. `toolhist.curation.llxprt` explains how IContent maps onto the
canonical model and assembles these into the two strategies.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import JsonValue

from toolhist.curation.base import Change, Trace, block_json
from toolhist.curation.llxprt_ids import Version
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

Messages = tuple[Message, ...]
Result = tuple[Messages, list[Change]]

EXTRACTED = "extracted_tool_call_from_tool_message"
RECONSTRUCTED = "reconstructed_tool_call"
ORPHANED = "orphaned_tool_call"
REORDERED = "reordered_tool_responses"
"""llxprt's ``metadata.reason`` strings; a Change for a message llxprt synthesises carries the same."""
UNMATCHED = "Tool response missing matching tool call"
"""llxprt's warning when it drops a result whose call is nowhere (its comment says 'keep in place')."""
ORPHAN_ERROR = "Tool call interrupted or cancelled"
RECONSTRUCTED_DESCRIPTION = "Reconstructed tool call after compression"


def _synthetic(speaker: str, blocks: Sequence[Block], reason: str) -> Message:
    return Message.model_validate(
        {
            "speaker": speaker,
            "blocks": tuple(blocks),
            "metadata": MessageMetadata(synthetic=True, reason=reason),
        }
    )


def _truthy(value: JsonValue) -> bool:
    """JavaScript truthiness of a JSON value (``{}`` and ``[]`` are truthy, ``0`` and ``""`` are not)."""
    if value is None or value is False or value == "":
        return False
    return not (isinstance(value, int | float) and value == 0)


# --- getCurated ------------------------------------------------------------------------------------


def _source_field(block: ThinkingBlock) -> str | None:
    field = block.provider_data.get("sourceField")
    if isinstance(field, str):
        return field
    return "thinking" if block.source_provider == "anthropic" else None


def block_has_content(block: Block, version: Version) -> bool:
    """One block's part of ``ContentValidation.hasContent`` (V864, or HEAD's stricter version)."""
    head = version == "head"
    if isinstance(block, TextBlock):
        if block.provider_data.get("type") == "code":  # an IContent code block
            return not head or block.text.strip() != ""
        return block.text.strip() != ""
    if isinstance(block, ToolCallBlock):
        return not head or (bool(block.name) and _truthy(block.parameters))
    if isinstance(block, ToolResponseBlock):
        return not head or bool(block.call_id)  # result None is read as null, which HEAD accepts
    if isinstance(block, MediaBlock):
        return not head or (bool(block.mime_type) and bool(block.data or block.url))
    if isinstance(block, ThinkingBlock):
        thought = block.text.strip() != ""
        if not head:
            return thought
        if _source_field(block) == "thinking":
            return thought and bool(block.signature)
        return thought or bool(block.data)
    return False  # OpaqueBlock: nothing llxprt's IContent could hold


def get_curated(messages: Messages, trace: Trace, *, version: Version, stored: int) -> Result:
    """``getCurated()``: stored ``ai`` messages without content are left out; the tail is not filtered."""
    out: list[Message] = []
    changes: list[Change] = []
    for i, message in enumerate(messages):
        if (
            i < stored
            and message.speaker == "ai"
            and not any(block_has_content(b, version) for b in message.blocks)
        ):
            changes.append(
                Change.model_validate(
                    {
                        "pass": "getCurated",
                        "action": "drop",
                        "reason": "getCurated keeps an ai message only if ContentValidation.hasContent",
                        "before": trace.origin(message),
                        "dropped": block_json(message),
                    }
                )
            )
            continue
        out.append(message)
    return tuple(out), changes


# --- step 1 ----------------------------------------------------------------------------------------


def split_tool_calls_out_of_tool_messages(messages: Messages, trace: Trace) -> Result:
    """Step 1: a tool message holding calls becomes a synthetic ai message of the calls + the rest.

    The ai message has only ``{synthetic, reason}`` metadata; the rest keeps the original metadata.
    """
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        calls = list(message.tool_calls())
        if message.speaker != "tool" or not calls:
            out.append(message)
            continue
        extracted = _synthetic("ai", calls, EXTRACTED)
        out.append(extracted)
        rest = tuple(b for b in message.blocks if not isinstance(b, ToolCallBlock))
        if rest:
            remaining = message.model_copy(update={"blocks": rest})
            trace.derive(remaining, message)
            out.append(remaining)
        changes.append(
            Change.model_validate(
                {
                    "pass": "splitToolCallsOutOfToolMessages",
                    "action": "split",
                    "reason": EXTRACTED,
                    "call_id": calls[0].id,
                    "before": trace.origin(message),
                    "detail": {"call_ids": [c.id for c in calls], "rest_kept": bool(rest)},
                }
            ).with_subject(extracted)
        )
    return tuple(out), changes


# --- step 2 ----------------------------------------------------------------------------------------


def ensure_tool_call_continuity(messages: Messages, trace: Trace) -> Result:
    """Step 2: results whose call was never seen before them get a reconstructed call just before.

    Only ``tool`` messages are checked. No dedupe: two results with one unseen id give two calls
    with that id; a result before its real call gets one too, and the real call becomes a duplicate.
    """
    seen: set[str] = set()
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        seen.update(c.id for c in message.tool_calls())
        if message.speaker == "tool":
            rebuilt: list[ToolCallBlock] = []
            for response in message.tool_responses():
                if response.call_id in seen:
                    continue
                block = ToolCallBlock(
                    id=response.call_id,
                    name=response.tool_name or "unknown_tool",
                    parameters={"reconstructed": True},
                    raw_id=response.call_id,
                )
                rebuilt.append(block)
                changes.append(
                    Change.model_validate(
                        {
                            "pass": "ensureToolCallContinuity",
                            "action": "synthesize",
                            "reason": RECONSTRUCTED,
                            "call_id": response.call_id,
                            "detail": {
                                "for_response": _position(trace, response),
                                "description": RECONSTRUCTED_DESCRIPTION,
                            },
                        }
                    ).with_subject(block)
                )
            if rebuilt:
                out.append(_synthetic("ai", rebuilt, RECONSTRUCTED))
                seen.update(c.id for c in rebuilt)
        out.append(message)
    return tuple(out), changes


def _position(trace: Trace, obj: object) -> JsonValue:
    origin = trace.origin(obj)
    return None if origin is None else [origin.message, origin.block]


# --- step 3 ----------------------------------------------------------------------------------------


def ensure_tool_response_completeness(
    messages: Messages, trace: Trace, *, version: Version, icontent: bool = False
) -> Result:
    """Step 3: calls with no result anywhere get a synthetic error result right after their message.

    V864 skips a *pending* call: one after which every (non-system) message is a tool message.
    HEAD (#1445) closes every unanswered call. llxprt writes the synthetic result with ``isComplete:
    true`` (``HistoryService.ensureToolResponseCompleteness``, vybestack/llxprt-code 193e7060d); for
    an IContent history that field is in ``provider_data`` (step 5 keeps it), so the curated history
    says what llxprt's does even after step 4 rebuilds the message as ``reordered_tool_responses``.
    Other sources keep ``provider_data`` for their wire fields, where it does not belong.
    """
    responded = {r.call_id for m in messages for r in m.tool_responses() if r.call_id}
    later_non_tool = [False] * len(messages)
    for i in range(len(messages) - 2, -1, -1):
        after = messages[i + 1]
        later_non_tool[i] = later_non_tool[i + 1] or after.speaker not in ("tool", "system")
    out: list[Message] = []
    changes: list[Change] = []
    for i, message in enumerate(messages):
        out.append(message)
        if message.speaker != "ai":
            continue
        missing = [c for c in message.tool_calls() if c.id and c.id not in responded]
        if missing and version == "v864" and not later_non_tool[i]:
            changes.extend(
                Change.model_validate(
                    {
                        "pass": "ensureToolResponseCompleteness",
                        "action": "keep",
                        "reason": "pending: no non-tool message follows, so V864 leaves the call in flight",
                        "call_id": c.id,
                        "before": trace.origin(c),
                    }
                ).with_subject(c)
                for c in missing
            )
            continue
        if not missing:
            continue
        results = [
            ToolResponseBlock(
                call_id=c.id,
                tool_name=c.name or "unknown_tool",
                result=None,
                error=ORPHAN_ERROR,
                is_complete=False,
                raw_call_id=c.id,
                provider_data={"isComplete": True} if icontent else {},
            )
            for c in missing
        ]
        out.append(_synthetic("tool", results, ORPHANED))
        responded.update(c.id for c in missing)
        changes.extend(
            Change.model_validate(
                {
                    "pass": "ensureToolResponseCompleteness",
                    "action": "close",
                    "reason": ORPHANED,
                    "call_id": r.call_id,
                }
            ).with_subject(r)
            for r in results
        )
    return tuple(out), changes


# --- step 4 ----------------------------------------------------------------------------------------


def llxprt_is_complete(response: ToolResponseBlock, message: Message) -> JsonValue:
    """The ``isComplete`` llxprt sees on ``response`` (see `toolhist.curation.llxprt`); None: undefined."""
    if "isComplete" in response.provider_data:
        return response.provider_data["isComplete"]
    if message.metadata.synthetic and message.metadata.reason == ORPHANED:
        return True
    return None


def response_score(response: ToolResponseBlock, message: Message, version: Version) -> int:
    """``(isComplete ? 2 : 0) - (error ? 1 : 0) + (result != null ? 1 : 0)``; HEAD needs ``=== true``."""
    complete = llxprt_is_complete(response, message)
    done = complete is True if version == "head" else _truthy(complete)
    return (2 if done else 0) - (1 if response.error else 0) + (1 if response.result is not None else 0)


def _pass4(action: str, reason: str, **fields: object) -> Change:
    return Change.model_validate(
        {"pass": "ensureToolResponseAdjacency", "action": action, "reason": reason, **fields}
    )


class _Adjacency:
    """The bookkeeping of step 4: kept results per call-message index, and media to carry along."""

    def __init__(self, messages: Messages, trace: Trace, version: Version) -> None:
        self.trace = trace
        self.version = version
        self.first: dict[str, int] = {}
        for i, message in enumerate(messages):
            for call in message.tool_calls():
                if call.id:
                    self.first.setdefault(call.id, i)
        self.kept: dict[int, list[tuple[ToolResponseBlock, int]]] = {}
        self.media: dict[int, list[MediaBlock]] = {}
        self.sources: dict[int, Message] = {}
        self.where: dict[str, tuple[int, int]] = {}
        self.changes: list[Change] = []

    def take(self, message: Message, response: ToolResponseBlock) -> int | None:
        """File one result; the call-message index when it is kept as new, else None."""
        before = self.trace.origin(response)
        if not response.call_id:
            empty = "a tool response with an empty callId is dropped"
            self.changes.append(
                _pass4("drop", empty, call_id="", before=before, dropped=block_json(response))
            )
            return None
        index = self.first.get(response.call_id)
        if index is None:
            self.changes.append(
                _pass4(
                    "drop", UNMATCHED, call_id=response.call_id, before=before, dropped=block_json(response)
                )
            )
            return None
        score = response_score(response, message, self.version)
        if response.call_id in self.where:
            self._duplicate(response, score)
            return None
        self.where[response.call_id] = (index, len(self.kept.setdefault(index, [])))
        self.kept[index].append((response, score))
        self.sources.setdefault(index, message)
        return index

    def _duplicate(self, response: ToolResponseBlock, score: int) -> None:
        index, slot = self.where[response.call_id]
        old, old_score = self.kept[index][slot]
        replace = score > old_score  # strictly greater: a tie keeps the first
        winner, loser = (response, old) if replace else (old, response)
        if replace:
            self.kept[index][slot] = (response, score)
        same = (winner.result, winner.error) == (loser.result, loser.error)
        detail: dict[str, JsonValue] = {
            "kept_score": max(score, old_score),
            "dropped_score": min(score, old_score) if replace else score,
            "replaced_first": replace,
        }
        change = _pass4(
            "dedupe" if same else "conflict",
            "duplicate callId: the higher score wins, a tie keeps the first",
            call_id=response.call_id,
            before=self.trace.origin(loser),
            dropped=block_json(loser),
            detail=detail,
        )
        self.changes.append(change.with_subject(winner))

    def carry_media(self, message: Message, target: int | None) -> None:
        """HEAD: the message's media go with its first result kept as new, once; else they are lost."""
        for block in message.blocks:
            if not isinstance(block, MediaBlock):
                continue
            if target is None:
                lost = "media of a tool-response message with no result kept as new are lost"
                before = self.trace.origin(block)
                self.changes.append(_pass4("drop", lost, before=before, dropped=block_json(block)))
                continue
            self.media.setdefault(target, []).append(block)
            self.changes.append(
                _pass4(
                    "move", "media moved with the tool response", before=self.trace.origin(block)
                ).with_subject(block)
            )


def ensure_tool_response_adjacency(messages: Messages, trace: Trace, *, version: Version) -> Result:
    """Step 4: every result moves right after the first message that holds its call.

    Every tool message is rebuilt as a synthetic ``reordered_tool_responses`` message holding all
    results for that call message, in transcript order; results with an empty or unknown callId
    are dropped; duplicates keep the higher `response_score` (a tie keeps the first). A tool
    message is removed whole: V864 loses its other blocks, HEAD carries its media along. Other
    speakers lose their result blocks (and media, at HEAD) and are dropped if left empty.
    """
    head = version == "head"
    state = _Adjacency(messages, trace, version)
    survivors: list[Message | None] = []
    for message in messages:
        responses = list(message.tool_responses())
        if not responses and message.speaker != "tool":
            survivors.append(message)
            continue
        first_new = None
        for response in responses:
            index = state.take(message, response)
            first_new = index if first_new is None else first_new
        if head:
            state.carry_media(message, first_new)

        def moved(block: Block) -> bool:
            return isinstance(block, ToolResponseBlock) or (head and isinstance(block, MediaBlock))

        rest = [b for b in message.blocks if not moved(b)]
        if message.speaker == "tool" or not rest:
            lost = "tool messages are rebuilt from their results alone; this block is lost"
            state.changes.extend(
                _pass4("drop", lost, before=trace.origin(b), dropped=block_json(b)) for b in rest
            )
            if message.speaker != "tool":
                state.changes.append(
                    _pass4(
                        "drop", "only tool responses were left in this message", before=trace.origin(message)
                    )
                )
            survivors.append(None)
        else:
            kept = message.model_copy(update={"blocks": tuple(rest)})
            trace.derive(kept, message)
            survivors.append(kept)
    out: list[Message] = []
    for i, survivor in enumerate(survivors):
        if survivor is not None:
            out.append(survivor)
        if i in state.kept:
            blocks = [r for r, _ in state.kept[i]] + list(state.media.get(i, []))
            rebuilt = _synthetic("tool", blocks, REORDERED)
            source = state.sources[i]
            trace.derive(rebuilt, source)
            out.append(rebuilt)
            responses = [r for r, _ in state.kept[i]]
            detail: dict[str, JsonValue] = {
                "call_ids": [r.call_id for r in responses],
                "from": [_position(trace, r) for r in responses],
            }
            change = _pass4(
                "reorder", REORDERED, call_id=responses[0].call_id, before=trace.origin(source), detail=detail
            )
            state.changes.append(change.with_subject(rebuilt))
    return tuple(out), state.changes


# --- step 5 ----------------------------------------------------------------------------------------


def deep_clone_without_circular_refs(messages: Messages, trace: Trace, *, icontent: bool = True) -> Result:
    """Step 5: the deep clone keeps ``{id, name, parameters}`` of a call and llxprt's result fields.

    For an IContent history, ``provider_data`` holds the IContent fields the model does not name
    (``description``, ``providerMetadata``…): a call loses all of them, a result keeps only
    ``isComplete``. For any other source (``icontent=False``) ``provider_data`` holds that format's
    wire details, which llxprt never read in and which toolhist's renderers need to write the body
    llxprt's payload builder would write, so nothing is stripped. The ``description`` step 2 gives a
    reconstructed call is therefore not put on the block at all (it would be dropped here): its
    Change records it. JSON values cannot be circular, so ``sanitize`` changes nothing else.
    """
    if not icontent:
        return messages, []
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        blocks: list[Block] = []
        for block in message.blocks:
            new_block: Block = block
            if isinstance(block, ToolCallBlock) and block.provider_data:
                new_block = block.model_copy(update={"provider_data": {}})
                dropped: JsonValue = dict(block.provider_data)
            elif isinstance(block, ToolResponseBlock) and set(block.provider_data) - {"isComplete"}:
                kept = {k: v for k, v in block.provider_data.items() if k == "isComplete"}
                new_block = block.model_copy(update={"provider_data": kept})
                dropped = {k: v for k, v in block.provider_data.items() if k != "isComplete"}
            if new_block is not block:
                trace.derive(new_block, block)
                changes.append(
                    Change.model_validate(
                        {
                            "pass": "deepCloneWithoutCircularRefs",
                            "action": "strip",
                            "reason": "llxprt's deep clone keeps only the IContent fields of tool blocks",
                            "call_id": block.id
                            if isinstance(block, ToolCallBlock)
                            else getattr(block, "call_id", None),
                            "before": trace.origin(block),
                            "dropped": dropped,
                        }
                    ).with_subject(new_block)
                )
            blocks.append(new_block)
        if any(a is not b for a, b in zip(blocks, message.blocks, strict=True)):
            new_message = message.model_copy(update={"blocks": tuple(blocks)})
            trace.derive(new_message, message)
            message = new_message  # noqa: PLW2901
        out.append(message)
    return tuple(out), changes
