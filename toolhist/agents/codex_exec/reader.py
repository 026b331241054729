"""``codex exec --json`` event streams: what they carry of what Codex sent, read as that much.

The stream is ``ThreadEvent`` lines (openai/codex ``codex-rs/exec/src/exec_events.rs`` at
08a1f30ca23f51922d1a4a4965b5ab999b64bead): ``thread.started`` (``thread_id``), ``turn.started``,
``turn.completed`` (usage), ``turn.failed``, ``item.started`` / ``item.updated`` / ``item.completed``
(a ``ThreadItem``: ``id`` plus ``agent_message``, ``plan``, ``reasoning``, ``command_execution``,
``file_change``, ``mcp_tool_call``, ``collab_tool_call``, ``web_search``, ``todo_list`` or ``error``),
``item.plan.delta``, ``request_user_input`` and ``error``. It is what Codex tells its caller, not
a rollout (`toolhist.agents.codex` reads those), so:

- it carries the model's words (``agent_message``, ``plan``), its reasoning summaries, each command
  (the joined command line, its output and exit code), file changes (paths and kinds), MCP calls
  (server, tool, arguments, result) and the turn structure;
- it does not carry the prompts (``turn.started`` has none; the user's input came on argv or
  stdin), the instructions and the context messages Codex adds, the call ids Codex sent (items
  have their own ``item_N`` ids), the tool names and arguments as the model wrote them (the shell
  call's argv, ``apply_patch``'s patch), the encrypted reasoning, nor the model and provider.

So each turn is read as a placeholder user message (synthetic, saying the prompt is not in the
stream), then the items in order: reasoning as thinking, messages as text, and each tool item as a
call named by its item type (``command_execution``…, its item id as the call id) answered by its
outcome once completed; an item started and never completed is a pending call. Web searches, to-do
lists, errors, failed turns and input requests are kept in ``Session.unsent``. A verdict on this is
a verdict on an approximation: the rollout of the same thread (``rollout-*-<thread_id>.jsonl``) is
what Codex sent, and `pair` finds it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from pydantic import JsonValue

from toolhist.agents.codex_exec.pair import Paired, pair
from toolhist.formats.jsonl_stream import Collector, Lines, StreamReader, at_line
from toolhist.model import (
    Block,
    Message,
    MessageMetadata,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

EVENTS: Final = frozenset(
    {
        "thread.started",
        "turn.started",
        "turn.completed",
        "turn.failed",
        "item.started",
        "item.updated",
        "item.completed",
        "item.plan.delta",
        "request_user_input",
        "error",
    }
)
TOOL_ITEMS: Final = frozenset({"command_execution", "file_change", "mcp_tool_call", "collab_tool_call"})
TEXT_ITEMS: Final = frozenset({"agent_message", "plan"})
UNSENT_ITEMS: Final = {
    "web_search": (
        "a built-in Responses web search: the stream shows its query, not the web_search_call item Codex sent"
    ),
    "todo_list": "the to-do list Codex shows (its update_plan call is not in the stream)",
    "error": "a non-fatal error Codex reported to its caller, not to the model",
}
PROMPT: Final = "(this turn's prompt: a codex exec --json stream does not carry it)"
WHY_PROMPT: Final = (
    "turn.started carries no prompt (codex-rs/exec/src/exec_events.rs): the user's input came on argv or "
    "stdin; this placeholder stands in its place"
)


def looks_exec(value: Any) -> int:
    """2 on ``ThreadEvent`` lines: each has a ``type``, one is ``thread.started``, ``turn.*``, ``item.*``."""
    if not isinstance(value, list) or not value:
        return 0
    if not all(isinstance(v, dict) and isinstance(v.get("type"), str) for v in value):
        return 0
    kinds = {v["type"] for v in value}
    if "thread.started" in kinds or kinds & {"item.completed", "item.started", "turn.started"}:
        return 2 if not any("payload" in v or "uuid" in v for v in value) else 0
    return 0


def _result(item: dict[str, Any]) -> tuple[JsonValue, str | None]:
    """A tool item's outcome as the result the stream shows, and an error when it failed."""
    kind, status = item.get("type"), item.get("status")
    if kind == "command_execution":
        output = item.get("aggregated_output", "")
        code = item.get("exit_code")
        failed = status in ("failed", "declined") or (isinstance(code, int) and code != 0)
        return output, (f"exit code {code}" if isinstance(code, int) else str(status)) if failed else None
    if kind == "mcp_tool_call":
        error = item.get("error")
        message = error.get("message") if isinstance(error, dict) else None
        return item.get("result"), message if isinstance(message, str) else None
    return {"status": status}, None if status == "completed" else str(status)


def _call(item: dict[str, Any]) -> ToolCallBlock:
    kind = str(item.get("type"))
    params = {
        k: v
        for k, v in item.items()
        if k not in ("id", "type", "status", "aggregated_output", "exit_code", "result", "error")
    }
    return ToolCallBlock(
        id=str(item.get("id")),
        name=kind,
        parameters=params,
        raw_id=str(item.get("id")),
        provider_data={"_exec_item": True},
    )


class _Turns:
    """The messages being built: the current assistant message collects until a result breaks it."""

    def __init__(self, out: Collector) -> None:
        self.out = out
        self.ai: list[Block] = []
        self.ai_line: int | None = None
        self.open: dict[str, tuple[int | None, dict[str, Any]]] = {}

    def flush(self) -> None:
        if self.ai:
            self.out.add(
                Message(speaker="ai", blocks=tuple(self.ai), metadata=MessageMetadata(source_role="item")),
                self.ai_line,
                None,
            )
            self.ai = []

    def prompt(self, line: int | None) -> None:
        self.flush()
        meta = MessageMetadata(source_role="turn.started", synthetic=True, reason=WHY_PROMPT)
        self.out.add(Message(speaker="human", blocks=(TextBlock(text=PROMPT),), metadata=meta), line, None)

    def add(self, block: Block, line: int | None) -> None:
        if not self.ai:
            self.ai_line = line
        self.ai.append(block)

    def answer(self, item: dict[str, Any], line: int | None) -> None:
        self.flush()
        result, error = _result(item)
        block = ToolResponseBlock(
            call_id=str(item.get("id")),
            tool_name=str(item.get("type")),
            result=result,
            error=error,
            raw_call_id=str(item.get("id")),
        )
        last = self.out.messages[-1] if self.out.messages else None
        if last is not None and last.speaker == "tool":
            self.out.messages[-1] = last.model_copy(update={"blocks": (*last.blocks, block)})
        else:
            self.out.add(
                Message(speaker="tool", blocks=(block,), metadata=MessageMetadata(source_role="item")),
                line,
                None,
            )


class CodexExecReader(StreamReader):
    """``codex-exec``: a ``codex exec --json`` event stream, read as far as it carries what Codex sent."""

    id = "codex-exec"
    description = "Codex exec --json event stream (JSONL: thread.started, item.completed…)"

    def recognise(self, value: Any) -> int:
        """Certain on ``ThreadEvent`` lines (``thread.started``, ``turn.*``, ``item.*``)."""
        return looks_exec(value)

    def read_lines(self, lines: Lines, *, name: str, path: str | None, notes: list[str]) -> Session:
        """Turns and items in order; tool items as calls answered when they complete."""
        out = Collector(notes)
        turns = _Turns(out)
        thread: str | None = None
        usage: list[JsonValue] = []
        counts: Counter[str] = Counter()
        for line, event in lines:
            if not isinstance(event, dict):
                raise at_line(line, (), "an event line is a JSON object")
            kind = event.get("type")
            if kind not in EVENTS:
                out.skips.add(
                    f"event type {kind!r}" if isinstance(kind, str) else "event without a string 'type'", line
                )
                continue
            counts[str(kind)] += 1
            if kind == "thread.started":
                thread = event.get("thread_id") if isinstance(event.get("thread_id"), str) else thread
            elif kind == "turn.started":
                turns.prompt(line)
            elif kind == "turn.completed":
                usage.append(event.get("usage"))
            elif kind in ("turn.failed", "error", "request_user_input"):
                turns.flush()
                error = event.get("error") if kind == "turn.failed" else event
                text = error.get("message") if isinstance(error, dict) else None
                out.keep_unsent(
                    str(kind),
                    f"a {kind} event: what Codex told its caller, not part of what it sent",
                    line,
                    "",
                    text=str(text or ""),
                    data=dict(event),
                )
            elif kind in ("item.started", "item.completed"):
                self._item(event, kind, line, turns, out)
        turns.flush()
        counts["pending item"] += len(turns.open)
        if not counts["pending item"]:
            del counts["pending item"]
        if thread is None and not out.messages and not counts:
            raise at_line(None, (), "no codex exec --json event in this file")
        paired = pair(thread, path)
        out.notes += _notes(counts, paired, thread)
        out.notes += out.skips.note("a newer Codex may emit event types this reader does not know")
        metadata: dict[str, JsonValue] = {"thread_id": thread, "usage": usage}
        if paired is not None:
            metadata["rollout"] = paired.as_json()
        return out.session(
            self.id,
            path=path,
            request={"model": paired.model} if paired and paired.model else {},
            metadata=metadata,
        )

    @staticmethod
    def _item(event: dict[str, Any], kind: str, line: int | None, turns: _Turns, out: Collector) -> None:
        item = event.get("item")
        if not isinstance(item, dict) or not isinstance(item.get("type"), str):
            raise at_line(line, ("item",), "expected an item object with a string 'type'")
        itype, iid = item["type"], str(item.get("id"))
        if itype in TOOL_ITEMS:
            if kind == "item.started":
                turns.open[iid] = (line, item)
                turns.add(_call(item), line)
            else:
                if turns.open.pop(iid, None) is None:
                    turns.add(_call(item), line)
                turns.answer(item, line)
        elif kind == "item.started":
            return
        elif itype == "reasoning":
            turns.add(ThinkingBlock(text=str(item.get("text", "")), source_provider="codex-exec"), line)
        elif itype in TEXT_ITEMS:
            turns.add(TextBlock(text=str(item.get("text", ""))), line)
        elif itype in UNSENT_ITEMS:
            turns.flush()
            out.keep_unsent(
                itype,
                UNSENT_ITEMS[itype],
                line,
                "item",
                text=str(item.get("query") or item.get("message") or ""),
                data=dict(item),
            )
        else:
            out.skips.add(f"item type {itype!r}", line)


def _notes(counts: Counter[str], paired: Paired | None, thread: str | None) -> list[str]:
    notes = [
        "a codex exec --json stream is what Codex tells its caller, not what it sent: prompts, instructions, "
        "call ids, tool arguments as the model wrote them and encrypted reasoning are not in it; tool items "
        "are "
        "calls named by their item type"
    ]
    if paired is not None:
        notes.append(
            f"the rollout of thread {thread} holds what Codex sent: {paired.path} (toolhist check it)"
        )
    elif thread is not None:
        notes.append(
            f"no rollout-*-{thread}.jsonl found beside the stream or under $CODEX_HOME/sessions "
            "(or ~/.codex/sessions)"
        )
    notes.append("events: " + ", ".join(f"{k} x{n}" for k, n in sorted(counts.items())))
    return notes
