"""Mistral La Plateforme (``mistral``): rules, checks and the provider entry.

Mistral takes the Chat Completions shape but validates it with ``mistral_common``
(``protocol/instruct/validator.py``), whose texts the hosted API returns. The checks follow that
validator as the hosted API was reported behaving (``research/providers.md`` §5, §10, §12):

- role order: ``tool`` may only be followed by ``assistant`` or ``tool``. mistral_common 1.13.1 also
  lets ``user`` follow ``tool``, but the hosted API answers ``Unexpected role 'user' after role
  'tool'`` (code 3230), and the hosted API is what users hit;
- pairing as the V13 validator does it: results are matched to the ids of the last assistant
  message, counted when the next assistant message (or the end) comes. Like the validator, the
  first message is not part of the pairing walk;
- ids: exactly 9 characters ``[a-zA-Z0-9]`` (V3 and later as served; 1.13.1's V13 would take any
  non-empty id, the hosted API still reports the 9-character text with code 3280);
- content and tool_calls together: rejected only by the V3 validator, hence a warning.

Rendering is the Chat Completions renderer: the body is the same shape, ids exactly as the session
has them (``ids="provider"`` maps them with `toolhist.providers.edge_ids.mistral_id`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from toolhist.model import Session
from toolhist.providers.base import Finding, PathT, Payload, Provider, Rule, bracketed, drained, new_payload
from toolhist.providers.chat_shared import render_chat
from toolhist.providers.edge_ids import MISTRAL_ID

NAME = "mistral"
VALIDATOR = "mistralai/mistral-common src/mistral_common/protocol/instruct/validator.py"
NAME_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
ROLES = ("system", "user", "assistant", "tool")
FOLLOWERS = {
    "system": ("user", "assistant", "system"),
    "user": ("assistant", "system", "user"),
    "assistant": ("assistant", "user", "tool"),
    "tool": ("assistant", "tool"),
}
"""Which role may follow which (the validator's ``_validate_message_order``, hosted-API variant)."""

RULES: tuple[Rule, ...] = (
    Rule(
        "mis.empty",
        NAME,
        "error",
        "the conversation must have at least one message",
        "Conversation must have at least one message",
        f"{VALIDATOR} (_validate_message_list_structure) [CODE]"
        "; research/providers.md §12 (mistral-common 1.13.1 installed and run, 2026-11); SDK source only, "
        "no hosted-API report of this text found",
        "none can: there is no history to send",
        observed="2026-11",
    ),
    Rule(
        "mis.first",
        NAME,
        "error",
        "a conversation of a single message must be a user or system message (longer ones are not checked)",
        "Conversation must start with a user message or system message",
        f"{VALIDATOR} (_validate_message_list_structure: only a lone message is checked) [CODE; "
        "hosted-API wrapping unverified]; providers.md §5 calls it mis.single, explain uses mis.first"
        "; research/providers.md §12 (mistral-common 1.13.1 installed and run, 2026-11); SDK source only, "
        "no hosted-API report of this text found",
        "none can without inventing a user turn: add the user message that asked for it",
        observed="2026-11",
    ),
    Rule(
        "mis.last_role",
        NAME,
        "error",
        "the last message must be user or tool (or assistant with prefix: true)",
        "Expected last role User or Tool (or Assistant with prefix or continue_final_message set to True) for serving but got {role}",
        f"0xPlaygrounds/rig PR#1130 (older text: '… (or Assistant with prefix True) …'); {VALIDATOR} (_validate_last_message)"
        "; dates: 0xPlaygrounds/rig#708 (devstral-small-latest, 2025-08), rig PR#1130 (2025-12)",
        "drop the trailing assistant message, or mark it prefix: true to continue it",
        since="2025-08",
        observed="2025-12",
    ),
    Rule(
        "mis.order",
        NAME,
        "error",
        "tool only after assistant or tool; no system after assistant or tool (user after tool: mis.user_after_tool)",
        "Unexpected role '{role}' after role '{previous}'",
        "datapizza-labs/datapizza-ai#98; avante-corp/avante.nvim PR#2695; charmbracelet/crush#279 (tool after "
        f"user); {VALIDATOR} (_validate_message_order); traffic corpus: system after assistant rejected with "
        "code 3230 (mistral-small-latest, 2025-06..08, crmne/ruby_llm spec/fixtures/vcr_cassettes/"
        "chat_basic_chat_functionality_mistral_*replaces_previous_system_messages*)"
        "; dates: mistralai/mistral-inference#135 (the older text 'Unexpected role RoleEnum.tool', "
        "2024-03); charmbracelet/crush#279 (tool after user via OpenRouter, code 3230, 2025-07); "
        "avante-corp/avante.nvim PR#2695 (2025-09)",
        "move_results (tool after user); merge_turns (system after assistant)",
        since="2024-03",
        observed="2025-09",
    ),
    Rule(
        "mis.user_after_tool",
        NAME,
        "warning",
        "a user message right after a tool message: accepted by Mistral's API in 2026, still rejected by some servers",
        "Unexpected role '{role}' after role '{previous}'",
        "zed-industries/zed#37021 (user after tool, code 3230, 2025); mistral-common 1.13.1 allows it; accepted "
        "by the hosted API in the traffic corpus (mistral-small-latest, 2026-08: crmne/ruby_llm "
        "spec/fixtures/vcr_cassettes/chat_multimodal_tool_attachments_mistral_*, chat_tool_attachments_mistral_*)"
        "; mixed: zed-industries/zed#37021 (devstral-medium-latest, mistral-medium, 2025-08; still seen "
        "2026-04); mistralai/mistral-vibe#578 (Mistral Small 4 served by vLLM, 2026-04); "
        "NousResearch/hermes-agent#20154 (mistral-small-4 via NVIDIA NIM, 2026-05), PR#84944 (2026-08). So a "
        "warning: the hosted API took it in 2026 recordings, while vLLM and NIM deployments of Mistral models "
        "(mistral-common's older validators) still answer 400",
        "merge_turns or an assistant bridge turn",
        since="2025-08",
        observed="2026-08",
    ),
    Rule(
        "mis.count",
        NAME,
        "error",
        "every tool call must be answered before the next assistant message (and by the end)",
        "Not the same number of function calls and responses",
        "camel-ai/camel#1467; mistralai/client-ts#106; mistralai/client-python#234"
        "; dates: 567-labs/instructor#724 (2024-08); camel-ai/camel#1467 (2025-01); mistralai/client-ts#106 "
        "(mistral-large-latest, 2025-06); partITech/php-mistral#57 (mistral-small-latest, 2025-08); "
        "miquido/draive#398 (mistral-medium-latest, 2025-09)",
        "close_orphans (synthetic result) or move_results",
        since="2024-08",
        observed="2025-09",
    ),
    Rule(
        "mis.dup_result",
        NAME,
        "error",
        "one tool message per tool call id",
        "Duplicate tool call id {id} in tool results",
        f"{VALIDATOR} (MistralRequestValidatorV13) [CODE; hosted-API wrapping unverified]"
        "; research/providers.md §12 (mistral-common 1.13.1 installed and run, 2026-11); SDK source only, "
        "no hosted-API report of this text found",
        "dedupe_results",
        observed="2026-11",
    ),
    Rule(
        "mis.unexpected_result",
        NAME,
        "error",
        "a tool message must answer a call of the last assistant message",
        "Unexpected tool call id {id} in tool results",
        f"{VALIDATOR} (MistralRequestValidatorV13) [CODE; hosted-API wrapping unverified]"
        "; research/providers.md §12 (mistral-common 1.13.1 installed and run, 2026-11); "
        "mistralai/mistral-vibe#398 (a hosted-API report, undated in the index)",
        "move_results (or synthesize_calls when the call is gone)",
        observed="2026-11",
    ),
    Rule(
        "mis.dup_call",
        NAME,
        "error",
        "tool call ids unique within an assistant message",
        "Duplicate tool call id {id} in assistant message",
        f"{VALIDATOR} (MistralRequestValidatorV13) [CODE; hosted-API wrapping unverified]"
        "; research/providers.md §12 (mistral-common 1.13.1 installed and run, 2026-11); anomalyco/opencode "
        "PR#50145 (the AI SDK's Mistral provider relays a shorter wording without the id, undated in the "
        "index)",
        "map_ids (each call gets its own id)",
        observed="2026-11",
    ),
    Rule(
        "mis.id_missing",
        NAME,
        "error",
        "a tool message needs tool_call_id",
        "Tool call id has to be defined.",
        f"{VALIDATOR} (MistralRequestValidatorV3._validate_tool_message) [CODE]"
        "; research/providers.md §12 (mistral-common 1.13.1 installed and run, 2026-11); SDK source only, "
        "no hosted-API report of this text found",
        "synthesize_calls (pair by position) or drop with a Change",
        observed="2026-11",
    ),
    Rule(
        "mis.call_id_missing",
        NAME,
        "error",
        "a tool call needs an id when serving",
        "Tool call id has to be defined in serving mode.",
        f"{VALIDATOR} (MistralRequestValidatorV3._validate_tool_call) [CODE]"
        "; research/providers.md §12 (mistral-common 1.13.1 installed and run, 2026-11); SDK source only, "
        "no hosted-API report of this text found",
        "map_ids (give the call an id)",
        observed="2026-11",
    ),
    Rule(
        "mis.id_format",
        NAME,
        "error",
        "tool call ids and tool_call_id are exactly 9 characters of a-z, A-Z, 0-9",
        "Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9.",
        "nearai/ironclaw#1241; mistralai/mistral-vibe#1075 (type invalid_function_call, code 3280); "
        "jackmpcollins/magentic#276; langchain PR#24668; "
        f"{VALIDATOR} (MistralRequestValidatorV3; 1.13.1 V13 accepts any non-empty id)"
        "; dates: jackmpcollins/magentic#276 (2024-07); anomalyco/opencode#1680 (mistral-large-latest, "
        "2025-08); editor-code-assistant/eca#233 (code 3280, 2025-12); karthink/gptel#1203 (2026-01); "
        "mistralai/mistral-vibe#1075 (devstral-medium-2512, code 3280, 2026-09): the API still checks "
        "what mistral-common 1.13.1 no longer does",
        "map_ids (edge_ids.mistral_id)",
        since="2024-07",
        observed="2026-09",
    ),
    Rule(
        "mis.name_format",
        NAME,
        "error",
        "function names (tool messages, declarations) match ^[a-zA-Z0-9_-]{1,64}$",
        "Function name was {name} but must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64.",
        f"{VALIDATOR} (_validate_function, _validate_tool_message) [CODE]. Not checked on the history's "
        "tool_calls: the hosted API accepted a malformed call name the model itself had produced "
        "(mistral-large-latest, 2026-01: pydantic/pydantic-ai tests/models/cassettes/test_tool_choice_vcr/"
        "test_tool_choice[mistral-list-single-tool].yaml)"
        "; research/providers.md §12 (mistral-common 1.13.1 installed and run, 2026-11); SDK source only, "
        "no hosted-API report of this text found",
        "none can without renaming the tool in the declarations, the calls and the results together",
        observed="2026-11",
    ),
    Rule(
        "mis.content_xor_calls",
        NAME,
        "warning",
        "older models (V3 validator): an assistant message has content or tool_calls, exactly one of them",
        "Assistant message must have either content or tool_calls, but not both.",
        f"{VALIDATOR} (MistralRequestValidator._validate_assistant_message; V5 and later allow both)"
        "; research/providers.md §12 (mistral-common 1.13.1 installed and run, 2026-11); SDK source only, "
        "no hosted-API report of this text found",
        "split_tool_calls (text and calls as separate assistant messages), for V3 models only",
        observed="2026-11",
    ),
)


def check(body: dict[str, Any]) -> Iterator[Finding]:
    """Every Mistral rule over a body, in the order the validator runs them."""
    messages = body.get("messages", [])
    if not isinstance(messages, list):
        return
    if not messages:
        yield Finding("mis.empty", ("messages",))
        return
    yield from _check_structure(messages, body.get("continue_final_message") is True)
    order, pairing, found = _check_walk(messages)
    yield from drained(order)
    yield from drained(pairing)
    yield from drained(found)
    yield from _check_tools(body.get("tools"))


def _role(m: Any) -> str | None:
    role = m.get("role") if isinstance(m, dict) else None
    return role if isinstance(role, str) else None


def _check_structure(messages: list[Any], continue_final: bool) -> Iterator[Finding]:
    """A lone message must be user/system; a longer history must not end on a plain assistant message."""
    if len(messages) == 1:
        if _role(messages[0]) not in ("user", "system"):
            yield Finding("mis.first", ("messages", 0, "role"))
        return
    last = messages[-1]
    if _role(last) == "assistant" and last.get("prefix") is not True and not continue_final:
        yield Finding("mis.last_role", ("messages", len(messages) - 1, "role"), {"role": "assistant"})


def _check_walk(  # noqa: PLR0915 - three passes in one walk: split, it pays the per-message call it saves
    messages: list[Any],
) -> tuple[list[Finding], list[Finding], list[Finding]]:
    """The order, pairing and per-message rules in one walk over the messages, each its own list.

    - order: each role against the one before it; unknown roles are not judged (no Mistral text);
    - pairing (V13): results against the ids of the last assistant message, counted at the next
      one; the validator skips the first message;
    - per message: ids, names, and (V3) content beside tool_calls. This pass yields most of the
      findings of a long history whose ids came from another provider (116,000 at 100,000 messages).

    They were three walks over every message; the findings are yielded in the order they gave them.
    """
    order: list[Finding] = []
    pairing: list[Finding] = []
    found: list[Finding] = []
    id_ok = MISTRAL_ID.fullmatch
    previous: str | None = None
    expected: list[str] = []
    observed: set[str] = set()
    owner = 0
    good_names: set[str] = set()  # result names NAME_PATTERN matched: a history uses a few, many times
    for i, m in enumerate(messages):
        if isinstance(m, dict):  # `_role`, inline: every message
            role = m.get("role")
            if not isinstance(role, str):
                role = None
        else:
            role = None
        if role not in ROLES:
            previous = None
        else:
            if previous == "tool" and role == "user":
                values = {"role": role, "previous": previous}
                order.append(Finding("mis.user_after_tool", ("messages", i, "role"), values))
            elif previous is not None and role not in FOLLOWERS[previous]:
                call_ids = (str(m["tool_call_id"]),) if role == "tool" and "tool_call_id" in m else ()
                values = {"role": role, "previous": previous}
                order.append(Finding("mis.order", ("messages", i, "role"), values, call_ids))
            previous = role
        if role == "tool":
            call_id = m.get("tool_call_id")
            if i and isinstance(call_id, str):  # (not a str: mis.id_missing)
                path = ("messages", i, "tool_call_id")
                if call_id in observed:
                    pairing.append(Finding("mis.dup_result", path, {"id": call_id}, (call_id,)))
                elif call_id not in expected:
                    pairing.append(Finding("mis.unexpected_result", path, {"id": call_id}, (call_id,)))
                else:
                    observed.add(call_id)
            name = m.get("name")
            if isinstance(name, str) and name not in good_names:
                if NAME_PATTERN.fullmatch(name):
                    good_names.add(name)
                else:
                    found.append(Finding("mis.name_format", ("messages", i, "name"), {"name": name}))
            if call_id is None:
                found.append(Finding("mis.id_missing", ("messages", i, "tool_call_id")))
            elif isinstance(call_id, str) and not id_ok(call_id):
                values = {"id": call_id}
                found.append(Finding("mis.id_format", ("messages", i, "tool_call_id"), values, (call_id,)))
        elif role == "assistant":
            calls = m.get("tool_calls")
            if i:
                if expected:
                    _count(expected, observed, owner, pairing)
                expected, observed, owner = [], set(), i
            # Before the calls' own findings, as when the calls were walked twice (pairing, then these).
            if bool(m.get("content")) == bool(calls):
                found.append(Finding("mis.content_xor_calls", ("messages", i)))
            for k, c in enumerate(calls if isinstance(calls, list) else ()):
                if not isinstance(c, dict):
                    continue
                raw = c.get("id")  # "null": how the validator sees a call without an id
                call_id = raw if isinstance(raw, str) else "null"
                if i:
                    if call_id in expected and call_id != "null":  # a missing id is mis.call_id_missing
                        at: PathT = ("messages", i, "tool_calls", k, "id")
                        pairing.append(Finding("mis.dup_call", at, {"id": call_id}, (call_id,)))
                    else:
                        expected.append(call_id)
                if call_id == "null":
                    found.append(Finding("mis.call_id_missing", ("messages", i, "tool_calls", k, "id")))
                elif not id_ok(call_id):
                    at = ("messages", i, "tool_calls", k, "id")
                    found.append(Finding("mis.id_format", at, {"id": call_id}, (call_id,)))
    _count(expected, observed, owner, pairing)
    return order, pairing, found


def _count(expected: list[str], observed: set[str], owner: int, out: list[Finding]) -> None:
    """mis.count for the assistant message ``owner`` into ``out``: calls it made that no result answered.

    A call's id is ``"null"`` when it has none, as the validator sees it.
    """
    missing = [c for c in expected if c not in observed]
    if missing:
        ids = tuple(c for c in missing if c != "null")  # "null": the validator's stand-in for no id
        out.append(Finding("mis.count", ("messages", owner, "tool_calls"), call_ids=ids))


def _check_tools(tools: Any) -> Iterator[Finding]:
    """Declared function names follow the same pattern as the calls."""
    for t, tool in enumerate(tools if isinstance(tools, list) else []):
        fn = tool.get("function") if isinstance(tool, dict) else None
        name = fn.get("name") if isinstance(fn, dict) else None
        if isinstance(name, str) and not NAME_PATTERN.fullmatch(name):
            yield Finding("mis.name_format", ("tools", t, "function", "name"), {"name": name})


def render(session: Session) -> Payload:
    """The Mistral body (Chat Completions shape), ids as the session has them."""
    body, source_map, omitted = render_chat(session, NAME)
    return new_payload(NAME, body, source_map, tuple(omitted))


PROVIDER = Provider(
    name=NAME, title="Mistral La Plateforme", rules=RULES, render=render, check=check, path_format=bracketed
)
