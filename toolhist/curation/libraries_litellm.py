"""Strategy ``litellm-port`` (a port; ``litellm`` runs the real library): what LiteLLM with ``litellm.modify_params = True`` does to a history.

LiteLLM takes OpenAI chat messages and repairs them only on some provider routes, so this
strategy does exactly that per provider (sources read in the public ``BerriAI/litellm`` repository):

- ``anthropic``: ``sanitize_messages_for_tool_calling()`` in
  ``litellm/litellm_core_utils/prompt_templates/factory.py``, called from ``anthropic_messages_pt()``
  and nowhere else: Case A ``_add_missing_tool_results``, Case B ``_is_orphaned_tool_result``,
  Case C ``_sanitize_empty_text_content`` (also applied unconditionally by ``anthropic_messages_pt``),
  Case D the duplicate-result dedupe. Then ``AnthropicConfig.transform_request``
  (``litellm/llms/anthropic/chat/transformation.py``): ``add_dummy_tool`` when the history has tool
  blocks but no ``tools``, and the ``thinking`` param dropped when
  ``last_assistant_with_tool_calls_has_no_thinking_blocks`` and no assistant message has thinking.
- ``bedrock`` (Converse): no sanitizer; ``AmazonConverseConfig._transform_request_helper``
  (``litellm/llms/bedrock/chat/converse_transformation.py``) adds the same dummy tool and drops
  ``thinking`` under the same condition, and ``_bedrock_converse_messages_pt`` (factory.py) inserts
  ``"Please continue."`` turns: a user turn before a leading / after a trailing assistant turn, and an
  assistant turn between two user-side turns (user text, tool results) that would otherwise touch.
- every other provider: LiteLLM sends the messages as given (no ``modify_params`` repair there).

LiteLLM works on OpenAI chat messages, where each tool result is its own ``tool`` message, so the
passes here work on the same units: a canonical message is split as the OpenAI Chat renderer splits
it (`_explode`), the algorithm runs literally on the units, and units that come back side by side
from one canonical message are joined again (`_reassemble`). LiteLLM's quirks are kept on purpose;
each docstring names the one it reproduces.

Not reproduced: LiteLLM's own format conversion (``anthropic_messages_pt`` merging a tool result run
and the next user text into one user turn, Bedrock's ``_deduplicate_bedrock_tool_content`` and
skipped blank assistant text, tool-name rewriting), which toolhist's renderers stand for; and the
order of several placeholders for one assistant message, which LiteLLM takes from a Python set
(here: the calls' order). The Bedrock first/last "Please continue." turns were read in an earlier
factory.py, where the check is inline; the current ``_initial_message_setup`` was not available.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from pydantic import JsonValue

from toolhist.curation.base import Change, Curation, Trace, block_json, run_passes
from toolhist.curation.libraries_common import synthetic_result, synthetic_text, unchanged
from toolhist.model import (
    Block,
    Message,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
    ToolSpec,
)

NAME = "litellm-port"
EMPTY_TEXT_PLACEHOLDER = "[System: Empty message content sanitised to satisfy protocol]"
"""``_EMPTY_TEXT_PLACEHOLDER`` in factory.py."""
CONTINUE_TEXT = "Please continue."
"""``DEFAULT_USER_CONTINUE_MESSAGE`` / ``DEFAULT_ASSISTANT_CONTINUE_MESSAGE`` content in factory.py."""
DUMMY_TOOL = ToolSpec(
    name="dummy_tool",
    description="This is a dummy tool call",
    parameters={"type": "object", "properties": {}},
)
"""``add_dummy_tool()`` (``litellm/utils.py``): the declaration LiteLLM sends when none was given."""


def skipped_result_text(tool_name: str) -> str:
    """The content of the tool message Case A invents for an unanswered call (factory.py, verbatim)."""
    return f"[System: Tool execution skipped/interrupted by user. No result provided for tool '{tool_name}'.]"


Role = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True)
class _Unit:
    """One OpenAI chat message as LiteLLM sees it, tied back to the canonical message it came from."""

    role: Role
    message: Message
    """The canonical piece: the origin's speaker and metadata with this unit's blocks."""
    origin: int | None
    """Index of the canonical message it came from; ``None`` when LiteLLM made it."""
    indices: tuple[int, ...]
    """The blocks' indices in the origin message, to rejoin them in their original order."""
    rewritten: bool = False

    def calls(self) -> list[ToolCallBlock]:
        return list(self.message.tool_calls())

    def call_id(self) -> str:
        """The ``tool_call_id`` of a tool unit."""
        return next(self.message.tool_responses()).call_id


def _piece(message: Message, indices: list[int], trace: Trace) -> Message:
    if indices == list(range(len(message.blocks))):
        return message
    piece = message.model_copy(update={"blocks": tuple(message.blocks[i] for i in indices)})
    trace.derive(piece, message)
    return piece


def _explode(messages: Sequence[Message], trace: Trace) -> list[_Unit]:
    """Canonical messages as the OpenAI chat messages LiteLLM would be given (chat_render's split).

    A tool message becomes one ``tool`` message per result, then an assistant message for any calls
    it holds (seed 000 mode A), then a user message for any text; an ai message is one assistant
    message followed by its results, if it holds any.
    """
    units: list[_Unit] = []
    for mi, message in enumerate(messages):
        responses = [bi for bi, b in enumerate(message.blocks) if isinstance(b, ToolResponseBlock)]
        calls = [bi for bi, b in enumerate(message.blocks) if isinstance(b, ToolCallBlock)]
        rest = [
            bi for bi, b in enumerate(message.blocks) if not isinstance(b, ToolResponseBlock | ToolCallBlock)
        ]

        def add(role: Role, indices: list[int], mi: int = mi, message: Message = message) -> None:
            units.append(_Unit(role, _piece(message, indices, trace), mi, tuple(indices)))

        if message.speaker == "tool":
            for bi in responses:
                add("tool", [bi])
            if calls:
                add("assistant", calls)
            if rest:
                add("user", rest)
            continue
        if message.speaker == "ai" or calls:
            add("assistant", sorted(calls + rest))
        elif rest or not responses:
            add("system" if message.speaker == "system" else "user", rest)
        for bi in responses:
            add("tool", [bi])
    return units


def _reassemble(units: Sequence[_Unit], messages: Sequence[Message], trace: Trace) -> tuple[Message, ...]:
    """Units back to canonical messages: neighbours from one canonical message become one again.

    When every block of the origin comes back unchanged the origin object itself is reused, so an
    untouched message is not reported as changed.
    """
    out: list[Message] = []
    k = 0
    while k < len(units):
        unit = units[k]
        k += 1
        if unit.origin is None:
            out.append(unit.message)
            continue
        run = [unit]
        while k < len(units) and units[k].origin == unit.origin:
            run.append(units[k])
            k += 1
        origin = messages[unit.origin]
        pairs = sorted(
            (
                (index, block)
                for piece in run
                for index, block in zip(piece.indices, piece.message.blocks, strict=True)
            ),
            key=lambda pair: pair[0],
        )
        whole = [index for index, _ in pairs] == list(range(len(origin.blocks)))
        if whole and not any(piece.rewritten for piece in run):
            out.append(origin)
            continue
        rebuilt = origin.model_copy(update={"blocks": tuple(block for _, block in pairs)})
        trace.derive(rebuilt, origin)
        out.append(rebuilt)
    return tuple(out)


def _fill_empty_text(unit: _Unit, trace: Trace) -> tuple[_Unit, list[Change]]:
    """Case C ``_sanitize_empty_text_content``: blank user/assistant text becomes the placeholder.

    Only user and assistant messages are touched, and only text blocks (an assistant message with
    calls and an empty string content gets the placeholder too: LiteLLM issue #24498).
    """
    if unit.role not in ("user", "assistant"):
        return unit, []
    changes: list[Change] = []
    blocks: list[Block] = []
    for block in unit.message.blocks:
        if isinstance(block, TextBlock) and not block.text.strip():
            filled = block.model_copy(update={"text": EMPTY_TEXT_PLACEHOLDER})
            trace.derive(filled, block)
            blocks.append(filled)
            changes.append(
                Change(
                    pass_="sanitize_empty_text_content",
                    action="fill",
                    reason=f"LiteLLM replaces empty or whitespace-only {unit.role} text with "
                    f"{EMPTY_TEXT_PLACEHOLDER!r}, which Anthropic accepts",
                    before=trace.origin(block),
                    detail={"old_text": block.text, "new_text": EMPTY_TEXT_PLACEHOLDER},
                ).with_subject(filled)
            )
        else:
            blocks.append(block)
    if not changes:
        return unit, []
    message = unit.message.model_copy(update={"blocks": tuple(blocks)})
    trace.derive(message, unit.message)
    return replace(unit, message=message, rewritten=True), changes


def _is_orphaned(unit: _Unit, sanitized: Sequence[_Unit]) -> bool:
    """Case B ``_is_orphaned_tool_result``: only the most recent assistant message counts.

    LiteLLM looks back for the latest assistant message and stops there: a result whose call is in
    an earlier assistant message is an orphan too, and so is any result before the first assistant.
    """
    if unit.role != "tool":
        return False
    call_id = unit.call_id()
    if not call_id:
        return False
    for previous in reversed(sanitized):
        if previous.role == "assistant":
            return call_id not in {c.id for c in previous.calls()}
    return True


def _resend(unit: _Unit, trace: Trace) -> tuple[_Unit, Change]:
    """A result LiteLLM appends a second time (`sanitize_messages_for_tool_calling`), as new objects."""
    block = next(unit.message.tool_responses())
    copy = block.model_copy()
    trace.derive(copy, block)
    message = unit.message.model_copy(update={"blocks": (copy,)})
    trace.derive(message, unit.message)
    change = Change(
        pass_="add_missing_tool_results",
        action="insert",
        reason="LiteLLM skips the messages after an assistant turn by counting the results it gathered, "
        "so a result that came after other messages is read again and sent a second time",
        call_id=block.call_id,
        before=trace.origin(block),
    ).with_subject(copy)
    return replace(unit, message=message, rewritten=True), change


def sanitize_messages_for_tool_calling(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """LiteLLM ``sanitize_messages_for_tool_calling()``, Cases A to D, run literally.

    Source: BerriAI/litellm, ``litellm/litellm_core_utils/prompt_templates/factory.py``
    (``_add_missing_tool_results``, ``_is_orphaned_tool_result``, ``_sanitize_empty_text_content``).

    Case A (``_add_missing_tool_results``): for an assistant message with calls, LiteLLM gathers
    the matching tool messages up to the next assistant message; if some call has none, it emits the
    assistant message, the gathered results, then one placeholder result per missing call, and skips
    ``1 + len(gathered)`` messages. The skip counts messages, not the gathered ones: a user message
    between the results is skipped (never sent) and a later result is read again (sent twice, then
    Case D may drop the first copy). Placeholders follow the calls' order (LiteLLM iterates a set).
    Case B drops a tool message whose id is not in the most recent assistant message; Case C fills
    empty text; Case D keeps the last of several results with one id within a run of tool messages.
    """
    units = _explode(messages, trace)
    changes: list[Change] = []
    sanitized: list[_Unit] = []
    placed: set[int] = set()
    i = 0
    while i < len(units):
        current, filled = _fill_empty_text(units[i], trace)
        changes.extend(filled)
        calls = current.calls() if current.role == "assistant" else []
        expected = list(dict.fromkeys(c.id for c in calls if c.id))
        if expected:
            found: set[str] = set()
            gathered: list[_Unit] = []
            j = i + 1
            while j < len(units) and units[j].role != "assistant":
                if units[j].role == "tool" and units[j].call_id() in expected:
                    found.add(units[j].call_id())
                    gathered.append(units[j])
                j += 1
            missing = [call_id for call_id in expected if call_id not in found]
            if missing:
                sanitized.append(current)
                for unit in gathered:
                    sanitized.append(unit)
                    placed.add(id(unit))
                for call_id in missing:
                    call = next(c for c in calls if c.id == call_id)
                    text = skipped_result_text(call.name)
                    reason = (
                        f"LiteLLM (modify_params) invents a result for call {call_id} ({call.name}): "
                        "no tool message answers it before the next assistant message"
                    )
                    made = synthetic_result(call, text, reason)
                    sanitized.append(_Unit("tool", made, None, (0,)))
                    changes.append(
                        Change(
                            pass_="add_missing_tool_results",
                            action="synthesize",
                            reason=reason,
                            call_id=call_id,
                        ).with_subject(made.blocks[0])
                    )
                for skipped in units[i + 1 : i + 1 + len(gathered)]:
                    if any(skipped is unit for unit in gathered):
                        continue
                    changes.append(
                        Change(
                            pass_="add_missing_tool_results",
                            action="drop",
                            reason=f"LiteLLM skips the {len(gathered)} message(s) after the assistant turn "
                            "that answered some of its calls, counting only its results; this "
                            f"{skipped.role} message fell in that count and is not sent",
                            before=trace.origin(skipped.message),
                            dropped=block_json(skipped.message),
                        )
                    )
                i += 1 + len(gathered)
                continue
        if _is_orphaned(current, sanitized):
            block = next(current.message.tool_responses())
            changes.append(
                Change(
                    pass_="drop_orphaned_tool_results",
                    action="drop",
                    reason="LiteLLM drops a tool result whose id is not among the calls of the most recent "
                    "assistant message",
                    call_id=block.call_id,
                    before=trace.origin(block),
                    dropped=block_json(block),
                )
            )
            i += 1
            continue
        if id(current) in placed:
            current, change = _resend(current, trace)
            changes.append(change)
        sanitized.append(current)
        placed.add(id(current))
        i += 1
    sanitized, deduped = _dedupe_results(sanitized, trace)
    changes.extend(deduped)
    return _reassemble(sanitized, messages, trace), changes


def _dedupe_results(units: list[_Unit], trace: Trace) -> tuple[list[_Unit], list[Change]]:
    """Case D: within a run of tool messages, keep only the last result for each id.

    A non-tool message ends the run, so an id reused in a later turn is left alone (LiteLLM PR
    #23104, which logs this at warning level).
    """
    runs: list[list[int]] = []
    current: list[int] = []
    for index, unit in enumerate(units):
        if unit.role == "tool":
            current.append(index)
        else:
            if current:
                runs.append(current)
            current = []
    if current:
        runs.append(current)
    drop: set[int] = set()
    changes: list[Change] = []
    for run in runs:
        last: dict[str, int] = {}
        for index in run:
            call_id = units[index].call_id()
            if call_id:
                last[call_id] = index
        for index in run:
            call_id = units[index].call_id()
            if not call_id or last[call_id] == index:
                continue
            drop.add(index)
            dropped = next(units[index].message.tool_responses())
            kept = next(units[last[call_id]].message.tool_responses())
            same = (dropped.result, dropped.error) == (kept.result, kept.error)
            changes.append(
                Change(
                    pass_="dedupe_tool_results",
                    action="dedupe" if same else "conflict",
                    reason="LiteLLM keeps only the last of several results for one call within a run of tool "
                    "messages" + ("" if same else "; the dropped one said something else"),
                    call_id=call_id,
                    before=trace.origin(dropped),
                    dropped=block_json(dropped),
                    detail={"kept": block_json(kept), "dropped": block_json(dropped)},
                )
            )
    return [unit for index, unit in enumerate(units) if index not in drop], changes


def _has_content(unit: _Unit) -> bool:
    """Whether ``_bedrock_converse_messages_pt`` emits any content block for this unit."""
    for block in unit.message.blocks:
        if isinstance(block, TextBlock):
            if block.text.strip() if unit.role == "assistant" else block.text:
                return True
        else:
            return True
    return False


def bedrock_continue_messages(
    messages: tuple[Message, ...], trace: Trace
) -> tuple[tuple[Message, ...], list[Change]]:
    """LiteLLM's Bedrock Converse "Please continue." turns (``modify_params``).

    Source: BerriAI/litellm, ``litellm/litellm_core_utils/prompt_templates/factory.py``,
    ``_bedrock_converse_messages_pt`` and ``_insert_assistant_continue_message``.

    Bedrock Converse wants user and assistant turns to alternate and to start with a user turn.
    LiteLLM groups consecutive user messages, then consecutive tool messages, then consecutive
    assistant messages; when a user-side group would follow another user-side group it first inserts
    ``DEFAULT_ASSISTANT_CONTINUE_MESSAGE``, and (read in an earlier factory.py, where the check is
    inline) it puts ``DEFAULT_USER_CONTINUE_MESSAGE`` before a first assistant message and after a
    last one. System messages go to Bedrock's ``system`` field, so they take no part.
    """
    units = _explode(messages, trace)
    talk = [u for u in units if u.role != "system"]
    before: dict[int, _Unit] = {}
    end: list[_Unit] = []

    def continue_unit(role: Literal["user", "assistant"], why: str) -> _Unit:
        made = synthetic_text("human" if role == "user" else "ai", CONTINUE_TEXT, why)
        return _Unit(role, made, None, (0,))

    if talk and talk[0].role == "assistant":
        before[id(talk[0])] = continue_unit(
            "user",
            "LiteLLM (modify_params) gives a Bedrock conversation that opens with an assistant turn a "
            "default user message first",
        )
    if talk and talk[-1].role == "assistant":
        end.append(
            continue_unit(
                "user",
                "LiteLLM (modify_params) gives a Bedrock conversation that closes with an assistant turn a "
                "default user message last",
            )
        )
    sequence: list[_Unit] = []
    for unit in talk:
        if id(unit) in before:
            sequence.append(before[id(unit)])
        sequence.append(unit)
    sequence.extend(end)
    last: str | None = None
    k = 0
    while k < len(sequence):
        start = k
        for group in ("user", "tool"):
            first = k
            content = False
            while k < len(sequence) and sequence[k].role == group:
                content = content or group == "tool" or _has_content(sequence[k])
                k += 1
            if content:
                if last == "user" and id(sequence[first]) not in before:
                    before[id(sequence[first])] = continue_unit(
                        "assistant",
                        "LiteLLM (modify_params) puts a default assistant message between two user-side "
                        f"turns ({'tool results' if group == 'tool' else 'user text'} right after user-side "
                        "content), since Bedrock needs the roles to alternate",
                    )
                last = "user"
        content = False
        while k < len(sequence) and sequence[k].role == "assistant":
            content = content or _has_content(sequence[k])
            k += 1
        if content:
            last = "assistant"
        if k == start:  # pragma: no cover - every unit has one of the three roles
            k += 1
    if not before and not end:
        return messages, []
    out: list[_Unit] = []
    for unit in units:
        if id(unit) in before:
            out.append(before[id(unit)])
        out.append(unit)
    out.extend(end)
    changes = [
        Change(
            pass_="bedrock_continue_messages",
            action="insert",
            reason=unit.message.metadata.reason or "",
            detail={"text": CONTINUE_TEXT},
        ).with_subject(unit.message)
        for unit in out
        if unit.origin is None
    ]
    return _reassemble(out, messages, trace), changes


def _has_tool_blocks(messages: Sequence[Message]) -> bool:
    """``has_tool_call_blocks()``: any assistant tool call or tool message."""
    return any(isinstance(b, ToolCallBlock | ToolResponseBlock) for m in messages for b in m.blocks)


def _dummy_tool_request(provider: str) -> dict[str, JsonValue]:
    """The dummy tool as LiteLLM writes it into an Anthropic or Bedrock body."""
    schema: dict[str, JsonValue] = {"type": "object", "properties": {}}
    if provider == "bedrock":
        spec: dict[str, JsonValue] = {
            "name": DUMMY_TOOL.name,
            "description": DUMMY_TOOL.description,
            "inputSchema": {"json": schema},
        }
        return {"toolConfig": {"tools": [{"toolSpec": spec}]}}
    return {
        "tools": [{"name": DUMMY_TOOL.name, "description": DUMMY_TOOL.description, "input_schema": schema}]
    }


def _request_repairs(
    session: Session, provider: str, messages: Sequence[Message]
) -> tuple[Session, list[Change]]:
    """``add_dummy_tool`` and the ``thinking`` drop, which change the request, not the messages.

    Source: BerriAI/litellm, ``AnthropicConfig.transform_request``
    (``litellm/llms/anthropic/chat/transformation.py``) and ``AmazonConverseConfig._transform_request_helper``
    (``litellm/llms/bedrock/chat/converse_transformation.py``); ``add_dummy_tool``,
    ``has_tool_call_blocks`` and ``last_assistant_with_tool_calls_has_no_thinking_blocks`` in ``litellm/utils.py``.

    Both look at the messages LiteLLM was given (before the sanitizer runs), as
    ``transform_request`` does. The dummy tool is declared when there are tool blocks and no tools;
    ``thinking`` is dropped when the last assistant message with calls has no thinking block and no
    assistant message has one (litellm issues #14194, #18926).
    """
    changes: list[Change] = []
    request = dict(session.request)
    update: dict[str, object] = {}
    declared = bool(session.tools) or "tools" in request or "toolConfig" in request
    if _has_tool_blocks(messages) and not declared:
        update["tools"] = (DUMMY_TOOL,)
        added = _dummy_tool_request(provider)
        if session.source.format == provider:
            request.update(added)
        changes.append(
            Change(
                pass_="add_dummy_tool",
                action="insert",
                reason=f"the history has tool blocks but declares no tools, which {provider} rejects; "
                f"LiteLLM (modify_params) declares {DUMMY_TOOL.name!r}",
                detail={"request": dict(added)},
            )
        )
    holder = request
    key_path: list[str] = ["thinking"]
    if "thinking" not in request and provider == "bedrock":
        extra = request.get("additionalModelRequestFields")
        if isinstance(extra, dict) and "thinking" in extra:
            holder = dict(extra)
            key_path = ["additionalModelRequestFields", "thinking"]
    thinking = holder.get("thinking")
    with_calls = any(m.speaker == "ai" and any(m.tool_calls()) for m in messages)
    has_thinking = any(
        m.speaker == "ai" and any(isinstance(b, ThinkingBlock) for b in m.blocks) for m in messages
    )
    if thinking is not None and with_calls and not has_thinking:
        del holder["thinking"]
        if holder is not request and holder:
            request["additionalModelRequestFields"] = holder
        elif holder is not request:
            del request["additionalModelRequestFields"]
        changes.append(
            Change(
                pass_="drop_thinking_param",
                action="drop",
                reason="thinking is on but the last assistant message with tool calls carries no thinking "
                "block (and none does); LiteLLM (modify_params) drops the thinking param for this request",
                dropped={".".join(key_path): thinking},
            )
        )
    if request != session.request:
        update["request"] = request
    return (session.model_copy(update=update) if update else session), changes


def curate(session: Session, provider: str, tail: tuple[Message, ...]) -> Curation:
    """The history LiteLLM (``modify_params=True``) sends to ``provider``: see the module docstring."""
    if provider not in ("anthropic", "bedrock"):
        return unchanged(session, provider, NAME, tail)
    messages = (*session.messages, *tail)
    repaired, request_changes = _request_repairs(session, provider, messages)
    passes = [sanitize_messages_for_tool_calling] if provider == "anthropic" else [bedrock_continue_messages]
    curation = run_passes(repaired, provider, NAME, passes, tail)
    return curation.model_copy(update={"changes": (*request_changes, *curation.changes), "original": session})
