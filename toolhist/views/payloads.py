"""A request body as numbered JSON lines, each knowing its payload path, so offending paths can be marked.

`json_lines` pretty-prints like ``json.dumps(body, indent=2)`` (same text, line for line) while
recording, for every line, the payload path of the value that line opens or holds. `lines_frame`
then marks each line whose path is, or lies under, a path a violation names; the path is written
in the provider's own convention (``messages[3].tool_calls[0]``, ``messages.3.content.0``) by the
provider's ``path_format``, so it compares equal to `toolhist.providers.Violation.path`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from toolhist.providers import Violation
from toolhist.providers.base import PathT

INDENT = "  "


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
    return pd.DataFrame.from_records(records, columns=["line", "text", "path", "rules"])


def offending_lines(frame: pd.DataFrame, context: int = 2) -> pd.DataFrame:
    """Only the flagged lines of a `lines_frame`, with ``context`` lines either side."""
    hit = frame.index[frame["rules"] != ""]
    keep: set[int] = set()
    for i in hit:
        keep.update(range(max(0, i - context), min(len(frame), i + context + 1)))
    return frame.loc[sorted(keep)]


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
