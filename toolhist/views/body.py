"""A request body per source message: what each provider gets for message N, side by side.

A real agent log renders to bodies of thousands of lines (a 2 MB Codex rollout: 6,000 per provider),
and a 10,000-message session to hundreds of thousands; shown whole, they are a download button. Here
a body is cut at its message list (``messages``, ``input``, ``contents``): each entry is traced back to
the source message it came from through the payload's ``source_map``, so the page can show a window
of source messages with, for each, every provider's entries beside each other (aligned by source
message, which is the diff that matters when switching providers: what Anthropic gets for message N
beside what Gemini gets), each entry's lines numbered and the lines a violation points at marked.
The fields outside the list (``model``, ``tools``, ``system``…) are their own part.

What a format cannot carry (`toolhist.providers.Payload.omitted`, one line per block) is grouped by
kind (the line with its numbers taken out) with a count, the messages it concerns and one example.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import pandas as pd

from toolhist.providers import Payload, Violation
from toolhist.providers.base import PathMap, PathT
from toolhist.views.payloads import LINE_COLUMNS, json_lines

LIST_KEYS: Final = ("messages", "input", "contents")
"""The message list of each wire format (Chat, Anthropic, Bedrock, Mistral, Kimi; Responses; Gemini)."""
_TOP = re.compile(r"^([A-Za-z_]+)(?:\[(\d+)\]|\.(\d+))")
_NUMBER = re.compile(r"(?<![\w.-])\d+(?![\w.-])")  # a count or an index, not a digit of a name
_MESSAGE = re.compile(r"\bmessage (\d+)")
_LEADING = re.compile(r"^message (\d+)\b")
NO_MODEL: Final = "model: the source named none"


@dataclass(frozen=True)
class Sections:
    """A body cut at its message list: entries per source message, and the fields outside the list."""

    list_key: str | None
    """``messages``, ``input`` or ``contents``; None when the body has no message list."""
    entries: Mapping[int, tuple[int, ...]]
    """Source message index → the list entries first carrying it (an entry shows under one message)."""
    carried_by: Mapping[int, int]
    """Source message index → the entry it was merged into, when that entry shows under another message."""
    fields: Mapping[str, Any]
    """The body's other fields (``model``, ``tools``, ``system``, ``generationConfig``…)."""


class Spans(Mapping[int, tuple[int, ...]]):
    """Source message → its entries, held in three arrays rather than a dict of tuples.

    A 100,000-message body's cut was 200,000 small objects (10 MB) kept beside each packed body
    (`toolhist.views.packed`); worse, made while the body's tree was alive, they pinned the
    allocator's arenas that tree freed. Read as the dict it replaces (equal to it, too).
    """

    __slots__ = ("_flat", "_keys", "_starts")

    def __init__(self, grouped: Mapping[int, Iterable[int]]) -> None:
        self._keys = array("q", sorted(grouped))
        self._starts = array("q")
        self._flat = array("q")
        for key in self._keys:
            self._starts.append(len(self._flat))
            self._flat.extend(grouped[key])
        self._starts.append(len(self._flat))

    def __getitem__(self, key: int) -> tuple[int, ...]:
        at = bisect_left(self._keys, key)
        if at == len(self._keys) or self._keys[at] != key:
            raise KeyError(key)
        return tuple(self._flat[self._starts[at] : self._starts[at + 1]])

    def __iter__(self) -> Iterator[int]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


class IntPairs(Mapping[int, int]):
    """An ``int → int`` mapping held in two arrays (`Sections.carried_by`: tens of thousands at 100,000)."""

    __slots__ = ("_keys", "_values")

    def __init__(self, pairs: Mapping[int, int]) -> None:
        self._keys = array("q", sorted(pairs))
        self._values = array("q", (pairs[k] for k in self._keys))

    def __getitem__(self, key: int) -> int:
        at = bisect_left(self._keys, key)
        if at == len(self._keys) or self._keys[at] != key:
            raise KeyError(key)
        return self._values[at]

    def __iter__(self) -> Iterator[int]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def sections(payload: Payload) -> Sections:
    """Cut ``payload``'s body at its message list and trace each entry to its source messages."""
    body = payload.body
    list_key = next((k for k in LIST_KEYS if isinstance(body.get(k), list)), None)
    fields = {k: v for k, v in body.items() if k != list_key}
    if list_key is None:
        return Sections(None, {}, {}, fields)
    first, more = _list_entries(payload, list_key)
    entries: dict[int, list[int]] = {}
    carried_by: dict[int, int] = {}
    for entry in sorted(first):
        lowest = first[entry]
        entries.setdefault(lowest, []).append(entry)
        for other in sorted(more.get(entry, ())):
            if other != lowest:
                carried_by.setdefault(other, entry)
    return Sections(list_key, Spans(entries), IntPairs(carried_by), fields)


def _list_entries(payload: Payload, list_key: str) -> tuple[dict[int, int], dict[int, set[int]]]:
    """Entry of ``list_key`` → its lowest source message; and for a merged entry, all of its messages.

    From the payload's source map. Most entries carry one message: a set per entry was most of the
    cut's time at 100,000 messages.

    A renderer's map (`toolhist.providers.base.PathMap`) is read by its path tuples: a path
    ``(list_key, N, …)`` is entry N, as its string ``messages[N]…`` / ``messages.N…`` reads, and
    the map's 200,000 strings (at 100,000 messages) are never made nor kept on the cached payload.
    A map with any other path under the list (none that a renderer writes) is read as strings, as
    every other mapping is.
    """
    source_map = payload.source_map
    if isinstance(source_map, PathMap):
        first: dict[int, int] = {}
        more: dict[int, set[int]] = {}
        for path, (message, _block) in source_map.tuples().items():
            if path and path[0] == list_key:
                entry = path[1] if len(path) > 1 else None
                if type(entry) is not int:
                    break
                seen = first.get(entry)
                if seen is None:
                    first[entry] = message
                elif seen != message:
                    more.setdefault(entry, {seen}).add(message)
                    if message < seen:
                        first[entry] = message
        else:
            return first, more
    sources: dict[int, set[int]] = {}
    for text, (message, _block) in source_map.items():
        hit = _TOP.match(text)
        if hit is not None and hit.group(1) == list_key:
            sources.setdefault(int(hit.group(2) or hit.group(3)), set()).add(message)
    lowest = {entry: min(found) for entry, found in sources.items()}
    return lowest, {entry: found for entry, found in sources.items() if len(found) > 1}


def flagged(violations: Iterable[Violation]) -> dict[str, list[str]]:
    """Violation paths → the rules naming them."""
    out: dict[str, list[str]] = {}
    for v in violations:
        out.setdefault(v.path, []).append(v.rule)
    return out


def value_lines(
    value: Any, prefix: PathT, path_format: Callable[[PathT], str], marks: Mapping[str, list[str]]
) -> pd.DataFrame:
    """``value`` (found at ``prefix`` in the body) as numbered JSON lines, each with its rules.

    A line is marked with the rules whose path is its own or encloses it inside ``prefix`` (a call's
    violation marks the call's lines); a violation whose path is ``prefix`` itself (a whole message)
    marks its first line only, so the rest of the message, which nothing points at, stays unmarked (a
    new user read a message marked from top to bottom as every line being at fault). Columns as
    `lines_frame`'s (`toolhist.views.payloads`).
    """
    spelled: dict[PathT, str] = {}

    def spell(path: PathT) -> str:
        found = spelled.get(path)
        if found is None:
            found = spelled[path] = path_format(path)
        return found

    rows = []
    for n, (text, path) in enumerate(json_lines(value), start=1):
        full = (*prefix, *path)
        rules: list[str] = []
        if marks:
            for k in range(len(full), len(prefix), -1):  # paths inside the value: their lines
                rules += marks.get(spell(full[:k]), [])
            if n == 1 and prefix:  # the value itself: where it opens
                rules += marks.get(spell(prefix), [])
        rows.append({"line": n, "text": text, "path": spell(full), "rules": ", ".join(dict.fromkeys(rules))})
    return pd.DataFrame.from_records(rows, columns=LINE_COLUMNS)


def field_marks(marks: Mapping[str, list[str]], list_key: str | None) -> list[tuple[str, str]]:
    """Violations on the body outside its message list (``tools[0]``, ``model``): (path, rules)."""
    return [
        (path, ", ".join(rules))
        for path, rules in marks.items()
        if list_key is None or not path.startswith(list_key)
    ]


def omitted_groups(omitted: Sequence[str], model: str | None = None) -> pd.DataFrame:
    """What a format cannot carry, one row per kind: ``kind``, ``count``, ``messages``, ``example``.

    The kind is the line with its numbers replaced by ``N`` (150 "message 12 block 0: thinking … has
    no place in openai-chat" lines are one kind); digits inside a name (``claude-sonnet-4-5``) stay.
    ``model``: the model the source names elsewhere (a Codex ``turn_context``, a message's metadata);
    the renderer, which reads only the request's own ``model``, says "the source named none", which
    is not so: the line then says what it named.
    """
    groups: dict[str, list[str]] = {}
    named = f"model: the source names {model} in its log, not in a request field; set one before sending"
    for given in omitted:
        line = named if model and given.startswith(NO_MODEL) else given
        groups.setdefault(_NUMBER.sub("N", line), []).append(line)
    rows = []
    for kind, lines in groups.items():
        messages = sorted({int(m.group(1)) for line in lines if (m := _MESSAGE.search(line))})
        shown = ", ".join(map(str, messages[:12])) + (f" … ({len(messages):,})" if len(messages) > 12 else "")
        rows.append({"kind": kind, "count": len(lines), "messages": shown, "example": lines[0]})
    frame = pd.DataFrame(rows, columns=["kind", "count", "messages", "example"])
    return frame.sort_values("count", ascending=False, kind="stable").reset_index(drop=True)


def omitted_by_message(omitted: Sequence[str]) -> dict[int, list[str]]:
    """The lines of ``omitted`` that name a message (``message 12 block 0: …``), by that message."""
    out: dict[int, list[str]] = {}
    for line in omitted:
        hit = _LEADING.match(line)
        if hit is not None:
            out.setdefault(int(hit.group(1)), []).append(line)
    return out


def jumps(found: Mapping[str, Sequence[Violation]]) -> list[tuple[str, int]]:
    """Each violation that points at a message, errors first, as (label, message).

    One per provider, rule and message, in message order within each severity.
    """
    seen: set[tuple[str, str, int]] = set()
    out: list[tuple[int, int, str]] = []
    for provider, violations in found.items():
        for v in violations:
            if v.message_index is None or (provider, v.rule, v.message_index) in seen:
                continue
            seen.add((provider, v.rule, v.message_index))
            out.append(
                (
                    v.severity != "error",
                    v.message_index,
                    f"message {v.message_index} · {provider} · {v.rule} ({v.severity})",
                )
            )
    out.sort(key=lambda x: (x[0], x[1]))
    return [(label, message) for _, message, label in out]
