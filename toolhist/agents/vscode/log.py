"""VS Code 1.109+ chat session logs (``chatSessions/<session>.jsonl``): the mutation log, replayed.

Since VS Code 1.109 a local chat session is stored as an append-only log (``getStorageLocation``:
"<1.109 flat JSON file" ``.json``, ">=1.109 append log" ``.jsonl``, microsoft/vscode
``src/vs/workbench/contrib/chat/common/model/chatSessionStore.ts``). The log is written by
``ObjectMutationLog`` (``model/objectMutationLog.ts`` at ce1580aa66c166f369325f5dcaa55db7701cf6cc)
with the schema of ``ChatSessionOperationLog`` (``model/chatSessionOperationLog.ts`` at
98227ed5a5f50a4ef316aa545f8606850e41778a). One JSON entry per line:

- ``{"kind": 0, "v": …}`` Initial: the whole session (``version: 3``), valid only as the first entry
  (a compaction after 1024 entries rewrites the file from one Initial);
- ``{"kind": 1, "k": path, "v": …}`` Set: the value at ``path`` replaced;
- ``{"kind": 2, "k": path, "v"?: […], "i"?: n}`` Push: with ``i``, the array cut to ``n`` items, then
  ``v`` appended;
- ``{"kind": 3, "k": path}`` Delete: the property removed (``_applySet(…, undefined)``).

``ObjectMutationLog.read`` applies them in order; the result is the session VS Code revives, in the
same shape as the ``.json`` file (``readSessionFromLocation`` reads either), so it is then read by
`toolhist.agents.vscode.reader.VSCodeReader` with the same rules of what Copilot Chat sends.
Version 3 no longer writes ``isCanceled`` ("deprecated, modelState is used instead"); the reader
reads ``modelState`` too.

Locations: each request's messages point at the line that added it (the Initial or the Push that
appended it); an error names the line that last wrote the field it is in. An entry of an unknown
kind is skipped and named; a path that does not exist in the state is an error naming the line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from toolhist.agents.vscode.reader import VSCodeReader
from toolhist.errors import LoadError
from toolhist.formats.base import Pointer, ShapeError, Skips
from toolhist.formats.document import Document, json_path
from toolhist.model import Session

INITIAL: Final = 0
SET: Final = 1
PUSH: Final = 2
DELETE: Final = 3


@dataclass(frozen=True)
class ReplayedDocument(Document):
    """The replayed session, remembering which log line wrote each part of it."""

    written: dict[Pointer, int] = field(default_factory=dict, compare=False, repr=False)
    """Path in the state → the line that last set it (a request's own path: the line that added it)."""

    def line_of(self, pointer: tuple[str | int, ...]) -> tuple[int | None, int | None]:
        """The line that last wrote the longest written prefix of ``pointer``."""
        for end in range(len(pointer), -1, -1):
            line = self.written.get(tuple(pointer[:end]))
            if line is not None:
                return line, None
        return None, None


_MISSING: Final = object()


def _step(node: Any, part: Any) -> Any:
    """``node[part]`` for an object's key or an array's index, else `_MISSING`."""
    if isinstance(node, dict) and isinstance(part, str):
        return node.get(part, _MISSING)
    if (
        isinstance(node, list)
        and isinstance(part, int)
        and not isinstance(part, bool)
        and 0 <= part < len(node)
    ):
        return node[part]
    return _MISSING


def _container(state: Any, path: list[Any], line: int | None) -> Any:
    node = state
    for i, part in enumerate(path):
        node = _step(node, part)
        if node is _MISSING:
            raise ShapeError(("k", i), f"the path {path!r} does not exist in the session")
    return node


def _set(state: Any, path: list[Any], value: Any, line: int | None, delete: bool = False) -> None:
    if not path:
        return  # ``_applySet`` ignores the root
    parent = _container(state, path[:-1], line)
    key = path[-1]
    if isinstance(parent, dict) and isinstance(key, str):
        if delete:
            parent.pop(key, None)
        else:
            parent[key] = value
    elif isinstance(parent, list) and isinstance(key, int) and 0 <= key <= len(parent):
        if key == len(parent):
            parent.append(value)
        else:
            parent[key] = value
    else:
        raise ShapeError(("k",), f"cannot set {key!r} in a {type(parent).__name__}")


def _push(state: Any, path: list[Any], values: Any, start: Any, line: int | None) -> None:
    parent = _container(state, path[:-1], line)
    key = path[-1] if path else None
    current = parent.get(key) if isinstance(parent, dict) and isinstance(key, str) else None
    items = list(current) if isinstance(current, list) else []
    if isinstance(start, int) and not isinstance(start, bool):
        del items[start:]
    if values is not None:
        if not isinstance(values, list):
            raise ShapeError(("v",), "a push needs an array of values")
        items.extend(values)
    if not isinstance(parent, dict) or not isinstance(key, str):
        raise ShapeError(("k",), "a push needs the path of an object's array")
    parent[key] = items


def replay(entries: list[Any], lines: tuple[int, ...] | None) -> tuple[Any, dict[Pointer, int], Skips]:
    """The state the log describes, which line wrote each path, and the entries skipped."""
    state: Any = None
    written: dict[Pointer, int] = {}
    skips = Skips()
    for n, entry in enumerate(entries):
        line = lines[n] if lines is not None and n < len(lines) else n + 1
        try:
            state = _apply(state, entry, line, written, skips)
        except ShapeError as exc:
            raise ShapeError((n, *exc.pointer), exc.reason) from None
    return state, written, skips


def _apply(state: Any, entry: Any, line: int, written: dict[Pointer, int], skips: Skips) -> Any:
    if not isinstance(entry, dict):
        raise ShapeError((), "expected a log entry object")
    kind = entry.get("kind")
    if kind == INITIAL:
        if not isinstance(entry.get("v"), dict):
            raise ShapeError(("v",), "the initial entry needs the session object")
        written.clear()
        written[()] = line
        requests = entry["v"].get("requests")
        for i in range(len(requests) if isinstance(requests, list) else 0):
            written[("requests", i)] = line
        return entry["v"]
    if kind not in (SET, PUSH, DELETE):
        skips.add(f"log entry kind {kind!r}", line)
        return state
    if state is None:
        raise ShapeError(("kind",), f"a {kind} entry before the initial one")
    path = entry.get("k")
    if not isinstance(path, list) or not all(
        isinstance(p, str | int) and not isinstance(p, bool) for p in path
    ):
        raise ShapeError(("k",), "expected the path as an array of keys and indexes")
    if kind == PUSH:
        before = _container(state, path, line) if _exists(state, path) else []
        _push(state, path, entry.get("v"), entry.get("i"), line)
        after = _container(state, path, line)
        cut = entry.get("i")
        start = cut if isinstance(cut, int) else len(before) if isinstance(before, list) else 0
        for i in range(start, len(after) if isinstance(after, list) else 0):
            written[(*path, i)] = line
    else:
        if kind == SET and "v" not in entry:
            raise ShapeError(("v",), "a set entry needs a value")
        _set(state, path, entry.get("v"), line, delete=kind == DELETE)
        written[tuple(path)] = line
    return state


def _exists(state: Any, path: list[Any]) -> bool:
    node = state
    for part in path:
        node = _step(node, part)
        if node is _MISSING:
            return False
    return True


def _entries(value: Any) -> list[Any]:
    """The log's entries (a one-line log parses as its single entry)."""
    return value if isinstance(value, list) else [value]


def _looks_initial(value: Any) -> bool:
    entries = _entries(value)
    first = entries[0] if entries else None
    inner = first.get("v") if isinstance(first, dict) and first.get("kind") == INITIAL else None
    return isinstance(inner, dict) and isinstance(inner.get("requests"), list)


class VSCodeLogReader(VSCodeReader):
    """``vscode-jsonl``: VS Code's chat session log, replayed, then read as the ``.json`` session."""

    id = "vscode-jsonl"
    description = (
        "VS Code chat session log (chatSessions/*.jsonl, 1.109+): replayed, then read as the .json session"
    )

    def recognise(self, value: Any) -> int:
        """Certain on a log whose first entry is the Initial session (``kind`` 0 with ``requests``)."""
        if not _looks_initial(value):
            return 0
        inner = _entries(value)[0]["v"]
        return 2 if "sessionId" in inner or inner.get("version") == 3 else 1

    def read(self, doc: Document) -> Session:
        """Replay the log into the session, then read it as VS Code's own reader revives it."""
        entries = _entries(doc.value)
        state, written, skips = replay(entries, doc.jsonl_lines)
        if not isinstance(state, dict):
            raise ShapeError((0,), "the log has no initial session entry")
        requests = state.get("requests")
        count = len(requests) if isinstance(requests, list) else 0
        lines = tuple(written.get(("requests", i), written.get((), 1)) for i in range(count))
        replayed = ReplayedDocument(
            value=state, name=doc.name, path=doc.path, jsonl_lines=lines, notes=doc.notes, written=written
        )
        try:
            session = super().read(replayed)
        except ShapeError as exc:
            line, _ = replayed.line_of(exc.pointer)
            raise LoadError(
                f"not a valid {self.id} session: {exc.reason}",
                file=doc.name,
                line=line,
                json_path=json_path(exc.pointer),
            ) from None
        notes = [*session.source.notes, *skips.note("VS Code's ObjectMutationLog writes kinds 0-3 only")]
        skipped = {**session.source.skipped, **skips.as_dict()}
        source = session.source.model_copy(update={"notes": tuple(notes), "skipped": skipped})
        return session.model_copy(update={"source": source})
