"""Pass ``map_ids`` (its second half): the ids the payload carries, each rewrite a Change.

`toolhist.curation.pairing.map_ids` gave every call an id to pair on: its own id, or a seed 001
canonical id when its own did not tell it apart (missing, or repeating another call's). This pass,
the last of strategy ``toolhist``, decides what goes out, so the curated session holds the ids that
are sent and a user sees those, never an internal ``hist_tool_…`` id:

- a call keeps the id the history gave it whenever the target takes it: the id passes the target's
  own id check (`toolhist.providers.edge_ids.id_problem`: pattern, length), no other call of the
  same turn has it, and, where the target pairs by id across the whole request (Anthropic, the
  Responses API), no earlier call has it either;
- a call a pass made (``synthesize_calls``) takes the id of the result it was made for, on the
  same terms;
- any other call goes out as its canonical id in the target's form (``call_…``, ``toolu_…``,
  ``tooluse_…``, Mistral's 9 characters, Kimi's ``functions.{name}:{index}``), distinct from every
  id already in the request;
- a result carries its call's id.

One ``rewrite_id`` Change for each call or result whose id differs from what the history gave it,
naming the old id, the id sent and the canonical id, and why: the target's rule, a repeated id, or
(for a result) the call it answers.
"""

from __future__ import annotations

from typing import NamedTuple

from toolhist._trusted import named_filler, replace
from toolhist.curation.base import Change, Pass, Trace, position
from toolhist.ids import canonical_id, is_canonical
from toolhist.model import Block, Message, ToolCallBlock, ToolResponseBlock
from toolhist.providers.edge_ids import DUPLICATE_RULE, PAIRS_BY_TURN, REUSED_RULE, id_problem
from toolhist.providers.idmap import edge_mapper

PASS = "map_ids"


class _Sent(NamedTuple):
    """What one pairing id goes out as (a tuple: one is made for every call of the history)."""

    id: str
    """The id the payload carries."""
    canonical: str | None = None
    """The canonical id it was mapped from; ``None`` when the call kept its own id."""
    rule: str | None = None
    """The provider rule the own id broke (``None``: kept, or refused without a rule)."""
    reason: str = ""
    """Why the own id could not go out."""


def _server_tool(call: ToolCallBlock) -> bool:
    return call.provider_data.get("type") == "server_tool_use"


class _Ids:
    """The sent id of each call, decided in request order."""

    def __init__(self, provider: str, source_format: str | None) -> None:
        self.provider = provider
        self.source_format = source_format
        self.map = edge_mapper(provider)
        self.sent: dict[str, _Sent] = {}  # pairing id → what goes out
        self.kept: set[str] = set()  # own ids sent as they were
        self.taken: set[str] = set()  # every id sent
        self.index = 0  # the call's position in request order (Kimi's index)

    def refusal(self, own: str, call: ToolCallBlock | None, turn: set[str]) -> tuple[str | None, str] | None:
        if self.provider == "gemini":
            return None  # ids are optional there: Gemini pairs a response with its call by order and name
        problem = id_problem(self.provider, own, server_tool=call is not None and _server_tool(call))
        if problem is not None:
            return problem
        if own in turn:
            return DUPLICATE_RULE.get(self.provider), "another call of the same turn has this id"
        if own in self.taken and (own not in self.kept or self.provider not in PAIRS_BY_TURN):
            return REUSED_RULE.get(self.provider), "an earlier call has this id"
        return None

    def decide(self, pairing: str, own: str | None, call: ToolCallBlock | None, turn: set[str]) -> _Sent:
        refused = (None, "") if own is None else self.refusal(own, call, turn)
        if refused is None and own is not None:
            decided = _Sent(own)
            self.kept.add(own)
        else:
            name = call.name if call is not None else None
            base = (
                pairing
                if is_canonical(pairing)
                else canonical_id(self.source_format, own or pairing, name, "", 0)
            )
            candidate, n = self.map(call, base, self.index, self.taken), 0
            while candidate in self.taken:  # two calls whose canonical ids meet (``call_x`` and ``toolu_x``)
                n += 1
                candidate = self.map(
                    call,
                    canonical_id(self.source_format, f"{pairing}#{n}", name, "", 0),
                    self.index + n,
                    self.taken,
                )
            rule, reason = refused if refused is not None else (None, "")
            decided = _Sent(candidate, base, rule, reason)
        self.sent[pairing] = decided
        self.taken.add(decided.id)
        turn.add(decided.id)
        return decided


def sent_ids(provider: str, source_format: str | None) -> Pass:
    """The pass for ``provider``; ``source_format`` seeds the canonical ids (as `pairing.map_ids` does)."""

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        if _sent_as_given(messages, trace, provider):
            return messages, []
        ids = _Ids(provider, source_format)
        first_result: dict[str, ToolResponseBlock] = {}  # pairing id → the first result answering it
        own_of: dict[int, str | None] = {}  # id() of each call or result → the id the history gave it
        input_block = trace.input_block
        turns: list[list[ToolCallBlock]] = []  # each message's calls, in order
        same = True  # so far every tool block goes out with the id it has, which is the history's (or it had none)
        for message in messages:
            calls: list[ToolCallBlock] | None = None
            for block in message.blocks:
                if type(block) is ToolCallBlock:
                    if calls is None:
                        calls = [block]
                    else:
                        calls.append(block)
                elif type(block) is ToolResponseBlock:
                    call_id = block.call_id
                    if call_id not in first_result:
                        first_result[call_id] = block
                    source = input_block(block)
                    own = source.call_id if type(source) is ToolResponseBlock else None
                    own_of[id(block)] = own
                    if own is not None and own != call_id:
                        same = False
            if calls is not None:
                turns.append(calls)
        for calls in turns:
            turn: set[str] = set()
            for call in calls:
                source = input_block(call)
                own = source.id if type(source) is ToolCallBlock else None
                own_of[id(call)] = own
                same = same and (own is None or own == call.id)
                if call.id not in ids.sent:
                    if own is None:  # a call a pass made: the id of the result it was made for
                        answering = first_result.get(call.id)
                        own = own_of[id(answering)] if answering is not None else None
                    decided = ids.decide(call.id, own, call, turn)
                    same = same and decided.id == call.id
                ids.index += 1
        for call_id, result in first_result.items():  # results whose call is not in the history
            if call_id not in ids.sent:
                decided = ids.decide(call_id, own_of[id(result)], None, set())
                same = same and decided.id == call_id
        if same:  # every id goes out as given: nothing to rewrite, nothing to say
            return messages, []
        return _rewrite(messages, trace, ids.sent, own_of, provider)

    return run


def _sent_as_given(messages: tuple[Message, ...], trace: Trace, provider: str) -> bool:
    """Whether every id goes out as the history has it, found without deciding each id.

    True when every call carries the id its input block had (no pass made or re-id'd one), every
    result too or, made by a pass, answers a call of the history, and the target takes each call's
    id and each id of a result whose call is not in the history (`id_problem`). `_Ids` would then keep every id: a call or result whose id an earlier
    call has shares that call's pairing id, which is decided once. Most providers take most
    histories' ids; deciding each (a `_Sent` per call) was most of the pass for them. False does
    not say an id is refused: the full decision runs, and gives the same answer where this is True.
    """
    input_block = trace.input_block
    calls: set[str] = set()
    answered: list[str] = []  # the results' ids, as the history gave them
    made: list[str] = []  # the ids of results a pass made
    for message in messages:
        for block in message.blocks:
            kind = type(block)
            if kind is ToolCallBlock:
                call_id = block.id  # type: ignore[union-attr]
                source = input_block(block)
                if type(source) is not ToolCallBlock or source.id != call_id:
                    return False
                if call_id not in calls:
                    if id_problem(provider, call_id, server_tool=_server_tool(block)) is not None:  # type: ignore[arg-type]
                        return False
                    calls.add(call_id)
            elif kind is ToolResponseBlock:
                call_id = block.call_id  # type: ignore[union-attr]
                source = input_block(block)
                if type(source) is ToolResponseBlock:
                    if source.call_id != call_id:
                        return False
                    answered.append(call_id)
                else:  # a result a pass made (``close_orphans``): it goes out with its call's id
                    made.append(call_id)
    return all(call_id in calls for call_id in made) and all(
        call_id in calls or id_problem(provider, call_id) is None for call_id in answered
    )


def _rewrite(
    messages: tuple[Message, ...],
    trace: Trace,
    sent: dict[str, _Sent],
    own_of: dict[int, str | None],
    provider: str,
) -> tuple[tuple[Message, ...], list[Change]]:
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        blocks: list[Block] = []
        changed = False
        for block in message.blocks:
            kind = type(block)
            if kind is ToolCallBlock:
                pairing = block.id  # type: ignore[union-attr]
            elif kind is ToolResponseBlock:
                pairing = block.call_id  # type: ignore[union-attr]
            else:
                blocks.append(block)
                continue
            decided, old = sent[pairing], own_of[id(block)]
            if decided.id == pairing and (old is None or old == pairing):  # sent as the history had it
                blocks.append(block)
                continue
            tool: Block = block
            at: tuple[int, int] | None = None
            if decided.id != pairing:
                tool = (
                    replace(block, id=decided.id)
                    if kind is ToolCallBlock
                    else replace(block, call_id=decided.id)
                )
                trace.derive(tool, block)
                changed = True
                at = (len(out), len(blocks))  # a new object, only here: where the curated session has it
            if old is not None and old != decided.id:
                changes.append(_change(tool, old, decided, trace, provider, at=at))
            blocks.append(tool)
        if changed:
            rebuilt = replace(message, blocks=tuple(blocks))
            trace.derive(rebuilt, message)
            out.append(rebuilt)
        else:
            out.append(message)
    return tuple(out), changes


def _change(
    block: Block, old: str, decided: _Sent, trace: Trace, provider: str, *, at: tuple[int, int] | None
) -> Change:
    """The ``rewrite_id`` Change for ``block`` (already carrying the sent id), whose id was ``old``.

    ``at``: where a block this pass made sits in its output. This is the last pass of strategy
    ``toolhist`` (`toolhist.curation.reference.passes` ends with it), so that is the curated
    session's position, the one `toolhist.curation.base.locate` would look up: the Change is made
    located (a Mistral or Kimi history has one per call; locating them again was a copy each).
    """
    call = type(block) is ToolCallBlock
    if decided.canonical is None:  # the call kept its id; the result pairs with it by position or order
        reason = f"the result answers call {decided.id} (paired by order: its own id {old!r} names no call it can answer)"
    elif call or decided.reason:
        own = "this id" if call else "its call's id"
        reason = f"{provider} refuses {own}: {decided.reason}; it goes out as seed 001's canonical id in {provider}'s form"
    else:
        reason = f"the result follows its call, whose id goes out as {decided.id}"
    detail: dict[str, object] = {"old_id": old, "new_id": decided.id}
    if decided.canonical is not None:
        detail["canonical"] = decided.canonical
    if decided.rule is not None:
        detail["rule"] = decided.rule
    before = trace.origin(block)
    if at is None:
        after = None
    else:
        # A block an id rewrite leaves in its place: the one (frozen) Position serves for both.
        same = before is not None and before.message == at[0] and before.block == at[1]
        after = before if same else position(at)
    state = {
        "pass_": PASS,
        "action": "rewrite_id",
        "reason": reason,
        "call_id": old,
        "before": before,
        "after": after,
        "dropped": None,
        "detail": detail,
        "fixes": (),
    }
    return (_REWRITE if at is None else _REWRITE_AT)(state, {"_subject": block})


_REWRITE = named_filler(Change, "pass_", "action", "reason", "call_id", "before", "detail")
"""``Change.trusted(pass_=…, action=…, reason=…, call_id=…, before=…, detail=…).with_subject(…)`` from
its whole state (`toolhist._trusted.named_filler`), one per rewritten id."""
_REWRITE_AT = named_filler(Change, "pass_", "action", "reason", "call_id", "before", "detail", "after")
"""The same with ``after`` (a block this pass made, located as it is made)."""
