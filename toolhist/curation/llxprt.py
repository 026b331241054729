"""Strategies ``llxprt-v864`` and ``llxprt-head``: llxprt-code's ``getCuratedForProvider``, quirks included.

An llxprt maintainer should see here exactly what llxprt sends, so nothing is improved on: the
passes are ``research/llxprt.md`` §3.3 step by step, named after llxprt's functions, at two
snapshots (V864 = PR #917 for issue #864; HEAD = after PR #1445). Where they differ:

- V864 leaves *pending* calls (nothing but tool messages after them) unanswered; HEAD closes all;
- V864 drops every non-result block of a tool message in step 4; HEAD moves its media along;
- HEAD's ``hasContent`` is stricter, its ``isComplete`` must be ``=== true``, and its ingest ids are
  hashed (``canonicalizeToolCallId``) instead of prefix-swapped (``normalizeToHistoryId``).

How llxprt's IContent maps onto the canonical model, where it is not one to one:

- Ingest (first pass) is what ``ContentConverters.toIContent`` does to ids when llxprt reads
  provider-shaped content. A session read as ``icontent`` is already llxprt's stored form, which
  llxprt never re-normalises, so only its tail goes through ingest. Ids the source did not have are
  generated as geminiChat does (id callback; results take the call the reader paired them with,
  as the position matcher would), deterministically: see `ingest_ids`.
- llxprt's ``isComplete`` is the ``isComplete`` key the icontent reader keeps in
  ``provider_data``; a result in a message llxprt marked ``synthetic`` with reason
  ``orphaned_tool_call`` has ``isComplete: true`` (both writers of that reason set it). Other
  sources have no such field (``undefined``), as the provider converters write none. The model's
  own ``is_complete`` keeps toolhist's meaning (False: synthesised or cut short).
- Step 5 keeps what llxprt's deep clone keeps. For an icontent history ``provider_data`` holds the
  IContent extras: a call loses them all, a result keeps ``isComplete``. For other sources it holds
  wire details llxprt never read in (and toolhist's renderers need), so it stays; the
  ``description`` of a reconstructed call is recorded in its Change instead of on the block, since
  step 5 would drop it. ``raw_id``/``raw_arguments`` are toolhist bookkeeping and stay.
- ``system`` messages are not in llxprt's history (it sends the system prompt apart); they pass
  through every step untouched and do not count as "a later non-tool message".
- Opaque blocks have no IContent counterpart; ``hasContent`` does not count them.

The ``tail`` is geminiChat's ``userIContents``: the new input goes through ingest (it always comes
through ``toIContent``), is not filtered by ``getCurated``, and takes part in steps 1-5 like stored
history; at V864 it is what turns a pending call into an orphaned one.

Change ids (``call_id``) are the ids at the time of the pass, i.e. after ingest; the ingest
``rewrite_id`` Changes link them to the input's ids.

Ids at the edge are `toolhist.curation.llxprt_ids`. What llxprt's payload builders do after this
pipeline (§5: OpenAIProvider's ``validateToolMessageSequence`` removals, the Responses provider's
cancelled-response patch and orphan-output drop, HEAD Anthropic's message merging and adjacency
enforcement, Gemini sending only the first result of a tool message) is not reproduced: toolhist's
own renderers write the body, so a violation left here may be one llxprt's builder hides or adds.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from toolhist.curation.base import Change, Curation, Pass, Trace, run_passes
from toolhist.curation.llxprt_ids import (
    Version,
    edge_ids,
    generated_history_id_head,
    generated_history_id_v864,
    normalize_to_history_id,
)
from toolhist.curation.llxprt_steps import (
    EXTRACTED,
    ORPHANED,
    RECONSTRUCTED,
    REORDERED,
    Messages,
    Result,
    block_has_content,
    deep_clone_without_circular_refs,
    ensure_tool_call_continuity,
    ensure_tool_response_adjacency,
    ensure_tool_response_completeness,
    get_curated,
    response_score,
    split_tool_calls_out_of_tool_messages,
)
from toolhist.curation.strategies import StrategyDef
from toolhist.ids import canonical_id
from toolhist.model import Block, Message, Session, ToolCallBlock, ToolResponseBlock

INGEST_PROVIDER = "gemini"
"""HEAD ``toIContent`` always hashes with ``providerName: 'gemini'``."""

# --- ingest ----------------------------------------------------------------------------------------


def _missing(raw: str | None, current: str) -> bool:
    return raw is None or current == ""


class _ToIContent:
    """The id side of ``ContentConverters.toIContent``, one message (one Content) at a time.

    ``matched`` maps a reader id of an id-less call to the id generated for it, so a result the
    reader paired with that call gets it too: that is what llxprt's position matcher hands out.
    """

    def __init__(self, version: Version) -> None:
        self.version = version
        self.matched: dict[str, str] = {}

    def message(self, m: int, blocks: tuple[Block, ...]) -> list[tuple[Block, str]]:
        """Each tool block of message ``m`` with its new id (blocks without ids are left out)."""
        turn = f"turn_{m}"
        generated = calls = responses = 0
        out: list[tuple[Block, str]] = []

        def generate(seed: str) -> str:
            nonlocal generated
            generated += 1
            if self.version == "v864":
                return generated_history_id_v864(seed)
            return generated_history_id_head(turn, generated - 1)

        for b, block in enumerate(blocks):
            seed = f"{m}|{b}|{getattr(block, 'id', None) or getattr(block, 'call_id', '')}"
            if isinstance(block, ToolCallBlock):
                if _missing(block.raw_id, block.id):
                    new = self.matched.get(block.id) or generate(seed)
                elif self.version == "v864":
                    new = normalize_to_history_id(block.id) or generate(seed)
                else:
                    new = canonical_id(INGEST_PROVIDER, block.id, block.name, turn, calls)
                self.matched.setdefault(block.id, new)
                calls += 1
                out.append((block, new))
            elif isinstance(block, ToolResponseBlock):
                if _missing(block.raw_call_id, block.call_id) or (
                    self.version == "v864" and normalize_to_history_id(block.call_id) is None
                ):
                    new = self.matched.get(block.call_id) or generate(seed)
                elif self.version == "v864":
                    new = normalize_to_history_id(block.call_id) or ""
                else:
                    new = canonical_id(INGEST_PROVIDER, block.call_id, block.tool_name, turn, responses)
                responses += 1
                out.append((block, new))
        return out


def ingest_ids(messages: Messages, trace: Trace, *, version: Version, start: int = 0) -> Result:
    """Ids as llxprt's ``toIContent`` reads them: V864 §2.1 prefix swap, HEAD §2.4 hash.

    Only messages from ``start`` on are read (an icontent history is already stored form).

    A call without a usable id (none in the source, or at V864 one that normalises to nothing,
    like ``call_``) gets a generated one: V864 ``hist_tool_<uuid>`` (a UUID derived from its
    position instead of ``randomUUID``), HEAD the id callback's ``|||turn_<m>|<n>`` hash, with
    ``turn_<m>`` (the message index) standing in for the random turn key. A result without a usable
    id takes the new id of the call the reader paired it with (llxprt's position matcher), else a
    generated one. At HEAD ``call_`` is an id like any other: it hashes with the turn key and the
    call's index in its message, so its call and result (in two messages) no longer pair.
    """
    reader = _ToIContent(version)
    out: list[Message] = list(messages)
    changes: list[Change] = []
    for m in range(start, len(messages)):
        message = messages[m]
        renamed: dict[int, Block] = {}
        for block, new in reader.message(m, message.blocks):
            old = block.id if isinstance(block, ToolCallBlock) else getattr(block, "call_id", "")
            if new == old:
                continue
            key = "id" if isinstance(block, ToolCallBlock) else "call_id"
            new_block = block.model_copy(update={key: new})
            renamed[id(block)] = new_block
            trace.derive(new_block, block)
            changes.append(
                Change.model_validate(
                    {
                        "pass": "toIContent",
                        "action": "rewrite_id",
                        "reason": "llxprt rewrites tool ids to its history form when it reads content",
                        "call_id": old,
                        "before": trace.origin(block),
                        "detail": {"old_id": old, "new_id": new, "version": version},
                    }
                ).with_subject(new_block)
            )
        if renamed:
            blocks = tuple(renamed.get(id(b), b) for b in message.blocks)
            out[m] = message.model_copy(update={"blocks": blocks})
            trace.derive(out[m], message)
    return tuple(out), changes


# --- strategies ------------------------------------------------------------------------------------


def passes(session: Session, tail: tuple[Message, ...], version: Version) -> list[Pass]:
    """The pipeline for ``session`` + ``tail``: ingest, getCurated, then the five steps of §3.3."""
    stored = len(session.messages)
    start = stored if session.source.format == "icontent" else 0
    return [
        partial(ingest_ids, version=version, start=start),
        partial(get_curated, version=version, stored=stored),
        split_tool_calls_out_of_tool_messages,
        ensure_tool_call_continuity,
        partial(
            ensure_tool_response_completeness, version=version, icontent=session.source.format == "icontent"
        ),
        partial(ensure_tool_response_adjacency, version=version),
        partial(deep_clone_without_circular_refs, icontent=session.source.format == "icontent"),
    ]


def _curate(name: str, version: Version) -> Callable[[Session, str, tuple[Message, ...]], Curation]:
    def curate(session: Session, provider: str, tail: tuple[Message, ...]) -> Curation:
        return run_passes(session, provider, name, passes(session, tail, version), tail)

    return curate


def _edge(version: Version) -> Callable[[Session, str], tuple[Session, dict[str, str]]]:
    return lambda session, provider: edge_ids(session, provider, version)


STRATEGIES = {
    "llxprt-v864": StrategyDef(
        name="llxprt-v864",
        summary="llxprt-code getCuratedForProvider at #864: pending calls left open, divergent id mappers",
        curate=_curate("llxprt-v864", "v864"),
        edge_ids=_edge("v864"),
    ),
    "llxprt-head": StrategyDef(
        name="llxprt-head",
        summary="llxprt-code after PR #1445: every unanswered call closed, hashed canonical ids",
        curate=_curate("llxprt-head", "head"),
        edge_ids=_edge("head"),
    ),
}

__all__ = [
    "EXTRACTED",
    "ORPHANED",
    "RECONSTRUCTED",
    "REORDERED",
    "STRATEGIES",
    "block_has_content",
    "deep_clone_without_circular_refs",
    "ensure_tool_call_continuity",
    "ensure_tool_response_adjacency",
    "ensure_tool_response_completeness",
    "get_curated",
    "ingest_ids",
    "response_score",
    "split_tool_calls_out_of_tool_messages",
]
