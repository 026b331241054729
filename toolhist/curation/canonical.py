"""Strategy ``canonical``: seed 001 in full, every id canonical, shown as one id map.

Seed 001 (``seeds/001``, "Canonical Tool ID Design") normalises every tool-call id once, when the
history is read, to ``hist_tool_`` + 24 characters of a SHA-256 (`toolhist.ids.canonical_id`, the
same hash as llxprt-code's ``canonicalizeToolCallId``), pairs on those, and maps canonical → provider
format only at the edge (`toolhist.providers.idmap.map_ids`: ``call_…``, ``toolu_…``, Mistral's 9
characters, Kimi's ``functions.{name}:{index}``). This strategy is that design: the repairs of
strategy ``toolhist`` (`toolhist.curation.reference`, the same passes, after ``conform_to_sdk``),
with `pairing.map_ids` in ``canonical`` mode.

Every call's id changes, so the rewrites are not one Change each: `Curation.id_map` is one table,
source id → canonical id → the id sent to the provider. `Curation.session` holds the canonical ids
(the history seed 001 stores); `Curation.sent_session` and every payload carry the sent ones.
"""

from __future__ import annotations

from toolhist.curation.base import Change, Curation, IdMapping, Trace
from toolhist.curation.fixes import attribute
from toolhist.curation.given import as_given
from toolhist.curation.reference import repair
from toolhist.curation.strategies import StrategyDef
from toolhist.model import Message, Session, ToolCallBlock
from toolhist.providers.idmap import map_ids as edge_map_ids

NAME = "canonical"


def curate(session: Session, provider: str, tail: tuple[Message, ...]) -> Curation:
    """``session`` (+ ``tail``) with every id canonical, repaired for ``provider``; the ids in `Curation.id_map`."""
    sources: dict[int, str | None] = {}  # id() of each curated call → its id in the history given

    def record(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        sources.clear()  # a second run (``disable_thinking``) makes new objects
        for message in messages:
            for call in message.tool_calls():
                source = trace.input_block(call)
                sources[id(call)] = source.id if isinstance(source, ToolCallBlock) else None
        return messages, []

    curation = repair(session, provider, tail, strategy=NAME, extra=(record,))
    _, sent = edge_map_ids(curation.session, provider)
    rows = tuple(
        IdMapping(source=sources.get(id(call)), canonical=call.id, sent=sent.get(call.id, call.id), message=m)
        for m, message in enumerate(curation.session.messages)
        for call in message.tool_calls()
    )
    return curation.model_copy(
        update={
            "changes": attribute(
                curation.changes, as_given(session, provider, tail) if curation.changes else ()
            ),
            "id_map": rows,
        }
    )


STRATEGIES = {
    NAME: StrategyDef(
        name=NAME,
        summary="seed 001 in full: every id canonical (hist_tool_…), mapped to the provider's form when sent; "
        "the toolhist repairs otherwise; the ids as one id map, not a Change each",
        curate=curate,
        edge_ids=edge_map_ids,
    )
}
