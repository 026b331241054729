"""Claude Code session logs (``~/.claude/projects/<project>/<session>.jsonl``), threaded as Claude Code does.

Each ``user`` / ``assistant`` line carries one Anthropic message (``message``) and links to its
parent by ``parentUuid`` (research/anchors.md §3.3). File order is not conversation order: a
retry or an edit forks the chain, and a compaction starts a new root (a ``compact_boundary`` system
line with ``parentUuid: null`` and ``logicalParentUuid`` pointing back). So the reader:

- threads the main conversation back from its latest leaf, exactly the messages the next request
  would carry, compaction summary included; a ``tool_result`` whose ``tool_use`` was summarised
  away therefore shows up as unmatched, as it does for the API;
- merges what Claude Code splits: one API response is written as several ``assistant`` lines
  sharing ``message.id``, and parallel ``tool_result`` blocks as consecutive ``user`` lines;
- keeps sidechains (subagents, ``isSidechain: true``) apart: listed in ``Session.metadata
  ["sidechains"]``, each loadable with `read_sidechain` (a subagent file on its own loads as its
  thread);
- follows the chain through the bookkeeping lines on it: Claude Code 2.1 writes each hook run as a
  ``progress`` line with a ``uuid`` and parents the next message on it (marot/spotter
  ``test/fixtures/transcripts/4d5611e5-241a-462a-8d15-5122611a9569.jsonl`` @53a088d2, lines 11-15:
  one response's second ``tool_use`` parented on its first call's PreToolUse hook lines);
- says what it left out: entries before a compaction, abandoned branches, ``summary`` lines and
  bookkeeping lines are counted in the notes and metadata, never silently dropped.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import JsonValue

from toolhist.agents.claude_code.kept import kept_result
from toolhist.agents.claude_code.merged import Open
from toolhist.agents.claude_code.thread import (
    before_compaction,
    chosen_among,
    keep_sidechains,
    with_sibling_results,
)
from toolhist.formats.anthropic import read_content
from toolhist.formats.base import Skips
from toolhist.formats.document import read_input
from toolhist.formats.jsonl_stream import (
    Collector,
    Lines,
    StreamReader,
    at_line,
    head_of_path,
    iso_seconds,
)
from toolhist.formats.records import SKIPPABLE, marks_of
from toolhist.model import Session, Speaker, ToolResponseBlock

MESSAGE_TYPES = ("user", "assistant")
KNOWN_TYPES = {
    *MESSAGE_TYPES,
    "summary",
    "system",
    "file-history-snapshot",
    "attachment",
    "queue-operation",
    "custom-title",
    "ai-title",
    "progress",
}
MAX_NAMED = 10
"""Lines a note names one by one before it says "…"."""
SESSION_FIELDS = ("sessionId", "cwd", "gitBranch", "version", "userType")
"""Per-line fields that describe the session; read from the first message line into metadata."""
MESSAGE_EXTRA = (
    "uuid",
    "parentUuid",
    "requestId",
    "isMeta",
    "isCompactSummary",
    "isApiErrorMessage",
    "toolUseResult",
    "agentId",
)
"""Per-line fields kept on each message's metadata (the rest are session-level)."""
_CONVERTED = frozenset({"message", "toolUseResult"})  # toolUseResult: what `kept_result` kept
"""A converted line's fields no one reads again from the line (`ClaudeCodeReader._convert`)."""


def _marker(entry: Any) -> bool:
    if not isinstance(entry, dict):
        return False
    kind = entry.get("type")
    if kind in MESSAGE_TYPES:
        message = entry.get("message")
        # an Anthropic message has ``content``; Qwen Code's threaded lines carry Gemini ``parts``
        return (
            "uuid" in entry and "parentUuid" in entry and isinstance(message, dict) and "parts" not in message
        )
    return kind == "summary" and "leafUuid" in entry


def looks_claude_code(value: Any) -> int:
    """2 when one entry is a threaded message or a summary line and every entry is a typed object.

    Lenient on the others so one broken line gets its own error, not "unknown format".
    """
    if not isinstance(value, list) or not value:
        return 0
    if not all(isinstance(v, dict) and ("type" in v or "uuid" in v) for v in value):
        return 0
    return 2 if any(_marker(v) for v in value) else 0


class _Node:
    """One threaded line: what the reader keeps of it until the thread is known."""

    __slots__ = ("entry", "index", "line")

    def __init__(self, entry: dict[str, Any], line: int | None, index: int) -> None:
        self.entry = entry
        self.line = line
        self.index = index


class _Index:
    """Every line of the file by kind: threaded lines by uuid, summaries, compactions, the rest counted."""

    def __init__(self) -> None:
        self.nodes: dict[str, _Node] = {}
        self.order: list[_Node] = []
        self.summaries: list[JsonValue] = []
        self.other: Counter[str] = Counter()
        self.boundaries: list[JsonValue] = []
        self.skips = Skips()

    def add(self, index: int, line: int | None, entry: Any) -> None:
        """Check and file one line."""
        kind = entry.get("type") if isinstance(entry, dict) else None
        if not isinstance(kind, str):  # a line of no kind this reader knows: skipped and named, as below
            self.skips.add("line without a string 'type'", line)
            return
        if kind == "summary":
            self.summaries.append(
                {"line": line, "summary": entry.get("summary"), "leafUuid": entry.get("leafUuid")}
            )
            return
        uuid = entry.get("uuid")
        if kind in MESSAGE_TYPES:
            if not isinstance(uuid, str):
                raise at_line(line, ("uuid",), f"a {kind} line needs a string 'uuid'")
            if "parentUuid" not in entry:
                raise at_line(line, ("parentUuid",), "required field 'parentUuid' is missing")
            message = entry.get("message")
            if not isinstance(message, dict):
                raise at_line(line, ("message",), f"a {kind} line needs a 'message' object")
            if "content" not in message:
                raise at_line(line, ("message", "content"), "required field 'content' is missing")
            if "toolUseResult" in entry:  # trimmed as it is filed: the whole parse is alive until threaded
                kept, result = kept_result(entry.pop("toolUseResult"))
                if kept:
                    entry["toolUseResult"] = result
        elif kind == "system" and isinstance(uuid, str):
            if entry.get("subtype") == "compact_boundary":
                self.boundaries.append(
                    {
                        "line": line,
                        "uuid": uuid,
                        "logicalParentUuid": entry.get("logicalParentUuid"),
                        "compactMetadata": entry.get("compactMetadata"),
                    }
                )
            self.other[f"system:{entry.get('subtype', '?')}"] += 1
        elif kind in KNOWN_TYPES:
            self.other[kind] += 1
            if not isinstance(uuid, str):
                return  # a line no other line can name as its parent
        else:  # a line type newer than this reader: Claude Code's own kinds grow release by release
            self.skips.add(f"line type {kind!r}", line)
            return
        if not isinstance(entry.get("parentUuid"), str | None):  # on every threaded line: hooks' too
            raise at_line(line, ("parentUuid",), "'parentUuid' must be a string or null")
        node = _Node(entry, line, index)
        self.nodes[uuid] = node
        self.order.append(node)


class ClaudeCodeReader(StreamReader):
    """``claude-code``: a Claude Code session JSONL, main thread as the Session, sidechains listed.

    ``sidechain`` selects a subagent thread instead (its ``agentId`` or its root ``uuid``).
    """

    id = "claude-code"
    description = "Claude Code session JSONL (~/.claude/projects/*/<session>.jsonl)"

    def __init__(self, sidechain: str | None = None) -> None:
        self.sidechain = sidechain

    def recognise(self, value: Any) -> int:
        """Certain on a ``uuid`` + ``parentUuid`` + ``message`` line, or a ``summary`` with ``leafUuid``."""
        return looks_claude_code(value)

    def read_lines(self, lines: Lines, *, name: str, path: str | None, notes: list[str]) -> Session:
        """Index every line by uuid, thread the selected conversation, convert it."""
        found = _Index()
        for index, (line, entry) in enumerate(lines):
            found.add(index, line, entry)
        if not found.order and not found.summaries and not found.other and found.skips.counts:
            raise at_line(
                None, (), "no Claude Code line (a typed object: user, assistant, summary…) in this file"
            )
        nodes, order, boundaries = found.nodes, found.order, found.boundaries
        summaries, other = found.summaries, found.other
        thread, broken = self._thread(nodes, order)
        built = Collector(notes)
        built.skips = found.skips
        self._convert(thread, built)
        if broken is not None:
            built.notes.append(
                f"line {broken[0]}: parent {broken[1]!r} is not in this file; the thread starts after it"
            )
        on_thread = {id(n) for n in thread}
        chains = self._sidechains(nodes, order)
        pool = [] if self.sidechain is not None else chosen_among(order, thread, MESSAGE_TYPES)
        left_out = [n for n in pool if id(n) not in on_thread]
        compacted = before_compaction(nodes, boundaries, thread, MESSAGE_TYPES)
        if compacted:
            built.notes.append(
                f"{len(compacted)} message lines before a compaction are not in the history sent after it "
                "(a compaction summary replaced them)"
            )
        abandoned = [n.line for n in left_out if id(n) not in compacted]
        if abandoned:
            shown = ", ".join(str(n) for n in abandoned[:MAX_NAMED]) + (
                ", …" if len(abandoned) > MAX_NAMED else ""
            )
            built.notes.append(
                f"{len(abandoned)} message lines are on abandoned branches (retries, edits), "
                f"not on the thread of the latest message: line{'s' if len(abandoned) > 1 else ''} {shown}"
            )
        if chains and not self._selected_sidechain(order):
            built.notes.append(
                f"{len(chains)} sidechain(s) (subagents) kept apart: metadata['sidechains']; load one with "
                "toolhist.agents.claude_code.reader.read_sidechain(path, agent_id)"
            )
            keep_sidechains(built, chains)
        if other:
            built.notes.append(
                "lines not sent to the model: " + ", ".join(f"{k} x{v}" for k, v in sorted(other.items()))
            )
        version = next(
            (n.entry.get("version") for n in order if isinstance(n.entry.get("version"), str)), None
        )
        built.notes += found.skips.note(f"written by Claude Code {version}" if version else "")
        first = next((n.entry for n in order if n.entry.get("type") in MESSAGE_TYPES), {})
        metadata: dict[str, JsonValue] = {k: first[k] for k in SESSION_FIELDS if k in first}
        metadata.update(
            {
                "sidechains": chains,
                "summaries": summaries,
                "compactions": boundaries,
                "thread": "sidechain" if self._selected_sidechain(order) else "main",
            }
        )
        return built.session(self.id, path=path, metadata=metadata)

    def _selected_sidechain(self, order: list[_Node]) -> bool:
        """True when the Session is a sidechain: selected, or the file holds nothing else."""
        if self.sidechain is not None:
            return True
        return not any(n.entry.get("type") in MESSAGE_TYPES and not n.entry.get("isSidechain") for n in order)

    def _thread(
        self, nodes: dict[str, _Node], order: list[_Node]
    ) -> tuple[list[_Node], tuple[int | None, str] | None]:
        """The selected conversation, root first, and where its chain broke (line, missing parent)."""
        if self.sidechain is not None:
            members = [
                n
                for n in order
                if n.entry.get("isSidechain")
                and self.sidechain in (n.entry.get("agentId"), self._root(nodes, n).entry.get("uuid"))
            ]
            if not members:
                raise at_line(None, (), f"no sidechain {self.sidechain!r} in this file")
            leaf = members[-1]
        else:
            sidechain = self._selected_sidechain(order)
            latest = next(
                (
                    n
                    for n in reversed(order)  # the latest message line of the selected kind
                    if n.entry.get("type") in MESSAGE_TYPES and bool(n.entry.get("isSidechain")) == sidechain
                ),
                None,
            )
            if latest is None:
                return [], None
            leaf = latest
        chain: list[_Node] = []
        seen: set[str] = set()
        node: _Node | None = leaf
        broken = None
        while node is not None:
            uuid = node.entry["uuid"]
            if uuid in seen:
                raise at_line(node.line, ("parentUuid",), "the parentUuid chain loops back on itself")
            seen.add(uuid)
            chain.append(node)
            parent = node.entry.get("parentUuid")
            if parent is None:
                break
            node = nodes.get(parent)
            if node is None:
                broken = (chain[-1].line, str(parent))
        chain.reverse()
        return with_sibling_results(chain, order), broken

    @staticmethod
    def _root(nodes: dict[str, _Node], node: _Node) -> _Node:
        seen: set[int] = set()
        while (parent := nodes.get(node.entry.get("parentUuid") or "")) is not None and id(
            parent
        ) not in seen:
            seen.add(id(parent))
            node = parent
        return node

    def _sidechains(self, nodes: dict[str, _Node], order: list[_Node]) -> list[JsonValue]:
        """One summary per sidechain thread (grouped by agentId, else by root uuid)."""
        groups: dict[str, list[_Node]] = {}
        for n in order:
            if n.entry.get("isSidechain") and n.entry.get("type") in MESSAGE_TYPES:
                agent = n.entry.get("agentId")
                key = agent if isinstance(agent, str) else self._root(nodes, n).entry["uuid"]
                groups.setdefault(key, []).append(n)
        return [
            {
                "key": key,
                "root": self._root(nodes, members[0]).entry["uuid"],
                "first_line": members[0].line,
                "lines": len(members),
            }
            for key, members in groups.items()
        ]

    def _convert(self, thread: list[_Node], built: Collector) -> None:
        """Messages from the thread, merging split assistant responses and consecutive results.

        Each message is made once, when the next one starts (`merged.Open`).
        """
        last_id: str | None = None
        current: Open | None = None
        names: dict[str, str] = {}
        for node in thread:
            entry = node.entry
            kind = entry["type"]
            if kind not in MESSAGE_TYPES:
                if kind == "system":
                    last_id = None
                continue  # a hook's progress line between two parts of one response does not split it
            marks = marks_of(built)
            try:
                last_id, current = self._message(node, built, last_id, current, names)
            except SKIPPABLE as exc:
                if not built.skipped(exc, marks, line=node.line, index=node.index, kind=kind, value=entry):
                    raise
            # free the parse as it goes: the line's message is now blocks (sharing its strings), and
            # what is read of a node after this (threading, sidechains, notes) is its top-level fields
            kept = entry.copy()
            for key in _CONVERTED:
                kept.pop(key, None)
            node.entry = kept
        if current is not None:
            current.close(built, names)
        built.named = True  # each message's results named as it was made (`merged.Open.close`)

    def _message(
        self, node: _Node, built: Collector, last_id: str | None, current: Open | None, names: dict[str, str]
    ) -> tuple[str | None, Open | None]:
        """One user or assistant line: merged into the open message, or opening a new one.

        Returns the new last response id and the open message. Nothing changes before the line's
        content is read, so a line that cannot be read leaves the open message as it was.
        """
        entry = node.entry
        kind = entry["type"]
        message = entry["message"]
        blocks = read_content(message["content"], ("message", "content"), self.id, built.notes)
        if kind == "assistant":
            speaker: Speaker = "ai"
        else:
            speaker = "tool" if any(isinstance(b, ToolResponseBlock) for b in blocks) else "human"
        msg_id = message.get("id") if kind == "assistant" else None
        merge = current is not None and (
            (speaker == "ai" and current.speaker == "ai" and msg_id is not None and msg_id == last_id)
            or (
                speaker == "tool"
                and current.speaker == "tool"
                and all(isinstance(b, ToolResponseBlock) for b in blocks)
            )
        )
        if merge and current is not None:
            current.merge(blocks, node.line)
            return (msg_id if isinstance(msg_id, str) else None), current
        extra: dict[str, JsonValue] = {k: entry[k] for k in MESSAGE_EXTRA if k in entry}
        for key in ("id", "stop_reason", "usage"):
            if key in message:
                extra[f"message.{key}"] = message[key]
        model = message.get("model")
        metadata: dict[str, JsonValue] = {
            "source_role": str(message.get("role", kind)),
            "turn_id": entry.get("requestId") if isinstance(entry.get("requestId"), str) else None,
            "timestamp": iso_seconds(entry.get("timestamp")),
            "provider": "anthropic" if kind == "assistant" else None,
            "model": model if isinstance(model, str) else None,
        }
        if current is not None:
            current.close(built, names)
        opened = Open(speaker, blocks, metadata, extra, line=node.line, index=node.index)
        return (msg_id if isinstance(msg_id, str) else None), opened


def read_sidechain(source: Any, key: str) -> Session:
    """The sidechain (subagent) thread ``key`` (its ``agentId`` or root ``uuid``) of a session file."""
    reader = ClaudeCodeReader(sidechain=key)
    if isinstance(source, str) and head_of_path(source) is not None:
        return reader.stream(source)
    if hasattr(source, "__fspath__"):
        return reader.stream(str(source))
    return reader.read(read_input(source))
