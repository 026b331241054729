"""OpenAI Codex CLI rollouts (``~/.codex/sessions/**/rollout-*.jsonl``): the Responses input Codex sends.

Follows the agent's own code (openai/codex, read at the commits named):

- ``codex-rs/core/src/context_manager/history.rs`` (``ContextManager::record_items``, index
  version with ``GhostSnapshot``; newest read: 023fad268e08c252b94e4a95cb3c7f2f08c2a972): only items
  for which ``is_api_message`` holds enter the history sent to the model. ``ghost_snapshot`` (the
  undo snapshot Codex records each turn) is ``false``, as is ``ResponseItem::Other`` (any item type
  this Codex build does not know). So snapshots go to ``Session.unsent``, not into the messages,
  and an unknown item type is skipped and counted, as Codex skips it.
- ``codex-rs/rollout/src/recorder.rs`` (``RolloutRecorder::load_rollout_items``, commit
  05eb6e5e8b57cdd7c732baa6782a3ea26a3cfac3): on resume a line that does not parse as a known
  ``RolloutLine`` is counted as a parse error and skipped, never fatal; legacy ghost-snapshot lines
  are stripped. This reader does the same with line types it does not know
  (``inter_agent_communication_metadata``, ``token_usage_record``…): skipped, counted in
  ``SessionSource.skipped`` and named in a note, with the rollout's ``cli_version``.
- ``custom_tool_call`` / ``custom_tool_call_output`` (freeform tools, Codex's ``apply_patch``) are
  replayed as they are (``ResponseItem::CustomToolCall``); the call's text input is kept whole in
  ``ToolCallBlock.freeform_input``, so a Responses render sends the same items and other
  providers get the text as ``{"input": …}``.

The legacy rollout (mid-2025 Codex, before the envelope) is read too: a bare ``SessionMeta`` header,
bare ``ResponseItem`` lines and ``{"record_type": "state"}`` snapshots (``_legacy_line``). Before a
request Codex normalizes the history (`normalize`), and a rollout's compactions and
rollbacks are replayed (`history`).

Rollouts seen: cli_version 0.44.0 (the test fixtures), 0.58.0 (with ghost_snapshot items), 0.77.0,
0.116.0 and 0.135.0 (the real-log corpus, tests/corpus/logs/codex), and the record kinds named in
issue 17 (``inter_agent_communication_metadata``, ``token_usage_record``, ``server_request``,
``wrapper_meta``), which this reader skips and counts.

Each line is ``{"timestamp", "type", "payload"}`` (research/anchors.md §3.3; serde ``tag="type",
content="payload"`` in codex-rs). ``response_item`` payloads are Responses API items (``message``,
``reasoning``, ``function_call``, ``function_call_output``, ``custom_tool_call``,
``local_shell_call``, ``web_search_call``…); they become the Session exactly as the Responses
reader groups them, so a ``function_call`` replayed without its ``reasoning`` item is visible to
the ``openai-responses`` rules.

- ``local_shell_call`` is Codex's built-in shell tool; its output comes back as a
  ``function_call_output`` with the same ``call_id``, so it is read as a call named
  ``local_shell`` (arguments: the ``action``) and the original item is kept in ``provider_data``.
- ``compacted`` replaces the history as Codex does: with ``replacement_history`` that list,
  otherwise the earlier user messages plus the summary as a user message. The notes say how many
  items each compaction replaced.
- ``event_msg`` ``thread_rolled_back`` (``/undo``-style rollback, ``num_turns``) drops the newest user
  turns as Codex's ``reconstruct_history_from_rollout`` does on resume
  (codex-rs/core/src/codex/rollout_reconstruction.rs at 023cedaa25c056edf87e8be2c04190c84c67f966);
  the dropped items go to ``Session.unsent`` as ``rolled back <type>``, with a note. A user turn is
  a user message Codex did not write itself (``is_contextual_user_fragment``: environment context,
  AGENTS.md instructions, skills, shell-command and turn-aborted notices). The trim of contextual
  developer messages just before the cut (``trim_pre_turn_context_updates``) is not reproduced.
- ``session_meta`` and ``turn_context`` go into ``Session.metadata`` / ``request`` (model);
  ``event_msg`` lines (UI events, ``exec_command_end`` duplicating outputs by design, token counts)
  are counted, not turned into messages.
"""

from __future__ import annotations

import json
import sys
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from typing import Any

from pydantic import JsonValue

from toolhist._trusted import filler, replace
from toolhist.agents.codex.history import (
    ROLLED_BACK,
    ROLLED_BACK_REASON,
    compaction_event,
    is_user_message,
    rollback_event,
)
from toolhist.agents.codex.normalize import ABORTED, OUTPUT_OF, mark_synthetic, normalize
from toolhist.formats.base import Built, Pointer, ShapeError, Shared, Skips, tag
from toolhist.formats.document import Document
from toolhist.formats.jsonl_stream import Lines, StreamReader, at_line
from toolhist.formats.openai_responses import (
    AI_SIDE,
    TOOL_SIDE,
    OpenAIResponsesReader,
    side_metadata_pair,
)
from toolhist.formats.records import MAX_SKIPPED, kind_of, skipped_note
from toolhist.model import Location, Message, Session, Unsent

LINE_TYPES = {"session_meta", "response_item", "compacted", "turn_context", "event_msg", "world_state"}
CODEX_NOT_READ = ("agent_message", "additional_tools", "context_compaction")
"""Item types the 2026 Codex sends too (``is_api_message`` true for ``AgentMessage``,
``AdditionalTools``, ``ContextCompaction``: openai/codex ``codex-rs/core/src/context_manager/history.rs``
as the search index holds it, id 58790422075) whose wire shape this reader does not know yet: they are
skipped and named like any unknown kind, never read as something else. ``tool_search_call`` /
``tool_search_output`` (sent as well) are Responses items the Responses reader keeps whole."""
ITEM_TYPES = AI_SIDE | TOOL_SIDE | {"message", "item_reference", "compaction"}
"""Response item types that are history (Codex's ``is_api_message``)."""
UNSENT_ITEMS = {
    "ghost_snapshot": "Codex records it for /undo; is_api_message(GhostSnapshot) is false, so it is "
    "never sent (codex-rs/core/src/context_manager/history.rs)",
    "compaction_trigger": "Codex records where a compaction was asked for; "
    "is_api_message(CompactionTrigger) is false, so it is never sent "
    "(codex-rs/core/src/context_manager/history.rs)",
}
"""Response item types Codex keeps in the rollout but never sends, with why."""
ORPHAN_REASON = (
    "an output whose call is not in the history: Codex drops it before sending "
    "(remove_orphan_outputs, codex-rs/core/src/context_manager/normalize.rs)"
)
SYSTEM_REASON = (
    "is_api_message(Message) is false for role 'system': Codex sends its instructions in the request's "
    "'instructions' field, never a system item (codex-rs/core/src/context_manager/history.rs)"
)


SHARED_FIELDS = ("type", "role", "name", "phase", "status")
"""An item's fields whose few values repeat on every line (``function_call``, ``assistant``,
``exec_command``…): the blocks keep them (``provider_data``, names), one string per value."""
SHARED_PART_LISTS = ("content", "summary")
"""An item's lists of parts, whose ``type`` repeats as well (``output_text``, ``summary_text``)."""


def _share_strings(item: dict[str, Any], calls: dict[str, str]) -> None:
    """Make the repeated short strings of ``item`` (`SHARED_FIELDS`) one interned string per value.

    The parser makes a new string for every value it reads: a 200 MB rollout kept 50,000 copies of
    ``"function_call"``, ``"reasoning"``, ``"exec_command"``… in its blocks, 5% of what its session
    holds (issue 26). Values are equal before and after, so nothing read changes.

    An output's ``call_id`` becomes its call's string (``calls``: the ids of calls not answered
    yet, each let go when its output comes), so a call and its result hold one id, not two.
    """
    call_id = item.get("call_id")
    if type(call_id) is str:
        if item.get("type") in OUTPUT_OF.values():
            item["call_id"] = calls.pop(call_id, call_id)
        else:
            calls[call_id] = call_id
    intern = sys.intern
    for key in SHARED_FIELDS:
        value = item.get(key)
        if type(value) is str:
            item[key] = intern(value)
    for key in SHARED_PART_LISTS:
        parts = item.get(key)
        if type(parts) is list:
            for part in parts:
                if type(part) is dict and type(kind := part.get("type")) is str:
                    part["type"] = intern(kind)


def _text_of(content: Any) -> str:
    """A message item's text parts joined (a string content as it is)."""
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else []
    return "\n".join(p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str))


def _legacy_line(entry: Any) -> tuple[str, dict[str, Any]] | None:
    """A line of the legacy rollout (no ``payload`` envelope) as ``(line type, payload)``, else None.

    Codex wrote this form before the ``{timestamp, type, payload}`` lines (openai/codex
    ``codex-rs/core/src/rollout.rs`` at 89a151f502213bec8140159e728170b0d999eca2, mid-2025): a first
    line ``SessionMeta`` ``{id, timestamp, instructions?}`` (later with ``git``), then each
    ``ResponseItem`` as it is, and ``{"record_type": "state", …}`` snapshots that resume reads as
    state, not history.
    """
    if not isinstance(entry, dict) or "payload" in entry:
        return None
    if entry.get("record_type") == "state":
        return "legacy_state", entry
    if (
        "type" not in entry
        and "role" not in entry
        and "kind" not in entry  # an OpenHands event has id and timestamp too, and its ``kind``
        and isinstance(entry.get("id"), str)
        and "timestamp" in entry
    ):
        return "session_meta", entry
    if isinstance(entry.get("type"), str) and entry["type"] in ITEM_TYPES:
        return "response_item", entry
    return None


def _classify(
    entry: Any, line: int | None, skips: Skips, events: Counter[str]
) -> tuple[str, dict[str, Any]] | None:
    """A line as ``(line type, payload)``, modern or legacy; None (counted) for one that is not history."""
    if (  # the modern line first: it has a payload, so it is not legacy
        type(entry) is dict
        and type(payload := entry.get("payload")) is dict
        and type(kind := entry.get("type")) is str
        and kind in LINE_TYPES
    ):
        return kind, payload
    kind = entry.get("type") if isinstance(entry, dict) else None
    payload = entry.get("payload") if isinstance(entry, dict) else None
    legacy = _legacy_line(entry)
    if legacy is not None:
        kind, payload = legacy
        if kind == "legacy_state":  # resume reads it as state (previous_response_id), not history
            events["record_type:state"] += 1
            return None
    if not isinstance(kind, str) or kind not in LINE_TYPES:
        skips.add(f"line type {kind!r}" if isinstance(kind, str) else "line without a string 'type'", line)
        return None
    if not isinstance(payload, dict):
        skips.add(f"{kind} line whose payload is not an object", line)
        return None
    return str(kind), payload


def looks_codex(value: Any) -> int:
    """2 on Codex rollout lines: modern, or legacy from the first line on.

    Modern: an entry is a ``{timestamp, type, payload}`` line and every entry looks like one.
    Legacy: the first line is a session header and every line is legacy (``_legacy_line``).

    Lenient on the others so one broken line gets its own error, not "unknown format".
    """
    if not isinstance(value, list) or not value:
        return 0
    legacy = [_legacy_line(v) for v in value]
    if legacy[0] is not None and legacy[0][0] == "session_meta" and all(legacy):
        return 2
    if not all(isinstance(v, dict) and ("payload" in v or "type" in v) for v in value):
        return 0
    ok = any(tag(v.get("type")) in LINE_TYPES and "payload" in v and "timestamp" in v for v in value)
    return 2 if ok else 0


def _local_shell(item: dict[str, Any]) -> dict[str, Any]:
    """A ``local_shell_call`` as the function call it pairs like; the original item rides along."""
    call_id = item.get("call_id") or item.get("id")
    return {
        "type": "function_call",
        "call_id": call_id,
        "name": "local_shell",
        "arguments": json.dumps(item.get("action"), separators=(",", ":")),
        "codex_item": item,
    }


_LOCATION = filler(Location)
"""A message's `Location` (one per message of a rollout), every field given: `construct`'s object."""


class _Rollout(Built):
    """`Built` whose messages are located by their rollout line (``payload``), as they are added.

    `Built.add` makes a `Location` pointing into the item list, which the rollout's reader then
    made again with the item's line: one Location and one JSON path made and dropped per message.
    ``item_lines`` is the reader's own list (items deleted from it as they are skipped).
    """

    def __init__(self, doc: Document, item_lines: list[int | None]) -> None:
        super().__init__(doc)
        self.item_lines = item_lines

    def add(
        self, message: Message, index: int | None, ptr: Pointer, block_items: tuple[int, ...] | None = None
    ) -> None:
        """Append a message read from the item at ``index``, located on that item's line."""
        self.messages.append(message)
        line = self.item_lines[index] if index is not None else None
        self.locations.append(
            _LOCATION({"index": index, "line": line, "json_path": "payload", "block_items": block_items})
        )


def _grouped(
    items: list[Any],
    item_lines: list[int | None],
    opens: list[bool],
    name: str,
    path: str | None,
    *,
    notes: list[str],
    skips: Skips,
) -> Built:
    """The items grouped into messages as the Responses reader does, with each message's source line.

    An item of a known kind that the Responses reader refuses (a ``function_call`` whose
    ``arguments`` is null) is skipped and named, and the rest of the rollout is read: one bad
    record does not make a whole session unreadable. Done here, item by item, rather than by the
    stream's line skipping (`toolhist.formats.records`): a compaction's ``replacement_history``
    holds many items on one line, and one bad item must not take the whole compaction with it.

    Read a turn at a time (`_turns`), each turn's parsed items let go once they are blocks: read
    whole, every parsed item stayed beside its blocks until the last was made, a sixth of the
    rollout's size at the read's peak (issue 26). A bad item is retried within its turn, and with
    the turn before when it was the item that opened the turn (without it the two turns are one
    group, as a read of the whole list would make them). ``items`` is emptied.

    ``opens`` says which items open a turn (`toolhist.formats.openai_responses.opens_turn`, worked
    out as the items were normalized); a skipped item is deleted from it as from ``items``.
    """
    built = _Rollout(Document(value=items, name=name, path=path, jsonl_lines=None), item_lines)
    built.notes = notes
    reader = OpenAIResponsesReader()
    sides = side_metadata_pair()
    share = Shared()  # equal small provider data, one dict per value for the whole rollout
    names: dict[str, str] = {}  # outputs named as read (`read_item`); a turn read again takes its calls back
    kept = start = 0  # items[kept:start]: the turn before, kept until the next one is read
    kept_made = made = 0  # how many messages there were before each of the two turns
    kept_named = named = 0  # how many call names there were before each of the two turns
    while start < len(items):
        end = _turn_end(opens, start)
        said = len(notes)
        try:
            reader._read_items(
                items[start:end], (), built, first=start, sides=sides, share=share, names=names
            )
        except ShapeError as exc:
            del built.messages[made:], built.locations[made:], notes[said:]
            _forget(names, named)
            first = exc.pointer[0] if exc.pointer and isinstance(exc.pointer[0], int) else None
            line = item_lines[first] if first is not None else None
            if first is None or skips.unreadable() >= MAX_SKIPPED:
                raise at_line(line, ("payload", *exc.pointer[1:]), exc.reason) from None
            kind = "response_item"
            record = {"type": kind, "payload": items[first]}
            where = f"line {line}" if line is not None else f"item {first}"
            notes.append(skipped_note(where, kind, record, ("payload", *exc.pointer[1:]), exc.reason))
            skips.add_unreadable(kind, line)
            del items[first], item_lines[first], opens[first]
            if first == start and start > kept:  # the turn's opening item gone: one turn with the last
                del built.messages[kept_made:], built.locations[kept_made:]
                _forget(names, kept_named)
                start, made, named = kept, kept_made, kept_named
            continue
        items[kept:start] = [None] * (start - kept)  # the turn before let go, places kept
        kept, kept_made, kept_named = start, made, named
        start, made, named = end, len(built.messages), len(names)
    items.clear()  # every item is a Message now (its strings live on in the blocks): issue 26
    built.named = True  # `fill_tool_names` would make every named output and its message again
    return built


def _forget(names: dict[str, str], count: int) -> None:
    """``names`` as it was when it held ``count`` names: a name is only ever added at the end."""
    while len(names) > count:
        names.popitem()


def _turn_end(opens: list[bool], start: int) -> int:
    """Where the turn starting at item ``start`` ends: the next item that opens one (``opens``)."""
    try:
        return opens.index(True, start + 1)
    except ValueError:
        return len(opens)


class CodexReader(StreamReader):
    """``codex``: a Codex CLI rollout JSONL read as the Responses input history it replays."""

    id = "codex"
    description = "OpenAI Codex CLI rollout JSONL (~/.codex/sessions/**/rollout-*.jsonl)"

    def recognise(self, value: Any) -> int:
        """Certain on ``{timestamp, type, payload}`` lines with Codex line types."""
        return looks_codex(value)

    def record_kind(self, value: Any) -> str | None:
        """A line's type (``response_item``…), legacy lines' too; None for the ``session_meta`` header.

        Codex cannot resume a rollout whose session header it cannot parse ("failed to parse thread
        ID from rollout file"), so neither does this reader; any other line is one record.
        """
        legacy = _legacy_line(value)
        kind = legacy[0] if legacy is not None else kind_of(value)
        return None if kind == "session_meta" else kind

    def read_lines(self, lines: Lines, *, name: str, path: str | None, notes: list[str]) -> Session:
        """Collect the response items (compactions applied), then group them as the Responses reader does."""
        items: list[dict[str, Any]] = []
        item_lines: list[int | None] = []
        events: Counter[str] = Counter()
        skips = Skips()
        meta: dict[str, JsonValue] = {}
        turns = 0
        model: str | None = None
        compactions: list[JsonValue] = []
        calls: dict[str, str] = {}  # call ids without an output yet (`_share_strings`)
        notes = list(notes)
        for line, entry in lines:
            classified = _classify(entry, line, skips, events)
            if classified is None:
                continue
            kind, payload = classified
            if kind == "response_item":
                if not isinstance(payload.get("type", "message"), str):
                    raise at_line(line, ("payload", "type"), "item has no string 'type'")
                _share_strings(payload, calls)
                if payload.get("type") == "local_shell_call":
                    payload = _local_shell(payload)
                items.append(payload)
                item_lines.append(line)
            elif kind == "compacted":
                items, item_lines = compaction_event(items, payload, line, notes, compactions)
            elif kind == "event_msg" and payload.get("type") == "thread_rolled_back":
                events["event_msg:thread_rolled_back"] += 1
                items = rollback_event(items, payload, line, notes)
            elif kind == "session_meta":
                meta = dict(payload)
            elif kind == "turn_context":
                turns += 1
                if isinstance(payload.get("model"), str):
                    model = payload["model"]
            else:
                events[f"{kind}:{payload.get('type', '?')}"] += 1
        if not meta and not items and not turns and not events and not compactions:
            # Codex itself refuses a file with no rollout line ("failed to parse thread ID from
            # rollout file"); skipping everything would read garbage as an empty session.
            raise at_line(
                None, (), f"no Codex rollout line (types {', '.join(sorted(LINE_TYPES))}) in this file"
            )
        sent, sent_lines, kept = _partition(items, item_lines, skips)
        del items, item_lines  # the parsed items live on in ``sent`` and ``kept`` only
        sent, sent_lines, opens, kept, answered = _normalized(sent, sent_lines, kept, notes)
        shells = sum(1 for i in sent if "codex_item" in i)
        # ``_grouped`` empties ``sent`` once every item is a Message: no parsed item outlives its
        # conversion while the Session is built (issue 26)
        built = _grouped(sent, sent_lines, opens, name, path, notes=notes, skips=skips)
        version = meta.get("cli_version")
        built.notes += _notes(events, shells, kept, skips, version)
        mark_synthetic(built.messages, answered)
        before = _message_starts(built.locations)
        built.unsent = [replace(u, before=before(u.before)) for u in kept]
        built.skips = skips
        # made once, final: no copy of the Session (its messages, its source) made after it
        return built.session(
            self.id,
            tools=None,
            request={"model": model} if model else {},
            metadata={
                "session_meta": meta,
                "turns": turns,
                "compactions": compactions,
                "events": dict(events),
                **({"cli_version": version} if isinstance(version, str) else {}),
            },
        )


def _notes(
    events: Counter[str], shells: int, kept: list[Unsent], skips: Skips, version: JsonValue
) -> list[str]:
    """What the reader says about lines that are not messages: events, shell calls, unsent, skipped."""
    notes: list[str] = []
    if events:
        notes.append(
            "event lines (not sent to the model): "
            + ", ".join(f"{k} x{v}" for k, v in sorted(events.items()))
        )
    if shells:
        notes.append(f"{shells} local_shell_call item(s) read as calls named 'local_shell'")
    if kept:
        kinds = Counter(u.kind for u in kept)
        notes.append(
            f"{len(kept)} item(s) Codex keeps but never sends (session.unsent): "
            + ", ".join(f"{k} x{n}" for k, n in sorted(kinds.items()))
        )
    drift = (
        f"; written by Codex CLI {version}, which has record kinds this reader does not know"
        if version
        else ""
    )
    notes += skips.note("Codex skips what it cannot parse too (RolloutRecorder::load_rollout_items)" + drift)
    return notes


def _partition(
    items: list[dict[str, Any]], item_lines: list[int | None], skips: Skips
) -> tuple[list[dict[str, Any]], list[int | None], list[Unsent]]:
    """The items Codex sends, their lines, and the ones it keeps unsent (``before``: a sent-item index).

    Unknown item types are counted in ``skips``: Codex reads them as ``ResponseItem::Other``,
    which ``is_api_message`` leaves out too.
    """
    sent: list[dict[str, Any]] = []
    lines: list[int | None] = []
    kept: list[Unsent] = []
    for item, line in zip(items, item_lines, strict=True):
        kind = item.get("type", "message")
        if kind == "message" and item.get("role") == "system":  # is_api_message: role != "system"
            kept.append(
                Unsent(
                    kind="system message",
                    reason=SYSTEM_REASON,
                    before=len(sent),
                    line=line,
                    json_path="payload",
                    text=_text_of(item.get("content")),
                    data={k: v for k, v in item.items() if k != "content"},
                )
            )
        elif kind == ROLLED_BACK:
            inner: dict[str, Any] = item["item"] if isinstance(item.get("item"), dict) else {}
            kept.append(
                Unsent(
                    kind=f"rolled back {inner.get('type', 'message')}",
                    reason=ROLLED_BACK_REASON,
                    before=len(sent),
                    line=line,
                    json_path="payload",
                    text=_text_of(inner.get("content")) if inner.get("type", "message") == "message" else "",
                    data=dict(inner),
                )
            )
        elif kind in UNSENT_ITEMS:
            kept.append(
                Unsent(
                    kind=str(kind),
                    reason=UNSENT_ITEMS[str(kind)],
                    before=len(sent),
                    line=line,
                    json_path="payload",
                    data=dict(item),
                )
            )
        elif kind in ITEM_TYPES:
            sent.append(item)
            lines.append(line)
        else:
            skips.add(f"response_item type {kind!r}", line)
    return sent, lines, kept


def _normalized(
    sent: list[dict[str, Any]], lines: list[int | None], kept: list[Unsent], notes: list[str]
) -> tuple[list[dict[str, Any]], list[int | None], list[bool], list[Unsent], list[str]]:
    """The sent items as Codex normalizes them before a request (`normalize`), with notes.

    Also which items open a turn (`_grouped`), and the ids of the calls given a synthetic output.
    """
    sent, lines, opens, orphans, answered, where = normalize(sent, lines, is_user_message)
    # a kept record's place was counted among the items as logged: an orphan dropped or a synthetic
    # output inserted before it moves it (a snapshot after an interrupted call went one message early)
    kept = [replace(u, before=where[u.before]) for u in kept]
    for before, item, line in orphans:
        kept.append(
            Unsent(
                kind=f"orphan {item.get('type')}",
                reason=ORPHAN_REASON,
                before=before,
                line=line,
                json_path="payload",
                data=dict(item),
            )
        )
    if orphans:
        notes.append(f"{len(orphans)} output(s) without their call dropped, as Codex does (session.unsent)")
    if answered:
        notes.append(
            f"Codex answers {len(answered)} call(s) that have no output with {ABORTED!r} before sending "
            f"(ensure_call_outputs_present): {', '.join(answered)}"
        )
    kept.sort(key=lambda u: (u.before, u.line or 0))
    return sent, lines, opens, kept, answered


def _message_starts(locations: list[Location]) -> Callable[[int], int]:
    """Maps a sent-item index to the index of the message holding that item (past the end: their count).

    Messages hold consecutive items, so the last item index of each message is non-decreasing and
    a binary search finds the message (a message's own item indices do not decrease either: its
    last is its largest).
    """
    lasts = [loc.block_items[-1] if loc.block_items else (loc.index or 0) for loc in locations]

    def before(item_index: int) -> int:
        return bisect_left(lasts, item_index)

    return before
