r"""smolagents memory: the steps an agent keeps, read as the messages smolagents sends for them.

smolagents (huggingface/smolagents ``src/smolagents/memory.py`` at
8b49fc9f9b1df71cca053dafc2a3f19f0a182dc5; smolagents 1.26's own file) keeps
``agent.memory``: a ``SystemPromptStep`` and a list of steps, each dumped by ``step.dict()``
(``agent.memory.get_full_steps()`` writes them all) with no type tag, so the kind is read from
the fields: ``TaskStep`` (``task``), ``ActionStep`` (``step_number``, ``model_output``,
``tool_calls`` ``[{"id", "type", "function": {"name", "arguments"}}]``, ``observations``,
``error``), ``PlanningStep`` (``plan``), ``FinalAnswerStep`` (``output``).

What smolagents sends is ``write_memory_to_messages`` (each step's ``to_messages``, then
``get_clean_message_list`` with ``tool_role_conversions``): the model's output as assistant
text, its calls as assistant text ``"Calling tools:\\n" + str([call.dict() …])``, the observation as
*user* text ``"Observation:\\n…"``, an error as user text naming the first call's id, a plan as
assistant text and ``"Now proceed and carry out this plan."``. smolagents never sends a native
tool call or result, for CodeAgent and ToolCallingAgent alike, so no provider's tool-pairing rule
can fail on its history; the calls as recorded are kept in each message's metadata
(``extra.tool_calls``). The texts follow ``to_messages`` (Python's ``str`` of the call dicts is
rebuilt from the JSON, the same for the JSON-safe values a dump holds). A list of ``ChatMessage``
dicts (``write_memory_to_messages()`` dumped, roles ``tool-call``/``tool-response``) reads too.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import JsonValue

from toolhist.formats.base import Built, Pointer, Reader, ShapeError, arr, obj
from toolhist.formats.document import Document
from toolhist.model import Block, Message, MessageMetadata, OpaqueBlock, Session, Speaker, TextBlock

FORMAT: Final = "smolagents"
RETRY: Final = (
    "\nNow let's retry: take care not to repeat previous errors! If you have retried several times, "
    "try a completely different approach.\n"
)
ROLES: Final[dict[str, Speaker]] = {
    "system": "system",
    "user": "human",
    "assistant": "ai",
    "tool-call": "ai",
    "tool-response": "human",
}
"""smolagents' ``MessageRole``s after ``tool_role_conversions`` (a tool call is assistant text, a
tool response user text)."""


def _kind(step: Any) -> str | None:
    if not isinstance(step, dict):
        return None
    if "step_number" in step and ("model_output" in step or "observations" in step):
        return "action"
    for key, kind in (
        ("plan", "planning"),
        ("task", "task"),
        ("system_prompt", "system"),
        ("output", "final"),
    ):
        if key in step:
            return kind
    return None


def _is_chat(m: Any) -> bool:
    return isinstance(m, dict) and m.get("role") in ROLES and "content" in m


def _steps_of(value: Any) -> list[Any] | None:
    if isinstance(value, dict) and isinstance(value.get("steps"), list):
        value = value["steps"]
    if isinstance(value, list) and value and all(_kind(s) is not None for s in value):
        return value if any(_kind(s) in ("action", "task") for s in value) else None
    return None


def _text(speaker: Speaker, text: str, **extra: JsonValue) -> Message:
    return Message(
        speaker=speaker, blocks=(TextBlock(text=text),), metadata=MessageMetadata(extra=dict(extra))
    )


def _action(step: dict[str, Any]) -> list[Message]:
    """``ActionStep.to_messages`` (not summary mode)."""
    out: list[Message] = []
    output = step.get("model_output")
    if isinstance(output, str):
        out.append(_text("ai", output.strip()))
    calls = step.get("tool_calls")
    if calls is not None:
        recorded: JsonValue = calls
        out.append(_text("ai", "Calling tools:\n" + str(calls), tool_calls=recorded))
    if step.get("observations") is not None:
        out.append(_text("human", f"Observation:\n{step['observations']}"))
    error = step.get("error")
    if error is not None:
        said = error.get("message") if isinstance(error, dict) else error
        first = (
            calls[0].get("id") if isinstance(calls, list) and calls and isinstance(calls[0], dict) else None
        )
        lead = f"Call id: {first}\n" if calls else ""
        out.append(_text("human", f"{lead}Error:\n{said}{RETRY}"))
    return out


def _content(content: Any, ptr: Pointer) -> list[Block]:
    if isinstance(content, str):
        return [TextBlock(text=content)]
    if content is None:
        return []
    out: list[Block] = []
    for k, raw in enumerate(arr(content, ptr)):
        part = obj(raw, (*ptr, k))
        if part.get("type") == "text" and isinstance(part.get("text"), str):
            out.append(TextBlock(text=part["text"]))
        else:
            out.append(OpaqueBlock(source_format=FORMAT, data=dict(part)))
    return out


class SmolagentsReader(Reader):
    """``smolagents``: memory steps (``get_full_steps()``) or ``write_memory_to_messages()`` dicts."""

    id = FORMAT
    description = "smolagents memory steps (agent.memory.get_full_steps()) or its ChatMessage list"

    def recognise(self, value: Any) -> int:
        """Certain on memory steps, or messages with smolagents' ``tool-call``/``tool-response`` roles."""
        if _steps_of(value) is not None:
            return 2
        if isinstance(value, list) and value and all(_is_chat(m) for m in value):
            return 2 if any(m["role"] in ("tool-call", "tool-response") for m in value) else 0
        return 0

    def read(self, doc: Document) -> Session:
        """Each step as the messages smolagents sends for it (see the module docstring)."""
        built = Built(doc)
        steps = _steps_of(doc.value)
        if steps is None:
            for i, raw in enumerate(arr(doc.value, ())):
                entry = obj(raw, (i,))
                role = entry.get("role")
                speaker = ROLES.get(role) if isinstance(role, str) else None
                if speaker is None:
                    raise ShapeError((i, "role"), f"not a smolagents role: {role!r}")
                meta = MessageMetadata(source_role=role)
                blocks = tuple(_content(entry.get("content"), (i, "content")))
                built.add(Message(speaker=speaker, blocks=blocks, metadata=meta), i, (i,))
            return built.session(self.id, tools=None, request={})
        base: Pointer = ("steps",) if isinstance(doc.value, dict) else ()
        system = doc.value.get("system_prompt") if isinstance(doc.value, dict) else None
        if isinstance(system, str):
            built.add(_text("system", system), None, ("system_prompt",))
        for i, step in enumerate(steps):
            kind = _kind(step)
            ptr: Pointer = (*base, i)
            if kind == "system":
                made = [_text("system", str(step["system_prompt"]))]
            elif kind == "task":
                made = [_text("human", f"New task:\n{step['task']}")]
            elif kind == "action":
                made = _action(step)
            elif kind == "planning":
                made = [
                    _text("ai", str(step["plan"]).strip()),
                    _text("human", "Now proceed and carry out this plan."),
                ]
            else:  # a FinalAnswerStep: to_messages sends nothing for it
                built.skips.add("FinalAnswerStep")
                continue
            for message in made:
                meta = message.metadata.model_copy(update={"source_role": f"{kind} step"})
                built.add(message.model_copy(update={"metadata": meta}), i, ptr)
        built.notes.append(
            "smolagents sends its tool calls and observations as text ('Calling tools:', 'Observation:'), "
            "never as native tool calls: the calls as recorded are in each message's metadata"
        )
        built.notes += built.skips.note("FinalAnswerStep.to_messages returns no message")
        return built.session(self.id, tools=None, request={})
