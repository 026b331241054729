"""Bedrock Converse: every rule broken by the smallest body, with the exact text; renders and round trips."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from realistic import REALISTIC

import toolhist
from toolhist.providers import render, validate, validate_payload
from toolhist.providers.bedrock import PROVIDER, RULES

Body = dict[str, Any]
SAMPLES = Path(__file__).parent.parent.parent / "sample_logs"
CONFIG = {"tools": [{"toolSpec": {"name": "read_file", "inputSchema": {"json": {"type": "object"}}}}]}


def use(cid: str) -> dict[str, Any]:
    return {"toolUse": {"toolUseId": cid, "name": "read_file", "input": {"path": "a.py"}}}


def res(cid: str, content: Any = None, status: str | None = "success") -> dict[str, Any]:
    result: dict[str, Any] = {"toolUseId": cid, "content": [{"text": "ok"}] if content is None else content}
    if status is not None:
        result["status"] = status
    return {"toolResult": result}


def text(value: str) -> dict[str, Any]:
    return {"text": value}


def user(*content: Any) -> dict[str, Any]:
    return {"role": "user", "content": [text(c) if isinstance(c, str) else c for c in content]}


def assistant(*content: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": [text(c) if isinstance(c, str) else c for c in content]}


def body(*messages: dict[str, Any], **extra: Any) -> Body:
    out: Body = {
        "modelId": "anthropic.claude-3-5-sonnet-20240620-v1:0",
        "messages": list(messages),
        "toolConfig": CONFIG,
    }
    out.update(extra)
    return {k: v for k, v in out.items() if v is not None}


def found(b: Body) -> list[tuple[str, str, str]]:
    return [(v.rule, v.path, v.error_text) for v in validate_payload(b, "bedrock")]


ROUND = (user("read a.py"), assistant(use("tooluse_1")), user(res("tooluse_1")))
LONG = "t" * 65

# (rule, body that breaks it, payload path, exact text, near-identical body that does not)
CASES: list[tuple[str, Body, str, str, Body]] = [
    (
        "brk.first_user",
        body(assistant("hello"), user("hi")),
        "messages.0",
        "A conversation must start with a user message. Try again with a conversation that starts with a user message.",
        body(user("hello"), assistant("hi"), user("go on")),
    ),
    (
        "brk.alternate",
        body(user("hi"), assistant("hello"), assistant("again")),
        "messages.2",
        "A conversation must alternate between user and assistant roles. Make sure the conversation alternates "
        "between user and assistant roles and try again.",
        body(user("hi"), assistant("hello", "again")),
    ),
    (
        "brk.consecutive_user",
        body(user("hi"), user("again")),
        "messages.1",
        "A conversation must alternate between user and assistant roles. Make sure the conversation alternates "
        "between user and assistant roles and try again.",
        body(user("hi", "again")),
    ),
    (
        "brk.result_missing",
        body(user("read a.py"), assistant(use("tooluse_1"), use("tooluse_2")), user(res("tooluse_2"))),
        "messages.2.content",
        "Expected toolResult blocks at messages.2.content for the following Ids: tooluse_1",
        body(
            user("read a.py"),
            assistant(use("tooluse_1"), use("tooluse_2")),
            user(res("tooluse_1"), res("tooluse_2")),
        ),
    ),
    (
        "brk.result_count",
        body(user("read a.py"), assistant(use("tooluse_1")), user(res("tooluse_1"), res("tooluse_1"))),
        "messages.2.content",
        "The number of toolResult blocks at messages.2.content exceeds the number of toolUse blocks of previous turn.",
        body(*ROUND),
    ),
    (
        "brk.dup_ids",
        body(
            user("read a.py"),
            assistant(use("tooluse_1"), use("tooluse_1")),
            user(res("tooluse_1"), res("tooluse_1")),
        ),
        "messages.1.content",
        "The toolUse blocks at messages.1.content contain duplicate Ids: tooluse_1",
        body(
            user("read a.py"),
            assistant(use("tooluse_1"), use("tooluse_2")),
            user(res("tooluse_1"), res("tooluse_2")),
        ),
    ),
    (
        "brk.mixed_turn",
        body(user("read a.py"), assistant(use("tooluse_1")), user(res("tooluse_1"), text("and then?"))),
        "messages.2.content",
        "messages.2.content: Conversation blocks and tool result blocks cannot be provided in the same turn.",
        body(*ROUND),
    ),
    (
        "brk.toolconfig",
        body(*ROUND, toolConfig=None),
        "messages.1.content.0",
        "The toolConfig field must be defined when using the toolUse and toolResult content blocks.",
        body(*ROUND),
    ),
    (
        "brk.nonempty",
        body(user("read a.py"), assistant(use("tooluse_1")), user(res("tooluse_1", [], "error"))),
        "messages.2.content.0.toolResult",
        "The content field at messages.2.content.0.toolResult cannot be empty when status value is error.",
        body(
            user("read a.py"), assistant(use("tooluse_1")), user(res("tooluse_1", [text("denied")], "error"))
        ),
    ),
    (
        "brk.blank_text",
        body(user("hi"), assistant(" "), user("go on")),
        "messages.1.content.0",
        "The text field in the ContentBlock object at messages.1.content.0 is blank. Add text to the text field, "
        "and try again.",
        body(user("hi"), assistant("Hello"), user("go on")),
    ),
    (
        "brk.empty_content",
        body(user("hi"), assistant(), user("go on")),
        "messages.1",
        "The content field in the Message object at messages.[1] is empty. Add a ContentBlock object to the content "
        "field and try again.",
        body(user("hi"), assistant("Hello"), user("go on")),
    ),
    (
        "brk.id_pattern",
        body(user("read"), assistant(use("mcp|read_file")), user(res("mcp|read_file"))),
        "messages.1.content.0.toolUse.toolUseId",
        "Value 'mcp|read_file' at 'messages.1.member.content.0.member.toolUse.toolUseId' failed to "
        "satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.:-]+",
        body(user("read"), assistant(use("tooluse_ok")), user(res("tooluse_ok"))),
    ),
    (
        "brk.id_pattern",
        body(user("read"), assistant(use(LONG)), user(res(LONG))),
        "messages.1.content.0.toolUse.toolUseId",
        f"Value '{LONG}' at 'messages.1.member.content.0.member.toolUse.toolUseId' failed to satisfy "
        "constraint: Member must have length less than or equal to 64",
        body(user("read"), assistant(use("tooluse_ok")), user(res("tooluse_ok"))),
    ),
    (
        "brk.tool_name_pattern",
        body(
            *ROUND,
            toolConfig={
                "tools": [
                    *CONFIG["tools"],
                    {"toolSpec": {"name": "Complete Session", "inputSchema": {"json": {}}}},
                ]
            },
        ),
        "toolConfig.tools.1.toolSpec.name",
        "Value 'Complete Session' at 'toolConfig.tools.1.member.toolSpec.name' failed to satisfy constraint: "
        "Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+",
        body(
            *ROUND,
            toolConfig={
                "tools": [
                    *CONFIG["tools"],
                    {"toolSpec": {"name": "completeSession", "inputSchema": {"json": {}}}},
                ]
            },
        ),
    ),
    (
        "brk.reasoning_null",
        body(
            user("hi"),
            assistant({"reasoningContent": {"reasoningText": {"signature": "s1"}}}, "Hello"),
            user("go on"),
        ),
        "messages.1.content.0.reasoningContent.reasoningText.text",
        "Value at 'messages.1.member.content.0.member.reasoningContent.reasoningText.text' failed to satisfy "
        "constraint: Member must not be null",
        body(
            user("hi"),
            assistant({"reasoningContent": {"reasoningText": {"text": "hm", "signature": "s1"}}}, "Hello"),
            user("go on"),
        ),
    ),
    # New in the calibration (issue 16): a history name, and prefill (texts from the threads cited in
    # toolhist.providers.bedrock_history).
    (
        "brk.tool_use_name",
        body(
            user("read"),
            assistant({"toolUse": {"toolUseId": "tooluse_1", "name": "fs.read", "input": {}}}),
            user(res("tooluse_1")),
        ),
        "messages.1.content.0.toolUse.name",
        "Value 'fs.read' at 'messages.1.member.content.0.member.toolUse.name' failed to satisfy constraint: "
        "Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+",
        body(
            user("read"),
            assistant({"toolUse": {"toolUseId": "tooluse_1", "name": "fs_read", "input": {}}}),
            user(res("tooluse_1")),
        ),
    ),
    (
        "brk.prefill_tools",
        body(*ROUND, assistant("The file says ok.")),
        "messages.3",
        "Your API request included an `assistant` message in the final position, which would pre-fill the "
        "`assistant` response. When using tools, pre-filling the `assistant` response is not supported.",
        body(user("read a.py"), assistant("The file says"), toolConfig=None),
    ),
    (
        "brk.prefill_unsupported",
        body(user("hi"), assistant("Hello"), toolConfig=None, modelId="us.anthropic.claude-opus-4-6-v1"),
        "messages.1",
        "This model does not support assistant message prefill. The conversation must end with a user message.",
        body(user("hi"), assistant("Hello"), toolConfig=None, modelId="us.anthropic.claude-sonnet-4-5-v1"),
    ),
]


@pytest.mark.parametrize(
    ("rule", "bad", "path", "error", "good"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_rule_broken_by_smallest_body(rule: str, bad: Body, path: str, error: str, good: Body) -> None:
    # A bad id on a call is usually on its result too: the first finding is the call's.
    assert found(bad)[0] == (rule, path, error)
    assert {r for r, _, _ in found(bad)} == {rule}
    assert len(found(bad)) == (2 if rule == "brk.id_pattern" else 1)
    assert found(good) == []


def test_every_rule_has_a_case() -> None:
    assert {c[0] for c in CASES} == {r.id for r in RULES}
    assert PROVIDER.rule("brk.mixed_turn").severity == "warning"
    assert "unverified" in PROVIDER.rule("brk.mixed_turn").summary
    assert "[a-zA-Z0-9_.:-]+" in PROVIDER.rule("brk.id_pattern").source


def test_result_after_a_user_text_turn_breaks_alternation_and_pairing() -> None:
    b = body(user("read"), assistant(use("tooluse_1")), user("wait"), user(res("tooluse_1")))
    assert found(b) == [
        ("brk.consecutive_user", "messages.3", PROVIDER.rule("brk.consecutive_user").template),
        (
            "brk.result_missing",
            "messages.2.content",
            "Expected toolResult blocks at messages.2.content for the following Ids: tooluse_1",
        ),
        (
            "brk.result_count",
            "messages.3.content",
            "The number of toolResult blocks at messages.3.content exceeds the number of toolUse blocks of previous turn.",
        ),
    ]


def test_results_then_user_text_in_separate_messages_is_only_a_warning() -> None:
    # crewAI's Bedrock history (anthropic.claude-3-haiku, accepted 2026-01): results, then a user text message.
    b = body(user("read"), assistant(use("tooluse_1")), user(res("tooluse_1")), user("go on"))
    assert [(v.rule, v.severity, v.path) for v in validate_payload(b, "bedrock")] == [
        ("brk.consecutive_user", "warning", "messages.3")
    ]


def test_a_server_tool_result_in_the_same_message_answers_its_use() -> None:
    # Nova's built-in code interpreter (us.amazon.nova-2-lite, accepted 2026-01): toolUse, toolResult, toolUse.
    b = body(
        user("multiply"),
        assistant(use("tooluse_a"), res("tooluse_a"), use("tooluse_b")),
        user(res("tooluse_b")),
    )
    assert found(b) == []


def test_trailing_tool_use_is_unanswered() -> None:
    b = body(user("read"), assistant(use("tooluse_1")))
    assert found(b) == [
        (
            "brk.result_missing",
            "messages.1",
            "Expected toolResult blocks at messages.2.content for the following Ids: tooluse_1",
        )
    ]


def test_malformed_bodies_do_not_raise() -> None:
    odd: Body = {
        "messages": [None, {"role": "user", "content": [None, {"toolResult": 3}, {"toolUse": {}}]}],
        "toolConfig": [],
    }
    assert [v.rule for v in validate_payload(odd, "bedrock")] == [
        "brk.first_user",
        "brk.id_pattern",
        "brk.toolconfig",
        "brk.tool_use_name",
    ]
    assert validate_payload({"messages": {"a": 1}}, "bedrock") == []


# --- rendering -------------------------------------------------------------------------------------

MARKERS: Body = {
    "modelId": "anthropic.claude-3-5-sonnet-20240620-v1:0",
    "system": [{"text": "Be careful."}, {"cachePoint": {"type": "default"}}],
    "inferenceConfig": {"maxTokens": 512, "temperature": 0},
    "additionalModelRequestFields": {"top_k": 5},
    "toolConfig": {
        "tools": [
            {"toolSpec": {"name": "ls", "description": "List", "inputSchema": {"json": {"type": "object"}}}}
        ],
        "toolChoice": {"auto": {}},
    },
    "messages": [
        {
            "role": "user",
            "content": [
                {"text": "list"},
                {"image": {"format": "png", "source": {"bytes": "iVBORw0KGgo="}}},
                {
                    "document": {
                        "format": "pdf",
                        "name": "spec",
                        "source": {"s3Location": {"uri": "s3://b/spec.pdf"}},
                    }
                },
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"reasoningContent": {"reasoningText": {"text": "hmm", "signature": "s1"}}},
                {"reasoningContent": {"redactedContent": "cmVkYWN0ZWQ="}},
                {"toolUse": {"toolUseId": "tooluse_1", "name": "ls", "input": {"dir": "."}}},
                {"toolUse": {"toolUseId": "tooluse_2", "name": "ls", "input": {"dir": "/"}}},
                {"cachePoint": {"type": "default"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"toolResult": {"toolUseId": "tooluse_1", "content": [{"json": {"files": ["a"]}}]}},
                {
                    "toolResult": {
                        "toolUseId": "tooluse_2",
                        "content": [{"text": "denied"}],
                        "status": "error",
                    }
                },
            ],
        },
    ],
}


@pytest.mark.parametrize(
    "value",
    [MARKERS, json.loads((SAMPLES / "bedrock_converse.json").read_text())],
    ids=["markers", "sample"],
)
def test_own_body_renders_back_unchanged(value: Body) -> None:
    session = toolhist.load(copy.deepcopy(value))
    assert session.source.format == "bedrock"
    payload = render(session, "bedrock")
    assert payload.body == value
    assert payload.omitted == ()
    assert validate(session, "bedrock") == []


def test_message_list_renders_back_as_its_history() -> None:
    history = [user("read a.py"), assistant("ok", use("tooluse_1")), user(res("tooluse_1"))]
    payload = render(toolhist.load(copy.deepcopy(history)), "bedrock")
    assert payload.body == {"messages": history}


CHAT: Body = {
    "model": "gpt-4o",
    "messages": [
        {"role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": "Read a.py and b.py"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_A1",
                    "type": "function",
                    "function": {"name": "read_file", "arguments": '{"path":"a.py"}'},
                },
                {
                    "id": "call_B2",
                    "type": "function",
                    "function": {"name": "read_file", "arguments": '{"path":"b.py"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_A1", "content": "x = 1"},
        {"role": "tool", "tool_call_id": "call_B2", "content": "y = 2"},
        {"role": "assistant", "content": "a.py sets x, b.py sets y."},
    ],
}


def test_openai_chat_history_renders_to_a_valid_body() -> None:
    session = toolhist.load(CHAT)
    assert session.source.format == "openai-chat"
    payload = render(session, "bedrock")
    assert payload.body == {
        "modelId": "gpt-4o",
        "system": [{"text": "You are a coding agent."}],
        "messages": [
            {"role": "user", "content": [{"text": "Read a.py and b.py"}]},
            {
                "role": "assistant",
                "content": [
                    {"toolUse": {"toolUseId": "call_A1", "name": "read_file", "input": {"path": "a.py"}}},
                    {"toolUse": {"toolUseId": "call_B2", "name": "read_file", "input": {"path": "b.py"}}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "toolResult": {
                            "toolUseId": "call_A1",
                            "content": [{"text": "x = 1"}],
                            "status": "success",
                        }
                    },
                    {
                        "toolResult": {
                            "toolUseId": "call_B2",
                            "content": [{"text": "y = 2"}],
                            "status": "success",
                        }
                    },
                ],
            },
            {"role": "assistant", "content": [{"text": "a.py sets x, b.py sets y."}]},
        ],
        "toolConfig": {
            "tools": [
                {
                    "toolSpec": {
                        "name": "read_file",
                        "description": "derived by toolhist from the calls in the history",
                        "inputSchema": {"json": {"type": "object", "properties": {}}},
                    }
                }
            ]
        },
    }
    assert payload.omitted == (
        "tools: the source declared none; 1 declaration(s) derived from the calls (read_file) with an empty parameter schema",
        "message 4 sent inside Bedrock message 2 (Converse needs user and assistant turns to alternate)",
    )
    assert payload.source_map["messages.2.content.1"] == (4, 0)
    assert validate(session, "bedrock") == []


def test_kimi_ids_go_out_untouched_and_fit_the_current_pattern() -> None:
    kimi = copy.deepcopy(CHAT)
    kimi["messages"][2]["tool_calls"][0]["id"] = "functions.read_file:0"
    kimi["messages"][3]["tool_call_id"] = "functions.read_file:0"
    session = toolhist.load(kimi)
    # The current AWS API reference allows . and : in a toolUseId (an older snapshot did not).
    assert render(session, "bedrock").body["messages"][1]["content"][0]["toolUse"]["toolUseId"] == (  # type: ignore[index, call-overload]
        "functions.read_file:0"
    )
    assert [v.rule for v in validate(session, "bedrock")] == []


def test_anthropic_session_drops_its_thinking_and_keeps_error_results() -> None:
    session = toolhist.load(SAMPLES / "anthropic_request.json")
    payload = render(session, "bedrock")
    messages: Any = payload.body["messages"]
    assert messages[2]["content"][1] == {
        "toolResult": {
            "toolUseId": "toolu_01Lw4sNb9XqE6uDf1rGt8kVo",
            "content": [{"text": "PermissionError: [Errno 13] Permission denied: 'src/users/legacy.py'"}],
            "status": "error",
        }
    }
    assert payload.body["system"] == [
        {"text": "You are a coding agent. Use the tools to inspect the repository before answering."}
    ]
    assert payload.omitted == (
        "message 4 block 0: thinking from anthropic left out (its signature, if any, is bound to the provider "
        "that made it)",
    )
    # Text after the results in the same user turn: accepted by some models only.
    assert [(v.rule, v.severity) for v in validate(session, "bedrock")] == [("brk.mixed_turn", "warning")]


def test_realistic_session_is_valid() -> None:
    payload = render(REALISTIC, "bedrock")
    assert payload.body["modelId"] == "test-model"
    assert payload.omitted == ()
    assert validate(REALISTIC, "bedrock") == []


def test_media_from_another_format_goes_out_as_converse_image_and_document_blocks() -> None:
    """Media read from an Anthropic body (no Converse block kept) is rebuilt from mime type and data."""
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "look"},
                    {
                        "type": "image",
                        "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
                    },
                    {
                        "type": "document",
                        "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0="},
                    },
                    {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}},
                ],
            }
        ],
    }
    session = toolhist.load(body, format="anthropic")
    payload = render(session, "bedrock")
    assert payload.body["messages"] == [
        {
            "role": "user",
            "content": [
                {"text": "look"},
                {"image": {"format": "png", "source": {"bytes": "iVBORw0KGgo="}}},
                {"document": {"format": "pdf", "name": "document", "source": {"bytes": "JVBERi0="}}},
            ],
        }
    ]
    assert payload.omitted == ("message 0 block 3: media in a form bedrock cannot take",)
