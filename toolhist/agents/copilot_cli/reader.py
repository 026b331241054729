"""GitHub Copilot CLI sessions (``~/.copilot/session-state/<id>/events.jsonl``): the history it replays.

Copilot CLI is closed source; its event log is specified by its open SDK (github/copilot-sdk
``nodejs/src/generated/session-events.ts`` at cc0438d66e3e68c333537cb935d9425d4e4ed8d5, see
`toolhist.agents.copilot_cli.events`), and what it sends is recorded by the SDK's replaying proxy
(``test/snapshots/**.yaml``: system, user, assistant with ``tool_calls``, tool messages). A session
resumed from this file is rebuilt from its persisted events ("Persisted event: saved to the session
event log on disk. Replayed when resuming a session", ``docs/features/streaming-events.md``), so the
history read here is the one a resumed session sends next:

- ``system.message``: the system prompt, first in every request; a later one replaces an earlier
  (kept unsent);
- ``user.message``: ``transformedContent`` when present ("Transformed version of the message sent to
  the model, with XML wrapping, timestamps…"), else ``content``;
- ``assistant.message``: its ``content`` and ``toolRequests`` (``toolCallId``, ``name``,
  ``arguments``; ``type: custom`` is a grammar tool whose string input is kept whole). Chunks of one
  response (``chunkIndex`` > 0 with the same ``apiCallId``) are one message. Reasoning
  (``reasoningText``, ``reasoningOpaque``, ``encryptedContent``) is "Session-bound and stripped on
  resume": kept unsent;
- ``tool.execution_complete``: ``result.content`` ("Concise tool result text sent to the LLM"), or the
  ``error.message`` of a failed call; ``result.detailedContent`` is the UI's copy (kept unsent when it
  differs). Results of one round are one tool message;
- a call left unanswered when the turn is aborted or the user speaks again gets the CLI's
  "interrupted" result (`events.INTERRUPTED`, from the SDK's abort recording), marked synthetic;
- ``session.compaction_complete`` (success) replaces the history before its ``compaction_start`` with
  one user message: the earlier user messages and ``summaryContent`` in the wrapper the SDK's
  compaction recording shows; messages added while it ran stay after it. The replaced messages are
  kept unsent. ``session.context_cleared`` (``/clear``) drops the history the same way;
- ``session.snapshot_rewind`` removes the events it names (``eventIds``) or, with only
  ``upToEventId``, that event and all after it ("this event and all after it were removed"): kept
  unsent as rewound;
- events of a sub-agent (``agentId``, or the older ``parentToolCallId``) are its own conversation:
  one unsent record per sub-agent, as Claude Code's sidechains are;
- ``ephemeral`` events are not persisted and not replayed: skipped and counted. Types outside the
  SDK's union are skipped and named; every other known event is UI or telemetry.

Inferred, not read in the CLI's code: the summary wrapper's exact text for a real session, that a
resumed session drops the reasoning of earlier turns, that notifications reach the model as
``user.message`` events, and the placement of interrupted results (right after the aborted turn).
``session.truncation`` records how many messages were cut to fit but not which: nothing is dropped,
a note says so.
"""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue

from toolhist.agents.copilot_cli import events as ev
from toolhist.agents.copilot_cli.history import Slot, Timeline
from toolhist.formats.base import ShapeError, arr, obj, opt_text, rest, tag, text
from toolhist.formats.jsonl_stream import Collector, Lines, StreamReader, at_line, iso_seconds, shape_on_line
from toolhist.model import (
    Block,
    MessageMetadata,
    Session,
    TextBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

Event = tuple[int | None, int, dict[str, Any]]
"""``(line, position among the events, the event)``."""


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def _events(lines: Lines) -> list[Event]:
    """Every line as an event object with a string ``type`` (else a LineError naming the line)."""
    found: list[Event] = []
    for index, (line, value) in enumerate(lines):
        if not isinstance(value, dict):
            raise at_line(line, (), f"expected an event object, got {_kind(value)}")
        if not isinstance(value.get("type"), str):
            raise at_line(line, ("type",), "expected the event's type as a string")
        found.append((line, index, value))
    return found


def _rewound(found: list[Event]) -> dict[int, int | None]:
    """Event positions a later ``session.snapshot_rewind`` removed → the rewind's line."""
    removed: dict[int, int | None] = {}
    for i, (line, _, event) in enumerate(found):
        if event["type"] != "session.snapshot_rewind":
            continue
        data = event.get("data")
        if not isinstance(data, dict):
            raise at_line(line, ("data",), f"expected an object, got {_kind(data)}")
        ids = data.get("eventIds")
        earlier = {e.get("id"): j for j, (_, _, e) in enumerate(found[:i]) if isinstance(e.get("id"), str)}
        if isinstance(ids, list):
            removed.update({earlier[x]: line for x in ids if isinstance(x, str) and x in earlier})
            continue
        up_to = data.get("upToEventId")
        if not isinstance(up_to, str):
            raise at_line(line, ("data", "upToEventId"), "a rewind needs eventIds or a string upToEventId")
        if up_to in earlier:
            removed.update(dict.fromkeys(range(earlier[up_to], i), line))
    return removed


class CopilotCliReader(StreamReader):
    """``copilot-cli``: GitHub Copilot CLI session events, read as a resumed session replays them."""

    id = "copilot-cli"
    description = (
        "GitHub Copilot CLI session events (session-state/<id>/events.jsonl): the history it replays"
    )

    def recognise(self, value: Any) -> int:
        """Certain on a first ``session.start`` event naming its producer; plausible on known events."""
        value = [value] if isinstance(value, dict) else value
        if not isinstance(value, list) or not value or not isinstance(value[0], dict):
            return 0
        first = value[0]
        data = first.get("data")
        if first.get("type") == "session.start" and isinstance(data, dict):
            return 2 if "producer" in data or "copilotVersion" in data else 1
        head = [v for v in value[:12] if isinstance(v, dict)]
        known = all(v.get("type") in ev.EVENT_TYPES and isinstance(v.get("data"), dict) for v in head)
        return 1 if known and all("id" in v for v in head) else 0

    def read_lines(self, lines: Lines, *, name: str, path: str | None, notes: list[str]) -> Session:
        """Replay the events into the history (see the module notes)."""
        found = _events(lines)
        removed = _rewound(found)
        state = _Replay(notes)
        for position, (line, index, event) in enumerate(found):
            try:
                if position in removed:
                    state.rewound(line, index, event, removed[position])
                else:
                    state.event(line, index, event)
            except ShapeError as exc:
                raise shape_on_line(line, exc) from None
        return state.finish(self.id, path)


class _Replay:
    """The state of one replay: the timeline, the model, the calls awaiting results, sub-agents."""

    def __init__(self, notes: list[str]) -> None:
        self.timeline = Timeline()
        self.built = Collector(notes)
        self.model: str | None = None
        self.models: list[str] = []
        self.pending: dict[str, str] = {}
        """Call id → tool name, for calls requested and not answered yet (in request order)."""
        self.requested: dict[str, str] = {}
        self.subagents: dict[str, dict[str, JsonValue]] = {}
        self.metadata: dict[str, JsonValue] = {}
        self.endpoints: list[str] = []
        self.ephemeral = 0
        self.interrupted = 0

    # -- dispatch ----------------------------------------------------------------------------------

    def event(self, line: int | None, index: int, event: dict[str, Any]) -> None:
        kind: str = event["type"]
        if kind not in ev.EVENT_TYPES:
            self.built.skips.add(f"event type '{kind}'", line)
            return
        if event.get("ephemeral") is True:
            self.ephemeral += 1
            return
        data = obj(event.get("data"), ("data",))
        agent = event.get("agentId") or data.get("parentToolCallId")
        if isinstance(agent, str) and agent:
            self._subagent(agent, kind, line, data)
            return
        handler = getattr(self, "_" + kind.replace(".", "_"), None) if kind in ev.HISTORY else None
        if handler is not None:
            handler(line, index, event, data)

    def rewound(self, line: int | None, index: int, event: dict[str, Any], by: int | None) -> None:
        """An event a rewind removed: kept unsent when it carried history."""
        if event["type"] in (
            "user.message",
            "assistant.message",
            "tool.execution_complete",
            "system.message",
        ):
            data = event.get("data")
            said = data.get("content") if isinstance(data, dict) else None
            self.timeline.keep(
                f"rewound {event['type']}",
                ev.REWOUND_REASON + f" (the rewind on line {by})",
                line,
                f"[{index}]",
                text=said if isinstance(said, str) else "",
                data={"event": event},
            )

    # -- sessions and models -----------------------------------------------------------------------

    def _session_start(
        self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]
    ) -> None:
        self.metadata["session_start"] = rest(data, "sessionLimits", "githubMcpToolConfig")
        self._use_model(data.get("selectedModel"))

    def _session_resume(
        self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]
    ) -> None:
        resumes = self.metadata.setdefault("resumes", [])
        assert isinstance(resumes, list)
        resumes.append({"line": line, "resumeTime": data.get("resumeTime")})
        self._use_model(data.get("selectedModel"))

    def _session_model_change(
        self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]
    ) -> None:
        self._use_model(text(data.get("newModel"), ("data", "newModel")))

    def _use_model(self, model: Any) -> None:
        if isinstance(model, str) and model:
            self.model = model
            if model not in self.models:
                self.models.append(model)

    # -- messages ----------------------------------------------------------------------------------

    def _system_message(
        self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]
    ) -> None:
        content = text(data.get("content"), ("data", "content"))
        for slot in self.timeline.slots:
            if slot.live and slot.speaker == "system":
                slot.drop("replaced", ev.SYSTEM_REPLACED_REASON)
        meta = MessageMetadata(source_role=tag(data.get("role")) or "system", timestamp=_at(event))
        self.timeline.add(Slot(line, "data.content", index, "system", [TextBlock(text=content)], meta))

    def _user_message(
        self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]
    ) -> None:
        content = text(data.get("content"), ("data", "content"))
        sent = opt_text(data.get("transformedContent"), ("data", "transformedContent"))
        self._interrupt(line, "the user spoke again")
        extra: dict[str, JsonValue] = {"content": content} if sent is not None and sent != content else {}
        for key in ("attachments", "source", "agentMode", "delivery"):
            if data.get(key):
                extra[key] = data[key]
        meta = MessageMetadata(
            source_role="user", turn_id=_str(data.get("interactionId")), timestamp=_at(event), extra=extra
        )
        where = "data.transformedContent" if sent is not None else "data.content"
        slot = Slot(line, where, index, "human", [TextBlock(text=content if sent is None else sent)], meta)
        slot.data = {"said": content}
        self.timeline.add(slot)

    def _assistant_message(
        self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]
    ) -> None:
        content = opt_text(data.get("content"), ("data", "content")) or ""
        calls = [
            self._call(raw, ("data", "toolRequests", i))
            for i, raw in enumerate(arr(data.get("toolRequests") or [], ("data", "toolRequests")))
        ]
        model = _str(data.get("model")) or self.model
        self._use_model(data.get("model"))
        self._reasoning(line, index, data)
        blocks: list[Block] = [TextBlock(text=content)] if content else []
        blocks += calls
        api_call = _str(data.get("apiCallId"))
        last = self.timeline.last_live()
        chunk = data.get("chunkIndex")
        if (
            isinstance(chunk, int)
            and chunk > 0
            and last is not None
            and last.speaker == "ai"
            and api_call is not None
            and last.api_call == api_call
        ):
            last.blocks.extend(blocks)
        elif not content.strip() and not calls:
            self.timeline.keep(
                "empty answer", ev.EMPTY_REASON, line, f"[{index}].data", data={"event": event}
            )
            return
        else:
            meta = MessageMetadata(
                source_role="assistant", turn_id=_str(data.get("turnId")), timestamp=_at(event), model=model
            )
            slot = Slot(line, "data", index, "ai", blocks, meta, api_call=api_call)
            self.timeline.add(slot)
        for call in calls:
            self.pending[call.id] = call.name
            self.requested[call.id] = call.name

    def _call(self, raw: Any, ptr: tuple[str | int, ...]) -> ToolCallBlock:
        entry = obj(raw, ptr)
        call_id = text(entry.get("toolCallId"), (*ptr, "toolCallId"))
        arguments = entry.get("arguments")
        custom = entry.get("type") == "custom" and isinstance(arguments, str)
        return ToolCallBlock(
            id=call_id,
            name=text(entry.get("name"), (*ptr, "name")),
            parameters=None if custom else arguments,
            raw_id=call_id,
            freeform_input=arguments if custom else None,
            provider_data=rest(entry, "toolCallId", "name", "arguments", "intentionSummary", "toolTitle"),
        )

    def _reasoning(self, line: int | None, index: int, data: dict[str, Any]) -> None:
        said = data.get("reasoningText")
        sealed = {k: True for k in ("reasoningOpaque", "encryptedContent") if data.get(k)}
        if (isinstance(said, str) and said) or sealed:
            self.timeline.keep(
                "reasoning",
                ev.REASONING_REASON,
                line,
                f"[{index}].data.reasoningText",
                text=said if isinstance(said, str) else "",
                data=sealed,
            )

    def _tool_execution_complete(
        self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]
    ) -> None:
        call_id = text(data.get("toolCallId"), ("data", "toolCallId"))
        result = data.get("result")
        result = obj(result, ("data", "result")) if result is not None else {}
        error = data.get("error")
        error = obj(error, ("data", "error")) if error is not None else {}
        sent = opt_text(result.get("content"), ("data", "result", "content"))
        failed = data.get("success") is False
        message = opt_text(error.get("message"), ("data", "error", "message"))
        if call_id not in self.requested:
            self.timeline.keep(
                "user tool result" if data.get("isUserRequested") else "orphan tool result",
                ev.USER_TOOL_REASON
                if data.get("isUserRequested")
                else "a result whose call is not in the history",
                line,
                f"[{index}].data",
                text=sent or message or "",
                data={"toolCallId": call_id},
            )
            return
        value = sent if sent is not None else (message or "")
        block = ToolResponseBlock(
            call_id=call_id,
            tool_name=self.requested[call_id],
            result=value,
            error=(message or value) if failed else None,
            raw_call_id=call_id,
            provider_data=rest(result, "content", "detailedContent"),
        )
        self._answer(block, line, index, event)
        shown = result.get("detailedContent")
        if isinstance(shown, str) and shown != sent:
            self.timeline.keep(
                "tool display text",
                ev.DETAILED_REASON,
                line,
                f"[{index}].data.result.detailedContent",
                text=shown,
            )

    def _answer(
        self, block: ToolResponseBlock, line: int | None, index: int | None, event: dict[str, Any]
    ) -> None:
        self.pending.pop(block.call_id, None)
        last = self.timeline.last_live()
        if last is not None and last.speaker == "tool":
            last.blocks.append(block)
            return
        meta = MessageMetadata(source_role="tool", timestamp=_at(event))
        self.timeline.add(Slot(line, "data.result", index, "tool", [block], meta))

    def _interrupt(self, line: int | None, why: str) -> None:
        """Give every call still awaiting its result the CLI's "interrupted" result."""
        for call_id, name in list(self.pending.items()):
            block = ToolResponseBlock(
                call_id=call_id,
                tool_name=name,
                result=ev.INTERRUPTED,
                is_complete=False,
                raw_call_id=call_id,
                provider_data={"_synthetic": f"no result before line {line} ({why})"},
            )
            self._answer(block, line, None, {})
            self.interrupted += 1

    def _abort(self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]) -> None:
        self._interrupt(line, f"the turn was aborted: {data.get('reason')}")

    # -- what rewrites the history -----------------------------------------------------------------

    def _session_compaction_start(
        self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]
    ) -> None:
        self.timeline.compaction_at = len(self.timeline.slots)

    def _session_compaction_complete(
        self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]
    ) -> None:
        summary = opt_text(data.get("summaryContent"), ("data", "summaryContent"))
        start = self.timeline.compaction_at
        self.timeline.compaction_at = None
        if data.get("success") is not True or summary is None:
            self.built.notes.append(
                f"line {line}: a compaction that failed or has no summary; nothing replaced"
            )
            return
        at = len(self.timeline.slots) if start is None else start
        users = [s for s in self.timeline.slots[:at] if s.live and s.speaker == "human"]
        said = "".join(f"<user_message>\n{s.data.get('said', '')}\n</user_message>\n" for s in users)
        dropped = self.timeline.drop_all("compacted", ev.COMPACTED_REASON, until=at)
        dropped += self._drop_answers_of_dropped_calls(at)
        self._forget_dropped_calls()
        meta = MessageMetadata(
            source_role="user", synthetic=True, timestamp=_at(event), reason="the CLI's compaction summary"
        )
        wrapper = ev.SUMMARY_HEAD + said + ev.SUMMARY_TAIL.format(summary=summary)
        slot = Slot(line, "data.summaryContent", index, "human", [TextBlock(text=wrapper)], meta)
        slot.data = {"said": wrapper}
        self.timeline.slots.insert(at, slot)
        self.built.notes.append(
            f"line {line}: compaction replaced {len(dropped)} message(s) with its summary (kept unsent)"
        )

    def _drop_answers_of_dropped_calls(self, after: int) -> list[Slot]:
        """Results added while the compaction ran, answering calls it summarised, go with them.

        A call still pending when the compaction started can be answered (or interrupted, when the user
        speaks) before it completes: its result lands after the summary, while its call is replaced by
        it. Sent so, it answers no call (every provider refuses an orphan result), so the tool message
        holding only such results is kept unsent beside the call it answered.
        """
        live = {b.id for s in self.timeline.live() for b in s.blocks if isinstance(b, ToolCallBlock)}
        dropped = []
        for slot in self.timeline.slots[after:]:
            answers = [b for b in slot.blocks if isinstance(b, ToolResponseBlock)]
            if (
                slot.live
                and slot.speaker == "tool"
                and answers
                and all(b.call_id not in live for b in answers)
            ):
                slot.drop("compacted", ev.COMPACTED_REASON)
                dropped.append(slot)
        return dropped

    def _forget_dropped_calls(self) -> None:
        """Calls whose message was dropped are no longer in the history: a later result is an orphan."""
        live = {b.id for s in self.timeline.live() for b in s.blocks if isinstance(b, ToolCallBlock)}
        self.pending = {k: v for k, v in self.pending.items() if k in live}
        self.requested = {k: v for k, v in self.requested.items() if k in live}

    def _session_context_cleared(
        self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]
    ) -> None:
        dropped = self.timeline.drop_all("cleared", ev.CLEARED_REASON)
        self._forget_dropped_calls()
        self.built.notes.append(f"line {line}: /clear dropped {len(dropped)} message(s) (kept unsent)")

    def _session_snapshot_rewind(
        self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]
    ) -> None:
        self.built.notes.append(f"line {line}: a rewind removed {data.get('eventsRemoved', '?')} event(s)")

    def _session_truncation(
        self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]
    ) -> None:
        self.built.notes.append(
            f"line {line}: the CLI truncated {data.get('messagesRemovedDuringTruncation', '?')} "
            "message(s) to fit the context window; the log does not say which, so none is dropped here"
        )

    def _model_call_failure(
        self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]
    ) -> None:
        endpoint = data.get("apiEndpoint")
        if isinstance(endpoint, str) and endpoint not in self.endpoints:
            self.endpoints.append(endpoint)
        said = data.get("errorMessage")
        fields = ("statusCode", "errorCode", "errorType", "apiEndpoint", "model", "badRequestKind")
        self.timeline.keep(
            "model call failure",
            ev.FAILURE_REASON,
            line,
            f"[{index}].data",
            text=said if isinstance(said, str) else "",
            data={k: data[k] for k in fields if k in data},
        )

    def _system_notification(
        self, line: int | None, index: int, event: dict[str, Any], data: dict[str, Any]
    ) -> None:
        said = data.get("content")
        self.timeline.keep(
            "notification",
            ev.NOTIFICATION_REASON,
            line,
            f"[{index}].data.content",
            text=said if isinstance(said, str) else "",
        )

    # -- sub-agents --------------------------------------------------------------------------------

    def _subagent(self, agent: str, kind: str, line: int | None, data: dict[str, Any]) -> None:
        record = self.subagents.get(agent)
        if record is None:
            record = {"agentId": agent, "first_line": line, "events": 0, "messages": 0}
            self.subagents[agent] = record
            self.timeline.keep("subagent", ev.SUBAGENT_REASON, line, "agentId", data=record)
        record["events"] = int(str(record["events"])) + 1
        if kind in ("assistant.message", "user.message", "tool.execution_complete"):
            record["messages"] = int(str(record["messages"])) + 1
        model = data.get("model") if kind == "assistant.message" else None
        if isinstance(model, str):
            record["model"] = model

    # -- the end -----------------------------------------------------------------------------------

    def finish(self, fmt: str, path: str | None) -> Session:
        self.timeline.emit(self.built)
        notes = self.built.notes
        if self.interrupted:
            notes.append(
                f"{self.interrupted} call(s) had no result when the turn was aborted or the user spoke "
                "again: given the CLI's interrupted result (synthetic)"
            )
        if self.pending:
            notes.append(f"{len(self.pending)} call(s) await their result at the end of the log")
        if self.ephemeral:
            notes.append(f"{self.ephemeral} ephemeral event(s) skipped: the CLI does not replay them")
        notes.extend(self.built.skips.note("the Copilot CLI SDK's session-events schema does not name them"))
        metadata = dict(self.metadata)
        metadata["models"] = list(self.models)
        if self.endpoints:
            metadata["api_endpoints"] = list(self.endpoints)
        request: dict[str, JsonValue] = {"model": self.model} if self.model else {}
        return self.built.session(fmt, path=path, request=request, metadata=metadata)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _at(event: dict[str, Any]) -> float | None:
    return iso_seconds(event.get("timestamp"))
