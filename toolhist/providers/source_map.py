"""A renderer's source map, kept in columns of machine integers (`SourceMap`, read as `PathMap`).

Every renderer records where each part of the body came from: payload path → (canonical message,
block or None), about two entries per body message. Kept as a dict of path tuples, an entry was a
key tuple, a value tuple, two or three ints above 256 and a dict slot, ~200 bytes: on a 1 GB Codex
rollout ~865,000 entries per body, ~170 MB alive beside each body while ``toolhist check`` judged it
(issue 26: the command's peak is to stay within twice the file).

Here an entry is ~17 bytes: its paths share a *shape* (``("messages", None, "tool_calls", None)``:
a tuple with ``None`` where the path has an index), and a shape's entries are three array columns
(the indices packed in one 64-bit key, the message, the block, -1 for None), plus one column of
shape codes in the order the entries were recorded, which is the order the map reads in (``toolhist
render --json`` writes it). A renderer records through a shape's `SourceMap.column` without making
any tuple; paths and values are made again when read.

A renderer records a shape's entries in increasing index order (it walks the body as it builds it),
so a lookup is a binary search of the shape's keys, or its position itself when the shape has an
entry for every index (the body's messages). A map whose keys are not so (a path recorded twice,
out of order) is read through a dict per shape, with dict semantics (the first position, the last
value); ``tests/providers/test_source_map.py`` checks that no renderer needs it.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, ItemsView, Iterator, Mapping
from itertools import islice, repeat
from operator import and_, lt, rshift
from typing import Any

PathT = tuple[str | int, ...]
"""A payload path as a tuple: ``("messages", 3, "content", 0)``."""
Shape = tuple[str | None, ...]
"""A path with ``None`` where it has an index: ``("messages", None, "content", None)``."""
At = tuple[int, int | None]
"""Where a payload value came from: (canonical message index, block index or None)."""

_LOW = 32  # a shape's second index sits in the key's low 32 bits


class _Column:
    """One shape's entries: keys (its indices packed), messages, blocks (-1: None)."""

    __slots__ = ("blocks", "index", "keys", "messages", "shape", "slots")

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.slots = tuple(i for i, part in enumerate(shape) if part is None)
        if len(self.slots) > 2:
            raise ValueError(f"a source map path has at most two indices: {shape}")
        self.keys = array("q")
        self.messages = array("i")
        self.blocks = array("i")
        self.index: dict[int, int] | None = None
        """Key → position, for a column whose keys are not strictly increasing (none a renderer makes)."""

    def key(self, path: PathT) -> int:
        slots = self.slots
        if not slots:
            return 0
        if len(slots) == 1:
            return int(path[slots[0]])
        return int(path[slots[0]]) << _LOW | int(path[slots[1]])

    def path(self, key: int) -> PathT:
        shape, slots = self.shape, self.slots
        if not slots:
            return shape  # type: ignore[return-value]  # no None in it
        out: list[str | int | None] = list(shape)
        if len(slots) == 1:
            out[slots[0]] = key
        else:
            out[slots[0]], out[slots[1]] = key >> _LOW, key & ((1 << _LOW) - 1)
        return tuple(out)  # type: ignore[arg-type]  # every None replaced

    def find(self, key: int) -> int:
        """The position of ``key`` in the column, -1 when absent."""
        if self.index is not None:
            return self.index.get(key, -1)
        keys = self.keys
        if 0 <= key < len(keys) and keys[key] == key:  # an entry for every index: the key is its place
            return key
        i = bisect_left(keys, key)
        return i if i < len(keys) and keys[i] == key else -1

    def ordered(self) -> bool:
        keys = self.keys
        return all(map(lt, keys, islice(keys, 1, None)))

    def items(self) -> Iterator[tuple[PathT, At]]:
        """The column's entries in its order, as (path, (message, block)).

        Made by iterators written in C (``zip``, ``map``, ``repeat``), no Python call an entry: the
        app's Payloads page walks every entry of a 100,000-message body (`PathMap.tuples`).
        """
        keys, slots = self.keys, self.slots
        indices: list[Iterator[int]] = []
        if len(slots) == 1:
            indices = [iter(keys)]
        elif len(slots) == 2:
            indices = [map(rshift, keys, repeat(_LOW)), map(and_, keys, repeat(_MASK))]
        parts = [repeat(part) if part is not None else indices.pop(0) for part in self.shape]
        paths = zip(*parts, strict=False) if slots else repeat(self.shape, len(keys))  # (repeat is endless)
        return zip(
            paths, zip(self.messages, map(_NONE.get, self.blocks, self.blocks), strict=True), strict=True
        )


_MASK = (1 << _LOW) - 1
_NONE = {-1: None}
"""A block column's -1 read as None (``_NONE.get(b, b)``, in C)."""


def _at(message: int, block: int) -> At:
    return (message, None if block < 0 else block)


def _shape(path: PathT) -> Shape:
    return tuple(None if type(part) is int else part for part in path)  # type: ignore[misc]


class SourceMap:
    """Collects path → (message, block) while a renderer builds a body, in columns (module doc).

    A hot renderer takes a recorder per shape once (`column`) and calls it per entry; `add` takes
    any path (a system prompt's few entries).
    """

    def __init__(self, fmt: Callable[[PathT], str]) -> None:
        self.fmt = fmt
        self.columns: list[_Column] = []
        self.codes: dict[Shape, int] = {}
        self.order = array("H")
        """Each entry's shape code, in the order the entries were recorded."""

    def _code(self, shape: Shape) -> int:
        code = self.codes.get(shape)
        if code is None:
            code = self.codes[shape] = len(self.columns)
            if code > 0xFFFF:
                raise ValueError("a source map has at most 65,536 path shapes")
            self.columns.append(_Column(shape))
        return code

    def column(self, *shape: str | None) -> Callable[..., None]:
        """A recorder for paths of ``shape`` (``None`` where an index goes): ``put(*indices, message, block)``.

        ``put(k, j, mi, bi)`` for ``("messages", None, "content", None)``; ``put(k, mi, None)`` for
        ``("messages", None)``; ``put(mi, None)`` for ``("system",)``. The indices are those of the
        path, in order, each in 0 ≤ i < 2³¹.
        """
        code = self._code(shape)
        column = self.columns[code]
        order, key, message, block = (
            self.order.append,
            column.keys.append,
            column.messages.append,
            column.blocks.append,
        )
        slots = len(column.slots)
        if slots == 2:

            def put2(a: int, b: int, mi: int, bi: int | None) -> None:
                order(code)
                key(a << _LOW | b)
                message(mi)
                block(-1 if bi is None else bi)

            return put2
        if slots == 1:

            def put1(a: int, mi: int, bi: int | None) -> None:
                order(code)
                key(a)
                message(mi)
                block(-1 if bi is None else bi)

            return put1

        def put0(mi: int, bi: int | None) -> None:
            order(code)
            key(0)
            message(mi)
            block(-1 if bi is None else bi)

        return put0

    def add(self, path: PathT, message: int, block: int | None = None) -> None:
        """Record that the payload value at ``path`` came from ``message``/``block``."""
        code = self._code(_shape(path))
        column = self.columns[code]
        self.order.append(code)
        column.keys.append(column.key(path))
        column.messages.append(message)
        column.blocks.append(-1 if block is None else block)

    def items(self) -> Iterator[tuple[PathT, At]]:
        """The entries in the order they were recorded, as (path, (message, block)).

        Each shape's code in ``order`` takes the next entry of that shape's column (C iterators).
        """
        columns = [column.items() for column in self.columns]
        return map(next, map(columns.__getitem__, self.order))

    def remapped(self, path_of: Callable[[PathT], PathT]) -> SourceMap:
        """The same entries under ``path_of(path)``, with a dict's semantics where two meet (few entries)."""
        moved: dict[PathT, At] = {}
        for path, at in self.items():
            moved[path_of(path)] = at
        return of_dict(self.fmt, moved)


def of_dict(fmt: Callable[[PathT], str], entries: Mapping[PathT, At]) -> SourceMap:
    """A `SourceMap` of a mapping of path tuples (a test's map, a remapped one)."""
    out = SourceMap(fmt)
    for path, (message, block) in entries.items():
        out.add(path, message, block)
    return out


class PathMap(Mapping[str, At]):
    """A renderer's source map, kept in columns, read as payload path strings.

    Writing each path as a string (``messages[3].tool_calls[0]``) was a third of every render in
    ``benchmarks/bench_scale.py`` (CPU time, 10k messages), and a validation reads back only the few
    paths a violation names; so the strings are made once, the first time the map is read as a
    mapping, and `locate` and `tuples` answer from the columns. A renderer never records two paths
    that read as the same string (``tests/providers`` checks it on every sample), so both views agree.
    """

    __slots__ = ("_fmt", "_lengths", "_map", "_shapes", "_strings")

    def __init__(self, fmt: Callable[[PathT], str], paths: Mapping[PathT, At] | SourceMap) -> None:
        self._fmt = fmt
        recorded = paths if isinstance(paths, SourceMap) else of_dict(fmt, paths)
        self._map = _settled(recorded)
        self._strings: dict[str, At] | None = None
        self._lengths: tuple[int, ...] | None = None
        self._shapes: dict[tuple[int, PathT], int] = {}
        """(length, the path's even parts) → code, for a shape whose even parts are its names and odd
        parts its indices (``("messages", None, "content", None)``): a path's code in two slices."""
        for code, column in enumerate(self._map.columns):
            shape = column.shape
            if None not in shape[0::2] and all(part is None for part in shape[1::2]):
                self._shapes[len(shape), shape[0::2]] = code  # type: ignore[index]  # no None in it

    def _written(self) -> dict[str, At]:
        if self._strings is None:
            fmt = self._fmt
            self._strings = {fmt(path): at for path, at in self._map.items()}
        return self._strings

    def __getitem__(self, key: str) -> At:
        return self._written()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._written())

    def __len__(self) -> int:
        return len(self._map.order)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and self._written() == dict(other.items())

    __hash__ = None  # type: ignore[assignment]  # a mapping: unhashable, as dict is

    def __repr__(self) -> str:
        return repr(self._written())

    def get_path(self, path: PathT) -> At | None:
        """The entry at the path tuple ``path`` (None when none is recorded).

        Once per finding and prefix length (`toolhist.providers.base.located`: 116,000 Mistral
        findings at 100,000 messages), so the usual shape, names at even places and indices at odd
        ones, is found by two slices and a dict, and its key searched inline.
        """
        columns = self._map.columns
        size = len(path)
        code = self._shapes.get((size, path[0::2]))
        if code is not None:
            key: Any = 0
            if size >= 4:
                a, b = path[1], path[3]
                key = a << _LOW | b if type(a) is int and type(b) is int else None
            elif size >= 2:
                key = path[1]
                if type(key) is not int:
                    key = None
            if key is not None:
                column = columns[code]
                if column.index is not None:
                    at = column.index.get(key, -1)
                    if at < 0:
                        return None
                else:
                    keys = column.keys
                    n = len(keys)
                    if 0 <= key < n and keys[key] == key:  # an entry for every index: the key is its place
                        at = key
                    else:
                        at = bisect_left(keys, key)
                        if at == n or keys[at] != key:
                            return None
                block = column.blocks[at]
                return (column.messages[at], None if block < 0 else block)
        code = self._map.codes.get(_shape(path))
        if code is None:
            return None
        column = columns[code]
        try:
            key = column.key(path)
        except ValueError:
            return None
        at = column.find(key)
        return None if at < 0 else _at(column.messages[at], column.blocks[at])

    def tuples(self) -> Mapping[PathT, At]:
        """The entries keyed by their path tuples, read without writing any path as a string.

        A reader that walks every entry (the app's Payloads page cuts a body at its message list)
        needs only the first two parts of each path; writing 200,000 strings for that, and keeping
        them on the cached payload, was most of that page's time and memory at 100,000 messages.
        """
        return _Tuples(self)

    def locate(self, path: PathT) -> At | None:
        """The position of the longest recorded prefix of ``path`` (None when no prefix is recorded)."""
        get = self.get_path
        size = len(path)
        for n in self.lengths():
            if n <= size:
                hit = get(path if n == size else path[:n])
                if hit is not None:
                    return hit
        return None

    def lengths(self) -> tuple[int, ...]:
        """The lengths of the recorded paths, longest first: the only prefixes `locate` need try.

        A finding's path ends below what a renderer records (``messages[3].tool_calls[0].id`` is
        located at ``messages[3].tool_calls[0]``); trying every length down from the path's own
        was a probe per length that misses, a quarter of making Mistral's 116,000 Violations at
        100,000 messages.
        """
        if self._lengths is None:
            self._lengths = tuple(
                sorted({len(c.shape) for c in self._map.columns if len(c.keys)}, reverse=True)
            )
        return self._lengths

    def entries(self) -> Iterator[tuple[PathT, At]]:
        """(path tuple, (message, block)) in the order recorded."""
        return self._map.items()


def _settled(recorded: SourceMap) -> SourceMap:
    """``recorded``, each column readable by key.

    As it is when its keys strictly increase (every renderer's), else through a dict per column,
    after dropping a path recorded twice as a dict would (its first place, its last value). The
    check is ~20 ns an entry, in C.
    """
    if all(column.ordered() for column in recorded.columns):
        return recorded
    seen: dict[PathT, At] = {}
    for path, at in recorded.items():
        seen[path] = at
    if len(seen) < len(recorded.order):
        recorded = of_dict(recorded.fmt, seen)
    for column in recorded.columns:
        if not column.ordered():
            column.index = {key: i for i, key in enumerate(column.keys)}
    return recorded


class _Tuples(Mapping[PathT, At]):
    """`PathMap.tuples`: the entries keyed by path tuples, read from the columns."""

    __slots__ = ("_paths",)

    def __init__(self, paths: PathMap) -> None:
        self._paths = paths

    def __getitem__(self, path: PathT) -> At:
        hit = self._paths.get_path(path)
        if hit is None:
            raise KeyError(path)
        return hit

    def get(self, path: PathT, default: Any = None) -> Any:
        hit = self._paths.get_path(path)
        return default if hit is None else hit

    def __contains__(self, path: object) -> bool:
        return isinstance(path, tuple) and self._paths.get_path(path) is not None

    def __iter__(self) -> Iterator[PathT]:
        return (path for path, _ in self._paths.entries())

    def __len__(self) -> int:
        return len(self._paths)

    def items(self) -> ItemsView[PathT, At]:
        return _Items(self)


class _Items(ItemsView[PathT, At]):
    """`_Tuples.items`: iterated straight from the columns, not by a lookup per path."""

    _mapping: _Tuples

    def __iter__(self) -> Iterator[tuple[PathT, At]]:
        return self._mapping._paths.entries()
