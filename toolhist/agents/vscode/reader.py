"""VS Code chat sessions: ``workspaceStorage/<hash>/chatSessions/<session>.json``.

The session holds ``requests``, each with the user's ``message``, the ``response`` parts the chat
view showed (markdown, ``toolInvocationSerialized``…) and a ``result``. Tool calls and results
are not in the response parts as the model saw them: Copilot Chat keeps them in
``result.metadata.toolCallRounds`` (``{response, toolCalls: [{id, name, arguments}]}``) and
``result.metadata.toolCallResults`` (call id → ``{content: [{value}]}``), and builds the next
request's history from those (``research/kilo_rfc_vscode.md`` §3.2, ``anchors.md`` §3.3).

This reader therefore gives what the model sees next:

- a request with tool rounds: the prompt, then per round an ai message (its text and calls) and a
  tool message with the results the metadata kept;
- a request that was cancelled, or whose tool call the user rejected (seed 002, microsoft/vscode
  #241039): the confirmation threw, the participant returned no metadata, so the model sees the
  prompt and at most the text streamed before the call. The tool invocations shown in the chat
  view are not sent; they are listed in the prompt message's ``extra``
  (``unsent_tool_invocations``) and in a note, never dropped silently;
- Copilot's own cancellation result (``The user cancelled the tool call.``) is an incomplete result.

- an answer the extension would send empty is not sent: Copilot Chat replays history through
  prompt-tsx, whose ``GenericMaterializedContainer.toChatMessages`` drops a message that has no
  non-whitespace text and no tool calls (microsoft/vscode-prompt-tsx ``src/base/materialized.ts``,
  commit 002cea92a16481ae8bff8a6655a12a35131c8b69). A request that failed (``result.errorDetails``,
  e.g. ``net::ERR_NETWORK_CHANGED``; status ``TurnStatus.Error`` in
  ``createTurnFromVSCodeChatHistoryTurns``, microsoft/vscode-copilot-chat
  ``src/extension/prompt/node/chatParticipantRequestHandler.ts``, commit
  31acd00a86424e2ee6e980e54919cf31fbf88030) has such an empty answer: its prompt is sent, its
  answer is kept in ``Session.unsent`` with the error text the chat showed, never rendered.

Sessions seen: chat exports with and without ``version`` (the real-log corpus,
tests/corpus/logs/vscode: a plain export, a user-cancelled and an in-progress chat). The
append-only ``.jsonl`` session log of VS Code 1.109+ is replayed by `toolhist.agents.vscode.log`
into the same session and read with these rules.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import JsonValue

from toolhist.formats.base import Built, Pointer, Reader, arr, obj, opt_text, parse_arguments, rest, text
from toolhist.formats.document import Document, json_path
from toolhist.model import (
    Block,
    Message,
    MessageMetadata,
    Session,
    TextBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

CANCELLED_RESULT: Final = "The user cancelled the tool call."
"""Copilot Chat's result text for a cancelled call (``toolCallErrorToResult``)."""
CANCELLED_STATE: Final = 2
"""``ResponseModelState.Cancelled`` (see `_cancelled`)."""
EMPTY_REASON: Final = (
    "an assistant message with no text and no tool calls is dropped by prompt-tsx when Copilot Chat "
    "builds the next request (materialized.ts toChatMessages: empty messages are omitted)"
)


def _error_text(result: Any) -> str:
    """The error the chat showed for a failed request (``result.errorDetails.message``), or ''."""
    details = result.get("errorDetails") if isinstance(result, dict) else None
    message = details.get("message") if isinstance(details, dict) else None
    return message if isinstance(message, str) else ""


def _markdown(part: dict[str, Any]) -> str | None:
    """The text of a markdown response part (a bare MarkdownString or ``markdownContent``)."""
    if "kind" not in part and isinstance(part.get("value"), str):
        return str(part["value"])
    if part.get("kind") == "markdownContent":
        content = part.get("content")
        if isinstance(content, dict) and isinstance(content.get("value"), str):
            return str(content["value"])
    return None


def _cancelled(req: dict[str, Any]) -> bool:
    """Whether the user cancelled the request.

    ``isCanceled`` (files before version 3), or ``modelState.value`` 2,
    ``ResponseModelState.Cancelled`` (microsoft/vscode
    ``src/vs/workbench/contrib/chat/common/chatService/chatService.ts`` at
    00817b7f8e1cfff7ee8ff8ac8d23b50e4c131ac5; version 3 writes ``isCanceled`` no more: "deprecated,
    modelState is used instead", ``model/chatSessionOperationLog.ts``).
    """
    state = req.get("modelState")
    return bool(req.get("isCanceled")) or (isinstance(state, dict) and state.get("value") == CANCELLED_STATE)


def _message_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        label = value.get("value")
        return label if isinstance(label, str) else ""
    return ""


def _result_value(raw: Any) -> tuple[JsonValue, str | None]:
    """A ``LanguageModelToolResult`` as (result, text): text parts joined when all parts are text."""
    content = raw.get("content") if isinstance(raw, dict) else raw
    if isinstance(content, list) and all(
        isinstance(p, dict) and isinstance(p.get("value"), str) for p in content
    ):
        joined = "\n".join(str(p["value"]) for p in content)
        return joined, joined
    if isinstance(content, str):
        return content, content
    return raw, None


class VSCodeReader(Reader):
    """``vscode``: VS Code (Copilot Chat) chat session JSON."""

    id = "vscode"
    description = (
        "VS Code chat session (chatSessions/*.json): what the model sees, rejected tool turns included"
    )

    def recognise(self, value: Any) -> int:
        """Certain on an object whose ``requests`` carry ``message`` and ``response``."""
        if not isinstance(value, dict) or not isinstance(value.get("requests"), list):
            return 0
        requests = value["requests"]
        if not all(isinstance(r, dict) and "message" in r for r in requests):
            return 0
        return 2 if "sessionId" in value or "requesterUsername" in value or not requests else 1

    def read(self, doc: Document) -> Session:
        """Read every request as the messages the next request's history holds."""
        value = obj(doc.value, ())
        built = Built(doc)
        for i, raw in enumerate(arr(value.get("requests"), ("requests",))):
            self._request(obj(raw, ("requests", i)), ("requests", i), i, built)
        return built.session(self.id, tools=None, request={}, metadata=rest(value, "requests"))

    def _request(self, req: dict[str, Any], ptr: Pointer, index: int, built: Built) -> None:
        message = req["message"]
        prompt = text(message.get("text"), (*ptr, "message", "text")) if isinstance(message, dict) else ""
        if isinstance(message, str):
            prompt = message
        ts = req.get("timestamp")
        stamp = ts / 1000 if isinstance(ts, int | float) and not isinstance(ts, bool) else None
        request_id = opt_text(req.get("requestId"), (*ptr, "requestId"))
        model = req.get("modelId") if isinstance(req.get("modelId"), str) else None
        result = req.get("result")
        meta = result.get("metadata") if isinstance(result, dict) else None
        rounds = meta.get("toolCallRounds") if isinstance(meta, dict) else None
        parts = [p for p in arr(req.get("response", []), (*ptr, "response")) if isinstance(p, dict)]
        invocations: list[JsonValue] = []
        if not isinstance(rounds, list):
            invocations = [
                {
                    "toolCallId": p.get("toolCallId"),
                    "toolId": p.get("toolId"),
                    "isConfirmed": p.get("isConfirmed"),
                    "invocationMessage": _message_text(p.get("invocationMessage")),
                }
                for p in parts
                if p.get("kind") in ("toolInvocationSerialized", "toolInvocation")
            ]
        extra: dict[str, JsonValue] = {"unsent_tool_invocations": invocations} if invocations else {}
        if _cancelled(req):
            extra["isCanceled"] = True
        built.add(
            Message(
                speaker="human",
                blocks=(TextBlock(text=prompt),),
                metadata=MessageMetadata(
                    source_role="user", turn_id=request_id, timestamp=stamp, extra=extra
                ),
            ),
            index,
            (*ptr, "message"),
        )
        ai_meta = MessageMetadata(source_role="assistant", turn_id=request_id, model=model)
        if isinstance(rounds, list):
            results = meta.get("toolCallResults") if isinstance(meta, dict) else None
            self._rounds(
                rounds=rounds,
                results=results if isinstance(results, dict) else {},
                ptr=(*ptr, "result", "metadata"),
                index=index,
                built=built,
                ai_meta=ai_meta,
                failed=result,
            )
            return
        if invocations:
            why = "was cancelled" if _cancelled(req) else "returned no tool-round metadata"
            ids = ", ".join(str(v["toolCallId"]) for v in invocations if isinstance(v, dict))
            built.notes.append(
                f"requests[{index}]: the turn {why}; its tool invocation(s) {ids} were shown in the chat "
                "but are not in the history the model sees next"
            )
        streamed = "".join(t for p in parts if (t := _markdown(p)) is not None)
        if streamed.strip():
            built.add(
                Message(speaker="ai", blocks=(TextBlock(text=streamed),), metadata=ai_meta),
                index,
                (*ptr, "response"),
            )
        elif _error_text(result) and not _cancelled(req):
            self._unsent_answer(built, (*ptr, "result"), result, streamed)

    def _rounds(
        self,
        *,
        rounds: list[Any],
        results: dict[str, Any],
        ptr: Pointer,
        index: int,
        built: Built,
        ai_meta: MessageMetadata,
        failed: Any,
    ) -> None:
        """One ai message per tool round, each followed by the results the metadata kept for it.

        A round with no text and no calls is not sent (`EMPTY_REASON`); the request's error, when
        it failed, rides on that record.
        """
        for r, raw in enumerate(rounds):
            rptr = (*ptr, "toolCallRounds", r)
            round_ = obj(raw, rptr)
            blocks: list[Block] = []
            response = round_.get("response")
            if isinstance(response, str) and response:
                blocks.append(TextBlock(text=response))
            calls: list[ToolCallBlock] = []
            for c, call_raw in enumerate(arr(round_.get("toolCalls", []), (*rptr, "toolCalls"))):
                cptr = (*rptr, "toolCalls", c)
                entry = obj(call_raw, cptr)
                call_id = text(entry.get("id"), (*cptr, "id"))
                arguments = entry.get("arguments")
                if isinstance(arguments, str):
                    params, error = parse_arguments(arguments)
                    raw_args: str | None = arguments
                else:
                    params, error, raw_args = arguments, None, None
                calls.append(
                    ToolCallBlock(
                        id=call_id,
                        name=text(entry.get("name"), (*cptr, "name")),
                        parameters=params,
                        raw_id=call_id,
                        raw_arguments=raw_args,
                        arguments_error=error,
                        provider_data=rest(entry, "id", "name", "arguments"),
                    )
                )
            if not calls and not (isinstance(response, str) and response.strip()):
                self._unsent_answer(built, rptr, failed, response if isinstance(response, str) else "")
                continue
            built.add(
                Message(speaker="ai", blocks=(*blocks, *calls), metadata=ai_meta),
                index,
                rptr,
            )
            answers: list[Block] = []
            for call in calls:
                if call.id not in results:
                    continue
                value, as_text = _result_value(results[call.id])
                cancelled = as_text == CANCELLED_RESULT
                answers.append(
                    ToolResponseBlock(
                        call_id=call.id,
                        tool_name=call.name,
                        result=value,
                        error=as_text if cancelled else None,
                        is_complete=not cancelled,
                        raw_call_id=call.id,
                    )
                )
            if answers:
                built.add(
                    Message(
                        speaker="tool", blocks=tuple(answers), metadata=MessageMetadata(source_role="user")
                    ),
                    index,
                    (*ptr, "toolCallResults"),
                )

    @staticmethod
    def _unsent_answer(built: Built, ptr: Pointer, result: Any, streamed: str) -> None:
        """Keep an answer Copilot Chat would send empty (a failed request's) visible, unrendered."""
        error = _error_text(result)
        details = result.get("errorDetails") if isinstance(result, dict) else None
        data: dict[str, JsonValue] = {"errorDetails": details} if isinstance(details, dict) else {}
        if streamed:
            data["response"] = streamed
        built.keep_unsent(
            "failed_request" if error else "empty_answer",
            EMPTY_REASON,
            ptr,
            text=error or streamed,
            data=data,
        )
        if error:
            # The chat's text: "Sorry, your request failed…\n\nReason: …" (a stack trace may follow).
            lines = [line.strip() for line in error.splitlines() if line.strip()]
            reason = next((line for line in lines if line.startswith("Reason:")), lines[0])
            built.notes.append(f"{json_path(ptr)}: request failed ({reason[:200]}); its answer is not sent")
