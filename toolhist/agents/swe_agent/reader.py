"""SWE-agent ``.traj`` files and mini-SWE-agent trajectories: the chat history each sends its model.

**SWE-agent** (SWE-agent/SWE-agent, read at princeton-nlp/SWE-agent
0772c99cb2903ccf22ba543eaf128742afa470d6): a ``.traj`` is ``{"trajectory": [...steps],
"history": [...], "info": {...}}``; ``history`` is ``HistoryItem``s (``sweagent/types.py``:
``role``, ``content``, ``message_type``, ``agent``, ``thought``, ``action``, ``tool_calls``,
``tool_call_ids``, ``is_demo``). ``_history_to_messages`` (``sweagent/agent/models.py``) makes the
chat messages litellm sends: a ``tool`` item becomes ``{"role": "tool", "content",
"tool_call_id": tool_call_ids[0]}`` ("only one tool call per observation"), an item with
``tool_calls`` keeps them (OpenAI-shaped), any other ``{"role", "content"}``; ``thought``,
``action`` and the bookkeeping fields are not sent (kept in the message metadata). The history
processors that shorten old observations at send time are configured per run and not replayed.

**mini-SWE-agent** (SWE-agent/mini-swe-agent a83fcae82d2a08f0ee0c688f9d137b3566c097f8,
``src/minisweagent/agents/default.py`` ``serialize``): ``{"info": {...}, "messages": [...],
"trajectory_format": "mini-swe-agent-1.1"}`` (``mini-swe-agent-1`` before tool calling). Each
message is what the model class keeps: a chat message from litellm (``message.model_dump()``,
``tool_calls`` included) or, for the Responses model classes, Responses items; each carries an
``extra`` (actions, the raw response, cost) that ``_prepare_messages_for_api`` strips before
sending. So the messages without ``extra`` are read as Chat Completions messages, or as Responses
input items when that is what they are. The last message of a finished run has role ``exit``
(exit status and submission): never sent, kept in ``Session.unsent``.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import JsonValue

from toolhist.formats.base import Built, Pointer, Reader, ShapeError, arr, obj, rest
from toolhist.formats.document import Document
from toolhist.formats.openai_chat import read_message
from toolhist.formats.openai_responses import OpenAIResponsesReader
from toolhist.model import MessageMetadata, Session, SessionSource

SWE_FORMAT: Final = "swe-agent"
MINI_FORMAT: Final = "mini-swe-agent"
EXIT: Final = "exit"
"""The role of the message mini-SWE-agent's ``DefaultAgent`` appends when the run stops (exit status,
submission): kept unsent."""
NOT_SENT_ITEM: Final = ("agent", "message_type", "thought", "action", "tool_call_ids", "is_demo", "tags")


def _history_item(item: Any) -> bool:
    return isinstance(item, dict) and "role" in item and ("message_type" in item or "agent" in item)


class SweAgentReader(Reader):
    """``swe-agent``: a SWE-agent ``.traj`` (its ``history``, as ``_history_to_messages`` sends it)."""

    id = SWE_FORMAT
    description = "SWE-agent trajectory (.traj): the history it sends the model"

    def recognise(self, value: Any) -> int:
        """Certain on an object whose ``history`` items carry SWE-agent's ``message_type``/``agent``."""
        if not isinstance(value, dict):
            return 0
        history = value.get("history")
        if isinstance(history, list) and history and all(_history_item(h) for h in history):
            return 2
        return 0

    def read(self, doc: Document) -> Session:
        """Each history item as the chat message SWE-agent sends for it."""
        value = obj(doc.value, ())
        built = Built(doc)
        for i, raw in enumerate(arr(value.get("history"), ("history",))):
            ptr: Pointer = ("history", i)
            item = obj(raw, ptr)
            role = item.get("role")
            sent: dict[str, Any] = {"role": role, "content": item.get("content")}
            if role == "tool":
                ids = item.get("tool_call_ids")
                if not isinstance(ids, list) or not ids:
                    raise ShapeError(
                        (*ptr, "tool_call_ids"), "a tool item needs the id of the call it answers"
                    )
                sent["tool_call_id"] = ids[0]
                if len(ids) > 1:
                    built.notes.append(
                        f"history[{i}] answers {len(ids)} calls; SWE-agent sends it for the first only "
                        f"({ids[0]}), as _history_to_messages does"
                    )
            elif "tool_calls" in item:
                sent["tool_calls"] = item["tool_calls"]
            message = read_message(sent, ptr, self.id, built.notes)
            kept = {
                k: v for k, v in rest(item, "role", "content", "tool_calls").items() if k in NOT_SENT_ITEM
            }
            meta = message.metadata.model_copy(update={"extra": {**message.metadata.extra, **kept}})
            built.add(message.model_copy(update={"metadata": meta}), i, ptr)
        info = value.get("info")
        metadata: dict[str, JsonValue] = {"info": info} if isinstance(info, dict) else {}
        return built.session(self.id, tools=None, request={}, metadata=metadata)


class MiniSweAgentReader(Reader):
    """``mini-swe-agent``: a mini-SWE-agent trajectory (its ``messages`` without ``extra``)."""

    id = MINI_FORMAT
    description = "mini-SWE-agent trajectory (.traj.json, trajectory_format mini-swe-agent-1*)"

    def recognise(self, value: Any) -> int:
        """Certain on ``trajectory_format`` naming mini-swe-agent beside ``messages``."""
        if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
            return 0
        said = value.get("trajectory_format")
        return 2 if isinstance(said, str) and said.startswith("mini-swe-agent") else 0

    def read(self, doc: Document) -> Session:
        """The messages as ``_prepare_messages_for_api`` sends them (``extra`` stripped)."""
        value = obj(doc.value, ())
        if not isinstance(value.get("trajectory_format"), str) and not isinstance(value.get("info"), dict):
            # `DefaultAgent.save` writes both; a bare {"messages": …} is some other format's body
            raise ShapeError(
                ("trajectory_format",), "a mini-SWE-agent trajectory names its trajectory_format"
            )
        raw = arr(value.get("messages"), ("messages",))
        built = Built(doc)
        kept: list[int] = []
        for i, m in enumerate(raw):
            if obj(m, ("messages", i)).get("role") == EXIT:
                extra = m.get("extra")
                built.keep_unsent(
                    "exit message",
                    "the end of the run: DefaultAgent writes role 'exit' when it stops; no model is sent it",
                    ("messages", i),
                    data=extra if isinstance(extra, dict) else {},
                )
            else:
                kept.append(i)
        sent = [{k: v for k, v in raw[i].items() if k != "extra"} for i in kept]
        info = value.get("info")
        metadata: dict[str, JsonValue] = {
            "trajectory_format": value.get("trajectory_format"),
            **({"info": info} if isinstance(info, dict) else {}),
        }
        responses = OpenAIResponsesReader()
        if sent and responses.recognise(sent) == 2 and any("role" not in m or "type" in m for m in sent):
            read = responses.read(Document(value=sent, name=doc.name, path=doc.path))
            source = SessionSource(
                format=self.id,
                path=doc.path,
                locations=tuple(
                    loc.model_copy(update={"json_path": f"messages{loc.json_path}"})
                    for loc in read.source.locations
                ),
                notes=read.source.notes,
            )
            return read.model_copy(
                update={"source": source, "metadata": metadata, "unsent": tuple(built.unsent)}
            )
        for i, message in zip(kept, sent, strict=True):
            extra = raw[i].get("extra")
            read_one = read_message(message, ("messages", i), self.id, built.notes)
            if isinstance(extra, dict) and isinstance(extra.get("timestamp"), int | float):
                meta: MessageMetadata = read_one.metadata.model_copy(
                    update={"timestamp": float(extra["timestamp"])}
                )
                read_one = read_one.model_copy(update={"metadata": meta})
            built.add(read_one, i, ("messages", i))
        return built.session(self.id, tools=None, request={}, metadata=metadata)
