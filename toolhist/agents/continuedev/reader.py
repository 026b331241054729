r"""Continue sessions (``~/.continue/sessions/<sessionId>.json``): the messages Continue sends next.

A session is ``{sessionId, title, workspaceDirectory, history: ChatHistoryItem[], mode?,
chatModelTitle?, usage?}`` (continuedev/continue ``core/index.d.ts`` ``Session``,
``ChatHistoryItem``; saved by ``core/util/history.ts``; read at
d0a3c0b626b5bebc3bef4742eec05a0242be0bab). Continue builds each request from it with
``constructMessages`` (``gui/src/redux/util/constructMessages.ts``), which this reader follows:

- the newest item with a ``conversationSummary`` cuts the history: only the items after it are
  sent, and the summary is appended to the system message ("Previous conversation summary:");
  the items before it are kept unsent;
- items whose message is ``system`` or ``tool``, or is empty (``chatMessageIsEmpty``,
  ``core/llm/messages.ts``: a blank string, an assistant's without tool calls), are not sent
  (tool messages are rebuilt from the assistant's ``toolCallStates``): kept unsent;
- a user message is its context items' texts (each ``content + "\\n"``, blank ones left out), then
  its own parts (``normalizeToMessageParts``; ``imageUrl`` parts as images);
- a ``thinking`` message goes before the next assistant message, which its provider adapters merge
  it into (``core/llm/openaiTypeConverters.ts``: "thinking messages are merged into following
  assistant messages"; ``core/llm/llms/Anthropic.ts`` sends it as a thinking block with its
  ``signature``, or ``redactedThinking`` as redacted_thinking);
- an assistant message is its text and its ``toolCalls`` (``ToolCallDelta``: ``id``, ``function.name``,
  ``function.arguments`` as a JSON string); each call's ``toolCallState`` becomes one tool message:
  ``CANCELLED_TOOL_CALL_MESSAGE`` for ``canceled``, else the output's context items rendered
  (``renderContextItems``: contents joined by a blank line; ``[Status: …]`` appended per item for
  ``run_terminal_command``), else ``ERRORED_TOOL_CALL_OUTPUT_MESSAGE`` for ``errored``, else
  ``NO_TOOL_CALL_OUTPUT_MESSAGE`` (``core/tools/constants.ts``).

Not in the file: Continue's base system message and rules (its config), so the system message
read here holds only the summary when there is one; a model configured for system-message tools
(``useSystemToolsFramework``) gets its calls as text instead: this reader assumes native tools.
The provider the run used is in the assistant items' ``promptLogs[].modelProvider`` (Continue's
provider id, ``underlyingProviderName``).
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import JsonValue

from toolhist.formats.base import Built, Pointer, Reader, arr, obj, opt_text, parse_arguments, rest, tag, text
from toolhist.formats.document import Document
from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    MessageMetadata,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

NO_OUTPUT: Final = "No tool output"
CANCELLED: Final = "The user cancelled this tool call."
ERRORED: Final = "There was an error calling the tool."
"""``core/tools/constants.ts``: what a tool message says without output."""
TERMINAL: Final = "run_terminal_command"
"""``BuiltInToolNames.RunTerminalCommand``, whose outputs carry a status (``core/tools/builtIn.ts``)."""
SKIPPED_REASON: Final = {
    "system": "a system item: constructMessages skips it (Continue sends its own system message)",
    "tool": "a tool item: constructMessages skips it and rebuilds tool messages from toolCallStates",
    "empty": "an empty message (chatMessageIsEmpty): constructMessages skips it",
}
SUMMARY_REASON: Final = (
    "before the newest conversationSummary: constructMessages sends only the items after it, with the "
    "summary appended to the system message"
)


def _parts(content: Any, ptr: Pointer) -> list[Block]:
    """``normalizeToMessageParts``: a string is one text part; ``imageUrl`` parts are images."""
    if isinstance(content, str):
        return [TextBlock(text=content)]
    blocks: list[Block] = []
    for i, raw in enumerate(arr(content, ptr)):
        part = obj(raw, (*ptr, i))
        if part.get("type") == "imageUrl":
            image = obj(part.get("imageUrl"), (*ptr, i, "imageUrl"))
            blocks.append(MediaBlock(url=text(image.get("url"), (*ptr, i, "imageUrl", "url"))))
        else:
            blocks.append(TextBlock(text=text(part.get("text"), (*ptr, i, "text"))))
    return blocks


def _is_empty(message: dict[str, Any]) -> bool:
    """``chatMessageIsEmpty`` (core/llm/messages.ts)."""
    content = message.get("content")
    blank = isinstance(content, str) and not content.strip()
    if message.get("role") in ("system", "user"):
        return blank
    if message.get("role") == "assistant":
        return blank and not message.get("toolCalls")
    return False


def _tool_text(state: dict[str, Any], name: str | None) -> str:
    """What Continue sends for one tool call state (see the module notes)."""
    status = state.get("status")
    output = state.get("output")
    if status == "canceled":
        return CANCELLED
    if isinstance(output, list) and output:
        items = [o for o in output if isinstance(o, dict)]
        if name == TERMINAL:
            return "\n\n".join(
                str(o.get("content", "")) + (f"\n[Status: {o['status']}]" if o.get("status") else "")
                for o in items
            )
        return "\n\n".join(str(o.get("content", "")) for o in items)
    return ERRORED if status == "errored" else NO_OUTPUT


class ContinueReader(Reader):
    """``continue``: a Continue session file, as constructMessages sends it."""

    id = "continue"
    description = "Continue session (~/.continue/sessions/<id>.json): the messages constructMessages sends"

    def recognise(self, value: Any) -> int:
        """Certain on an object with ``sessionId``, ``workspaceDirectory`` and a ``history`` of items."""
        if not isinstance(value, dict) or not isinstance(value.get("history"), list):
            return 0
        items = value["history"]
        if not all(isinstance(i, dict) and isinstance(i.get("message"), dict) for i in items):
            return 0
        return 2 if "sessionId" in value and "workspaceDirectory" in value else 1

    def read(self, doc: Document) -> Session:
        """Build the history constructMessages would send (see the module notes)."""
        value = obj(doc.value, ())
        items = arr(value.get("history"), ("history",))
        built = Built(doc)
        cut = next((i for i in range(len(items) - 1, -1, -1) if _summary(items[i])), None)
        if cut is not None:
            summary = _summary(items[cut]) or ""
            for i in range(cut + 1):
                built.keep_unsent("summarized item", SUMMARY_REASON, ("history", i), text=_said(items[i]))
            meta = MessageMetadata(source_role="system", synthetic=True, reason="Continue's summary")
            said = f"Previous conversation summary:\n\n {summary}"
            built.add(
                Message(speaker="system", blocks=(TextBlock(text=said),), metadata=meta),
                cut,
                ("history", cut),
            )
        thinking: list[Block] = []
        for i in range((cut + 1) if cut is not None else 0, len(items)):
            thinking = self._item(built, obj(items[i], ("history", i)), i, thinking)
        if thinking:
            built.add(
                Message(speaker="ai", blocks=tuple(thinking)), len(items) - 1, ("history", len(items) - 1)
            )
        metadata = rest(value, "history")
        return built.session(self.id, tools=None, request=_request(value), metadata=metadata)

    def _item(self, built: Built, item: dict[str, Any], i: int, thinking: list[Block]) -> list[Block]:
        """Add item ``i``'s messages; returns the thinking blocks awaiting the next assistant message."""
        ptr: Pointer = ("history", i)
        message = obj(item.get("message"), (*ptr, "message"))
        role = tag(message.get("role"))
        if role in ("system", "tool") or _is_empty(message):
            kind = role if role in ("system", "tool") else "empty"
            built.keep_unsent(f"{kind} item", SKIPPED_REASON[kind], ptr, text=_said(item))
            return thinking
        mptr: Pointer = (*ptr, "message")
        if role == "thinking":
            return [*thinking, self._thinking(message, mptr)]
        if role == "user":
            context = [
                TextBlock(text=f"{c['content']}\n")
                for c in arr(item.get("contextItems") or [], (*ptr, "contextItems"))
                if isinstance(c, dict) and isinstance(c.get("content"), str) and f"{c['content']}\n".strip()
            ]
            blocks = [*context, *_parts(message.get("content"), (*mptr, "content"))]
            meta = MessageMetadata(source_role="user")
            if thinking:
                built.add(Message(speaker="ai", blocks=tuple(thinking)), i, ptr)
            built.add(Message(speaker="human", blocks=tuple(blocks), metadata=meta), i, mptr)
            return []
        if role != "assistant":
            built.skips.add(f"message role '{role}'")
            return thinking
        self._assistant(built, item, message, i, thinking)
        return []

    @staticmethod
    def _thinking(message: dict[str, Any], ptr: Pointer) -> Block:
        redacted = opt_text(message.get("redactedThinking"), (*ptr, "redactedThinking"))
        content = message.get("content")
        said = (
            content
            if isinstance(content, str)
            else "".join(b.text for b in _parts(content, (*ptr, "content")) if isinstance(b, TextBlock))
        )
        return ThinkingBlock(
            text="" if redacted else said,
            signature=opt_text(message.get("signature"), (*ptr, "signature")),
            redacted=redacted is not None,
            data=redacted,
            source_provider="continue",
        )

    def _assistant(
        self, built: Built, item: dict[str, Any], message: dict[str, Any], i: int, thinking: list[Block]
    ) -> None:
        ptr: Pointer = ("history", i, "message")
        content = message.get("content")
        blocks: list[Block] = [*thinking]
        if not (isinstance(content, str) and not content):
            blocks += [
                b for b in _parts(content, (*ptr, "content")) if not isinstance(b, TextBlock) or b.text
            ]
        calls: list[ToolCallBlock] = []
        for c, raw in enumerate(arr(message.get("toolCalls") or [], (*ptr, "toolCalls"))):
            entry = obj(raw, (*ptr, "toolCalls", c))
            found = entry.get("function")
            function: dict[str, Any] = found if isinstance(found, dict) else {}
            call_id, name = entry.get("id"), function.get("name")
            if not isinstance(call_id, str) or not isinstance(name, str):
                built.notes.append(
                    f"history[{i}].message.toolCalls[{c}]: a call without id or name is not sent"
                )
                continue
            arguments = function.get("arguments")
            params, error = parse_arguments(arguments) if isinstance(arguments, str) else (arguments, None)
            calls.append(
                ToolCallBlock(
                    id=call_id,
                    name=name,
                    parameters=params,
                    raw_id=call_id,
                    raw_arguments=arguments if isinstance(arguments, str) else None,
                    arguments_error=error,
                )
            )
        meta = MessageMetadata(source_role="assistant", provider=_provider(item), model=_model(item))
        built.add(Message(speaker="ai", blocks=(*blocks, *calls), metadata=meta), i, ptr)
        states: dict[Any, dict[str, Any]] = {}
        for s in arr(item.get("toolCallStates") or [], ("history", i, "toolCallStates")):
            if isinstance(s, dict):
                inner = s.get("toolCall")
                states[s.get("toolCallId") or (inner.get("id") if isinstance(inner, dict) else None)] = s
        for call in calls:
            state = states.get(call.id, {})
            said = _tool_text(state, call.name)
            answer = ToolResponseBlock(
                call_id=call.id,
                tool_name=call.name,
                result=said,
                is_complete=said not in (NO_OUTPUT, CANCELLED),
                raw_call_id=call.id,
                provider_data={"status": state.get("status")} if state else {"status": None},
            )
            tool_meta = MessageMetadata(source_role="tool")
            built.add(
                Message(speaker="tool", blocks=(answer,), metadata=tool_meta),
                i,
                ("history", i, "toolCallStates"),
            )


def _summary(item: Any) -> str | None:
    summary = item.get("conversationSummary") if isinstance(item, dict) else None
    return summary if isinstance(summary, str) and summary else None


def _said(item: Any) -> str:
    message = item.get("message") if isinstance(item, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else []
    return "".join(p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str))


def _log(item: dict[str, Any]) -> dict[str, Any]:
    logs = item.get("promptLogs")
    last = logs[-1] if isinstance(logs, list) and logs else None
    return last if isinstance(last, dict) else {}


def _provider(item: dict[str, Any]) -> str | None:
    said = _log(item).get("modelProvider")
    return said if isinstance(said, str) and said else None


def _model(item: dict[str, Any]) -> str | None:
    said = _log(item).get("modelTitle")
    return said if isinstance(said, str) and said else None


def _request(value: dict[str, Any]) -> dict[str, JsonValue]:
    title = value.get("chatModelTitle")
    return {"model": title} if isinstance(title, str) and title else {}
