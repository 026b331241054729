"""What every reader shares: the reader interface, shape checks and small post-passes.

Shape checks fail with a JSON path; the post-pass (tool names on results) makes every format's
Session complete.

Readers are deliberately dumb about errors: they call `obj`, `arr`, `text` and friends, which raise
`ShapeError(pointer, reason)`. The registry turns that into a `LoadError` with the file name and
the line, so every reader reports bad input the same way.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import Any

import orjson
from pydantic import JsonValue

from toolhist._trusted import construct, filler
from toolhist.formats.document import Document, json_path
from toolhist.judgement import Judgement
from toolhist.model import Block, Location, Message, Session, ToolCallBlock, ToolResponseBlock, ToolSpec

Pointer = tuple[str | int, ...]


class ShapeError(Exception):
    """The JSON is valid but not the shape this reader expects at ``pointer``."""

    def __init__(self, pointer: Pointer, reason: str) -> None:
        self.pointer = pointer
        self.reason = reason
        super().__init__(f"{json_path(pointer)}: {reason}")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "object", list: "array", str: "string", bool: "boolean"}.get(
        type(value), "number" if isinstance(value, int | float) else type(value).__name__
    )


def tag(value: Any) -> str | None:
    """``value`` when it is a string, else None: safe to test against a set of known tags.

    A ``role`` or ``type`` that is a list or object in malformed input must read as "not a known
    tag" (a ShapeError later), never raise ``TypeError: unhashable type`` from a set lookup.
    """
    return value if isinstance(value, str) else None


def obj(value: Any, ptr: Pointer) -> dict[str, Any]:
    """``value`` as a JSON object, or a ShapeError naming what it was instead."""
    if not isinstance(value, dict):
        raise ShapeError(ptr, f"expected an object, got {_kind(value)}")
    return value


def arr(value: Any, ptr: Pointer) -> list[Any]:
    """``value`` as a JSON array."""
    if not isinstance(value, list):
        raise ShapeError(ptr, f"expected an array, got {_kind(value)}")
    return value


def text(value: Any, ptr: Pointer) -> str:
    """``value`` as a string."""
    if not isinstance(value, str):
        raise ShapeError(ptr, f"expected a string, got {_kind(value)}")
    return value


def opt_text(value: Any, ptr: Pointer) -> str | None:
    """``value`` as a string or None."""
    return None if value is None else text(value, ptr)


def required(d: dict[str, Any], key: str, ptr: Pointer) -> Any:
    """``d[key]``, or a ShapeError saying the field is missing."""
    if key not in d:
        raise ShapeError((*ptr, key), f"required field {key!r} is missing")
    return d[key]


def rest(d: dict[str, Any], *known: str) -> dict[str, JsonValue]:
    """The fields of ``d`` that are not in ``known``: what goes into ``provider_data`` (a new dict).

    Readers call this for every message, call and part (200,000 times at 100,000 messages), and
    most have no field beyond the known ones: a key comparison in C says so without building the
    dict a comprehension would (issue 26).
    """
    names = _KNOWN.get(known)
    if names is None:
        names = _KNOWN[known] = frozenset(known)
    if d.keys() <= names:
        return {}
    return {k: v for k, v in d.items() if k not in names}


_KNOWN: dict[tuple[str, ...], frozenset[str]] = {}
"""`rest`'s sets of known names, by the names as given (a few dozen call sites)."""


SHARED_MAX = 256
"""How many distinct values `Shared` keeps: the few that repeat on every item are found early, and
a value that never repeats (an item ``id``) must not grow the table with the session."""


class Shared:
    """One dict per distinct small value of a block's ``provider_data`` while one session is read.

    A Codex rollout's call, output and text items leave the same ``{"type": "function_call"}``
    (``function_call_output``, ``output_text``…) on every block: a dict of its own per block was
    7% of what a loaded rollout holds (issue 26). Models are frozen and their dicts are never
    changed in place (copy-on-write), so equal values can be one object. Only small dicts of
    strings, booleans and nulls (one level of such dicts inside) are shared: their key is cheap,
    and ``1 == True`` cannot make two different values one.
    """

    def __init__(self) -> None:
        self._seen: dict[tuple[Any, ...], dict[str, JsonValue]] = {}

    def __call__(self, data: dict[str, JsonValue]) -> dict[str, JsonValue]:
        """``data``, or the equal dict (same keys in the same order) seen first in this read."""
        key = _flat_key(data, nested=True)
        if key is None:
            return data
        found = self._seen.get(key)
        if found is not None:
            return found
        if len(self._seen) < SHARED_MAX:
            self._seen[key] = data
        return data


def _flat_key(data: dict[str, Any], *, nested: bool) -> tuple[Any, ...] | None:
    """``data``'s items as a hashable key when it is small and flat (see `Shared`), else None."""
    if len(data) > 6:
        return None
    key: list[Any] = []
    for name, value in data.items():
        kind = type(value)
        if kind is str:
            if len(value) > 64:
                return None
            key.append((name, value))
        elif kind is dict and nested:
            inner = _flat_key(value, nested=False)
            if inner is None:
                return None
            key.append((name, inner))
        elif value is None or kind is bool:
            key.append((name, value))
        else:
            return None
    return tuple(key)


def unshared(data: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """`Shared`'s stand-in for readers that share nothing: ``data`` itself."""
    return data


def parse_arguments(raw: str) -> tuple[JsonValue, str | None]:
    """Parse an OpenAI-style argument string; on failure keep ``None`` and say why."""
    try:
        return orjson.loads(raw), None
    except orjson.JSONDecodeError as exc:
        return None, f"arguments are not valid JSON: {exc.msg} (character {exc.pos + 1})"


def fill_tool_names(messages: list[Message]) -> list[Message]:
    """Give every result without a tool name the name of the earlier call it answers, in place.

    Anthropic, Bedrock and Responses results carry only the call id; downstream (Gemini needs the
    name, the timeline shows it) everything is easier when the name is on the result too.

    Each named message replaces its unnamed self in ``messages`` (returned), so the old one is
    freed as soon as its successor is made: a new list beside the reader's held every message
    with results twice until the reader was done, a tenth of a Codex rollout's size (issue 26).
    """
    names: dict[str, str] = {}
    for index, message in enumerate(messages):
        blocks = named_blocks(message.blocks, names)
        if blocks is not None:
            messages[index] = construct(
                Message, speaker=message.speaker, blocks=blocks, metadata=message.metadata
            )
    return messages


def named_blocks(blocks: Iterable[Block], names: dict[str, str]) -> tuple[Block, ...] | None:
    """``blocks`` with each unnamed result named after the earlier call with its id (None: none changed).

    ``names`` (call id → name) gains this message's calls: a reader that makes its messages one by
    one (`toolhist.agents.claude_code.merged`) names them as `fill_tool_names` does the whole list.
    """
    changed = False
    out: list[Block] = []
    for block in blocks:
        if isinstance(block, ToolCallBlock):
            names.setdefault(block.id, block.name)
        elif isinstance(block, ToolResponseBlock) and block.tool_name is None and block.call_id in names:
            # The block was validated when read; only the name changes. `construct` makes what
            # ``model_construct`` with every field would (same fields set), more cheaply.
            named = {**block.__dict__, "tool_name": names[block.call_id]}
            out.append(construct(ToolResponseBlock, **named))
            changed = True
            continue
        out.append(block)
    return tuple(out) if changed else None


def named_result(
    call_id: str, name: str, result: Any, raw_call_id: str | None, provider_data: dict[str, Any]
) -> ToolResponseBlock:
    """A result read with its call's name already known: every field given, the block `named_blocks` makes.

    For the readers that name results as they read them (Chat and Responses), with no second pass
    making each one again (`fill_tool_names`).
    """
    return _RESULT(
        {
            "type": "tool_response",
            "call_id": call_id,
            "tool_name": name,
            "result": result,
            "error": None,
            "is_complete": True,
            "raw_call_id": raw_call_id,
            "provider_data": provider_data,
        }
    )


_RESULT = filler(ToolResponseBlock)
"""`named_result`'s maker: every field given, in declared order (`construct` with every field)."""


_LOCATION = filler(Location)
"""A message's `Location`, every field given in declared order: `construct`'s object, made for less."""


UNREADABLE = "unreadable "
"""How ``SessionSource.skipped`` names a record of a known kind that could not be read."""


class Skips:
    """Records a reader does not know: skipped, counted by kind and said in one note (never fatal).

    Agents add record kinds faster than readers follow (Codex wrote ``inter_agent_communication_metadata``,
    ``token_usage_record``… lines after this reader was written), and an agent skips what it
    cannot parse itself (Codex's ``RolloutRecorder::load_rollout_items`` counts such lines as
    parse errors and resumes). So a reader counts each unknown kind here, keeps the first line it
    was seen on, and the Session says so in ``SessionSource.skipped`` and the notes.
    """

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.first: dict[str, int | None] = {}

    def add(self, kind: str, line: int | None = None) -> None:
        """Count one record of ``kind`` (e.g. ``line type 'token_usage_record'``) seen on ``line``."""
        self.counts[kind] += 1
        self.first.setdefault(kind, line)

    def add_unreadable(self, kind: str, line: int | None = None) -> None:
        """Count one record of a known ``kind`` that could not be read (`toolhist.formats.records`).

        Counted as ``unreadable <kind>``; its own note names it, so `note` leaves it out.
        """
        self.add(f"{UNREADABLE}{kind}", line)

    def unreadable(self) -> int:
        """How many unreadable records were skipped so far."""
        return sum(n for kind, n in self.counts.items() if kind.startswith(UNREADABLE))

    def note(self, why: str = "") -> list[str]:
        """One note naming each skipped unknown kind with its count and first line (none when nothing was)."""
        unknown = {k: n for k, n in self.counts.items() if not k.startswith(UNREADABLE)}
        if not unknown:
            return []
        kinds = ", ".join(
            f"{kind} x{n}" + (f" (first on line {self.first[kind]})" if self.first[kind] is not None else "")
            for kind, n in sorted(unknown.items())
        )
        total = sum(unknown.values())
        return [f"skipped {total} record(s) this reader does not know: {kinds}" + (f"; {why}" if why else "")]

    def as_dict(self) -> dict[str, int]:
        """The counts by kind, for ``SessionSource.skipped``."""
        return dict(sorted(self.counts.items()))


class Reader(ABC):
    """A source format. Subclasses say whether they recognise content and read it into a Session."""

    id: str
    """The format id users pass as ``--format`` (a contract: DESIGN §6)."""
    description: str
    """One line for ``toolhist formats``."""
    holds_many: bool = False
    """Whether one document of this format holds many sessions, one picked by ``Document.session``
    (the locator ``PATH#ID``); a reader that holds one refuses a locator."""
    judgement: Judgement = "next-request"
    """How a verdict judges what this reader reads (`toolhist.judgement`): ``as-sent`` for a request
    body, ``next-request`` (the default) for an agent log, whose verdict is on the request the
    agent would send next."""

    @abstractmethod
    def recognise(self, value: Any) -> int:
        """0: not this format; 1: plausible (shape fits); 2: certain (a marker only this format has)."""

    @abstractmethod
    def read(self, doc: Document) -> Session:
        """Read the document; raise ShapeError (or LoadError) for content of the wrong shape."""

    def gather(self, path: str) -> bytes | None:
        """A session an agent keeps as a folder, as the one document this reader reads.

        OpenHands keeps a conversation as a folder of event files; every file format answers None.
        """
        return None


class Built:
    """Accumulates messages and their locations while a reader walks the source."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.messages: list[Message] = []
        self.locations: list[Location] = []
        self.notes: list[str] = list(doc.notes)
        self.unsent: list[Any] = []
        """`toolhist.model.Unsent` records, in source order (see `keep_unsent`)."""
        self.skips = Skips()
        self.named = False
        """True when the reader named every result as it read it (`fill_tool_names` would change nothing)."""

    def keep_unsent(
        self,
        kind: str,
        reason: str,
        ptr: Pointer,
        *,
        text: str = "",
        data: dict[str, JsonValue] | None = None,
        index: int | None = None,
    ) -> None:
        """Record a source entry the agent keeps but never sends, before the next message added.

        ``index`` is the entry's position in a JSON Lines document, for its line number.
        """
        from toolhist.model import Unsent

        lines = self.doc.jsonl_lines
        self.unsent.append(
            Unsent(
                kind=kind,
                reason=reason,
                before=len(self.messages),
                line=lines[index] if lines is not None and index is not None and index < len(lines) else None,
                json_path=json_path(ptr),
                text=text,
                data=data or {},
            )
        )

    def record(self, ptr: Pointer, kind: str | None, value: Any = None) -> AbstractContextManager[None]:
        """A scope converting the record at ``ptr``: a bad record of a known ``kind`` is skipped and named.

        ``with built.record((i,), "user"): …`` around one record's conversion: when it raises a
        shape error (or trips on a field of an unexpected type), what it added is taken back, a note
        names the record, its line and the field (`toolhist.formats.records`), and reading goes on.
        ``kind`` None (a header) lets the error through. ``value`` is the record (for the note's
        field); by default the document's value at ``ptr``.
        """
        from toolhist.formats.records import record_scope, value_at

        record = value if value is not None else value_at(self.doc.value, ptr)[1]

        def locate(stopped: Pointer) -> tuple[str, int | None]:
            lines = self.doc.jsonl_lines
            if lines is not None and ptr and isinstance(ptr[0], int) and ptr[0] < len(lines):
                line: int | None = lines[ptr[0]]
                return (f"line {line}" + (f", {json_path(ptr[1:])}" if len(ptr) > 1 else "")), line
            line = self.doc.line_of(stopped)[0]  # the field's line: a record may span many
            return (f"line {line}, {json_path(ptr)}" if line is not None else json_path(ptr)), line

        return record_scope(self, kind=kind, record=record, base=ptr, locate=locate)

    def add(
        self, message: Message, index: int | None, ptr: Pointer, block_items: tuple[int, ...] | None = None
    ) -> None:
        """Append a message read from the source entry at ``ptr``."""
        line = None
        if self.doc.jsonl_lines is not None and index is not None and index < len(self.doc.jsonl_lines):
            line = self.doc.jsonl_lines[index]
        self.messages.append(message)
        self.locations.append(
            _LOCATION({"index": index, "line": line, "json_path": json_path(ptr), "block_items": block_items})
        )

    def session(
        self,
        fmt: str,
        *,
        tools: tuple[ToolSpec, ...] | None,
        request: dict[str, JsonValue],
        metadata: dict[str, JsonValue] | None = None,
    ) -> Session:
        """The finished Session, with tool names filled on results."""
        from toolhist.model import SessionSource

        messages = self.messages if self.named else fill_tool_names(self.messages)
        return Session(
            messages=tuple(messages),
            tools=tools,
            request=request,
            source=SessionSource(
                format=fmt,
                path=self.doc.path,
                locations=tuple(self.locations),
                notes=tuple(self.notes),
                skipped=self.skips.as_dict(),
            ),
            metadata=metadata or {},
            unsent=tuple(self.unsent),
        )


MALFORMED = (TypeError, KeyError, AttributeError, ValueError, IndexError)
"""What a reader raises when a field has a type it did not expect (``x in SET`` on a list, ``.get``
on a string): a record skipped and named in an agent's log, else a `LoadError` naming the file, the
line and the part of the document the reader was reading (`toolhist.formats.records`), so a
reader's blind spot is a clear refusal, never a traceback."""
