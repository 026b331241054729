"""``check --json`` and ``curate --json`` written a part at a time: the bytes `_emit_json` writes.

``_emit_json(CheckResult.to_json())`` needed every provider's violations at once, then a dict per
violation, then one string of the whole (``json.dumps`` with an indent runs the pure-Python
encoder): on a 200 MB Claude Code log 499 MB at peak against 329 MB for plain ``check``; on a
129 MB Codex rollout 729 MB against 511 MB (issue 26). Here the envelope (`CheckResult.to_json`
without its ``results``) is written around the providers' verdicts, each written as it is made
(orjson, `BATCH` violations a call) and let go; the error count the exit code needs is added up
on the way. ``curate --json`` writes the curated session a message at a time, then the Changes
and the violations left. Every write ends between two whole items, so ``--redact``
(`toolhist.redact.redacting_streams`, one write at a time) sees each secret whole, as it did in
the one write of the whole.

``json.dumps(value, indent=2)`` puts each nested line ``2 x depth`` spaces in, and a JSON string
never holds a raw newline: a value dumped on its own and its newlines indented is the same text
as the value dumped in place (`nested`). orjson's ``OPT_INDENT_2`` writes strings, ``null``,
integers and lists as ``json.dumps(..., ensure_ascii=False)`` does (control characters escaped the
same way, everything else as is); a violation holds nothing else. A string orjson refuses (a lone
surrogate) falls back to ``json`` for its batch. Messages and Changes may hold floats, which
orjson writes differently (``1e16``, not ``1e+16``): they go through ``json``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from toolhist.check import CheckResult
    from toolhist.curation.base import Curation
    from toolhist.providers import Violation

INDENT = "  "
"""``_emit_json``'s indent (``json.dumps(indent=2)``)."""

BATCH = 1000
"""Violations serialised per orjson call and written per write."""

CHUNK = 1 << 16
"""Characters gathered before a write, when items are written one by one (`_write_list`)."""

Write = Callable[[str], None]


def nested(value: Any, depth: int) -> str:
    """``value`` as ``json.dumps(indent=2, ensure_ascii=False)`` writes it ``depth`` levels in."""
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + INDENT * depth)


def _key(name: str) -> str:
    return json.dumps(name, ensure_ascii=False)


def _items(values: list[dict[str, Any]], depth: int) -> str:
    """``values`` as the items of a list whose items stand ``depth`` levels in, without the brackets."""
    try:
        text = orjson.dumps(values, option=orjson.OPT_INDENT_2).decode()
    except (TypeError, orjson.JSONEncodeError):  # a lone surrogate: json writes it, as _emit_json did
        text = json.dumps(values, indent=2, ensure_ascii=False)
    pad = INDENT * (depth - 1)
    return pad + text[2:-2].replace("\n", "\n" + pad)  # "[\n  {...},\n  {...}\n]" → the items


def _batch(found: Sequence[Violation], start: int, size: int, depth: int) -> str:
    """Violations ``start`` to ``start + size`` of ``found`` as list items ``depth`` levels in.

    Its own function so the batch's dicts die on return, not at the next batch.
    """
    return _items([v.model_dump(mode="json") for v in found[start : start + size]], depth)


def _violations(found: Sequence[Violation], depth: int, size: int) -> Iterator[str]:
    """``found`` as list items ``depth`` levels in, ``size`` a piece."""
    for start in range(0, len(found), size):
        yield _batch(found, start, size, depth)


def _write_list(pieces: Iterable[str], depth: int, write: Write) -> None:
    """A list ``depth`` levels in, from its ``[`` to its ``]``, of ``pieces`` (whole items as text).

    Pieces are gathered up to `CHUNK` characters a write; a write never ends inside an item.
    """
    gathered: list[str] = []
    size = 0
    opened = False
    for piece in pieces:
        gathered.append(("," if opened else "[") + "\n" + piece)
        opened = True
        size += len(piece)
        if size >= CHUNK:
            write("".join(gathered))
            gathered, size = [], 0
    write("".join(gathered) + ("\n" + INDENT * depth + "]" if opened else "[]"))


def write_check_json(
    result: CheckResult,
    verdicts: Iterable[tuple[str, Sequence[Violation]]],
    write: Write,
    *,
    batch: int = BATCH,
) -> int:
    """Write ``check --json`` of ``result`` with ``verdicts`` as its ``results``; the error count.

    ``result`` is the envelope (its own ``results`` are not written); each ``(provider,
    violations)`` of ``verdicts`` is written and let go before the next is asked for, so at most one
    provider's violations are alive (`toolhist.check.Checking.verdicts` makes each one on demand).
    Nothing is written before the first verdict is made: a strategy or provider that fails at once
    leaves stdout empty, as it did when the whole was printed at the end.
    The text is ``_emit_json(result.to_json())`` with the verdicts as its results, newline included;
    ``batch`` violations are serialised per write.
    """
    whole = result.to_json()
    keys = list(whole)
    at = keys.index("results")
    fields = [f"{INDENT}{_key(k)}: {nested(whole[k], 1)}" for k in keys[:at]]
    head = "{\n" + "".join(line + ",\n" for line in fields) + f'{INDENT}"results": '
    errors = 0
    opened = False
    for provider, found in verdicts:
        errors += sum(v.severity == "error" for v in found)
        lead = ",\n" if opened else head + "{\n"  # nothing written before the first verdict is made
        write(f'{lead}{INDENT * 2}{_key(provider)}: {{\n{INDENT * 3}"violations": ')
        _write_list(_violations(found, 4, batch), 3, write)
        write(f"\n{INDENT * 2}}}")
        opened = True
        del found  # before the next provider's verdict is made
    tail = [f",\n{INDENT}{_key(k)}: {nested(whole[k], 1)}" for k in keys[at + 1 :]]
    write(("\n" + INDENT + "}" if opened else head + "{}") + "".join(tail) + "\n}\n")
    return errors


def write_curate_json(curation: Curation, left: Sequence[Violation], write: Write) -> None:
    """Write ``curate --json``: `Curation.to_json` with ``violations`` (``left``) after it.

    The text ``_emit_json`` printed of the whole, but the curated session's messages, the Changes
    and the violations are dumped and written one at a time: the whole as one dict and one string
    was several times the session again, on top of the session as given and as curated.
    """
    bare = curation.model_copy(
        update={"session": curation.session.model_copy(update={"messages": ()}), "changes": ()}
    )
    whole = bare.to_json()
    whole["violations"] = []
    for n, key in enumerate(whole):
        write(("{\n" if n == 0 else ",\n") + f"{INDENT}{_key(key)}: ")
        if key == "session":
            session = whole[key]
            for m, field in enumerate(session):
                write(("{\n" if m == 0 else ",\n") + f"{INDENT * 2}{_key(field)}: ")
                if field == "messages":
                    messages = (
                        INDENT * 3 + nested(x.model_dump(mode="json"), 3) for x in curation.session.messages
                    )
                    _write_list(messages, 2, write)
                else:
                    write(nested(session[field], 2))
            write("\n" + INDENT + "}" if session else "{}")
        elif key == "changes":
            changes = (INDENT * 2 + nested(c.to_json(), 2) for c in curation.changes)
            _write_list(changes, 1, write)
        elif key == "violations":
            _write_list(_violations(left, 2, BATCH), 1, write)
        else:
            write(nested(whole[key], 1))
    write("\n}\n")
