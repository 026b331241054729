"""What every curation pass and strategy shares: Change records, the Curation result, provenance.

A pass is a pure function ``(messages, trace) -> (messages, changes)``: it never mutates what it
was given (the model is frozen anyway) and says, in one `Change` per decision, what it did and
why. Positions in a Change are in the coordinates a user reads: ``before`` is where the thing was
in the session given to `toolhist.curate`, ``after`` where it ended up in the curated session.
Passes only know their own input, so `Trace` carries provenance by object identity: the reader's
blocks and messages are reused by every pass that does not change them, and a pass that makes a new
object from an old one calls `Trace.derive`. After the last pass the pipeline looks each Change's
``subject`` up in the output to fill ``after``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import is_
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, JsonValue, PrivateAttr

from toolhist._trusted import construct, named_filler, replace
from toolhist.curation.facts import KEEP as FACTS_KEPT
from toolhist.curation.facts import Facts, facts_from, facts_of, remembered
from toolhist.curation.per_session import keep_first
from toolhist.curation.tool_ids import ToolIds, tool_ids_of
from toolhist.model import Block, Message, Session

Action = Literal[
    "split", "synthesize", "close", "move", "drop", "dedupe", "conflict", "rewrite_id", "rename", "insert",
    "merge", "fill", "strip", "reorder", "keep", "rewrite",
]  # fmt: skip
"""What a Change did. ``conflict`` is a dedupe whose dropped copy differed from the kept one;
``keep`` records a decision to leave something that looks wrong (a pending call); ``rewrite`` is
content sent in another form (a peer library writing a call as text, or rewording a text)."""


class Position(BaseModel):
    """A message, or a block within it, in one session."""

    model_config = ConfigDict(frozen=True)

    message: int
    """Message index."""
    block: int | None = None
    """Block index within the message; ``None`` when the Change is about the whole message."""


class Change(BaseModel):
    """One decision a curation pass made, with enough detail to show it in a diff and undo it by hand."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, use_attribute_docstrings=True)

    pass_: str = Field(alias="pass")
    """The pass that made it (``split_tool_calls``, ``close_orphans``, ``map_ids``…). Rule ``fix``
    texts name these passes."""
    action: Action
    """What was done."""
    reason: str
    """Why, in one sentence a user can read without the code."""
    call_id: str | None = None
    """The tool-call id concerned (as the input had it), when there is one."""
    before: Position | None = None
    """Where the subject was in the input session; ``None`` for something synthesised."""
    after: Position | None = None
    """Where it is in the curated session; ``None`` when it was dropped."""
    dropped: JsonValue = None
    """What was removed, as JSON (a block, a message, or for a conflict both contents)."""
    detail: dict[str, JsonValue] = Field(default_factory=dict)
    """Pass-specific facts: ``old_id``/``new_id``, ``kept``/``dropped`` contents of a conflict…"""
    fixes: tuple[str, ...] = ()
    """The rule ids (DESIGN §6) of the violations of the history as given that this Change repairs,
    errors first; empty for a Change that repairs none by itself (a move another repair needs, a
    synthesised call). Filled by `toolhist.curation.fixes.attribute` for the strategies that check
    the history first (``toolhist``, ``canonical``)."""
    _subject: object = PrivateAttr(default=None)

    @classmethod
    def trusted(cls, **values: Any) -> Change:
        """``Change(**values)`` without validation, for passes whose values are already the field types.

        Passes record one Change per rewritten id, so on a long history this is a hot path;
        `toolhist._trusted.construct` gives the same object as the validating constructor.
        """
        return construct(cls, **values)

    def with_subject(self, subject: Block | Message | None) -> Change:
        """Tie this Change to the object it is about, so the pipeline can locate it after the last pass."""
        private = self.__pydantic_private__
        assert private is not None  # Change has a private attribute, so pydantic always makes the dict
        private["_subject"] = subject  # what ``self._subject = subject`` does, minus pydantic's __setattr__
        return self

    def subject(self) -> object:
        """The object this Change is about (`with_subject`), or ``None``."""
        private = self.__pydantic_private__
        return None if private is None else private.get("_subject")

    def to_json(self) -> dict[str, Any]:
        """The Change as JSON, ``pass`` spelled as in DESIGN §6."""
        return self.model_dump(mode="json", by_alias=True)


class IdMapping(BaseModel):
    """One row of a `Curation` id map: a call's id as the source wrote it, canonical, and as sent."""

    model_config = ConfigDict(frozen=True)

    source: str | None
    """The id as the history given had it; ``None`` for a call a pass made (``synthesize_calls``)."""
    canonical: str
    """Seed 001's canonical id (``hist_tool_`` + 24 characters), the id the curated history pairs on."""
    sent: str
    """The id the provider's payload carries (the canonical id mapped to the provider's format)."""
    message: int | None = None
    """Where the call is in the curated session (``None`` for a result whose call is not there)."""


class Curation(BaseModel):
    """The result of `toolhist.curate`: the curated session and every change made to get it."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    session: Session
    """The curated history (canonical model). Render it with the same provider."""
    changes: tuple[Change, ...]
    """Every change: for the strategies that check the history first, those that repair an error of
    it, then those that repair a warning, then the rest; each group in the order the passes made them."""
    strategy: str
    """The strategy that curated."""
    provider: str
    """The provider it curated for."""
    original: Session
    """The session as given (never mutated), for diffs."""
    library: str | None = None
    """``name version`` of the real library that made this curation (``litellm 1.106.2``), for the
    strategies that run one (`toolhist.peers.strategies`); ``None`` for toolhist's own passes and ports."""
    id_map: tuple[IdMapping, ...] = ()
    """For a strategy that gives every id a canonical form (``canonical``, seed 001 in full): one row
    per call, source id → canonical id → the id sent to ``provider``, in the curated order. Those
    rewrites are this table, not one Change each. Empty for the other strategies (``toolhist``
    records each id it rewrites as a ``rewrite_id`` Change)."""
    _sent: tuple[Session, Session] | None = PrivateAttr(default=None)

    def sent_session(self) -> Session:
        """The curated session with the ids the payload carries (the strategy's edge mapping applied).

        ``session`` holds the ids the strategy pairs on (``hist_tool_…`` for ``canonical`` and the
        llxprt strategies); what a user compares before and after is what is sent. Same messages and
        positions as ``session``, only ids differ; computed once.
        """
        cached = self._sent
        if cached is None or cached[0] is not self.session:  # a model_copy with another session
            from toolhist.curation.strategies import strategy_for  # strategies build on this module

            cached = (self.session, strategy_for(self.strategy).edge_ids(self.session, self.provider)[0])
            private = self.__pydantic_private__
            assert private is not None
            private["_sent"] = cached
        return cached[1]

    def _repr_html_(self) -> str:
        """Jupyter: counts and the change log, escaped (`toolhist.display`)."""
        from toolhist.extras import plain_html

        if (plain := plain_html(self)) is not None:  # the notebook extra is not installed
            return plain
        from toolhist.display import curation_html

        return curation_html(self)

    def to_json(self) -> dict[str, Any]:
        """DESIGN §6 ``curate --json``: ``{"session": {"messages": [...]}, "changes": [...]}`` plus context."""
        session = self.session.model_dump(mode="json")
        return {
            "strategy": self.strategy,
            "provider": self.provider,
            **({"library": self.library} if self.library is not None else {}),
            "session": session,
            "changes": [change.to_json() for change in self.changes],
            **({"id_map": [row.model_dump(mode="json") for row in self.id_map]} if self.id_map else {}),
        }


Book = dict[int, list[tuple[tuple[int, int | None], Change]]]
"""Located Changes kept across runs: Change id → the positions `locate` found for it (the last few)
and the Change it made for each. Only Changes already keyed in a book are recorded, and whoever
keeps a book keeps its Changes alive, so the ids stay unique."""
BOOK_KEEP = 4
"""Positions remembered per Change (providers that reorder turns put a subject elsewhere)."""


_AT_MESSAGE = named_filler(Position, "message")
_AT_BLOCK = named_filler(Position, "message", "block")


def position(at: tuple[int, int | None]) -> Position:
    """The Position of a ``(message, block)`` pair, built as ``Position(message=…[, block=…])`` would be."""
    m, b = at
    if b is None:
        return _AT_MESSAGE({"message": m, "block": None}, None)
    return _AT_BLOCK({"message": m, "block": b}, None)


@dataclass
class Trace:
    """Provenance by identity: which input position each (possibly rewritten) object came from.

    Positions are kept as ``(message, block)`` tuples and become `Position` models only when a
    Change asks for one: a 10k-message history has ~40k objects, and most are never asked about.
    """

    _origin: dict[int, Position | tuple[int, int | None]] = field(default_factory=dict)
    _alive: list[object] = field(default_factory=list)  # keeps ids from being reused
    _next: dict[int, object] = field(default_factory=dict)  # old object → what a later pass made of it
    input: tuple[Message, ...] = ()
    """The messages the trace was made for (positions are indices into them)."""
    log: list[tuple[object, object]] | None = None
    """When a list, every `derive` is appended to it as ``(new, old)`` (`toolhist.curation.shared`)."""
    located: list[Book] = field(default_factory=list)
    """Books of located Changes that outlive this run (`toolhist.curation.shared`)."""
    memo: list[tuple[tuple[Message, ...], Facts]] = field(default_factory=list)
    """`Facts` of the message tuples the passes were given (`run_passes` shares a session's list)."""
    ids_memo: list[tuple[tuple[Message, ...], ToolIds]] = field(default_factory=list)
    """`ToolIds` of the last message tuples asked about (the tuple held, so its identity is not reused)."""

    def facts(self, messages: tuple[Message, ...]) -> Facts:
        """What ``messages`` holds (`toolhist.curation.facts`), looked at once per tuple.

        A pass that can have nothing to do on such a history returns ``messages`` at once; a pass
        that changes nothing hands the next the same tuple, so one look serves them all.
        """
        memo = self.memo
        for seen, found in memo:
            if seen is messages:
                return found
        found = facts_from(messages, *memo[0]) if memo else facts_of(messages)  # from the last tuple's
        keep_first(memo, (messages, found), FACTS_KEPT)
        return found

    def tool_ids(self, messages: tuple[Message, ...]) -> ToolIds:
        """The ids of ``messages``'s calls and results (`toolhist.curation.tool_ids`), listed once per tuple."""
        memo = self.ids_memo
        for seen, found in memo:
            if seen is messages:
                return found
        scanned = next((f.ids for seen, f in self.memo if seen is messages and f.ids is not None), None)
        found = tool_ids_of(messages) if scanned is None else scanned  # the facts' scan listed them
        keep_first(memo, (messages, found), 2)
        return found

    @classmethod
    def of(cls, messages: Sequence[Message]) -> Trace:
        """A trace whose origins are the positions in ``messages``."""
        trace = cls(input=tuple(messages))
        origin = trace._origin
        for m, message in enumerate(messages):
            origin.setdefault(id(message), (m, None))
            for b, block in enumerate(message.blocks):
                origin.setdefault(id(block), (m, b))
        # ``input`` holds every input message, and through them their blocks: no id is reused.
        return trace

    def _note(self, obj: object, position: Position | tuple[int, int | None]) -> None:
        self._origin.setdefault(id(obj), position)
        self._alive.append(obj)

    def origin(self, obj: object) -> Position | None:
        """Where ``obj`` (or what it was derived from) was in the input; ``None`` if synthesised."""
        found = self._origin.get(id(obj))
        if type(found) is tuple:
            found = self._origin[id(obj)] = position(found)
        return found  # type: ignore[return-value]  # a Position or None once converted

    def input_block(self, obj: Block) -> Block | None:
        """The input block ``obj`` is (or was derived from); ``None`` for a block a pass made.

        Cheaper than `origin` (no `Position` is made): passes that look at every tool block use it.
        """
        found = self._origin.get(id(obj))
        if found is None:
            return None
        m, b = found if type(found) is tuple else (found.message, found.block)  # type: ignore[union-attr]
        if b is None:
            return None
        try:  # positions are never negative: an index past the end is the only miss
            return self.input[m].blocks[b]
        except IndexError:
            return None

    def derive(self, new: object, old: object) -> None:
        """Record that ``new`` is a rewritten ``old`` (same thing, new object)."""
        if self.log is not None:
            self.log.append((new, old))
        at = self._origin.get(id(old))
        if at is not None:
            self._note(new, at)
        else:
            # ``old`` too: a pass's own fresh object (never noted) would otherwise be freed and its id,
            # a key of ``_next``, reused by a later object that `latest` would then follow astray.
            self._alive.extend((new, old))
        self._next[id(old)] = new

    def latest(self, obj: object) -> object:
        """What ``obj`` became after every later rewrite (itself when none)."""
        seen = 0
        while id(obj) in self._next and seen < 1000:  # a chain, never a cycle; bounded anyway
            obj = self._next[id(obj)]
            seen += 1
        return obj


Pass = Callable[[tuple[Message, ...], Trace], tuple[tuple[Message, ...], list[Change]]]
"""A curation pass: pure; returns the new messages and the changes it made."""


def locate(
    messages: Sequence[Message], changes: Sequence[Change], trace: Trace | None = None
) -> tuple[Change, ...]:
    """Fill each Change's ``after`` with where its subject sits in ``messages`` (identity lookup).

    With ``trace``, a subject a later pass rewrote is followed to its latest form first.
    """
    subjects: list[object] = []
    for change in changes:
        subject = change.subject() if change.after is None else None
        if subject is not None and trace is not None:
            subject = trace.latest(subject)
        subjects.append(subject)
    wanted = {id(subject) for subject in subjects if subject is not None}
    where: dict[int, tuple[int, int | None]] = {}
    for m, message in enumerate(messages):
        key = id(message)
        if key in wanted and key not in where:
            where[key] = (m, None)
        for b, block in enumerate(message.blocks):
            key = id(block)
            if key in wanted and key not in where:
                where[key] = (m, b)
    books = trace.located if trace is not None else []
    located = []
    for change, subject in zip(changes, subjects, strict=True):
        hit = where.get(id(subject)) if subject is not None else None
        located.append(change if hit is None else _located(change, hit, books))
    return tuple(located)


def _located(change: Change, hit: tuple[int, int | None], books: list[Book]) -> Change:
    """``change`` with ``after`` at ``hit``: the one made before when a book has it for ``hit``."""
    key = id(change)
    for book in books:
        records = book.get(key)
        if records is None:
            continue
        for at, made in records:
            if at == hit:
                return made
        made = replace(change, after=position(hit))
        records.insert(0, (hit, made))
        del records[BOOK_KEEP:]
        return made
    return replace(change, after=position(hit))


class Strategy(Protocol):
    """A curation profile (DESIGN §6): how a client repairs a history, and how it maps ids at the edge."""

    name: str
    """The strategy name (``toolhist``, ``llxprt-v864``…)."""
    summary: str
    """One line for ``toolhist strategies``."""

    def curate(self, session: Session, provider: str, tail: tuple[Message, ...]) -> Curation:
        """The history this client would send to ``provider``, with ``tail`` (the new input) appended."""
        ...

    def edge_ids(self, session: Session, provider: str) -> tuple[Session, dict[str, str]]:
        """The curated session with ids as this client writes them into ``provider``'s payload."""
        ...


def run_passes(
    session: Session,
    provider: str,
    strategy: str,
    passes: Sequence[Pass],
    tail: tuple[Message, ...] = (),
    *,
    conform: bool = True,
) -> Curation:
    """Run ``passes`` in order over ``session.messages + tail`` and assemble the Curation.

    Every strategy that reproduces a client starts with `conform_to_sdk` (``conform``): the repairs
    after it, whatever client they reproduce, then send only shapes the provider's SDK request types
    accept. Strategy ``toolhist`` changes only what the provider refuses, so it does not.
    """
    from toolhist.curation.conform import conform_to_sdk  # conform builds on this module

    messages = (*session.messages, *tail) if tail else session.messages
    trace = Trace.of(messages)
    trace.memo = remembered(session)
    changes: list[Change] = []
    for step in (conform_to_sdk(provider), *passes) if conform else passes:
        output, made = step(messages, trace)
        messages = kept(output, messages)
        changes.extend(made)
    curated = session.model_copy(update={"messages": messages})
    return Curation(
        session=curated,
        changes=locate(messages, changes, trace),
        strategy=strategy,
        provider=provider,
        original=session,
    )


def kept(output: tuple[Message, ...], given: tuple[Message, ...]) -> tuple[Message, ...]:
    """``given`` when a pass's ``output`` holds the very same messages, else ``output``.

    Several passes rebuild their tuple even when they change nothing (a walk that appends every
    message again). Handing the next pass the tuple it was given lets `Trace.facts` answer from its
    memory (a new tuple was a `facts_from` diff of the whole history, 0.17 s at 100,000 messages)
    and the shared segments match their input by identity first.
    """
    if output is given or len(output) != len(given) or not all(map(is_, output, given)):
        return output
    return given


def block_json(obj: Block | Message) -> JsonValue:
    """A block or message as JSON, for ``Change.dropped``."""
    dumped: JsonValue = obj.model_dump(mode="json", exclude_defaults=True)
    return dumped
