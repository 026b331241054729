"""Tool categories (RFC 026 table) and the facts of one call worth keeping once its text is gone.

The category comes from the tool name, as Kilo's ``categorizeToolCall`` did it (research
kilo_rfc_vscode.md §2.2): substrings checked in a fixed order, read first, so ``grep_search`` is a
read and ``semantic_search`` a query. toolhist adds the names today's agents use (``bash``,
``glob``, ``str_replace``…) and matches short words (``ls``, ``run``) as whole words only, so
``tools`` is not ``ls``.

Each category has the RFC's strategy:

- ``read``: aggressive, summarize what was read (path, line range, size);
- ``write``: summarize what changed (path);
- ``execution``: keep errors in full, summarize successes (command, exit code);
- ``query``: very aggressive, summarize only (the query);
- ``other``: the tool name and short arguments.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Final, Literal

from pydantic import JsonValue

Category = Literal["read", "write", "execution", "query", "other"]
CATEGORIES: Final[tuple[Category, ...]] = ("read", "write", "execution", "query", "other")

_SUBSTRINGS: Final[tuple[tuple[Category, tuple[str, ...]], ...]] = (
    ("read", ("read", "get_file", "list_dir", "list_files", "grep", "fetch", "view_file", "glob")),
    ("write", ("create", "write", "replace", "edit", "delete", "patch", "insert", "rename", "move_file")),
    ("execution", ("terminal", "run_in", "exec", "shell", "bash", "command", "powershell")),
    ("query", ("search", "find", "usage", "semantic", "query", "lookup")),
)
_WORDS: Final[dict[str, Category]] = {
    "ls": "read",
    "cat": "read",
    "view": "read",
    "open": "read",
    "run": "execution",
    "sh": "execution",
    "test": "execution",
}

STRATEGIES: Final[dict[Category, str]] = {
    "read": "aggressive: summarize what was read (path, lines, size)",
    "write": "summarize what changed (path)",
    "execution": "keep errors in full; summarize successes (command, exit code)",
    "query": "very aggressive: summarize only (the query)",
    "other": "tool name and short arguments",
}
"""Each category's strategy, as the RFC 026 table words it."""

_PATH_KEYS: Final = (
    "path",
    "file_path",
    "filePath",
    "filename",
    "file",
    "target_file",
    "absolute_path",
    "notebook_path",
    "dir_path",
    "directory",
    "dir",
    "url",
)
_LINE_KEYS: Final = (
    ("start_line", "end_line"),
    ("startLine", "endLine"),
    ("line_start", "line_end"),
    ("startLineNumberBaseZero", "endLineNumberBaseZero"),
)
_COMMAND_KEYS: Final = ("command", "cmd", "script", "commandLine", "args")
_QUERY_KEYS: Final = ("query", "pattern", "regex", "symbolName", "q", "search", "text")
_EXIT_KEYS: Final = ("exit_code", "exitCode", "returncode", "return_code", "status_code")
_EXIT_TEXT: Final = re.compile(r"(?i)\bexit(?:ed with)?(?: code|_code| status)?\s*[:=]?\s*(-?\d+)")


@functools.lru_cache(maxsize=1024)  # a history names a few tools, each thousands of times
def categorize(name: str) -> Category:
    """The category of a tool by its name (case-insensitive; Kilo's substring order)."""
    lowered = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
    for category, substrings in _SUBSTRINGS:
        if any(s in lowered for s in substrings):
            return category
    for word in re.split(r"[^a-z0-9]+", lowered):
        if word in _WORDS:
            return _WORDS[word]
    return "other"


@dataclass(frozen=True)
class Facts:
    """What a summary keeps of one call: the arguments that say what it touched, and how it ended."""

    path: str | None = None
    lines: str | None = None
    command: str | None = None
    query: str | None = None
    exit_code: int | None = None


_NAMES: Final[dict[tuple[str, ...], frozenset[str]]] = {
    keys: frozenset(keys) for keys in (_PATH_KEYS, _COMMAND_KEYS, _QUERY_KEYS)
}
"""Each key list as a set: most calls name none of a list's keys, and a set says so at once."""
_LINE_NAMES: Final = frozenset(
    {*(k for pair in _LINE_KEYS for k in pair), "offset", "limit", "lines", "line_range", "view_range"}
)


def _first_str(params: dict[str, JsonValue], keys: tuple[str, ...]) -> str | None:
    if params.keys().isdisjoint(_NAMES[keys]):
        return None
    for key in keys:
        value = params.get(key)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return " ".join(str(v) for v in value)
    return None


def _lines(params: dict[str, JsonValue]) -> str | None:
    if params.keys().isdisjoint(_LINE_NAMES):
        return None
    for start_key, end_key in _LINE_KEYS:
        start, end = params.get(start_key), params.get(end_key)
        if isinstance(start, int) and isinstance(end, int):
            return f"{start}-{end}"
        if isinstance(start, int):
            return f"{start}-"
    offset, limit = params.get("offset"), params.get("limit")
    if isinstance(offset, int) and isinstance(limit, int):
        return f"{offset + 1}-{offset + limit}"  # Claude Code's Read: 0-based offset, line count
    if isinstance(limit, int):
        return f"1-{limit}"
    value = params.get("lines") or params.get("line_range") or params.get("view_range")
    if isinstance(value, str):
        return value
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"{value[0]}-{value[1]}"
    return None


def exit_code(result: JsonValue) -> int | None:
    """The exit code a command result reports (an ``exit_code`` field, or ``exit code 1`` in text)."""
    if isinstance(result, dict):
        for key in _EXIT_KEYS:
            value = result.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
        result = json.dumps(result)
    if isinstance(result, list):
        result = json.dumps(result)
    if isinstance(result, str) and _may_say_exit(result):
        found = _EXIT_TEXT.search(result)
        if found:
            return int(found.group(1))
    return None


def _may_say_exit(text: str) -> bool:
    """Whether `_EXIT_TEXT` can match ``text``: a plain substring test, 15 times faster than the search.

    Case-insensitive ``exit`` in ``re``'s sense: its ``i`` also matches U+0131 (dotless i) and U+0130
    (dotted capital I, which lowers to ``i`` and U+0307).
    """
    lowered = text.lower()
    return "exit" in lowered or "ex\u0131t" in lowered or "exi\u0307t" in lowered


def facts(parameters: JsonValue, result: JsonValue) -> Facts:
    """The facts of a call's arguments and result, whatever its category."""
    params = parameters if isinstance(parameters, dict) else {}
    return Facts(
        path=_first_str(params, _PATH_KEYS),
        lines=_lines(params),
        command=_first_str(params, _COMMAND_KEYS),
        query=_first_str(params, _QUERY_KEYS),
        exit_code=exit_code(result),
    )


def named_facts(category: Category, parameters: JsonValue, result: JsonValue) -> Facts:
    """The `facts` that a summary line of ``category`` names (`summaries.call_line`); the others None.

    A read names its path, query and lines; a write its path; a command its text and exit code; a
    query its query. The others are not looked for: the exit code lowers the whole result text (and
    a JSON result is dumped for it), for each of the 51,000 older calls at 100,000 messages.
    """
    params = parameters if isinstance(parameters, dict) else {}
    if category == "read":
        return Facts(
            path=_first_str(params, _PATH_KEYS), lines=_lines(params), query=_first_str(params, _QUERY_KEYS)
        )
    if category == "write":
        return Facts(path=_first_str(params, _PATH_KEYS))
    if category == "execution":
        return Facts(command=_first_str(params, _COMMAND_KEYS), exit_code=exit_code(result))
    if category == "query":
        return Facts(query=_first_str(params, _QUERY_KEYS))
    return Facts()
