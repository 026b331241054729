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
In memory (``AgentRunResult``: ``{"info", "trajectory"}``, or the ``trajectory`` list itself) each
``TrajectoryStep`` carries ``query``, the processed history sent at that step (``messages`` in some
versions; ``add_step_to_trajectory`` in ``sweagent/agent/agents.py``, SWE-agent/SWE-agent
fede1f642d3098af1355e64edcdbda7a97dcb5f8): the last step's is read, the request of the last model
call (that step's response and observation came after it, and are named in a note).

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
        """Certain on SWE-agent history items, or on trajectory steps whose ``query`` holds them.

        History items carry ``message_type``/``agent``.
        """
        if isinstance(value, dict):
            history = value.get("history")
            if isinstance(history, list) and history and all(_history_item(h) for h in history):
                return 2
            value = value.get("trajectory") if "history" not in value else None
        return 2 if _last_query(value) is not None else 0

    def read(self, doc: Document) -> Session:
        """Each history item as the chat message SWE-agent sends for it."""
        value = doc.value
        built = Built(doc)
        prefix: Pointer = ("history",)
        if isinstance(value, dict) and "history" in value:
            history = arr(value.get("history"), prefix)
        else:
            steps = value.get("trajectory") if isinstance(value, dict) else value
            found = _last_query(steps)
            if found is None:
                raise ShapeError(("trajectory",), "no trajectory step holds the query it sent")
            at, key, history = found
            prefix = ("trajectory", at, key) if isinstance(value, dict) else (at, key)
            built.notes.append(
                f"the history sent at trajectory step {at} (its {key}); the step's response and "
                "observation came after it"
            )
        for i, raw in enumerate(history):
            ptr: Pointer = (*prefix, i)
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
        info = value.get("info") if isinstance(value, dict) else None
        metadata: dict[str, JsonValue] = {"info": info} if isinstance(info, dict) else {}
        return built.session(self.id, tools=None, request={}, metadata=metadata)


def _agent_messages(value: list[Any]) -> bool:
    """Whether ``value`` is a mini-SWE-agent ``DefaultAgent.messages`` list (not a request body)."""
    if not value or not all(isinstance(m, dict) and isinstance(m.get("role"), str) for m in value):
        return False
    return any(
        m["role"] == EXIT or (isinstance(m.get("extra"), dict) and "actions" in m["extra"]) for m in value
    )


def _last_query(steps: Any) -> tuple[int, str, list[Any]] | None:
    """(index, key, history) of the last trajectory step whose ``query``/``messages`` is a history."""
    if not isinstance(steps, list) or not steps or not all(isinstance(s, dict) for s in steps):
        return None
    for at in range(len(steps) - 1, -1, -1):
        for key in ("query", "messages"):
            sent = steps[at].get(key)
            if isinstance(sent, list) and sent and all(_history_item(h) for h in sent):
                return at, key, sent
    return None


class MiniSweAgentReader(Reader):
    """``mini-swe-agent``: a mini-SWE-agent trajectory (its ``messages`` without ``extra``)."""

    id = MINI_FORMAT
    description = "mini-SWE-agent trajectory (.traj.json, trajectory_format mini-swe-agent-1*)"

    def recognise(self, value: Any) -> int:
        """Certain on a trajectory naming its mini-swe-agent format, or on the agent's messages list.

        ``DefaultAgent.messages`` is told by its ``exit`` message or the ``extra`` with ``actions``
        it puts on each model answer.
        """
        if isinstance(value, list):
            return 2 if _agent_messages(value) else 0
        if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
            return 0
        said = value.get("trajectory_format")
        return 2 if isinstance(said, str) and said.startswith("mini-swe-agent") else 0

    def read(self, doc: Document) -> Session:
        """The messages as ``_prepare_messages_for_api`` sends them (``extra`` stripped)."""
        bare = isinstance(doc.value, list)  # the agent's messages list, in memory or dumped
        value = {"messages": doc.value} if bare else obj(doc.value, ())
        if (
            not bare
            and not isinstance(value.get("trajectory_format"), str)
            and not isinstance(value.get("info"), dict)
        ):
            # `DefaultAgent.save` writes both; a bare {"messages": …} is some other format's body
            raise ShapeError(
                ("trajectory_format",), "a mini-SWE-agent trajectory names its trajectory_format"
            )
        base: Pointer = () if bare else ("messages",)
        raw = arr(value.get("messages"), base)
        built = Built(doc)
        kept: list[int] = []
        for i, m in enumerate(raw):
            if obj(m, (*base, i)).get("role") == EXIT:
                extra = m.get("extra")
                built.keep_unsent(
                    "exit message",
                    "the end of the run: DefaultAgent writes role 'exit' when it stops; no model is sent it",
                    (*base, i),
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
                    loc.model_copy(update={"json_path": f"{'' if bare else 'messages'}{loc.json_path}"})
                    for loc in read.source.locations
                ),
                notes=read.source.notes,
            )
            return read.model_copy(
                update={"source": source, "metadata": metadata, "unsent": tuple(built.unsent)}
            )
        for i, message in zip(kept, sent, strict=True):
            extra = raw[i].get("extra")
            read_one = read_message(message, (*base, i), self.id, built.notes)
            if isinstance(extra, dict) and isinstance(extra.get("timestamp"), int | float):
                meta: MessageMetadata = read_one.metadata.model_copy(
                    update={"timestamp": float(extra["timestamp"])}
                )
                read_one = read_one.model_copy(update={"metadata": meta})
            built.add(read_one, i, (*base, i))
        return built.session(self.id, tools=None, request={}, metadata=metadata)
