"""Pi's session tree as Pi replays it: the path to the leaf, compaction, and the messages it converts.

Follows badlogic/pi-mono at 83378aad7e74a0e2bb8f37c007a9685fb4609d8a (``@mariozechner/pi-coding-agent``
0.58.3):

- ``packages/coding-agent/src/core/session-manager.ts``: a session file is a header line
  (``type: session``, ``version`` 1-3) then entries. ``migrateV1ToV2`` gives version-1 entries
  ids and chains each to the one before (a compaction's ``firstKeptEntryIndex`` becomes the id of
  that file entry); ``migrateV2ToV3`` renames the ``hookMessage`` role ``custom``. On load
  (``_buildIndex``) the leaf is the last entry of the file; ``buildSessionContext`` walks
  ``parentId`` from the leaf to the root, so entries on other branches are not sent. On that
  path the last ``model_change`` or assistant message names the model; when a ``compaction``
  is on it, the latest one's summary comes first, then the entries from its ``firstKeptEntryId``
  up to it, then those after it; ``message``, ``custom_message`` and ``branch_summary`` (with a
  summary) entries become messages, nothing else does.
- ``packages/coding-agent/src/core/messages.ts`` (``convertToLlm``): ``bashExecution`` (the ``!``
  command) becomes a user text unless ``excludeFromContext`` (``!!``); ``custom`` messages and the
  two summaries become user messages, the summaries wrapped in Pi's own prefix and suffix.

What Pi does to the converted messages for the model it calls next (``transformMessages``) is
`toolhist.agents.pi.transform`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from pydantic import JsonValue

from toolhist.formats.base import Skips, tag
from toolhist.formats.jsonl_stream import at_line

ENTRY_TYPES: Final = frozenset(
    {
        "message",
        "thinking_level_change",
        "model_change",
        "compaction",
        "branch_summary",
        "custom",
        "custom_message",
        "label",
        "session_info",
    }
)
"""Pi's ``SessionEntry`` types (session-manager.ts); anything else is skipped and named."""
ROLES: Final = frozenset(
    {"user", "assistant", "toolResult", "bashExecution", "custom", "branchSummary", "compactionSummary"}
)
"""``AgentMessage`` roles ``convertToLlm`` knows (messages.ts); it drops any other."""
COMPACTION_PREFIX: Final = (
    "The conversation history before this point was compacted into the following summary:\n\n<summary>\n"
)
COMPACTION_SUFFIX: Final = "\n</summary>"
BRANCH_PREFIX: Final = (
    "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
)
BRANCH_SUFFIX: Final = "</summary>"
WHY_BRANCH: Final = (
    "on another branch of the session tree: buildSessionContext walks parentId from the leaf (the last "
    "entry) to the root and sends only that path (pi-mono session-manager.ts)"
)
WHY_COMPACTED: Final = (
    "before the latest compaction's firstKeptEntryId: Pi sends the compaction summary in its place "
    "(buildSessionContext, session-manager.ts)"
)
WHY_OLD_COMPACTION: Final = (
    "an earlier compaction: buildSessionContext sends only the latest compaction's summary on the path"
)
WHY_EXCLUDED: Final = "a !! command (excludeFromContext): convertToLlm leaves it out (pi-mono messages.ts)"


@dataclass
class Entry:
    """One session entry with its 1-based file line."""

    value: dict[str, Any]
    line: int | None
    index: int
    """Position among the entries (header excluded), for a v1 ``firstKeptEntryIndex``."""

    @property
    def id(self) -> str:
        """The entry's id (every entry has one after the version-1 migration)."""
        return str(self.value["id"])

    @property
    def type(self) -> str:
        """The entry's ``type``."""
        return str(self.value["type"])


@dataclass
class Sent:
    """A message Pi converts for the model (``convertToLlm``'s output), with where it came from."""

    message: dict[str, Any]
    """The LLM ``Message``: role ``user``, ``assistant`` or ``toolResult``."""
    line: int | None
    entry: str
    """The entry id, or ``compaction:<id>`` for a summary."""
    made: str | None = None
    """What Pi made this user message from (``compactionSummary``, ``bashExecution``…), when not the user."""
    order: float = 0.0
    """Position in the converted history (`Dropped` entries sit between), kept through the transform."""


@dataclass
class Dropped:
    """An entry Pi keeps but does not send, before the sent message at ``before``."""

    kind: str
    reason: str
    before: int
    line: int | None
    text: str
    data: dict[str, JsonValue]


@dataclass
class Context:
    """What ``buildSessionContext`` + ``convertToLlm`` make of a session file."""

    header: dict[str, Any]
    messages: list[Sent] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    model: tuple[str, str] | None = None
    """(provider, model id) of the next request, as buildSessionContext finds it."""
    thinking_level: str = "off"
    settings: dict[str, int] = field(default_factory=dict)
    """Counts of entries that set state, not messages (model and thinking changes, labels…)."""
    skips: Skips = field(default_factory=Skips)
    off_path: int = 0


def entries_of(lines: list[tuple[int | None, Any]]) -> tuple[dict[str, Any], list[Entry], Skips]:
    """The header and the entries, migrated to version 3 as Pi migrates them on load."""
    skips = Skips()
    if not lines:
        raise at_line(None, (), "an empty file: a Pi session starts with its header line")
    first_line, header = lines[0]
    if (
        not isinstance(header, dict)
        or header.get("type") != "session"
        or not isinstance(header.get("id"), str)
    ):
        raise at_line(first_line, (), "line 1 is not a Pi session header ({'type': 'session', 'id': …})")
    entries: list[Entry] = []
    for line, value in lines[1:]:
        if not isinstance(value, dict):
            raise at_line(line, (), "a session entry is a JSON object")
        kind = value.get("type")
        if kind not in ENTRY_TYPES:
            skips.add(
                f"entry type {kind!r}" if isinstance(kind, str) else "entry without a string 'type'", line
            )
            continue
        entries.append(Entry(value=dict(value), line=line, index=len(entries)))
    version = header.get("version", 1)
    if not isinstance(version, int) or version < 2:
        _v1_to_v2(entries)
    for entry in entries:
        if not isinstance(entry.value.get("id"), str):
            raise at_line(entry.line, ("id",), "expected a string entry id")
        message = entry.value.get("message")
        if entry.type == "message" and isinstance(message, dict) and message.get("role") == "hookMessage":
            entry.value["message"] = {**message, "role": "custom"}  # migrateV2ToV3
    return header, entries, skips


def _v1_to_v2(entries: list[Entry]) -> None:
    """``migrateV1ToV2``: ids in file order, each entry the child of the one before.

    ``firstKeptEntryIndex`` indexes the file's entries with the header at 0 (Pi indexes its
    ``entries`` array, which starts with the header).
    """
    previous: str | None = None
    for entry in entries:
        entry.value.setdefault("id", f"v1-{entry.index + 1:05d}")
        entry.value["parentId"] = previous
        previous = str(entry.value["id"])
    for entry in entries:
        index = entry.value.pop("firstKeptEntryIndex", None) if entry.type == "compaction" else None
        if isinstance(index, int) and 1 <= index <= len(entries):
            entry.value["firstKeptEntryId"] = entries[index - 1].id


def build(header: dict[str, Any], entries: list[Entry], skips: Skips) -> Context:
    """``buildSessionContext`` then ``convertToLlm``, keeping what is not sent."""
    ctx = Context(header=header, skips=skips)
    by_id = {e.id: e for e in entries}
    path: list[Entry] = []
    seen: set[str] = set()
    current = entries[-1] if entries else None
    while current is not None and current.id not in seen:
        seen.add(current.id)
        path.append(current)
        parent = current.value.get("parentId")
        current = by_id.get(parent) if isinstance(parent, str) else None
    path.reverse()
    on_path = {e.id for e in path}
    compaction: Entry | None = None
    for entry in path:
        value = entry.value
        if entry.type == "model_change":
            ctx.model = (str(value.get("provider")), str(value.get("modelId")))
        elif entry.type == "thinking_level_change" and isinstance(value.get("thinkingLevel"), str):
            ctx.thinking_level = value["thinkingLevel"]
        elif entry.type == "message" and _role(entry) == "assistant":
            msg = value["message"]
            ctx.model = (str(msg.get("provider")), str(msg.get("model")))
        elif entry.type == "compaction":
            compaction = entry
        if entry.type in ("model_change", "thinking_level_change", "label", "session_info", "custom"):
            ctx.settings[entry.type] = ctx.settings.get(entry.type, 0) + 1
    if compaction is None:
        for entry in path:
            _append(ctx, entry)
    else:
        _with_compaction(ctx, path, compaction)
    for entry in entries:  # a compaction off the path is a summary Pi keeps and never sends too
        if entry.id not in on_path and entry.type in (
            "message",
            "custom_message",
            "branch_summary",
            "compaction",
        ):
            ctx.off_path += 1
            summary = str(entry.value.get("summary", "")) if entry.type == "compaction" else ""
            _drop(ctx, entry, f"other branch {_kind(entry)}", WHY_BRANCH, text=summary)
    for i, sent in enumerate(ctx.messages):
        sent.order = float(i)
    ctx.dropped.sort(key=lambda d: (d.before, d.line or 0))
    return ctx


def _with_compaction(ctx: Context, path: list[Entry], compaction: Entry) -> None:
    """The latest compaction's summary, the kept entries before it, then the entries after it."""
    value = compaction.value
    summary = value.get("summary")
    ctx.messages.append(
        Sent(
            {
                "role": "user",
                "content": [{"type": "text", "text": COMPACTION_PREFIX + str(summary) + COMPACTION_SUFFIX}],
            },
            compaction.line,
            f"compaction:{compaction.id}",
            made="compactionSummary",
        )
    )
    at = path.index(compaction)
    kept = False
    for entry in path[:at]:
        kept = kept or entry.id == value.get("firstKeptEntryId")
        if kept or entry.type == "compaction":
            _append(ctx, entry)
        elif entry.type in ("message", "custom_message", "branch_summary"):
            _drop(ctx, entry, f"compacted {_kind(entry)}", WHY_COMPACTED)
    for entry in path[at + 1 :]:
        _append(ctx, entry)


def _role(entry: Entry) -> str | None:
    message = entry.value.get("message")
    role = message.get("role") if isinstance(message, dict) else None
    return role if isinstance(role, str) else None


def _kind(entry: Entry) -> str:
    return _role(entry) or "message" if entry.type == "message" else entry.type


def _append(ctx: Context, entry: Entry) -> None:
    """``appendMessage`` and ``convertToLlm`` for one entry on the path."""
    value = entry.value
    if entry.type == "compaction":  # the latest one is never appended: it leads the messages
        _drop(ctx, entry, "compaction (superseded)", WHY_OLD_COMPACTION, text=str(value.get("summary", "")))
    elif entry.type == "custom_message":
        ctx.messages.append(
            Sent({"role": "user", "content": _parts(value.get("content"))}, entry.line, entry.id, "custom")
        )
    elif entry.type == "branch_summary" and value.get("summary"):
        text = BRANCH_PREFIX + str(value["summary"]) + BRANCH_SUFFIX
        ctx.messages.append(
            Sent(
                {"role": "user", "content": [{"type": "text", "text": text}]},
                entry.line,
                entry.id,
                "branchSummary",
            )
        )
    elif entry.type == "message":
        _message(ctx, entry)


def _message(ctx: Context, entry: Entry) -> None:
    message = entry.value.get("message")
    if not isinstance(message, dict):
        raise at_line(entry.line, ("message",), "expected an object")
    role = tag(message.get("role"))  # a list or object role is not a role Pi knows (never unhashable)
    if role not in ROLES:
        ctx.skips.add(
            f"message role {role!r}" if isinstance(role, str) else "message without a string 'role'",
            entry.line,
        )
        return
    if role in ("user", "assistant", "toolResult"):
        ctx.messages.append(Sent(message, entry.line, entry.id))
    elif role == "bashExecution":
        if message.get("excludeFromContext"):
            _drop(ctx, entry, "bashExecution (!!)", WHY_EXCLUDED, text=str(message.get("command", "")))
            return
        text = _bash_text(message)
        ctx.messages.append(
            Sent({"role": "user", "content": [{"type": "text", "text": text}]}, entry.line, entry.id, role)
        )
    elif role == "custom":
        ctx.messages.append(
            Sent({"role": "user", "content": _parts(message.get("content"))}, entry.line, entry.id, role)
        )
    else:  # the summaries, when written as messages
        prefix, suffix = (
            (BRANCH_PREFIX, BRANCH_SUFFIX)
            if role == "branchSummary"
            else (COMPACTION_PREFIX, COMPACTION_SUFFIX)
        )
        text = prefix + str(message.get("summary", "")) + suffix
        ctx.messages.append(
            Sent({"role": "user", "content": [{"type": "text", "text": text}]}, entry.line, entry.id, role)
        )


def _parts(content: Any) -> Any:
    """A custom message's content as parts (``convertToLlm`` wraps a string in one text part)."""
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def _bash_text(msg: dict[str, Any]) -> str:
    """``bashExecutionToText`` (messages.ts), character for character."""
    text = f"Ran `{msg.get('command')}`\n"
    output = msg.get("output")
    text += f"```\n{output}\n```" if output else "(no output)"
    exit_code = msg.get("exitCode")
    if msg.get("cancelled"):
        text += "\n\n(command cancelled)"
    elif isinstance(exit_code, int) and exit_code != 0:
        text += f"\n\nCommand exited with code {exit_code}"
    if msg.get("truncated") and msg.get("fullOutputPath"):
        text += f"\n\n[Output truncated. Full output: {msg['fullOutputPath']}]"
    return text


def _drop(ctx: Context, entry: Entry, kind: str, reason: str, *, text: str = "") -> None:
    message = entry.value.get("message")
    if not text and isinstance(message, dict):
        text = text_of(message.get("content"))
    data = {k: v for k, v in entry.value.items() if k != "message"}
    if isinstance(message, dict):
        data["message"] = {k: v for k, v in message.items() if k != "content"}
    ctx.dropped.append(
        Dropped(kind, reason, len(ctx.messages), entry.line, text, json.loads(json.dumps(data)))
    )


def text_of(content: Any) -> str:
    """The text parts of a content value joined (a string as it is)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "\n".join(
        str(p.get("text") or p.get("thinking") or "")
        for p in content
        if isinstance(p, dict) and p.get("type") in ("text", "thinking")
    )
