"""ATIF, the Agent Trajectory Interchange Format (v1.x), as Harbor and the agents it runs write it.

The spec is Harbor's RFC 0001 (laude-institute/harbor ``docs/rfcs/0001-trajectory-format.md``,
mirrored at OpenAgentsInc/openagents ``docs/atif/0001-trajectory-format.md``; v1.0 to v1.4 there,
later versions add fields only): ``{"schema_version": "ATIF-v1.N", "session_id", "agent":
{"name", "version", "model_name"}, "steps": [...], "final_metrics"}``, each step:

- ``step_id``, ``timestamp``, ``source``: ``system`` / ``user`` / ``agent``;
- ``message``: the text (a string, or content parts ``{"type": "text", "text"}``/images);
- on agent steps: ``model_name``, ``reasoning_content``, ``tool_calls``
  ``[{"tool_call_id", "function_name", "arguments": {...}}]``, and ``observation``
  ``{"results": [{"source_call_id", "content"}]}``: what the environment answered the step's calls;
- ``metrics``, ``extra``.

ATIF records what happened, not a request body: a step's tool calls are the model's turn and its
observation results are the tool results that followed (one tool message); a result without a
``source_call_id`` is something the agent was shown without a call, read as user text (v1.2 lets
system steps carry observations the same way). Unknown fields are kept in each message's metadata.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Final

from pydantic import JsonValue

from toolhist.formats.base import Built, Pointer, Reader, ShapeError, arr, obj, rest
from toolhist.formats.document import Document
from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    MessageMetadata,
    OpaqueBlock,
    Session,
    Speaker,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

FORMAT: Final = "atif"
SOURCES: Final[dict[str, Speaker]] = {"system": "system", "user": "human", "agent": "ai"}
TEXT_CALLS: Final = (
    "no observation result in this trajectory names a source_call_id: the agent parsed these commands "
    "from the model's text and sent their output back as text, not as native tool calls"
)
STEP_FIELDS: Final = ("source", "message", "tool_calls", "observation", "reasoning_content", "model_name")


def _epoch(value: Any) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _text(value: Any, ptr: Pointer) -> list[Block]:
    """A ``message`` or result ``content``: a string or a list of content parts."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [TextBlock(text=value)]
    if isinstance(value, list):
        out: list[Block] = []
        for k, raw in enumerate(value):
            part = obj(raw, (*ptr, k))
            if part.get("type") == "text" and isinstance(part.get("text"), str):
                out.append(TextBlock(text=part["text"]))
            elif part.get("type") == "image" and isinstance(part.get("source"), dict):
                source = part["source"]
                out.append(
                    MediaBlock(
                        url=source.get("path") if isinstance(source.get("path"), str) else None,
                        mime_type=source.get("media_type")
                        if isinstance(source.get("media_type"), str)
                        else None,
                        provider_data=rest(part, "type"),
                    )
                )
            else:
                out.append(OpaqueBlock(source_format=FORMAT, data=dict(part)))
        return out
    return [OpaqueBlock(source_format=FORMAT, data={"content": value})]


def _calls_sent_as_text(steps: list[Any]) -> bool:
    """Whether the agent parsed its calls out of the model's text rather than sending native calls.

    So when steps record calls and observations, and no observation result names a
    ``source_call_id`` (the RFC's link from a result to its call): the environment's output went
    back as text, as Harbor's terminus-2 does (``"parser": "json"``: its commands are parsed from a
    JSON reply; laude-institute/harbor ``tests/golden/terminus_2/…trajectory.json``, copied at
    sachiny0106/Xelron@23b956e). Read as calls, each would be one left unanswered.
    """
    calls = linked = results = False
    for step in steps:
        if not isinstance(step, dict):
            continue
        calls = calls or bool(step.get("tool_calls"))
        observation = step.get("observation")
        found = observation.get("results") if isinstance(observation, dict) else None
        for result in found if isinstance(found, list) else ():
            results = True
            if isinstance(result, dict) and isinstance(result.get("source_call_id"), str):
                linked = True
    return calls and results and not linked


def _result(value: Any) -> JsonValue:
    if isinstance(value, list) and all(isinstance(p, dict) and p.get("type") == "text" for p in value):
        return "".join(str(p.get("text", "")) for p in value)
    result: JsonValue = value
    return result


class AtifReader(Reader):
    """``atif``: an ATIF v1.x trajectory (``schema_version`` ``ATIF-v1.*``)."""

    id = FORMAT
    description = "ATIF agent trajectory (Harbor's interchange format, schema_version ATIF-v1.x)"

    def recognise(self, value: Any) -> int:
        """Certain on ``schema_version`` ``ATIF-v1.*`` beside ``steps``."""
        if not isinstance(value, dict) or not isinstance(value.get("steps"), list):
            return 0
        version = value.get("schema_version")
        return 2 if isinstance(version, str) and version.upper().startswith("ATIF-V1") else 0

    def read(self, doc: Document) -> Session:
        """Each step as a message; an agent step's observation as the tool message after it."""
        value = obj(doc.value, ())
        built = Built(doc)
        agent = value.get("agent")
        default_model = agent.get("model_name") if isinstance(agent, dict) else None
        steps = arr(value.get("steps"), ("steps",))
        as_text = _calls_sent_as_text(steps)
        for i, raw in enumerate(steps):
            ptr: Pointer = ("steps", i)
            step = obj(raw, ptr)
            source = step.get("source")
            speaker = SOURCES.get(source) if isinstance(source, str) else None
            if speaker is None:
                raise ShapeError((*ptr, "source"), f"expected system, user or agent, got {source!r}")
            model = step.get("model_name") if isinstance(step.get("model_name"), str) else default_model
            meta = MessageMetadata(
                source_role=source,
                timestamp=_epoch(step.get("timestamp")),
                model=model if isinstance(model, str) and speaker == "ai" else None,
                extra={k: v for k, v in rest(step, *STEP_FIELDS).items() if v is not None},
            )
            blocks: list[Block] = []
            reasoning = step.get("reasoning_content")
            if speaker == "ai" and isinstance(reasoning, str) and reasoning:
                blocks.append(ThinkingBlock(text=reasoning))
            blocks += _text(step.get("message"), (*ptr, "message"))
            parsed: list[tuple[int, dict[str, Any]]] = []
            for k, call_raw in enumerate(step.get("tool_calls") or []):
                call = obj(call_raw, (*ptr, "tool_calls", k))
                call_id, name = call.get("tool_call_id"), call.get("function_name")
                if not isinstance(call_id, str) or not isinstance(name, str):
                    raise ShapeError(
                        (*ptr, "tool_calls", k), "a tool call needs 'tool_call_id' and 'function_name'"
                    )
                if as_text:
                    parsed.append((k, call))
                    continue
                args = call.get("arguments")
                blocks.append(
                    ToolCallBlock(
                        id=call_id,
                        name=name,
                        parameters=args if args is not None else {},
                        provider_data=rest(call, "tool_call_id", "function_name", "arguments"),
                    )
                )
            built.add(Message(speaker=speaker, blocks=tuple(blocks), metadata=meta), i, ptr)
            for k, call in parsed:
                built.keep_unsent(
                    "tool call parsed from text",
                    TEXT_CALLS,
                    (*ptr, "tool_calls", k),
                    text=json.dumps(call.get("arguments"), ensure_ascii=False),
                    data=call,
                )
            self._observation(step.get("observation"), (*ptr, "observation"), i, built)
        metadata: dict[str, JsonValue] = {
            k: v
            for k, v in rest(value, "steps").items()
            if k in ("schema_version", "session_id", "agent", "notes")
        }
        return built.session(self.id, tools=None, request={}, metadata=metadata)

    @staticmethod
    def _observation(observation: Any, ptr: Pointer, i: int, built: Built) -> None:
        """The results of a step's calls (one tool message), and results tied to no call (user text)."""
        if observation is None:
            return
        results = arr(obj(observation, ptr).get("results") or [], (*ptr, "results"))
        answers: list[Block] = []
        shown: list[Block] = []
        for k, raw in enumerate(results):
            result = obj(raw, (*ptr, "results", k))
            call_id = result.get("source_call_id")
            if isinstance(call_id, str):
                answers.append(
                    ToolResponseBlock(
                        call_id=call_id,
                        result=_result(result.get("content")),
                        provider_data=rest(result, "source_call_id", "content"),
                    )
                )
            else:
                shown += _text(result.get("content"), (*ptr, "results", k, "content"))
        meta = MessageMetadata(source_role="observation")
        if answers:
            built.add(Message(speaker="tool", blocks=tuple(answers), metadata=meta), i, ptr)
        if shown:
            built.add(Message(speaker="human", blocks=tuple(shown), metadata=meta), i, ptr)
