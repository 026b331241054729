r"""What a session file's first bytes say: project, model, provider name and a message count.

Only the first `SCAN_BYTES` of a file are read, never parsed whole: listing a thousand sessions
must take well under two seconds (``benchmarks/bench_sessions.py``). Fields are found with a
byte search for the key (``"cwd":"…"``) in the first records, where each agent writes them.
Messages are counted by searching for the markers of message records (``"type":"user"``…),
written without or with one space after the colon (compact JSON, or JSON.stringify's pretty
form). A marker inside a string value is escaped (``\"type\"``) and never matches. When the file
is longer than what was read, the count is scaled by the file size and marked an estimate.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Final, Literal

SCAN_BYTES: Final = 256 * 1024
"""Bytes read from each file: the header records and, for most sessions, every message marker."""

Counted = Literal["records", "estimate", "exact"]
"""How ``messages`` was found: every marker in the file, scaled from the first `SCAN_BYTES`, or by
reading the session (``--verdict``)."""


@dataclass(frozen=True)
class Head:
    """The first bytes of a file and its size."""

    data: bytes
    size: int

    @property
    def whole(self) -> bool:
        """Whether ``data`` is the whole file."""
        return len(self.data) >= self.size

    def first_line(self) -> tuple[object, str | None]:
        """The first JSON Lines record, or (None, the reason it is not one)."""
        line, newline, _ = self.data.partition(b"\n")
        if not newline and not self.whole:
            return None, f"line 1 is longer than {SCAN_BYTES} bytes"
        try:
            return json.loads(line), None
        except ValueError as exc:
            return None, f"line 1: not valid JSON: {exc}"

    def string(self, key: str) -> str | None:
        """The first string value of ``key`` in the head (``"key": "value"``), unescaped."""
        found = _pattern(key).search(self.data)
        if found is None:
            return None
        try:
            value = json.loads(b'"' + found.group(1) + b'"')
        except ValueError:
            return None
        return value if isinstance(value, str) else None

    def count(self, key: str, values: tuple[str, ...]) -> tuple[int, Counted]:
        """How many ``"key":"value"`` markers (any of ``values``) the file holds, and how that was found."""
        found = 0
        for value in values:
            for sep in (b":", b": "):
                found += self.data.count(b'"' + key.encode() + b'"' + sep + b'"' + value.encode() + b'"')
        return self._scaled(found)

    def count_keys(self, key: str) -> tuple[int, Counted]:
        """How many ``"key":`` members the file holds, and how that was found."""
        return self._scaled(self.data.count(b'"' + key.encode() + b'":'))

    def _scaled(self, found: int) -> tuple[int, Counted]:
        if self.whole or not self.data:
            return found, "records"
        return round(found * self.size / len(self.data)), "estimate"


@cache
def _pattern(key: str) -> re.Pattern[bytes]:
    return re.compile(rb'"' + re.escape(key.encode()) + rb'"\s*:\s*"((?:[^"\\]|\\.){0,4096})"')


def read_head(path: str, size: int) -> Head:
    """The first `SCAN_BYTES` of ``path`` (raises OSError)."""
    with open(path, "rb") as f:
        return Head(f.read(SCAN_BYTES), size)


def small_json(path: str, limit: int = 1 << 20) -> object:
    """A small side file (``workspace.json``, ``history_item.json``…) parsed, or None when absent or odd."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
        return None if len(data) > limit else json.loads(data)
    except (OSError, ValueError):
        return None
