"""Turning raw input (a path, bytes, text or parsed JSON) into a parsed document with locations.

Readers never see bytes: they get a `Document` whose ``value`` is plain JSON data. Every failure
before that point (unreadable file, invalid UTF-8, empty input, broken JSON) becomes a `LoadError`
naming the file and the line/column, so the user can open the file at the right place.

JSON Lines is accepted wherever a list is: a file whose lines are each a JSON value reads as the
list of those values, and each element remembers its line.
"""

from __future__ import annotations

import codecs
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from toolhist.errors import LoadError
from toolhist.files import regular_file

_SLICE = re.compile(r"^\d+:\d+$")
"""A pointer part naming a range of items (``4:6``), rendered ``[4:6]``."""

MAX_INPUT_BYTES = 512 * 1024 * 1024
"""Inputs larger than this are refused up front rather than exhausting memory."""

MAX_MAPPED_CHARS = 16 * 1024 * 1024
"""Texts longer than this get no line/column in errors (the JSON path still names the place).

Mapping every value's position is pure Python and costs about 0.2 s per MB; on a 50 MB file that
would turn a clear error into what looks like a hang.
"""


@dataclass(frozen=True)
class Document:
    """Parsed input: the JSON value plus what is needed to point back into the text."""

    value: Any
    """The parsed JSON value (a list for JSON Lines)."""
    name: str
    """File path, or ``<bytes>`` / ``<text>`` / ``<json>`` for in-memory input."""
    path: str | None = None
    """The file path when the input was a file."""
    text: str | None = None
    """The decoded text, kept for locating fields in error messages (None for parsed JSON)."""
    jsonl_lines: tuple[int, ...] | None = None
    """For JSON Lines: the 1-based line of each element of ``value``."""
    notes: tuple[str, ...] = ()
    """What happened on the way in, for the session's notes."""
    session: str | None = None
    """The session a locator named (``PATH#ID``) in a document that holds many (an Inspect log's
    samples); read by readers whose ``holds_many`` is true (`toolhist.agents.archives`)."""
    _source_map: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    def line_of(self, pointer: tuple[str | int, ...]) -> tuple[int | None, int | None]:
        """The 1-based (line, column) of the value at ``pointer``, or ``(None, None)``.

        Computed only when an error needs it: mapping the whole text costs far more than parsing.
        """
        if self.jsonl_lines is not None:
            if pointer and isinstance(pointer[0], int) and 0 <= pointer[0] < len(self.jsonl_lines):
                return self.jsonl_lines[pointer[0]], None
            return None, None
        if self.text is None or len(self.text) > MAX_MAPPED_CHARS:
            return None, None
        try:
            from json_source_map import calculate

            smap = calculate(self.text)
        except (RecursionError, ValueError, Exception):  # the map is a courtesy; never mask the error
            return None, None
        key = "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in pointer)
        while True:
            entry = smap.get(key)
            if entry is not None:
                return entry.value_start.line + 1, entry.value_start.column + 1
            if not key:
                return None, None
            key = key.rsplit("/", 1)[0]


def json_path(pointer: tuple[str | int, ...]) -> str:
    """Render a pointer as a readable JSON path: ``messages[3].content[0].text``."""
    if len(pointer) == 2:  # ``messages[3]``, a message's place, made for every message a reader reads
        key, at = pointer
        if type(key) is str and type(at) is int and ":" not in key:
            return f"{key}[{at}]"
    out = ""
    for part in pointer:
        if isinstance(part, int) or (":" in part and _SLICE.match(part)):  # a key without ":" is no range
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out or "$"


def read_input(source: Any, *, name: str | None = None) -> Document:
    """Parse a path, bytes, str or already-parsed JSON into a Document.

    A ``str`` is a path when a file by that name exists and it does not look like JSON; otherwise
    it is the document text itself.
    """
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _looks_like_path(source)):
        path = os.fspath(source)
        return parse_bytes(_read_file(path), name=path, path=path)
    if isinstance(source, bytes | bytearray | memoryview):
        return parse_bytes(bytes(source), name=name or "<bytes>")
    if isinstance(source, str):
        return parse_text(source, name=name or "<text>")
    if isinstance(source, dict | list):
        _json_only(source, name or "<json>")
        return Document(value=source, name=name or "<json>")
    raise LoadError(f"cannot read a session from a {type(source).__name__}; give a path, bytes, text or JSON")


_JSON_SCALARS = (str, int, float, bool, type(None))


def _json_only(value: Any, name: str) -> None:
    """A LoadError at the first value that JSON cannot hold (a tuple, a date, bytes…).

    Readers build the canonical model from parsed values without validating each one again
    (`toolhist._trusted`); what a JSON parser returns is JSON, and Python input is checked here.
    """
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while stack:
        pointer, node = stack.pop()
        if isinstance(node, dict):
            for key, item in node.items():
                if not isinstance(key, str):
                    raise LoadError(
                        f"object key {key!r} is not a string", file=name, json_path=json_path(pointer)
                    )
                stack.append(((*pointer, key), item))
        elif isinstance(node, list):
            stack.extend(((*pointer, i), item) for i, item in enumerate(node))
        elif not isinstance(node, _JSON_SCALARS):
            raise LoadError(
                f"a {type(node).__name__} is not a JSON value", file=name, json_path=json_path(pointer)
            )


def _looks_like_path(text: str) -> bool:
    stripped = text.lstrip()
    if not stripped or stripped[0] in "[{":
        return False
    return "\n" not in text and len(text) < 4096


def _read_file(path: str) -> bytes:
    size = regular_file(path)  # a FIFO or a device would block the read: refused before opening
    if size > MAX_INPUT_BYTES:
        raise LoadError(f"file is {size} bytes; the limit is {MAX_INPUT_BYTES}", file=path)
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise LoadError("no such file", file=path) from None
    except PermissionError:
        raise LoadError("permission denied", file=path) from None
    except OSError as exc:
        raise LoadError(exc.strerror or str(exc), file=path) from None


def parse_bytes(data: bytes, *, name: str, path: str | None = None) -> Document:
    """Decode UTF-8 (a BOM is allowed) and parse; errors name the line and column."""
    if len(data) > MAX_INPUT_BYTES:
        raise LoadError(f"input is {len(data)} bytes; the limit is {MAX_INPUT_BYTES}", file=name)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    utf16 = _utf16(data)
    if utf16 is not None:
        raise LoadError(
            f"the file is {utf16} text; toolhist reads UTF-8 (re-save it as UTF-8, e.g. with iconv)",
            file=name,
            line=1,
            column=1,
            offset=0,
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise LoadError(
            f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})",
            file=name,
            line=line,
            column=column,
            offset=exc.start,
        ) from None
    return parse_text(text, name=name, path=path)


def _utf16(data: bytes) -> str | None:
    """``UTF-16LE``/``UTF-16BE`` when the bytes are UTF-16 (a BOM, or JSON's ASCII start with NULs).

    PowerShell's ``>`` and some Windows editors write UTF-16; without this the user would read
    "not valid UTF-8" or "contains a NUL character" and not know why.
    """
    if data.startswith(codecs.BOM_UTF16_LE):
        return "UTF-16LE"
    if data.startswith(codecs.BOM_UTF16_BE):
        return "UTF-16BE"
    head = data[:64]
    if len(head) >= 4 and head[0:1] in (b"{", b"[") and head[1::2].count(0) == len(head[1::2]):
        return "UTF-16LE"
    if len(head) >= 4 and head[1:2] in (b"{", b"[") and head[0::2].count(0) == len(head[0::2]):
        return "UTF-16BE"
    return None


def parse_text(text: str, *, name: str, path: str | None = None) -> Document:
    """Parse JSON, falling back to JSON Lines when the text is one value per line."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise LoadError("file is empty" if path else "input is empty", file=name)
    if "\x00" in text:
        offset = text.index("\x00")
        raise LoadError(
            "contains a NUL character: this looks like a binary file, not JSON",
            file=name,
            line=text.count("\n", 0, offset) + 1,
            offset=offset,
        )
    notes: tuple[str, ...] = ()
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        first_error = exc
    except RecursionError:
        raise LoadError("JSON nesting is too deep", file=name) from None
    else:
        doc = Document(value=value, name=name, path=path, text=text, notes=notes)
        _refuse_duplicate_keys(doc, text)
        return doc
    jsonl = _try_jsonl(text, name=name, path=path)
    if jsonl is not None:
        return Document(
            value=jsonl.value, name=name, path=path, text=text, jsonl_lines=jsonl.jsonl_lines, notes=notes
        )
    raise LoadError(
        f"not valid JSON: {_plain(first_error.msg)}",
        file=name,
        line=first_error.lineno,
        column=first_error.colno,
        offset=first_error.pos,
    )


def _try_jsonl(text: str, *, name: str, path: str | None) -> Document | None:
    """Parse JSON Lines, or return None when the text is not line-oriented at all.

    Once the first non-blank line is a complete JSON object, the file is JSON Lines and a later
    bad line is an error naming that line (never a silent skip).
    """
    lines = text.split("\n")
    values: list[Any] = []
    line_numbers: list[int] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            if not values:
                return None
            raise LoadError(
                f"not valid JSON Lines: {_plain(exc.msg)}", file=name, line=number, column=exc.colno
            ) from None
        if not values and not isinstance(value, dict):
            return None
        values.append(value)
        line_numbers.append(number)
    if len(values) < 2:
        return None
    for index, line in enumerate(ln for ln in lines if ln.strip()):
        duplicate = _first_duplicate_key(line, values[index])
        if duplicate is not None:
            pointer, key = duplicate
            raise LoadError(
                _duplicate_reason(key),
                file=name,
                line=line_numbers[index],
                json_path=json_path((index, *pointer, key)),
            )
    return Document(value=values, name=name, path=path, text=text, jsonl_lines=tuple(line_numbers))


_UNPARSED: Any = object()
"""`_first_duplicate_key` given no parsed value."""


def _keys_all_kept(text: str, value: Any) -> bool:
    r"""True when ``value``, parsed from ``text``, surely kept every key ``text`` spells (False: unsure).

    Outside strings, a ``:`` in JSON text only ever ends a key, so ``text`` holds one ``:`` per key
    it spells plus those written inside its strings. orjson writes ``value`` back the same way
    (``"key":``, a string's ``:`` as itself), so its output holds one per key kept plus those of the
    strings kept. A string spells ``:`` either as itself or as the escape ``\u003a``; without
    that escape in ``text``, every ``:`` of a kept string is one in ``text`` too, so the counts are
    equal only when no key, and no value holding keys or ``:``, was dropped: no key was repeated.
    The two counts run in C, where the stdlib parse they spare is a Python call per object.
    """
    if "\\u003a" in text or "\\u003A" in text:
        return False
    try:
        written = orjson.dumps(value)
    except orjson.JSONEncodeError:  # nesting beyond orjson's writer: the stdlib parse decides
        return False
    return written.count(b":") == text.count(":")


class _Duplicated(dict[str, Any]):
    """An object in which a key occurs more than once (``key`` is the first such key)."""

    key: str = ""


def _pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen = dict(pairs)  # C speed; only an object that repeats a key has fewer entries than pairs
    if len(seen) == len(pairs):
        return seen
    keys: set[str] = set()
    for key, _ in pairs:
        if key in keys:
            marked = _Duplicated(pairs)
            marked.key = key
            return marked
        keys.add(key)
    return seen  # pragma: no cover - fewer entries means a repeated key, found above


def _first_duplicate_key(text: str, value: Any = _UNPARSED) -> tuple[tuple[str | int, ...], str] | None:
    """The pointer of the first object (document order) that repeats a key, and the key.

    JSON parsers keep the last of two equal keys, so the earlier value would be dropped silently
    (a ``role`` given twice, a ``tool_call_id`` overwritten by a merge tool). The stdlib parser is
    the only one that shows every pair, and it was a fifth of loading a 100,000-message body; it
    runs only when `_keys_all_kept` cannot show from ``value`` (what orjson parsed from ``text``)
    that no key was dropped. The tree is walked for the pointer only when the parse met a repeated
    key. Nesting too deep for it (beyond ~900 levels) is left unchecked rather than failing a
    valid file.
    """
    if value is not _UNPARSED and _keys_all_kept(text, value):
        return None
    repeated = False

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen = dict(pairs)  # `_pairs_hook` inlined: one Python call per object of the document, not two
        if len(seen) == len(pairs):
            return seen
        nonlocal repeated
        repeated = True
        return _pairs_hook(pairs)

    try:
        value = json.loads(text, object_pairs_hook=hook)
    except (RecursionError, ValueError):
        return None
    if not repeated:
        return None
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while stack:
        pointer, node = stack.pop()
        if isinstance(node, _Duplicated):
            return pointer, node.key
        if isinstance(node, dict):
            stack.extend(reversed([((*pointer, k), v) for k, v in node.items()]))
        elif isinstance(node, list):
            stack.extend(reversed([((*pointer, i), v) for i, v in enumerate(node)]))
    return None


def _duplicate_reason(key: str) -> str:
    return f"the key {key!r} occurs twice in one object; JSON readers keep only one of the values"


def _refuse_duplicate_keys(doc: Document, text: str) -> None:
    """A LoadError at the repeated key when an object of ``text`` has one key twice."""
    duplicate = _first_duplicate_key(text, doc.value)
    if duplicate is None:
        return
    pointer, key = duplicate
    line, column = doc.line_of((*pointer, key))
    raise LoadError(
        _duplicate_reason(key),
        file=doc.name,
        line=line,
        column=column,
        json_path=json_path((*pointer, key)),
    )


def _plain(msg: str) -> str:
    return msg.rstrip(".").replace("\n", " ")
