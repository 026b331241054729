"""OpenAI Chat: every rule broken by the smallest history (or raw body), with the exact text and path,
and kept by a near-identical one that breaks nothing."""

from __future__ import annotations

from typing import Any

import pytest
from builders import ai, call, human, result, session, tool

from toolhist.model import Message, Session, TextBlock, ThinkingBlock
from toolhist.providers import validate, validate_payload
from toolhist.providers.openai_chat import PROVIDER, RULES

P = "openai-chat"
Body = dict[str, Any]
Subject = Session | Body


def fn_call(cid: str, name: str = "read_file") -> dict[str, Any]:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": '{"path": "a.py"}'}}


def asks(*calls: dict[str, Any], content: Any = None) -> dict[str, Any]:
    return {"role": "assistant", "content": content, "tool_calls": list(calls)}


def answer(cid: str, content: str = "x = 1") -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": cid, "content": content}


USER = {"role": "user", "content": "Read a.py"}


def body(*messages: dict[str, Any], **fields: Any) -> Body:
    return {"model": "gpt-4o", "messages": list(messages), **fields}


def with_model(s: Session, model: str, **request: Any) -> Session:
    return s.model_copy(update={"request": {"model": model, **request}})


def found(subject: Subject) -> list[tuple[str, str, str]]:
    """(rule, path, error_text) of every violation, for a canonical history or a raw body."""
    got = validate(subject, P) if isinstance(subject, Session) else validate_payload(subject, P)
    return [(v.rule, v.path, v.error_text) for v in got]


REASONING = ThinkingBlock(text="", provider_data={"field": "reasoning_content"})
LONG = "call_" + "x" * 36  # 41 characters
ROUND = session(human("read a.py"), ai(call("call_1")), tool(result("call_1")))
UNANSWERED = (
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
    "'tool_call_id'. The following tool_call_ids did not have response messages: {ids}"
)

# (rule, history or body that breaks it, payload path, exact text, near-identical one that does not)
CASES: list[tuple[str, Subject, str, str, Subject]] = [
    (
        "oai.tool_orphan",
        session(human("read a.py"), tool(result("call_1"))),
        "messages[1].role",
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with "
        "'tool_calls'.",
        ROUND,
    ),
    (
        "oai.tool_orphan",
        session(
            human("read a.py"),
            ai(call("call_1")),
            tool(result("call_1")),
            human("and?"),
            tool(result("call_1")),
        ),
        "messages[4].role",
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with "
        "'tool_calls'.",
        session(human("read a.py"), ai(call("call_1")), tool(result("call_1")), human("and?")),
    ),
    (
        "oai.call_unanswered",
        session(
            human("read a.py"), ai(call("call_1"), call("call_2")), tool(result("call_1")), human("go on")
        ),
        "messages[1].role",
        UNANSWERED.format(ids="call_2"),
        session(
            human("read a.py"),
            ai(call("call_1"), call("call_2")),
            tool(result("call_1")),
            tool(result("call_2")),
            human("go on"),
        ),
    ),
    (
        "oai.call_unanswered",
        session(human("read a.py"), ai(call("call_1"), call("call_2"))),
        "messages[1].role",
        UNANSWERED.format(ids="call_1, call_2"),
        session(
            human("read a.py"), ai(call("call_1"), call("call_2")), tool(result("call_2"), result("call_1"))
        ),
    ),
    (
        "oai.tool_id_unknown",
        session(human("read a.py"), ai(call("call_1")), tool(result("call_1"), result("call_9"))),
        "messages[3].tool_call_id",
        "Invalid parameter: 'tool_call_id' of 'call_9' not found in 'tool_calls' of previous message.",
        session(
            human("read a.py"), ai(call("call_1"), call("call_9")), tool(result("call_1"), result("call_9"))
        ),
    ),
    (
        "oai.tool_id_missing",
        body(USER, asks(fn_call("call_1")), {"role": "tool", "content": "y = 2"}, answer("call_1")),
        "messages[2].tool_call_id",
        "Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.",
        body(USER, asks(fn_call("call_1")), answer("call_1")),
    ),
    (
        "oai.dup_tool_result",
        session(human("read a.py"), ai(call("call_1")), tool(result("call_1")), tool(result("call_1"))),
        "messages[3].tool_call_id",
        "Invalid parameter: Duplicate value for 'tool_call_id' of 'call_1', in messages[2] and messages[3].",
        session(
            human("read a.py"),
            ai(call("call_1"), call("call_2")),
            tool(result("call_1")),
            tool(result("call_2")),
        ),
    ),
    (
        "oai.empty_tool_calls",
        body(USER, {"role": "assistant", "content": "Nothing to run.", "tool_calls": []}, USER),
        "messages[1].tool_calls",
        "Invalid 'messages[1].tool_calls': empty array. Expected an array with minimum length 1, but got an "
        "empty array instead.",
        body(USER, {"role": "assistant", "content": "Nothing to run."}, USER),
    ),
    (
        "oai.empty_fn_name",
        session(
            human("read a.py"),
            ai(call("call_1"), call("call_2", "")),
            tool(result("call_1"), result("call_2")),
        ),
        "messages[1].tool_calls[1].function.name",
        "Invalid 'messages[1].tool_calls[1].function.name': empty string. Expected a string with minimum "
        "length 1, but got an empty string instead.",
        session(
            human("read a.py"),
            ai(call("call_1"), call("call_2", "grep")),
            tool(result("call_1"), result("call_2")),
        ),
    ),
    (
        "oai.id_len",
        session(human("read a.py"), ai(call(LONG)), tool(result(LONG))),
        "messages[1].tool_calls[0].id",
        "Invalid 'messages[1].tool_calls[0].id': string too long. Expected a string with maximum length 40, but "
        "got a string with length 41 instead.",
        session(human("read a.py"), ai(call(LONG[:40])), tool(result(LONG[:40]))),
    ),
    (
        "oai.null_content",
        session(human("hi"), Message(speaker="ai"), human("hello?")),
        "messages[1].content",
        "Invalid value for 'content': expected a string, got null.",
        session(human("hi"), ai(""), human("hello?")),
    ),
    (
        "oai.null_content",
        body({"role": "system", "content": None}, USER),
        "messages[0].content",
        "Invalid value for 'content': expected a string, got null.",
        body({"role": "system", "content": ""}, USER),
    ),
    (
        "ds.reasoning_required",
        with_model(ROUND, "deepseek-reasoner"),
        "messages[1]",
        "Missing `reasoning_content` field in the assistant message at message index 1. For more information, "
        "please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls",
        with_model(
            session(human("read a.py"), ai(REASONING, call("call_1")), tool(result("call_1"))),
            "deepseek-reasoner",
        ),
    ),
    # Role and shape rules of some models or servers (toolhist.providers.chat_roles); texts from the cited
    # threads.
    (
        "oai.system_role_unsupported",
        body({"role": "system", "content": "Be brief."}, USER, model="o1-mini"),
        "messages[0].role",
        "Unsupported value: 'messages[0].role' does not support 'system' with this model.",
        body({"role": "system", "content": "Be brief."}, USER, model="o3-mini"),
    ),
    (
        # the recorded 400 (pydantic-ai test_openai_o1_mini_system_role[developer], o1-mini, 2025-02-24)
        "oai.system_role_unsupported",
        body({"role": "developer", "content": "You are a helpful assistant."}, USER, model="o1-mini"),
        "messages[0].role",
        "Unsupported value: 'messages[0].role' does not support 'developer' with this model.",
        body({"role": "developer", "content": "You are a helpful assistant."}, USER, model="o1"),
    ),
    (
        "oai.system_role_unsupported",
        session(Message(speaker="system", blocks=(TextBlock(text="Be brief."),)), human("hi")).model_copy(
            update={"request": {"model": "o1-preview-2024-09-12"}}
        ),
        "messages[0].role",
        "Unsupported value: 'messages[0].role' does not support 'system' with this model.",
        session(human("Be brief."), human("hi")).model_copy(update={"request": {"model": "o1-preview"}}),
    ),
    (
        "oai.function_name_missing",
        body(
            USER,
            {"role": "assistant", "content": "", "function_call": {"name": "read_file", "arguments": "{}"}},
            {"role": "function", "content": "x = 1"},
        ),
        "messages[2]",
        "Missing parameter 'name': messages with role 'function' must have a 'name'.",
        body(
            USER,
            {"role": "assistant", "content": "", "function_call": {"name": "read_file", "arguments": "{}"}},
            {"role": "function", "name": "read_file", "content": "x = 1"},
        ),
    ),
    (
        "oai.user_tool_calls",
        body({"role": "user", "content": "Read a.py", "tool_calls": [fn_call("call_1")]}),
        "messages[0].tool_calls",
        "'messages.0' : for 'role:user' the following must be satisfied[('messages.0' : property 'tool_calls' "
        "is unsupported, did you mean 'tool_call_id'?)]",
        body(USER),
    ),
    (
        "oai.call_type_missing",
        body(
            USER,
            asks({"id": "call_1", "function": {"name": "read_file", "arguments": "{}"}}),
            answer("call_1"),
        ),
        "messages[1].tool_calls[0]",
        "Missing required parameter: 'messages[1].tool_calls[0].type'.",
        body(USER, asks(fn_call("call_1")), answer("call_1")),
    ),
    (
        "oai.image_outside_user",
        body(
            USER,
            asks(fn_call("call_1", "screenshot")),
            {
                "role": "tool",
                "tool_call_id": "call_1",
                "content": [{"type": "image_url", "image_url": {"url": "https://example.com/s.png"}}],
            },
        ),
        "messages[2].content",
        "Invalid 'messages[2]'. Image URLs are only allowed for messages with role 'user', but this message with "
        "role 'tool' contains an image URL.",
        body(
            USER,
            asks(fn_call("call_1", "screenshot")),
            answer("call_1", "saved s.png"),
            {
                "role": "user",
                "content": [{"type": "image_url", "image_url": {"url": "https://example.com/s.png"}}],
            },
        ),
    ),
    (
        "pplx.alternate",
        body(
            {"role": "system", "content": "Be brief."},
            USER,
            {"role": "assistant", "content": "Done."},
            {"role": "system", "content": "Be briefer."},
            {"role": "user", "content": "Again"},
            model="sonar",
        ),
        "messages[3].role",
        "After the (optional) system message(s), user or tool message(s) should alternate with assistant "
        "message(s).",
        body(
            {"role": "system", "content": "Be brief."},
            {"role": "system", "content": "Be briefer."},
            USER,
            {"role": "assistant", "content": "Done."},
            {"role": "user", "content": "Again"},
            model="sonar",
        ),
    ),
    (
        "ds.alternate",
        body(USER, {"role": "user", "content": "and b.py"}, model="deepseek-reasoner"),
        "messages[1]",
        "deepseek-reasoner does not support successive user or assistant messages (messages[0] and messages[1] "
        "in your input)",
        body(USER, {"role": "user", "content": "and b.py"}, model="deepseek-chat"),
    ),
]


@pytest.mark.parametrize(
    ("rule", "bad", "path", "error", "good"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_rule_broken_by_smallest_history(
    rule: str, bad: Subject, path: str, error: str, good: Subject
) -> None:
    assert found(bad) == [(rule, path, error)]
    assert found(good) == []


def test_every_rule_has_a_case() -> None:
    assert {c[0] for c in CASES} == {r.id for r in RULES}
    # one server, mixed, or old evidence
    warnings = {"oai.user_tool_calls", "oai.call_type_missing", "oai.image_outside_user", "ds.alternate"}
    assert {r.id for r in RULES if r.severity == "warning"} == warnings
    dependent = {r.id: r.model_dependent for r in RULES}
    for rule in ("ds.reasoning_required", "oai.system_role_unsupported", "pplx.alternate", "ds.alternate"):
        assert dependent[rule] is True, rule
    assert dependent["oai.tool_orphan"] is False


@pytest.mark.parametrize(
    ("model", "applies"),
    [
        ("gpt-4o", True),
        ("o3-mini", True),
        ("openai/gpt-4.1", True),
        ("", True),  # no model named: checked as OpenAI's
        ("deepseek-chat", False),  # recorded 200s with ids over 40 characters (2025-06..2026-08)
        ("grok-4.3", False),
        ("google/gemini-2.5-flash", False),
        ("llama-3.3-70b-versatile", False),
    ],
)
def test_id_len_is_openai_s_own_limit(model: str, applies: bool) -> None:
    long_id = "call_" + "x" * 40
    body = {
        "model": model,
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": long_id, "type": "function", "function": {"name": "f", "arguments": "{}"}}
                ],
            },
            {"role": "tool", "tool_call_id": long_id, "content": "ok"},
        ],
    }
    assert [v.rule for v in validate_payload(body, "openai-chat")] == (["oai.id_len"] if applies else [])


@pytest.mark.parametrize(
    ("bad", "expected"),
    [
        (CASES[0][1], [("oai.tool_orphan", 1, 0)]),
        (CASES[2][1], [("oai.call_unanswered", 1, None)]),
        (CASES[4][1], [("oai.tool_id_unknown", 2, 1)]),  # both results are in one canonical message
        (CASES[6][1], [("oai.dup_tool_result", 3, 0)]),
        (CASES[8][1], [("oai.empty_fn_name", 1, 1)]),
        (CASES[9][1], [("oai.id_len", 1, 0)]),
        (CASES[10][1], [("oai.null_content", 1, None)]),
    ],
    ids=["orphan", "unanswered", "unknown", "dup", "empty-name", "id-len", "null"],
)
def test_history_violations_are_located_in_the_canonical_history(
    bad: Subject, expected: list[tuple[str, int, int | None]]
) -> None:
    assert isinstance(bad, Session)
    assert [(v.rule, v.message_index, v.block_index) for v in validate(bad, P)] == expected


def test_call_ids_name_the_calls_involved() -> None:
    two_open, unknown = CASES[3][1], CASES[4][1]
    assert isinstance(two_open, Session)
    assert isinstance(unknown, Session)
    assert [v.call_ids for v in validate(two_open, P)] == [("call_1", "call_2")]
    assert [v.call_ids for v in validate(unknown, P)] == [("call_9",)]


def test_tool_id_unknown_and_call_unanswered_together() -> None:
    s = session(human("read a.py"), ai(call("call_1")), tool(result("call_2")))
    assert found(s) == [
        (
            "oai.tool_id_unknown",
            "messages[2].tool_call_id",
            "Invalid parameter: 'tool_call_id' of 'call_2' not found in 'tool_calls' of previous message.",
        ),
        ("oai.call_unanswered", "messages[1].role", UNANSWERED.format(ids="call_1")),
    ]


def test_results_in_any_order_and_user_after_tool_are_fine() -> None:
    s = session(
        human("read a.py and b.py"),
        ai("Reading both.", call("call_1"), call("call_2")),
        tool(result("call_2")),
        tool(result("call_1")),
        human("thanks"),
    )
    assert found(s) == []


def test_null_content_is_allowed_only_on_an_assistant_message_with_tool_calls() -> None:
    assert found(body(USER, asks(fn_call("call_1"), content=None), answer("call_1"))) == []
    for role in ("user", "assistant", "tool"):
        extra = {"tool_call_id": "call_1"} if role == "tool" else {}
        b = body(USER, asks(fn_call("call_1")), answer("call_1"), {"role": role, "content": None, **extra})
        assert [(r, p) for r, p, _ in found(b) if r == "oai.null_content"] == [
            ("oai.null_content", "messages[3].content")
        ]


def test_null_content_is_allowed_beside_a_legacy_function_call() -> None:
    """OpenAI's reference: assistant content is "Required unless tool_calls or function_call is specified"."""
    legacy = {"role": "assistant", "content": None, "function_call": {"name": "f", "arguments": "{}"}}
    b = body(USER, legacy, {"role": "function", "name": "f", "content": "done"})
    assert [r for r, _, _ in found(b) if r == "oai.null_content"] == []
    b = body(USER, {**legacy, "function_call": None})
    assert [r for r, _, _ in found(b) if r == "oai.null_content"] == ["oai.null_content"]


@pytest.mark.parametrize(
    ("model", "request_fields", "applies"),
    [
        ("deepseek-reasoner", {}, True),
        ("deepseek-v4-pro", {}, True),
        ("deepseek-chat", {"thinking": {"type": "enabled"}}, True),
        ("DeepSeek-Chat", {"thinking": {"type": "enabled"}}, True),
        ("deepseek-chat", {}, False),
        ("deepseek-chat", {"thinking": {"type": "disabled"}}, False),
        ("gpt-4o", {"thinking": {"type": "enabled"}}, False),
        ("o3-mini", {}, False),
    ],
)
def test_reasoning_required_only_in_deepseek_thinking_mode(
    model: str, request_fields: dict[str, Any], applies: bool
) -> None:
    b = body(USER, asks(fn_call("call_1")), answer("call_1"), model=model, **request_fields)
    assert [r for r, _, _ in found(b)] == (["ds.reasoning_required"] if applies else [])
    b["messages"][1]["reasoning_content"] = ""
    assert found(b) == []


def test_forty_character_id_is_the_limit() -> None:
    ok = "c" * 40
    assert found(body(USER, asks(fn_call(ok)), answer(ok))) == []
    assert PROVIDER.rule("oai.id_len").summary == "tool_calls[].id is at most 40 characters"
