"""Kimi: OpenAI pairing texts in lower case, Kimi's own id form, thinking-mode reasoning; round trips."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from realistic import REALISTIC

import toolhist
from toolhist.providers import render, validate, validate_payload
from toolhist.providers.kimi import PROVIDER, RULES

Body = dict[str, Any]


def fn_call(cid: str, name: str = "read_file", args: str = '{"path": "a.py"}') -> dict[str, Any]:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}


def asks(*calls: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": "", "tool_calls": list(calls), **extra}


def answer(cid: str, content: str = "print('hi')", name: str = "read_file") -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": cid, "name": name, "content": content}


USER = {"role": "user", "content": "Show me a.py"}
C0 = "functions.read_file:0"
C1 = "functions.read_file:1"


def body(*messages: dict[str, Any], **fields: Any) -> Body:
    return {"model": "kimi-k2-0905-preview", "messages": list(messages), **fields}


def hits(b: Body, rule: str) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(v.path, v.error_text, v.call_ids) for v in validate_payload(b, "kimi") if v.rule == rule]


VALID = body(
    {"role": "system", "content": "You are Kimi."},
    USER,
    asks(fn_call(C0)),
    answer(C0),
    {"role": "assistant", "content": "It prints hi."},
    {"role": "user", "content": "Thanks"},
)


def test_valid_body_has_no_violation() -> None:
    assert validate_payload(VALID, "kimi") == []


def test_rules_are_registered_with_their_slugs() -> None:
    assert [r.id for r in RULES] == [
        "oai.tool_orphan",
        "oai.call_unanswered",
        "oai.tool_id_unknown",
        "oai.tool_id_missing",
        "oai.dup_tool_result",
        "oai.empty_tool_calls",
        "oai.empty_fn_name",
        "oai.null_content",
        "kimi.id_format",
        "kimi.reasoning",
        "kimi.thinking_effort_conflict",
    ]
    assert {r.provider for r in RULES} == {"kimi"}
    assert PROVIDER.rule("kimi.id_format").severity == "warning"


# --- the OpenAI rules, in lower case -----------------------------------------------------------------


def test_tool_orphan() -> None:
    b = body(USER, answer(C0))
    assert hits(b, "oai.tool_orphan") == [
        (
            "messages[1].role",
            "invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
            (C0,),
        )
    ]
    assert hits(body(USER, asks(fn_call(C0)), answer(C0)), "oai.tool_orphan") == []


def test_call_unanswered() -> None:
    b = body(USER, asks(fn_call(C0), fn_call(C1)), answer(C0), {"role": "user", "content": "stop"})
    assert hits(b, "oai.call_unanswered") == [
        (
            "messages[1].role",
            "an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: functions.read_file:1",
            (C1,),
        )
    ]
    answered = body(
        USER, asks(fn_call(C0), fn_call(C1)), answer(C0), answer(C1), {"role": "user", "content": "stop"}
    )
    assert validate_payload(answered, "kimi") == []


def test_tool_id_unknown() -> None:
    b = body(USER, asks(fn_call(C0)), answer(C0), answer(C1))
    assert hits(b, "oai.tool_id_unknown") == [
        (
            "messages[3].tool_call_id",
            "invalid parameter: 'tool_call_id' of 'functions.read_file:1' not found in 'tool_calls' of previous message.",
            (C1,),
        )
    ]
    assert validate_payload(body(USER, asks(fn_call(C0), fn_call(C1)), answer(C0), answer(C1)), "kimi") == []


def test_tool_id_missing() -> None:
    b = body(USER, asks(fn_call(C0)), {"role": "tool", "content": "x"})
    assert hits(b, "oai.tool_id_missing") == [
        (
            "messages[2].tool_call_id",
            "missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.",
            (),
        )
    ]
    assert validate_payload(body(USER, asks(fn_call(C0)), {**answer(C0), "content": "x"}), "kimi") == []


def test_dup_tool_result() -> None:
    b = body(USER, asks(fn_call(C0)), answer(C0), answer(C0))
    assert hits(b, "oai.dup_tool_result") == [
        (
            "messages[3].tool_call_id",
            "invalid parameter: Duplicate value for 'tool_call_id' of 'functions.read_file:0', in messages[2] and messages[3].",
            (C0,),
        )
    ]
    assert validate_payload(body(USER, asks(fn_call(C0), fn_call(C1)), answer(C0), answer(C1)), "kimi") == []


def test_empty_tool_calls() -> None:
    b = body(
        USER, {"role": "assistant", "content": "done", "tool_calls": []}, {"role": "user", "content": "ok"}
    )
    assert hits(b, "oai.empty_tool_calls") == [
        (
            "messages[1].tool_calls",
            "invalid 'messages[1].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.",
            (),
        )
    ]
    assert hits(body(USER, {"role": "assistant", "content": "done"}, USER), "oai.empty_tool_calls") == []


def test_empty_fn_name() -> None:
    b = body(USER, asks(fn_call("functions.:0", "")), answer("functions.:0"))
    assert hits(b, "oai.empty_fn_name") == [
        (
            "messages[1].tool_calls[0].function.name",
            "invalid 'messages[1].tool_calls[0].function.name': empty string. Expected a string with minimum length 1, but got an empty string instead.",
            ("functions.:0",),
        )
    ]
    assert validate_payload(body(USER, asks(fn_call(C0)), answer(C0)), "kimi") == []


def test_null_content() -> None:
    b = body({"role": "user", "content": None})
    assert hits(b, "oai.null_content") == [
        ("messages[0].content", "invalid value for 'content': expected a string, got null.", ())
    ]
    assert hits(body(USER, asks(fn_call(C0), content=None), answer(C0)), "oai.null_content") == []


def test_openai_forty_character_limit_does_not_apply() -> None:
    long_id = "functions.mcp__github__create_pull_request_review:12"
    assert len(long_id) > 40
    assert validate_payload(body(USER, asks(fn_call(long_id)), answer(long_id)), "kimi") == []


# --- Kimi's own rules --------------------------------------------------------------------------------


def test_foreign_ids_are_a_warning() -> None:
    b = body(USER, asks(fn_call("call_Qm1xWv9aKd2R")), answer("call_Qm1xWv9aKd2R"))
    [v] = validate_payload(b, "kimi")
    assert (v.rule, v.severity, v.path, v.call_ids, v.error_text) == (
        "kimi.id_format",
        "warning",
        "messages[1].tool_calls[0].id",
        ("call_Qm1xWv9aKd2R",),
        "tool call id 'call_Qm1xWv9aKd2R' is not in Kimi's form functions.<name>:<index>. Kimi accepts the request (no HTTP error), but the model imitates the ids in the history and its tool-call parser cannot read the calls it then writes: they come back as raw markers in content, with no tool_calls.",
    )
    assert (
        hits(
            body(USER, asks(fn_call("functions.read-file.v2:3")), answer("functions.read-file.v2:3")),
            "kimi.id_format",
        )
        == []
    )


REASONING_TEXT = (
    "thinking is enabled but reasoning_content is missing in assistant tool call message at index 1"
)


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        ("kimi-k2-thinking", {}),
        ("kimi-k2-thinking-turbo", {}),
        ("kimi-k2.5", {}),
        ("kimi-k2.6", {}),
        ("k2p5", {}),
        ("kimi-k2-0905-preview", {"thinking": {"type": "enabled"}}),
    ],
)
def test_thinking_models_need_reasoning_content(model: str, fields: dict[str, Any]) -> None:
    b = {**body(USER, asks(fn_call(C0)), answer(C0), **fields), "model": model}
    assert hits(b, "kimi.reasoning") == [("messages[1]", REASONING_TEXT, ())]
    replayed = {**b, "messages": [USER, asks(fn_call(C0), reasoning_content=""), answer(C0)]}
    assert validate_payload(replayed, "kimi") == []


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        ("kimi-k2-0905-preview", {}),
        ("moonshot-v1-8k", {}),
        ("kimi-k2.5", {"thinking": {"type": "disabled"}}),
        ("kimi-k2-0711-preview", {"thinking": {"type": "disabled"}}),
    ],
)
def test_non_thinking_requests_do_not_need_reasoning_content(model: str, fields: dict[str, Any]) -> None:
    b = {**body(USER, asks(fn_call(C0)), answer(C0), **fields), "model": model}
    assert validate_payload(b, "kimi") == []


def test_thinking_and_reasoning_effort_together() -> None:
    b = body(USER, model="kimi-k2.6", thinking={"type": "enabled"}, reasoning_effort="medium")
    assert hits(b, "kimi.thinking_effort_conflict") == [
        ("reasoning_effort", "cannot specify both 'thinking' and 'reasoning_effort'", ())
    ]
    assert validate_payload(body(USER, model="kimi-k2.6", thinking={"type": "enabled"}), "kimi") == []
    assert validate_payload(body(USER, model="kimi-k2.6", reasoning_effort="medium"), "kimi") == []
    # K2 evidence only: Kimi K3 sets its effort with reasoning_effort, and what it answers to both is unknown
    k3 = body(USER, model="kimi-k3", thinking={"type": "enabled"}, reasoning_effort="medium")
    assert hits(k3, "kimi.thinking_effort_conflict") == []


def test_malformed_bodies_do_not_raise() -> None:
    assert validate_payload({"messages": {"role": "user"}}, "kimi") == []
    odd = {
        "model": 7,
        "messages": [USER, {"role": "assistant", "tool_calls": [3, {"id": 5}]}, "x"],
        "thinking": 1,
    }
    assert [(v.rule, v.path) for v in validate_payload(odd, "kimi")] == [
        ("oai.call_unanswered", "messages[1].role")
    ]


# --- rendering ---------------------------------------------------------------------------------------

ROUND_TRIP = [
    VALID,
    {
        "model": "kimi-k2.5",
        "temperature": 1.0,
        "max_tokens": 8192,
        "thinking": {"type": "enabled"},
        "messages": [
            {"role": "system", "content": "You are Kimi, an AI assistant created by Moonshot AI."},
            {"role": "user", "content": [{"type": "text", "text": "What is in a.py and b.py?"}]},
            {
                "role": "assistant",
                "content": "",
                "reasoning_content": "Read both files.",
                "tool_calls": [fn_call(C0), fn_call(C1, args='{"path": "b.py"}')],
            },
            answer(C0),
            answer(C1, "x = 1"),
            {
                "role": "assistant",
                "content": "a.py prints hi; b.py sets x.",
                "reasoning_content": "Summarise.",
            },
            {"role": "user", "content": "Now write the answer as JSON:"},
            {"role": "assistant", "content": "{", "partial": True},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "read_file",
                    "description": "Read a file.",
                    "parameters": {
                        "type": "object",
                        "properties": {"path": {"type": "string"}},
                        "required": ["path"],
                    },
                },
            }
        ],
    },
]


@pytest.mark.parametrize("sent", ROUND_TRIP)
def test_round_trip(sent: Body) -> None:
    assert render(toolhist.load(copy.deepcopy(sent)), "kimi").body == sent


def test_round_trip_of_a_bare_message_list() -> None:
    messages = copy.deepcopy(VALID["messages"])
    assert render(toolhist.load(messages), "kimi").body == {"messages": messages}


OPENAI_CHAT: Body = {
    "model": "gpt-4o",
    "messages": [
        USER,
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [fn_call("call_Qm1xWv9aKd2R"), fn_call("call_Lp7TzN0bYc4E", "grep", '{"q": "x"}')],
        },
        {"role": "tool", "tool_call_id": "call_Qm1xWv9aKd2R", "content": "print('hi')"},
        {"role": "tool", "tool_call_id": "call_Lp7TzN0bYc4E", "content": "a.py:1"},
        {"role": "assistant", "content": None, "tool_calls": [fn_call("call_Vb3NsE8uHw5J")]},
        {"role": "tool", "tool_call_id": "call_Vb3NsE8uHw5J", "content": "x = 1"},
    ],
}


def test_openai_chat_history_rendered_for_kimi_with_kimi_ids() -> None:
    session = toolhist.load(copy.deepcopy(OPENAI_CHAT))
    payload = render(session, "kimi", ids="provider")
    assert payload.id_map == {
        "call_Qm1xWv9aKd2R": "functions.read_file:0",
        "call_Lp7TzN0bYc4E": "functions.grep:1",
        "call_Vb3NsE8uHw5J": "functions.read_file:2",
    }
    messages = payload.body["messages"]
    assert isinstance(messages, list)
    assert [m.get("tool_call_id") for m in messages if isinstance(m, dict)] == [
        None,
        None,
        "functions.read_file:0",
        "functions.grep:1",
        None,
        "functions.read_file:2",
    ]
    assert validate_payload(payload.body, "kimi") == []
    assert validate(session, "kimi", ids="provider") == []


def test_openai_chat_history_as_sent_gets_id_warnings_located_in_the_history() -> None:
    session = toolhist.load(copy.deepcopy(OPENAI_CHAT))
    assert [(v.rule, v.path, v.message_index, v.block_index) for v in validate(session, "kimi")] == [
        ("kimi.id_format", "messages[1].tool_calls[0].id", 1, 0),
        ("kimi.id_format", "messages[1].tool_calls[1].id", 1, 1),
        ("kimi.id_format", "messages[4].tool_calls[0].id", 4, 0),
    ]


def test_realistic_session_is_valid_once_ids_are_mapped() -> None:
    assert validate(REALISTIC, "kimi", ids="provider") == []
    assert [v.rule for v in validate(REALISTIC, "kimi")] == ["kimi.id_format"] * 3
