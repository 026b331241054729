"""A request body as numbered JSON lines, each knowing its payload path, so offending paths can be marked.

`json_lines` pretty-prints like ``json.dumps(body, indent=2)`` (same text, line for line) while
recording, for every line, the payload path of the value that line opens or holds. `lines_frame`
then marks each line whose path is, or lies under, a path a violation names; the path is written
in the provider's own convention (``messages[3].tool_calls[0]``, ``messages.3.content.0``) by the
provider's ``path_format``, so it compares equal to `toolhist.providers.Violation.path`.

A 100,000-message body is over a million lines, and the Payloads page lists only its marked lines
there: `marked_lines` gives exactly ``offending_lines(lines_frame(…))`` without writing every line.
It counts lines per value (a walk with no text), finds the flagged values by descending only where
a spelled path can still lead to a violation's path, and writes the text of the kept lines alone
(seconds per provider become a fraction of one). `numbered_lines` picks between the two by size.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import pandas as pd

from toolhist._gc import paused
from toolhist.providers import Violation
from toolhist.providers.base import PathT

INDENT = "  "
LINE_COLUMNS: Final = ["line", "text", "path", "rules"]


def json_lines(body: Any) -> list[tuple[str, PathT]]:
    """``json.dumps(body, indent=2, ensure_ascii=False)`` split into lines, each with its value's path."""
    out: list[tuple[str, PathT]] = []

    def emit(value: Any, path: PathT, depth: int, prefix: str, suffix: str) -> None:
        pad = INDENT * depth
        if isinstance(value, dict) and value:
            out.append((f"{pad}{prefix}{{", path))
            items = list(value.items())
            for n, (key, item) in enumerate(items):
                emit(
                    item,
                    (*path, key),
                    depth + 1,
                    json.dumps(key, ensure_ascii=False) + ": ",
                    "," if n < len(items) - 1 else "",
                )
            out.append((f"{pad}}}{suffix}", path))
        elif isinstance(value, list) and value:
            out.append((f"{pad}{prefix}[", path))
            for n, item in enumerate(value):
                emit(item, (*path, n), depth + 1, "", "," if n < len(value) - 1 else "")
            out.append((f"{pad}]{suffix}", path))
        else:
            out.append((f"{pad}{prefix}{json.dumps(value, ensure_ascii=False)}{suffix}", path))

    emit(body, (), 0, "", "")
    return out


@paused
def lines_frame(
    body: Any, path_format: Callable[[PathT], str], violations: Iterable[Violation] = ()
) -> pd.DataFrame:
    """One row per JSON line: ``line`` (1-based), ``text``, ``path`` and ``rules`` (the rules that flag it).

    A line is flagged when its path, or any prefix of it, is the path of a violation.
    """
    flagged: dict[str, list[str]] = {}
    for v in violations:
        flagged.setdefault(v.path, []).append(v.rule)
    spelled: dict[PathT, str] = {}  # a message's prefix is shared by all its lines: format it once

    def spell(path: PathT) -> str:
        found = spelled.get(path)
        if found is None:
            found = spelled[path] = path_format(path)
        return found

    records = []
    for n, (text, path) in enumerate(json_lines(body), start=1):
        rules: list[str] = []
        if flagged:
            for k in range(len(path), 0, -1):
                rules += flagged.get(spell(path[:k]), [])
        records.append(
            {
                "line": n,
                "text": text,
                "path": spell(path) if path else "",
                "rules": ", ".join(dict.fromkeys(rules)),
            }
        )
    return pd.DataFrame.from_records(records, columns=LINE_COLUMNS)


def offending_lines(frame: pd.DataFrame, context: int = 2) -> pd.DataFrame:
    """Only the flagged lines of a `lines_frame`, with ``context`` lines either side."""
    hit = frame.index[frame["rules"] != ""]
    keep: set[int] = set()
    for i in hit:
        keep.update(range(max(0, i - context), min(len(frame), i + context + 1)))
    return frame.loc[sorted(keep)]


def line_count(value: Any) -> int:
    """How many lines ``json.dumps(value, indent=2)`` takes (a string is one line: newlines are escaped)."""
    if isinstance(value, dict):
        items: Iterable[Any] = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return 1
    if not value:
        return 1
    n = 2
    for item in items:  # scalars counted here: a call per container only
        n += line_count(item) if isinstance(item, dict | list) else 1
    return n


@paused
def numbered_lines(
    body: Any,
    path_format: Callable[[PathT], str],
    violations: Sequence[Violation] = (),
    *,
    full_up_to: int,
    context: int = 2,
) -> tuple[int, pd.DataFrame]:
    """The body's line count, and its lines: all of them (`lines_frame`) up to ``full_up_to`` lines.

    A longer body gives only its marked lines with ``context`` lines either side (`marked_lines`).
    """
    walk = _Walk(body)
    total = walk.count(body)
    if total <= full_up_to:
        return total, lines_frame(body, path_format, violations)
    return total, _marked(walk, path_format, violations, context)


@dataclass(frozen=True)
class _Hit:
    """A flagged value: its first line (0-based), its line count, and the rules naming its path."""

    first: int
    size: int
    rules: tuple[str, ...]

    @property
    def end(self) -> int:
        return self.first + self.size


class _Walk:
    """Line counts of a body's values (each counted once) and where they start."""

    def __init__(self, body: Any, levels: int = 2) -> None:
        self.body = body
        self._counts: dict[int, int] = {}  # id(value) -> line count; the body keeps the ids alive
        self._remember(body, levels)  # the body and, say, its messages: what every search passes by

    def _remember(self, value: Any, levels: int) -> int:
        if levels == 0 or not isinstance(value, dict | list) or not value:
            return self.count(value)
        items = value.values() if isinstance(value, dict) else value
        n = self._counts[id(value)] = 2 + sum(self._remember(item, levels - 1) for item in items)
        return n

    def count(self, value: Any) -> int:
        found = self._counts.get(id(value))
        if found is None:
            found = self._counts[id(value)] = line_count(value)
        return found

    def children(self, value: Any, start: int) -> Iterator[tuple[str | int, Any, int]]:
        """A container's (key or index, value, first line) for a container opened on line ``start``."""
        items: Iterable[tuple[str | int, Any]]
        if isinstance(value, dict):
            items = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            return
        line = start + 1  # after the opening line
        for key, item in items:
            yield key, item, line
            line += self.count(item)


def _flagged_values(
    walk: _Walk, path_format: Callable[[PathT], str], flagged: dict[str, list[str]]
) -> list[_Hit]:
    """The values whose spelled path a violation names, found by entering only values on the way to one."""
    targets = sorted(flagged)
    hits: list[_Hit] = []

    def leads_somewhere(spelled: str) -> bool:  # sorted: the first target not below it is the candidate
        at = bisect.bisect_left(targets, spelled)
        return at < len(targets) and targets[at].startswith(spelled)

    def search(value: Any, path: PathT, start: int) -> None:
        for key, item, line in walk.children(value, start):
            child = (*path, key)
            spelled = path_format(child)
            if leads_somewhere(spelled):
                if spelled in flagged:
                    hits.append(_Hit(line, walk.count(item), tuple(flagged[spelled])))
                search(item, child, line)

    if targets:
        search(walk.body, (), 0)
    hits.sort(key=lambda hit: (hit.first, -hit.size))  # an enclosing value before the values inside it
    return hits


def _texts(walk: _Walk, keep: Sequence[int]) -> dict[int, tuple[str, PathT]]:
    """The text and path of each kept line (0-based), as `json_lines` writes them; other subtrees skipped."""
    texts: dict[int, tuple[str, PathT]] = {}

    def wanted(first: int, size: int) -> bool:
        at = bisect.bisect_left(keep, first)
        return at < len(keep) and keep[at] < first + size

    def emit(value: Any, path: PathT, depth: int, prefix: str, start: int, *, suffix: str = "") -> None:
        pad = INDENT * depth
        if not (isinstance(value, dict | list) and value):
            texts[start] = (f"{pad}{prefix}{json.dumps(value, ensure_ascii=False)}{suffix}", path)
            return
        is_dict = isinstance(value, dict)
        texts[start] = (f"{pad}{prefix}{'{' if is_dict else '['}", path)
        last = len(value) - 1
        end = start + 1
        for n, (key, item, line) in enumerate(walk.children(value, start)):
            end = line + walk.count(item)
            if wanted(line, end - line):
                label = json.dumps(key, ensure_ascii=False) + ": " if is_dict else ""
                emit(item, (*path, key), depth + 1, label, line, suffix="," if n < last else "")
        texts[end] = (f"{pad}{'}' if is_dict else ']'}{suffix}", path)

    if keep:
        emit(walk.body, (), 0, "", 0)
    return texts


def _rules(keep: Sequence[int], hits: Sequence[_Hit]) -> list[str]:
    """Each kept line's rules, deepest value's first, as `lines_frame` joins them.

    Flagged values nest (a message and a block in it): one sweep in line order keeps the open ones.
    """
    out: list[str] = []
    open_hits: list[_Hit] = []  # outermost first
    upcoming = iter(hits)
    pending = next(upcoming, None)
    joined = ""
    for n in keep:
        changed = False
        while open_hits and open_hits[-1].end <= n:
            open_hits.pop()
            changed = True
        while pending is not None and pending.first <= n:
            if pending.end > n:
                while open_hits and open_hits[-1].end <= pending.first:
                    open_hits.pop()
                open_hits.append(pending)
                changed = True
            pending = next(upcoming, None)
        if changed:
            joined = ", ".join(dict.fromkeys(rule for hit in reversed(open_hits) for rule in hit.rules))
        out.append(joined)
    return out


@paused
def marked_lines(
    body: Any, path_format: Callable[[PathT], str], violations: Iterable[Violation] = (), *, context: int = 2
) -> pd.DataFrame:
    """``offending_lines(lines_frame(body, path_format, violations), context)`` without the other lines.

    Same rows, index and columns. Relies on ``path_format`` spelling a path so that it begins with
    its parent's spelling (true of `toolhist.providers.base.dotted` and ``bracketed``): the search
    for flagged values enters only values whose spelled path starts some violation's path.
    """
    return _marked(_Walk(body), path_format, violations, context)


def _marked(
    walk: _Walk, path_format: Callable[[PathT], str], violations: Iterable[Violation], context: int
) -> pd.DataFrame:
    flagged: dict[str, list[str]] = {}
    for v in violations:
        flagged.setdefault(v.path, []).append(v.rule)
    hits = _flagged_values(walk, path_format, flagged)
    total = walk.count(walk.body)
    keep = sorted(
        {k for hit in hits for k in range(max(0, hit.first - context), min(total, hit.end + context))}
    )
    texts = _texts(walk, keep)
    spelled: dict[PathT, str] = {}
    paths = []
    for n in keep:
        path = texts[n][1]
        if path not in spelled:
            spelled[path] = path_format(path) if path else ""
        paths.append(spelled[path])
    return pd.DataFrame(
        {
            "line": [n + 1 for n in keep],
            "text": [texts[n][0] for n in keep],
            "path": paths,
            "rules": _rules(keep, hits),
        },
        columns=LINE_COLUMNS,
        index=keep,
    )


def id_map_frame(id_map: Mapping[str, str]) -> pd.DataFrame:
    """The ids a provider payload rewrote: ``original`` → ``sent``."""
    return pd.DataFrame(
        {"original": list(id_map), "sent": list(id_map.values())}, columns=["original", "sent"]
    )


def verdict(found: Sequence[Violation]) -> str:
    """One line: rejects / accepts with warnings / accepts."""
    errors = sum(v.severity == "error" for v in found)
    if errors:
        return f"rejects (HTTP 400): {errors} error{'s' if errors != 1 else ''}"
    return f"accepts, with {len(found)} warning{'s' if len(found) != 1 else ''}" if found else "accepts"
