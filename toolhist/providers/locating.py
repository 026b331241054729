"""What `toolhist.providers.base.located` works out once per rule and once per path shape.

A long history's verdict is one Violation per finding: 170,000 at 100,000 messages (Mistral's
and Kimi's id rules, ``/tmp/prof/h100k.json``), ~1.2 s of Home's seven verdicts. Per finding,
``located`` filled the rule's template with ``str.format``, wrote the path with the provider's
``path_format`` (a Python loop over its parts), and located it through `PathMap.locate` (a method
call per prefix length tried, a binary search of a 100,000-entry column for a call's path). What
depends only on the rule (its template's pieces) or on the path's shape (its names, where the
renderer recorded that shape's prefixes) is done here once, and a finding pays for its own values:

- `Spelling`: a template with no field is one text; with one field, named once and given a ``str``,
  it is ``before + value + after`` (what ``format`` makes of a ``str``), kept per value;
- `Plan`: for a path of names at even places and ``int`` indices at odd ones (every path a check
  writes), the path string as ``template % indices`` (`bracketed` and `dotted` only) and the map's
  columns its prefixes would be found in, longest first (`PathMap.locate`'s order); a column is
  searched at the place after its last hit first (a check walks the body in order, so the next
  finding's entry is most often the next one).

Every value is the one the general code made (``tests/providers/test_locating.py``).
"""

from __future__ import annotations

import functools
from bisect import bisect_left
from collections.abc import Callable, Mapping
from string import Formatter
from typing import Any, NamedTuple

from toolhist.providers.source_map import At, PathMap, PathT

_LOW = 32  # `toolhist.providers.source_map`: a shape's second index sits in the key's low 32 bits


class Spelling(NamedTuple):
    """How a rule's error text is made from a finding's values (`spelling`)."""

    constant: str | None
    """The text, when the template has no field (``format`` of it ignores the values)."""
    name: str | None
    """The one field, when the template names one field once, without conversion or spec."""
    before: str
    """The literal text before that field (braces unescaped)."""
    after: str
    """The literal text after it."""


def spelling(template: str) -> Spelling:
    """`Spelling` of ``template``: a constant, one plain field, or neither (both ``None``: ``format``)."""
    try:
        parsed = list(Formatter().parse(template))
    except ValueError:  # a malformed template: ``format`` raises as it always did
        return Spelling(None, None, "", "")
    fields = [(name, spec, conversion) for _, name, spec, conversion in parsed if name is not None]
    if not fields:
        return Spelling(template.format(), None, "", "")
    if len(fields) != 1:
        return Spelling(None, None, "", "")
    name, spec, conversion = fields[0]
    if spec or conversion or not name.isidentifier():
        return Spelling(None, None, "", "")
    at = next(k for k, part in enumerate(parsed) if part[1] is not None)
    before = "".join(part[0] for part in parsed[: at + 1])
    after = "".join(part[0] for part in parsed[at + 1 :])
    return Spelling(None, name, before, after)


@functools.cache
def _bounds(template: str) -> tuple[str, str, bool] | None:
    """The literal text every filling of ``template`` starts and ends with, and whether it has a field.

    None for a template ``format`` cannot parse. A template without a field is its whole text.
    """
    try:
        parsed = list(Formatter().parse(template))
    except ValueError:
        return None
    if all(name is None for _, name, _, _ in parsed):
        text = template.format()
        return text, text, False
    last = max(k for k, part in enumerate(parsed) if part[1] is not None)
    return parsed[0][0], "".join(part[0] for part in parsed[last + 1 :]), True


@functools.cache
def alone(template: str, others: tuple[str, ...]) -> bool:
    """Whether no text of ``others``' templates can equal one of a one-field ``template`` (`spelling`).

    Such a rule's texts are equal only when its values are (it keeps them by value), so they need
    no place in a verdict's table of every text (`toolhist.providers.base.located`). A text starts
    with its template's first literal and ends with its last: two templates whose starts (or ends)
    are not one a prefix (suffix) of the other never make one text. Anything unparsed may.
    """
    mine = _bounds(template)
    if mine is None:
        return False
    start, end, _ = mine
    for other in others:
        theirs = _bounds(other)
        if theirs is None:
            return False
        first, last, fields = theirs
        if not fields:  # a constant: its text must hold both ends, apart
            if len(first) >= len(start) + len(end) and first.startswith(start) and first.endswith(end):
                return False
        elif (start.startswith(first) or first.startswith(start)) and (
            end.endswith(last) or last.endswith(end)
        ):
            return False
    return True


class Column(NamedTuple):
    """One source-map column a plan searches: its key's index count and arrays, and a hint."""

    slots: int
    """How many of the path's indices make the key (0, 1 or 2)."""
    keys: Any  # array('q'), strictly increasing unless ``lookup`` is set
    messages: Any  # array('i')
    blocks: Any  # array('i'), -1 for None
    lookup: dict[int, int] | None
    """Key → place, for a column whose keys are not strictly increasing (`source_map._settled`)."""
    hint: list[int]
    """The place after the last hit: where the next finding's entry most often is."""


class Plan(NamedTuple):
    """Per path shape (length, names): how a path of that shape is written and located."""

    template: str | None
    """``template % indices`` is the path string; None: the provider's ``path_format`` writes it."""
    columns: tuple[Column, ...]
    """The columns of the shape's recorded prefixes, longest first; empty: located nowhere."""


def bracketed_template(shape: tuple[str | None, ...]) -> str:
    """`toolhist.providers.base.bracketed` of a path of ``shape`` as a %-template (None: an index)."""
    out = ""
    for part in shape:
        if part is None:
            out = f"{out}[%d]"
        elif out:
            out = f"{out}.{_escaped(part)}"
        else:
            out = _escaped(part)
    return out


def dotted_template(shape: tuple[str | None, ...]) -> str:
    """`toolhist.providers.base.dotted` of a path of ``shape`` as a %-template (None: an index)."""
    return ".".join("%d" if part is None else _escaped(part) for part in shape)


def _escaped(name: str) -> str:
    return name.replace("%", "%%")


def plan(
    size: int,
    names: tuple[Any, ...],
    template_of: Callable[[tuple[str | None, ...]], str] | None,
    source_map: Mapping[str, At],
    lengths: tuple[int, ...],
) -> Plan | None:
    """The `Plan` of paths of ``size`` parts named ``names`` (their even places), odd places ``int``.

    None when a name is not a ``str`` (such a path takes the general way). ``source_map`` is a
    `PathMap` written in the provider's convention; its columns are read as they are kept.
    """
    if any(type(name) is not str for name in names):
        return None
    shape: tuple[str | None, ...] = tuple(names[k // 2] if k % 2 == 0 else None for k in range(size))
    template = template_of(shape) if template_of is not None else None
    columns: list[Column] = []
    if isinstance(source_map, PathMap):
        recorded = source_map._map
        for n in lengths:
            if n > size:
                continue
            code = recorded.codes.get(shape[:n])
            if code is None:
                continue
            column = recorded.columns[code]
            columns.append(
                Column(len(column.slots), column.keys, column.messages, column.blocks, column.index, [0])
            )
    return Plan(template, tuple(columns))


def found(columns: tuple[Column, ...], indices: PathT) -> At | None:
    """`PathMap.locate` of a path whose plan gave ``columns`` and whose odd places are ``indices``."""
    for slots, keys, messages, blocks, lookup, hint in columns:
        key: Any = 0  # the indices are ints (the plan's condition)
        if slots == 2:
            key = indices[0] << _LOW | indices[1]  # type: ignore[operator]
        elif slots == 1:
            key = indices[0]
        if lookup is not None:
            at = lookup.get(key, -1)
        else:
            at = hint[0]
            size = len(keys)
            if not (at < size and keys[at] == key):
                if 0 <= key < size and keys[key] == key:  # an entry for every index: the key is its place
                    at = key
                else:
                    at = bisect_left(keys, key)
                    if at == size or keys[at] != key:
                        at = -1
        if at >= 0:
            hint[0] = at + 1
            block = blocks[at]
            return (messages[at], None if block < 0 else block)
    return None
