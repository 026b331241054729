"""Mistral: every rule broken by the smallest body, with the exact text; renders and round trips."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from realistic import REALISTIC

import toolhist
from toolhist.model import (
    Message,
    MessageMetadata,
    Session,
    SessionSource,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)
from toolhist.providers import render, validate, validate_payload
from toolhist.providers.mistral import PROVIDER, RULES

Body = dict[str, Any]


def fn_call(cid: str, name: str = "get_weather", args: str = '{"city": "Paris"}') -> dict[str, Any]:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}


def asks(*calls: dict[str, Any], content: Any = "") -> dict[str, Any]:
    return {"role": "assistant", "content": content, "tool_calls": list(calls)}


def answer(cid: str, content: str = "12C", name: str | None = "get_weather") -> dict[str, Any]:
    msg: dict[str, Any] = {"role": "tool", "tool_call_id": cid, "content": content}
    if name is not None:
        msg["name"] = name
    return msg


USER = {"role": "user", "content": "Weather in Paris and Rome?"}
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]
VALID: Body = {
    "model": "mistral-large-latest",
    "messages": [
        {"role": "system", "content": "You are terse."},
        USER,
        asks(fn_call("D681PevKs"), fn_call("aB3dE5gH7", args='{"city": "Rome"}')),
        answer("D681PevKs"),
        answer("aB3dE5gH7", "18C"),
        {"role": "assistant", "content": "Paris 12C, Rome 18C."},
        {"role": "user", "content": "Thanks"},
    ],
    "tools": TOOLS,
}


def body(*messages: dict[str, Any], **fields: Any) -> Body:
    return {"model": "mistral-large-latest", "messages": list(messages), "tools": TOOLS, **fields}


def hits(b: Body, rule: str) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(v.path, v.error_text, v.call_ids) for v in validate_payload(b, "mistral") if v.rule == rule]


def test_valid_body_has_no_violation() -> None:
    assert validate_payload(VALID, "mistral") == []


def test_rules_are_registered_with_their_slugs() -> None:
    assert [r.id for r in RULES] == [
        "mis.empty",
        "mis.first",
        "mis.last_role",
        "mis.order",
        "mis.user_after_tool",
        "mis.count",
        "mis.dup_result",
        "mis.unexpected_result",
        "mis.dup_call",
        "mis.id_missing",
        "mis.call_id_missing",
        "mis.id_format",
        "mis.name_format",
        "mis.content_xor_calls",
    ]
    warnings = ("mis.content_xor_calls", "mis.user_after_tool")
    assert {r.severity for r in RULES if r.id not in warnings} == {"error"}
    assert {PROVIDER.rule(w).severity for w in warnings} == {"warning"}


# --- structure ---------------------------------------------------------------------------------------


def test_empty_conversation() -> None:
    assert hits(body(), "mis.empty") == [("messages", "Conversation must have at least one message", ())]
    assert hits(body(USER), "mis.empty") == []


@pytest.mark.parametrize("role", ["assistant", "tool"])
def test_single_message_must_be_user_or_system(role: str) -> None:
    lone = {"role": role, "content": "hi"} if role == "assistant" else answer("D681PevKs")
    assert hits(body(lone), "mis.first") == [
        ("messages[0].role", "Conversation must start with a user message or system message", ())
    ]
    assert hits(body({"role": "system", "content": "hi"}), "mis.first") == []
    assert hits(body(USER), "mis.first") == []


def test_last_role_assistant() -> None:
    b = body(USER, {"role": "assistant", "content": "Paris 12C."})
    assert hits(b, "mis.last_role") == [
        (
            "messages[1].role",
            "Expected last role User or Tool (or Assistant with prefix or continue_final_message set to True) for serving but got assistant",
            (),
        )
    ]
    assert hits(body(USER, {"role": "assistant", "content": "Paris", "prefix": True}), "mis.last_role") == []
    assert hits({**b, "continue_final_message": True}, "mis.last_role") == []
    assert hits(body(USER, asks(fn_call("D681PevKs")), answer("D681PevKs")), "mis.last_role") == []


def test_user_after_tool() -> None:
    b = body(USER, asks(fn_call("D681PevKs")), answer("D681PevKs"), {"role": "user", "content": "and Rome?"})
    # Rejected in 2025 (zed#37021), accepted by mistral-small-latest in 2026-08 (ruby_llm cassettes): a warning.
    assert hits(b, "mis.order") == []
    assert [(v.rule, v.severity, v.path, v.error_text) for v in validate_payload(b, "mistral")] == [
        ("mis.user_after_tool", "warning", "messages[3].role", "Unexpected role 'user' after role 'tool'")
    ]
    bridged = copy.deepcopy(b)
    bridged["messages"].insert(3, {"role": "assistant", "content": "Paris 12C."})
    assert validate_payload(bridged, "mistral") == []


def test_tool_after_user() -> None:
    b = body(USER, asks(fn_call("D681PevKs")), {"role": "user", "content": "hurry"}, answer("D681PevKs"))
    assert hits(b, "mis.order") == [
        ("messages[3].role", "Unexpected role 'tool' after role 'user'", ("D681PevKs",))
    ]
    moved = body(USER, asks(fn_call("D681PevKs")), answer("D681PevKs"))
    assert validate_payload(moved, "mistral") == []


def test_system_after_tool() -> None:
    b = body(
        USER, asks(fn_call("D681PevKs")), answer("D681PevKs"), {"role": "system", "content": "Be brief."}
    )
    assert hits(b, "mis.order") == [("messages[3].role", "Unexpected role 'system' after role 'tool'", ())]


# --- pairing -----------------------------------------------------------------------------------------


def test_count_checked_at_the_next_assistant_message() -> None:
    b = body(
        USER,
        asks(fn_call("D681PevKs"), fn_call("aB3dE5gH7")),
        answer("D681PevKs"),
        {"role": "assistant", "content": "Only Paris came back."},
        {"role": "user", "content": "ok"},
    )
    assert hits(b, "mis.count") == [
        ("messages[1].tool_calls", "Not the same number of function calls and responses", ("aB3dE5gH7",))
    ]
    b["messages"].insert(3, answer("aB3dE5gH7"))
    assert validate_payload(b, "mistral") == []


def test_count_checked_at_the_end() -> None:
    b = body(USER, asks(fn_call("D681PevKs"), fn_call("aB3dE5gH7")), answer("aB3dE5gH7"))
    assert hits(b, "mis.count") == [
        ("messages[1].tool_calls", "Not the same number of function calls and responses", ("D681PevKs",))
    ]


def test_duplicate_result() -> None:
    b = body(USER, asks(fn_call("D681PevKs")), answer("D681PevKs"), answer("D681PevKs"))
    assert hits(b, "mis.dup_result") == [
        ("messages[3].tool_call_id", "Duplicate tool call id D681PevKs in tool results", ("D681PevKs",))
    ]
    assert hits(body(USER, asks(fn_call("D681PevKs")), answer("D681PevKs")), "mis.dup_result") == []


def test_unexpected_result() -> None:
    b = body(USER, asks(fn_call("D681PevKs")), answer("D681PevKs"), answer("zzzzzzzzz"))
    assert hits(b, "mis.unexpected_result") == [
        ("messages[3].tool_call_id", "Unexpected tool call id zzzzzzzzz in tool results", ("zzzzzzzzz",))
    ]
    assert hits(body(USER, asks(fn_call("D681PevKs")), answer("D681PevKs")), "mis.unexpected_result") == []


def test_result_of_an_earlier_turn_is_unexpected() -> None:
    b = body(
        USER,
        asks(fn_call("D681PevKs")),
        answer("D681PevKs"),
        asks(fn_call("aB3dE5gH7")),
        answer("aB3dE5gH7"),
        answer("D681PevKs"),
    )
    assert hits(b, "mis.unexpected_result") == [
        ("messages[5].tool_call_id", "Unexpected tool call id D681PevKs in tool results", ("D681PevKs",))
    ]


def test_duplicate_call_id() -> None:
    b = body(USER, asks(fn_call("D681PevKs"), fn_call("D681PevKs")), answer("D681PevKs"))
    assert hits(b, "mis.dup_call") == [
        (
            "messages[1].tool_calls[1].id",
            "Duplicate tool call id D681PevKs in assistant message",
            ("D681PevKs",),
        )
    ]
    distinct = body(
        USER, asks(fn_call("D681PevKs"), fn_call("aB3dE5gH7")), answer("D681PevKs"), answer("aB3dE5gH7")
    )
    assert validate_payload(distinct, "mistral") == []


# --- ids and names -----------------------------------------------------------------------------------


def test_tool_message_without_id() -> None:
    b = body(USER, asks(fn_call("D681PevKs")), {"role": "tool", "content": "12C"})
    assert hits(b, "mis.id_missing") == [("messages[2].tool_call_id", "Tool call id has to be defined.", ())]
    assert hits(body(USER, asks(fn_call("D681PevKs")), answer("D681PevKs")), "mis.id_missing") == []


def test_call_without_id() -> None:
    b = body(USER, asks({"type": "function", "function": {"name": "get_weather", "arguments": "{}"}}))
    assert hits(b, "mis.call_id_missing") == [
        ("messages[1].tool_calls[0].id", "Tool call id has to be defined in serving mode.", ())
    ]
    assert hits(body(USER, asks(fn_call("D681PevKs")), answer("D681PevKs")), "mis.call_id_missing") == []


def test_id_format_on_calls_and_results() -> None:
    b = body(USER, asks(fn_call("call_Qm1xWv9aKd2R")), answer("call_Qm1xWv9aKd2R"))
    assert hits(b, "mis.id_format") == [
        (
            "messages[1].tool_calls[0].id",
            "Tool call id was call_Qm1xWv9aKd2R but must be a-z, A-Z, 0-9, with a length of 9.",
            ("call_Qm1xWv9aKd2R",),
        ),
        (
            "messages[2].tool_call_id",
            "Tool call id was call_Qm1xWv9aKd2R but must be a-z, A-Z, 0-9, with a length of 9.",
            ("call_Qm1xWv9aKd2R",),
        ),
    ]
    assert hits(body(USER, asks(fn_call("Qm1xWv9aK")), answer("Qm1xWv9aK")), "mis.id_format") == []


def test_name_format_in_results_and_declarations() -> None:
    # Not on the history's tool_calls: the hosted API accepted a garbled name the model itself produced
    # (mistral-large-latest, 2026-01, pydantic-ai test_tool_choice[mistral-list-single-tool].yaml).
    tools = [{"type": "function", "function": {"name": "weather.get", "parameters": {"type": "object"}}}]
    b = {
        "model": "mistral-large-latest",
        "messages": [
            USER,
            asks(fn_call("D681PevKs", "weather.get")),
            answer("D681PevKs", name="weather.get"),
        ],
        "tools": tools,
    }
    text = "Function name was weather.get but must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64."
    assert hits(b, "mis.name_format") == [
        ("messages[2].name", text, ()),
        ("tools[0].function.name", text, ()),
    ]
    assert hits(VALID, "mis.name_format") == []


def test_content_beside_tool_calls_is_a_v3_warning() -> None:
    b = body(USER, asks(fn_call("D681PevKs"), content="Checking."), answer("D681PevKs"))
    [v] = validate_payload(b, "mistral")
    assert (v.rule, v.severity, v.path, v.error_text) == (
        "mis.content_xor_calls",
        "warning",
        "messages[1]",
        "Assistant message must have either content or tool_calls, but not both.",
    )
    assert validate_payload(body(USER, asks(fn_call("D681PevKs")), answer("D681PevKs")), "mistral") == []


def test_malformed_bodies_do_not_raise() -> None:
    assert validate_payload({"messages": "nope"}, "mistral") == []
    odd = {
        "messages": [USER, 3, {"role": "assistant", "tool_calls": [7, {"function": "x"}, {}]}, {"role": 5}],
        "tools": [1],
    }
    assert [(v.rule, v.path, v.call_ids) for v in validate_payload(odd, "mistral")] == [
        ("mis.count", "messages[2].tool_calls", ()),
        ("mis.call_id_missing", "messages[2].tool_calls[1].id", ()),
        ("mis.call_id_missing", "messages[2].tool_calls[2].id", ()),
    ]


# --- rendering ---------------------------------------------------------------------------------------

ROUND_TRIP = [
    VALID,
    {
        "model": "open-mistral-nemo",
        "temperature": 0.3,
        "random_seed": 7,
        "safe_prompt": False,
        "tool_choice": "auto",
        "parallel_tool_calls": True,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "List the repo."}]},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "k7Ty2Pq9Z",
                        "type": "function",
                        "function": {"name": "ls", "arguments": {"path": "."}},
                    }
                ],
            },
            {"role": "tool", "name": "ls", "tool_call_id": "k7Ty2Pq9Z", "content": "README.md\nsrc"},
            {"role": "assistant", "content": "The repo has a README and ", "prefix": True},
        ],
        "tools": [
            {
                "type": "function",
                "function": {"name": "ls", "parameters": {"type": "object", "properties": {}}},
            }
        ],
    },
    {
        "model": "codestral-latest",
        "max_tokens": 512,
        "response_format": {"type": "text"},
        "messages": [
            {"role": "system", "content": "You fix code."},
            {"role": "user", "content": "Run the tests."},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [fn_call("Rt5uV7wX9", "run_tests", '{"target":"tests"}')],
            },
            {"role": "tool", "tool_call_id": "Rt5uV7wX9", "content": "2 failed"},
        ],
    },
]


@pytest.mark.parametrize("sent", ROUND_TRIP)
def test_round_trip(sent: Body) -> None:
    assert render(toolhist.load(copy.deepcopy(sent)), "mistral").body == sent


def test_round_trip_of_a_bare_message_list() -> None:
    messages = copy.deepcopy(VALID["messages"])
    assert render(toolhist.load(messages), "mistral").body == {"messages": messages}


OPENAI_CHAT: Body = {
    "model": "gpt-4o",
    "messages": [
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": None, "tool_calls": [fn_call("call_Qm1xWv9aKd2R")]},
        {"role": "tool", "tool_call_id": "call_Qm1xWv9aKd2R", "content": "12C"},
        {"role": "assistant", "content": "12C."},
        {"role": "user", "content": "Thanks"},
    ],
    "tools": TOOLS,
}


def test_openai_chat_history_is_valid_for_mistral_once_ids_are_mapped() -> None:
    session = toolhist.load(copy.deepcopy(OPENAI_CHAT))
    payload = render(session, "mistral", ids="provider")
    new = payload.id_map["call_Qm1xWv9aKd2R"]
    assert len(new) == 9
    assert new.isalnum()
    messages = copy.deepcopy(OPENAI_CHAT["messages"])
    messages[2]["tool_calls"][0]["id"] = new
    messages[3]["tool_call_id"] = new
    assert payload.body == {**OPENAI_CHAT, "messages": messages}
    assert validate_payload(payload.body, "mistral") == []
    assert validate(session, "mistral", ids="provider") == []


def test_openai_chat_history_as_sent_breaks_the_id_rule() -> None:
    session = toolhist.load(copy.deepcopy(OPENAI_CHAT))
    assert [(v.rule, v.path, v.message_index, v.block_index) for v in validate(session, "mistral")] == [
        ("mis.id_format", "messages[2].tool_calls[0].id", 2, 0),
        ("mis.id_format", "messages[3].tool_call_id", 3, 0),
    ]


def _msg(speaker: Any, *blocks: Any) -> Message:
    return Message(speaker=speaker, blocks=tuple(blocks), metadata=MessageMetadata())


def test_canonical_history_renders_a_mistral_body_and_lists_what_it_cannot_carry() -> None:
    session = Session(
        messages=(
            _msg("human", TextBlock(text="Weather in Paris?")),
            _msg(
                "ai",
                ThinkingBlock(text="Use the tool.", signature="sig", source_provider="anthropic"),
                ToolCallBlock(id="Qm1xWv9aK", name="get_weather", parameters={"city": "Paris"}),
            ),
            _msg(
                "tool", ToolResponseBlock(call_id="Qm1xWv9aK", tool_name="get_weather", result={"temp": 12})
            ),
        ),
        request={"model": "mistral-small-latest", "max_tokens": 100},
        source=SessionSource(format="anthropic"),
    )
    payload = render(session, "mistral")
    assert payload.provider == "mistral"
    assert payload.body == {
        "model": "mistral-small-latest",
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "Qm1xWv9aK",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "Qm1xWv9aK", "content": '{"temp":12}'},
        ],
    }
    assert payload.omitted == ("message 1 block 0: thinking from anthropic has no place in mistral",)
    assert payload.source_map["messages[1].tool_calls[0]"] == (1, 1)
    assert validate_payload(payload.body, "mistral") == []


def test_assistant_message_with_neither_content_nor_calls_is_a_v3_warning() -> None:
    b = body(USER, {"role": "assistant", "content": ""}, {"role": "user", "content": "?"})
    assert [(v.rule, v.severity, v.path) for v in validate_payload(b, "mistral")] == [
        ("mis.content_xor_calls", "warning", "messages[1]")
    ]


def test_first_message_is_outside_the_pairing_walk_as_in_the_validator() -> None:
    b = body(asks(fn_call("D681PevKs")), answer("D681PevKs"))
    assert hits(b, "mis.unexpected_result") == [
        ("messages[1].tool_call_id", "Unexpected tool call id D681PevKs in tool results", ("D681PevKs",))
    ]


def test_realistic_session_is_valid_once_ids_are_mapped_but_for_the_v3_warning() -> None:
    found = validate(REALISTIC, "mistral", ids="provider")
    assert [(v.rule, v.severity, v.path, v.message_index) for v in found] == [
        ("mis.content_xor_calls", "warning", "messages[2]", 2),
        ("mis.content_xor_calls", "warning", "messages[5]", 4),
    ]
    as_sent = [(v.rule, v.path) for v in validate(REALISTIC, "mistral") if v.severity == "error"]
    assert as_sent == [
        ("mis.id_format", "messages[2].tool_calls[0].id"),
        ("mis.id_format", "messages[2].tool_calls[1].id"),
        ("mis.id_format", "messages[3].tool_call_id"),
        ("mis.id_format", "messages[4].tool_call_id"),
        ("mis.id_format", "messages[5].tool_calls[0].id"),
        ("mis.id_format", "messages[6].tool_call_id"),
    ]
