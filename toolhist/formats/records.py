"""A record a reader cannot read: skipped and named in an agent's log, a located error anywhere else.

An agent's log is a list of records: a JSON Lines line (Claude Code, Codex, Gemini CLI, llxprt), or
an element of a record list in one JSON document (Kilo/Cline messages, VS Code requests, the
messages of a Gemini CLI ``.json`` session). When one record of a kind the reader knows holds a
field of the wrong type, that one record is skipped and named in a note, and the rest is read::

    line 41: skipped a record of kind `response_item` whose `payload.arguments` is null: expected a
    string, got null

The agents do the same with their own files (Codex's ``RolloutRecorder::load_rollout_items``
counts a line it cannot parse and resumes: openai/codex ``codex-rs/rollout/src/recorder.rs`` at
05eb6e5e8b57cdd7c732baa6782a3ea26a3cfac3), and a user with one damaged line in a week-long session
needs the other 2,000 read, not "not a valid log". Each skipped record is also counted in
``SessionSource.skipped`` as ``unreadable <kind>``.

What is never skipped, and fails as a `LoadError` naming the file, the line and the JSON path:

- a file's header or envelope (Codex's ``session_meta``, a Gemini CLI session's metadata line, a
  VS Code session's ``requests`` list): without it the rest cannot be placed;
- a record whose kind cannot be told (no string ``type``), when its reader does not skip those
  as unknown kinds itself;
- anything in a provider request body (and in an OTel inference span's messages, which are one):
  a body is judged as it was sent, so a dropped message would hide what the provider saw;
- the 21st unreadable record in one file (`MAX_SKIPPED`): a file with that many is not a damaged
  log of this format.

How a reader gets it (see the recipe in `toolhist.agents.registry`):

- a `toolhist.formats.jsonl_stream.StreamReader` gets it without doing anything: the stream knows
  the line each record came from, and a record whose conversion raises is left out and the log
  read again (`StreamReader.record_kind` says which lines are headers);
- a reader that converts records itself wraps each one in ``with built.record(ptr, kind):``
  (`toolhist.formats.base.Built`, `toolhist.formats.jsonl_stream.Collector`), which takes back
  what the record had added and names it;
- every reader's blind spot (a ``TypeError`` where a shape check was missing) is located anyway:
  `culprit` finds, in the frames of the reader that raised it, the part of the document it was
  reading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import TracebackType
from typing import Any, Protocol

from toolhist.formats.base import MALFORMED, Pointer, ShapeError, Skips
from toolhist.formats.document import json_path

MAX_SKIPPED = 20
"""Unreadable records one file may have before reading it fails: more is not damage but another format."""
MAX_INDEXED = 500_000
"""Containers `culprit` indexes at most (it runs only on failure; a huge document gets no field path)."""


def what_is(value: Any) -> str:
    """``value``'s JSON kind as a note says it (``null``, ``a number``, ``an array``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object" if isinstance(value, dict) else "a value"


def value_at(root: Any, pointer: Pointer) -> tuple[bool, Any]:
    """``(True, value)`` at ``pointer`` inside ``root``, or ``(False, None)`` when it is not there."""
    node = root
    for part in pointer:
        here = (isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node)) or (
            isinstance(part, str) and isinstance(node, dict) and part in node
        )
        if not here:
            return False, None
        node = node[part]
    return True, node


def relative(pointer: Pointer, base: Pointer) -> Pointer:
    """``pointer`` inside the record at ``base`` (unchanged when it does not start there)."""
    return pointer[len(base) :] if pointer[: len(base)] == base else pointer


def reason_of(exc: BaseException) -> str:
    """What a reader's exception says, on one line: a shape check's reason, or the exception itself."""
    reason = getattr(exc, "reason", None)
    if isinstance(reason, str):
        return reason
    return f"a field of an unexpected type ({type(exc).__name__}: {exc})".splitlines()[0][:200]


def skipped_note(where: str, kind: str, record: Any, pointer: Pointer | None, reason: str) -> str:
    """The note naming one skipped record; ``pointer`` is inside ``record`` (None: not known)."""
    if not pointer:
        return f"{where}: skipped a record of kind `{kind}` this reader cannot read: {reason}"
    found, value = value_at(record, pointer)
    state = f"is {what_is(value)}" if found else "is missing"
    return f"{where}: skipped a record of kind `{kind}` whose `{json_path(pointer)}` {state}: {reason}"


def culprit(exc: BaseException, root: Any, base: Pointer = ()) -> Pointer | None:
    """Where in ``root`` a reader was when it raised ``exc`` (a blind spot: no shape check named it).

    The reader's frames still hold what it was reading: the innermost frame with a local variable
    that *is* one of ``root``'s objects or arrays (identity, never equality) names the deepest such
    container. ``payload.get("arguments").startswith(…)`` on a null ``arguments`` points at
    ``payload``: not the field itself, but the object to open. Runs only on failure.
    """
    index: dict[int, Pointer] = {}
    todo: list[tuple[Any, Pointer]] = [(root, base)]
    while todo and len(index) < MAX_INDEXED:
        node, ptr = todo.pop()
        if isinstance(node, dict):
            index[id(node)] = ptr
            todo.extend((v, (*ptr, k)) for k, v in node.items() if isinstance(v, dict | list))
        elif isinstance(node, list):
            index[id(node)] = ptr
            todo.extend((v, (*ptr, i)) for i, v in enumerate(node) if isinstance(v, dict | list))
    frames = []
    tb: TracebackType | None = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        hits = [index[id(v)] for v in frame.f_locals.values() if id(v) in index]
        if hits:
            return max(hits, key=len)
    return None


_STRICT: ContextVar[bool] = ContextVar("strict", default=False)


@contextmanager
def strict() -> Iterator[None]:
    """Within it, no record is skipped: the first one a reader cannot read stops it.

    For trying every reader on content none recognises (`toolhist.readers`): how far each got
    before it stopped is what names the closest format, and a skip would hide where that was.
    """
    token = _STRICT.set(True)
    try:
        yield
    finally:
        _STRICT.reset(token)


def skipping() -> bool:
    """Whether a record that cannot be read may be skipped here (not within `strict`)."""
    return not _STRICT.get()


class Sink(Protocol):
    """What a reader collects a session into (`toolhist.formats.base.Built`, ``Collector``)."""

    messages: list[Any]
    locations: list[Any]
    notes: list[str]
    unsent: list[Any]
    skips: Skips


SKIPPABLE = (ShapeError, *MALFORMED)
"""What a record's conversion raises when the record cannot be read (`record_scope`)."""


def marks_of(sink: Sink) -> tuple[int, int, int, int]:
    """How much ``sink`` holds before a record is converted: what `skipped` takes back to."""
    return len(sink.messages), len(sink.locations), len(sink.notes), len(sink.unsent)


@contextmanager
def record_scope(
    sink: Sink,
    *,
    kind: str | None,
    record: Any,
    base: Pointer,
    locate: Callable[[Pointer], tuple[str, int | None]],
) -> Iterator[None]:
    """Convert one record; if it cannot be read, take back what it added, skip it and name it.

    ``kind`` None: not a record that may be skipped (a header); its error passes through.
    ``base`` is the record's pointer in the errors the reader raises (``()`` for a JSON Lines
    line, whose errors point inside the line). ``locate(pointer)`` says where the record is
    (``line 41``) and its line, given where in it the reader stopped (as ``base`` counts); asked
    only when it is skipped.
    """
    marks = marks_of(sink)
    try:
        yield
    except SKIPPABLE as exc:
        if not skipped(sink, exc, marks, kind=kind, record=record, base=base, locate=locate):
            raise


def skipped(
    sink: Sink,
    exc: Exception,
    marks: tuple[int, int, int, int],
    *,
    kind: str | None,
    record: Any,
    base: Pointer,
    locate: Callable[[Pointer], tuple[str, int | None]],
) -> bool:
    """`record_scope`'s handling of ``exc``, for a loop that catches it itself: False when it must pass.

    ``marks`` is `marks_of` the sink before the record. A reader converting a hundred thousand
    lines spends on a ``with`` scope per line (a generator, its context manager) more than on
    some lines' conversion; ``try``/``except`` costs nothing until a line fails.
    """
    if kind is None or sink.skips.unreadable() >= MAX_SKIPPED or not skipping():
        return False
    pointer = getattr(exc, "pointer", None)
    inside = relative(pointer, base) if isinstance(pointer, tuple) else culprit(exc, record)
    del sink.messages[marks[0] :], sink.locations[marks[1] :], sink.unsent[marks[3] :]
    del sink.notes[marks[2] :]
    where, line = locate((*base, *inside) if inside else base)
    sink.notes.append(skipped_note(where, kind, record, inside, reason_of(exc)))
    sink.skips.add_unreadable(kind, line)
    return True


def kind_of(record: Any, *keys: str) -> str | None:
    """The record's kind: the first of ``keys`` (default ``type``) whose value is a string."""
    if not isinstance(record, dict):
        return None
    for key in keys or ("type",):
        value = record.get(key)
        if isinstance(value, str):
            return value
    return None
