"""Anthropic: every rule broken by the smallest body, with the exact text; renders and round trips."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from realistic import REALISTIC

import toolhist
from toolhist.model import Message, Session, SessionSource, TextBlock, ThinkingBlock, ToolCallBlock
from toolhist.providers import render, validate, validate_payload
from toolhist.providers.anthropic import PROVIDER, RULES

Body = dict[str, Any]
SAMPLES = Path(__file__).parent.parent.parent / "sample_logs"
TOOLS = [{"name": "read_file", "description": "Read a file.", "input_schema": {"type": "object"}}]
THINKING = {"type": "enabled", "budget_tokens": 2048}


def use(cid: str, kind: str = "tool_use") -> dict[str, Any]:
    return {"type": kind, "id": cid, "name": "read_file", "input": {"path": "a.py"}}


def res(cid: str, content: Any = "ok") -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": cid, "content": content}


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def think(signature: str | None = "sig==") -> dict[str, Any]:
    block: dict[str, Any] = {"type": "thinking", "thinking": "look first"}
    if signature is not None:
        block["signature"] = signature
    return block


def user(*content: Any) -> dict[str, Any]:
    return {
        "role": "user",
        "content": content[0] if len(content) == 1 and isinstance(content[0], str) else list(content),
    }


def assistant(*content: Any) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": content[0] if len(content) == 1 and isinstance(content[0], str) else list(content),
    }


def body(*messages: dict[str, Any], **extra: Any) -> Body:
    out: Body = {"model": "claude-sonnet-4-5", "max_tokens": 1024, "tools": TOOLS, "messages": list(messages)}
    out.update(extra)
    return {k: v for k, v in out.items() if v is not None}


def found(b: Body) -> list[tuple[str, str, str]]:
    return [(v.rule, v.path, v.error_text) for v in validate_payload(b, "anthropic")]


MISSING = (
    "messages.{i}: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. "
    "Each `tool_use` block must have a corresponding `tool_result` block in the next message."
)
ROUND = (user("read a.py"), assistant(use("toolu_1")), user(res("toolu_1")))

# (rule, body that breaks it, payload path, exact text, near-identical body that does not)
CASES: list[tuple[str, Body, str, str, Body]] = [
    (
        "ant.result_missing",
        body(user("read a.py"), assistant(use("toolu_1")), user("go on")),
        "messages.1",
        MISSING.format(i=1, ids="toolu_1"),
        body(*ROUND),
    ),
    (
        "ant.result_first",
        body(user("read a.py"), assistant(use("toolu_1")), user(text("here"), res("toolu_1"))),
        "messages.2.content.0",
        MISSING.format(i=1, ids="toolu_1"),
        body(user("read a.py"), assistant(use("toolu_1")), user(res("toolu_1"), text("here"))),
    ),
    (
        "ant.result_orphan",
        body(user("read a.py"), assistant("sure"), user(res("toolu_9"))),
        "messages.2.content.0",
        "messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9. Each "
        "`tool_result` block must have a corresponding `tool_use` block in the previous message.",
        body(user("read a.py"), assistant(use("toolu_9")), user(res("toolu_9"))),
    ),
    (
        "ant.server_result_orphan",
        body(
            user("search"),
            assistant({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": []}),
        ),
        "messages.1.content.0",
        "messages.1.content.0: unexpected `tool_use_id` found in `web_search_tool_result` blocks: srvtoolu_01. "
        "Each `web_search_tool_result` block must have a corresponding `server_tool_use` block before it.",
        body(
            user("search"),
            assistant(
                use("srvtoolu_01", "server_tool_use"),
                {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": []},
            ),
        ),
    ),
    (
        "ant.dup_tool_use_id",
        body(user("read"), assistant(use("toolu_1"), use("toolu_1")), user(res("toolu_1"))),
        "messages.1.content.1",
        "messages.1.content.1: `tool_use` ids must be unique",
        body(user("read"), assistant(use("toolu_1"), use("toolu_2")), user(res("toolu_1"), res("toolu_2"))),
    ),
    (
        # Recorded 200 (claude-sonnet-4-5, 2026-08): an id reused in a later turn, each use answered in its turn.
        "ant.reused_tool_use_id",
        body(*ROUND, assistant(use("toolu_1")), user(res("toolu_1"))),
        "messages.3.content.0",
        "messages.3.content.0: `tool_use` ids must be unique",
        body(*ROUND, assistant(use("toolu_2")), user(res("toolu_2"))),
    ),
    (
        "ant.dup_tool_result",
        body(user("read"), assistant(use("toolu_1")), user(res("toolu_1"), res("toolu_1"))),
        "messages.2.content.1",
        "messages.2.content.1: each tool_use must have a single result. Found multiple `tool_result` blocks "
        "with id: toolu_1",
        body(*ROUND),
    ),
    (
        "ant.id_pattern",
        body(user("read"), assistant(use("functions.read_file:0")), user(res("functions.read_file:0"))),
        "messages.1.content.0.id",
        "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
        body(user("read"), assistant(use("functions_read_file_0")), user(res("functions_read_file_0"))),
    ),
    (
        "ant.id_pattern",
        body(user("search"), assistant(use("toolu_01", "server_tool_use"))),
        "messages.1.content.0.id",
        "messages.1.content.0.server_tool_use.id: String should match pattern '^srvtoolu_[a-zA-Z0-9_]+$'",
        body(user("search"), assistant(use("srvtoolu_01", "server_tool_use"))),
    ),
    (
        "ant.tool_name_pattern",
        body(*ROUND, tools=[*TOOLS, {"name": "read.file", "input_schema": {"type": "object"}}]),
        "tools.1.name",
        "tools.1.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'",
        body(*ROUND, tools=[*TOOLS, {"name": "read-file", "input_schema": {"type": "object"}}]),
    ),
    (
        "ant.tools_required",
        body(*ROUND, tools=None),
        "messages.1.content.0",
        "Requests which include `tool_use` or `tool_result` blocks must define tools.",
        body(*ROUND),
    ),
    (
        "ant.empty_content",
        body(user("hi"), assistant(), user("again")),
        "messages.1",
        "messages.1: all messages must have non-empty content except for the optional final assistant message",
        body(user("hi"), assistant()),
    ),
    (
        "ant.empty_text",
        body(user("hi"), assistant(text(""), use("toolu_1")), user(res("toolu_1"))),
        "messages.1.content.0",
        "messages: text content blocks must be non-empty",
        body(user("hi"), assistant(text("reading"), use("toolu_1")), user(res("toolu_1"))),
    ),
    (
        "ant.empty_text",
        body(user(" \n")),
        "messages.0.content",
        "messages: text content blocks must contain non-whitespace text",
        body(user("hi")),
    ),
    (
        "ant.first_user",
        body(assistant("hello"), user("hi")),
        "messages.0",
        'messages: first message must use the "user" role',
        body(user("hello"), assistant("hi")),
    ),
    (
        "ant.tool_use_last",
        body(user("read"), assistant(use("toolu_1"), text("reading it now")), user(res("toolu_1"))),
        "messages.1.content.1",
        MISSING.format(i=1, ids="toolu_1"),
        body(user("read"), assistant(text("reading it now"), use("toolu_1")), user(res("toolu_1"))),
    ),
    (
        "ant.thinking_not_first",
        body(user("hi"), assistant(text("ok"), think()), user("go on"), thinking=THINKING),
        "messages.1.content.0",
        "messages.1.content.0: If an assistant message contains any thinking blocks, the first block must be "
        "`thinking` or `redacted_thinking`. Found `text`.",
        body(user("hi"), assistant(think(), text("ok")), user("go on"), thinking=THINKING),
    ),
    (
        "ant.thinking_first",
        body(user("read"), assistant(text("ok"), use("toolu_1")), user(res("toolu_1")), thinking=THINKING),
        "messages.1.content.0.type",
        "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When "
        "`thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the "
        "lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from "
        "previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at "
        "https://docs.claude.com/en/docs/build-with-claude/extended-thinking",
        body(
            user("read"),
            assistant(think(), text("ok"), use("toolu_1")),
            user(res("toolu_1")),
            thinking=THINKING,
        ),
    ),
    (
        "ant.thinking_disabled",
        body(user("hi"), assistant(think(), text("Hello"))),
        "messages.1.content.0",
        "messages.1.content.0: When thinking is disabled, an `assistant` message in the final position cannot "
        "contain `thinking`. To use thinking blocks, enable `thinking` in your request.",
        body(user("hi"), assistant(think(), text("Hello")), thinking=THINKING),
    ),
    (
        "ant.clear_thinking_needs_thinking",
        body(user("hi"), context_management={"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]}),
        "context_management.edits.0.type",
        "`clear_thinking_20251015` strategy requires `thinking` to be enabled",
        body(
            user("hi"),
            context_management={"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]},
            thinking={"type": "adaptive"},
        ),
    ),
    (
        "ant.thinking_signature",
        body(user("hi"), assistant(think(None), text("Hello")), user("thanks")),
        "messages.1.content.0",
        "messages.1.content.0.thinking.signature: Field required",
        body(user("hi"), assistant(think(), text("Hello")), user("thanks")),
    ),
    (
        "ant.thinking_signature",
        body(user("hi"), assistant(think(""), text("Hello")), user("thanks")),
        "messages.1.content.0",
        "messages.1.content.0: Invalid `signature` in `thinking` block",
        body(user("hi"), assistant(think(), text("Hello")), user("thanks")),
    ),
    # The final turn, server tool ids and replayed thinking (toolhist.providers.anthropic_turns).
    (
        "ant.prefill_unsupported",
        body(user("List three colours as JSON."), assistant("{"), model="claude-opus-4-6"),
        "messages.1",
        "This model does not support assistant message prefill. The conversation must end with a user message.",
        body(user("List three colours as JSON."), assistant("{")),  # claude-sonnet-4-5 takes prefill
    ),
    (
        "ant.server_tool_as_tool_use",
        body(
            user("search the docs"),
            assistant(use("srvtoolu_01WxYz")),
            user(res("srvtoolu_01WxYz")),
        ),
        "messages.1.content.0",
        MISSING.format(i=1, ids="srvtoolu_01WxYz"),  # the text of the recorded 400 (see the rule's source)
        body(user("search the docs"), assistant(use("toolu_01WxYz")), user(res("toolu_01WxYz"))),
    ),
    (
        "ant.thinking_immutable",
        body(
            user("read a.py"),
            assistant(think("sig_A=="), use("toolu_1")),
            user(res("toolu_1")),
            assistant(
                {"type": "thinking", "thinking": "look first, edited", "signature": "sig_A=="}, use("toolu_2")
            ),
            user(res("toolu_2")),
            thinking=THINKING,
        ),
        "messages.3.content.0",
        "messages.3.content.0: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be "
        "modified. These blocks must remain as they were in the original response.",
        body(
            user("read a.py"),
            assistant(think("sig_A=="), use("toolu_1")),
            user(res("toolu_1")),
            assistant(think("sig_B=="), use("toolu_2")),
            user(res("toolu_2")),
            thinking=THINKING,
        ),
    ),
]


@pytest.mark.parametrize(
    ("rule", "bad", "path", "error", "good"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_rule_broken_by_smallest_body(rule: str, bad: Body, path: str, error: str, good: Body) -> None:
    assert found(bad) == [(rule, path, error)]
    assert found(good) == []


def test_every_rule_has_a_case() -> None:
    assert {c[0] for c in CASES} == {r.id for r in RULES}
    assert PROVIDER.rule("ant.first_user").severity == "warning"
    assert PROVIDER.rule("ant.tool_use_last").severity == "warning"
    assert "unverified" in PROVIDER.rule("ant.first_user").summary
    # recorded traffic (issue 16): accepted often enough to be warnings
    assert PROVIDER.rule("ant.reused_tool_use_id").severity == "warning"
    assert PROVIDER.rule("ant.tools_required").severity == "warning"


def test_parallel_calls_split_over_assistant_messages_are_one_turn() -> None:
    # Recorded 200 (claude-sonnet-4-5, 2026-07, pydantic-ai test_cross_provider_capability_replay):
    # [text, tool_use A], [tool_use B], then one user message with both results.
    b = body(
        user("refund?"),
        assistant("Let me look.", use("toolu_1")),
        assistant(use("toolu_2")),
        user(res("toolu_1"), res("toolu_2")),
    )
    assert found(b) == []
    # a text after the tool_use still leaves it unanswered (litellm, vercel/ai reports)
    texted = body(user("refund?"), assistant(use("toolu_1")), assistant("hm"), user(res("toolu_1")))
    assert [r for r, _, _ in found(texted)][:1] == ["ant.result_missing"]


def test_mcp_tool_result_answers_mcp_tool_use_in_the_same_message() -> None:
    # Recorded 200 (claude-sonnet-4-0, 2025-10, pydantic-ai test_anthropic_mcp_servers.yaml).
    mcp_use = {"type": "mcp_tool_use", "id": "mcptoolu_1", "name": "ask", "server_name": "s", "input": {}}
    mcp_res = {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_1", "is_error": False, "content": []}
    b = body(user("what is it?"), assistant(mcp_use, mcp_res, "It is a library."), user("thanks"))
    assert found(b) == []


def test_parallel_results_may_come_in_consecutive_user_messages() -> None:
    b = body(
        user("read"), assistant(use("toolu_1"), use("toolu_2")), user(res("toolu_1")), user(res("toolu_2"))
    )
    assert found(b) == []


def test_unanswered_ids_are_listed_together_and_a_trailing_call_counts() -> None:
    b = body(
        user("read"),
        assistant(use("toolu_1"), use("toolu_2")),
        user(res("toolu_2")),
        assistant(use("toolu_3")),
    )
    assert found(b) == [
        ("ant.result_missing", "messages.1", MISSING.format(i=1, ids="toolu_1")),
        ("ant.result_missing", "messages.3", MISSING.format(i=3, ids="toolu_3")),
    ]


def test_assistant_text_between_call_and_result_leaves_the_call_unanswered() -> None:
    b = body(user("read"), assistant(use("toolu_1")), assistant("wait"), user(res("toolu_1")))
    assert found(b) == [("ant.result_missing", "messages.1", MISSING.format(i=1, ids="toolu_1"))]


def test_whitespace_text_counts_only_in_a_message_with_nothing_else() -> None:
    # Recorded 200 (claude-haiku-4-5, 2026-04, simonw/llm-anthropic test_tools.yaml): [" ", tool_use,
    # tool_use]; probes in experientiallabs/experiential PR#804: [" ", "ok"] 200, [" "] alone 400,
    # ["", "x"] 400.
    assert found(body(user("read"), assistant(text(" "), use("toolu_1")), user(res("toolu_1")))) == []
    assert found(body(user(text("hi"), text("\n")))) == []
    whitespace = "messages: text content blocks must contain non-whitespace text"
    assert found(body(user("hi"), assistant(text(" "), text("\n")), user("again"))) == [
        ("ant.empty_text", "messages.1.content.0", whitespace),
        ("ant.empty_text", "messages.1.content.1", whitespace),
    ]
    empty = "messages: text content blocks must be non-empty"
    assert found(body(user(text(""), text("x")))) == [("ant.empty_text", "messages.0.content.0", empty)]


def test_malformed_bodies_do_not_raise() -> None:
    odd: Body = {
        "messages": [
            None,
            3,
            {"role": "user", "content": [None, 5, {"type": "tool_result"}]},
            {"role": "assistant"},
        ]
    }
    assert [v.rule for v in validate_payload(odd, "anthropic")] == [
        "ant.result_orphan",
        "ant.first_user",
        "ant.tools_required",
    ]
    assert validate_payload({"messages": "nope", "tools": 3}, "anthropic") == []


# --- rendering -------------------------------------------------------------------------------------

FORMATS_BODY: Body = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "system": [{"type": "text", "text": "You are terse.", "cache_control": {"type": "ephemeral"}}],
    "tools": [
        {"name": "grep", "description": "Search", "input_schema": {"type": "object"}},
        {"type": "web_search_20250305", "name": "web_search", "max_uses": 2},
    ],
    "thinking": THINKING,
    "messages": [
        {"role": "user", "content": "find TODOs"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "grep it", "signature": "sig=="},
                {"type": "redacted_thinking", "data": "EmwKAhgB"},
                {
                    "type": "server_tool_use",
                    "id": "srvtoolu_01",
                    "name": "web_search",
                    "input": {"query": "todo"},
                },
                {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": []},
                {
                    "type": "tool_use",
                    "id": "toolu_01A",
                    "name": "grep",
                    "input": {"q": "TODO"},
                    "cache_control": {"type": "ephemeral"},
                },
                {"type": "tool_use", "id": "toolu_01B", "name": "grep"},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01A", "content": "boom", "is_error": True},
                {"type": "tool_result", "tool_use_id": "toolu_01B"},
                {"type": "text", "text": "and then?"},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
                },
                {
                    "type": "document",
                    "source": {"type": "url", "url": "https://example.com/a.pdf"},
                    "title": "a.pdf",
                },
                {"type": "search_result", "source": "https://example.com", "title": "x", "content": []},
            ],
        },
    ],
}


@pytest.mark.parametrize(
    "value",
    [
        FORMATS_BODY,
        json.loads((SAMPLES / "anthropic_request.json").read_text()),
        {**body(*ROUND), "system": "Be brief.", "temperature": 0.2, "metadata": {"user_id": "u1"}},
    ],
    ids=["markers", "sample", "string-system"],
)
def test_own_body_renders_back_unchanged(value: Body) -> None:
    session = toolhist.load(copy.deepcopy(value))
    assert session.source.format == "anthropic"
    payload = render(session, "anthropic")
    assert payload.body == value
    assert payload.omitted == ()


def test_message_list_renders_back_as_its_history() -> None:
    history = [
        user("read a.py"),
        assistant(text("ok"), use("toolu_1")),
        user(res("toolu_1", [text("x = 1")])),
    ]
    payload = render(toolhist.load(copy.deepcopy(history)), "anthropic")
    assert payload.body == {"messages": history}


def test_source_map_locates_violations_in_the_history() -> None:
    value = body(user("read"), assistant(use("toolu_1")), user("go on"), system="Be brief.")
    session = toolhist.load(value)
    payload = render(session, "anthropic")
    assert payload.source_map["system"] == (0, None)
    assert payload.source_map["messages.1.content.0"] == (2, 0)
    [violation] = validate(session, "anthropic")
    assert (violation.rule, violation.path, violation.message_index) == (
        "ant.result_missing",
        "messages.1",
        2,
    )


CHAT: Body = {
    "model": "gpt-4o",
    "max_tokens": 512,
    "messages": [
        {"role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": "Read a.py and b.py"},
        {
            "role": "assistant",
            "content": "",
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
        {"role": "user", "content": "Thanks"},
    ],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "read_file",
                "description": "Read a file.",
                "parameters": {"type": "object"},
            },
        }
    ],
}


def test_openai_chat_history_renders_to_a_valid_body() -> None:
    session = toolhist.load(CHAT)
    assert session.source.format == "openai-chat"
    payload = render(session, "anthropic")
    assert payload.body == {
        "model": "gpt-4o",
        "max_tokens": 512,
        "system": "You are a coding agent.",
        "tools": [{"name": "read_file", "description": "Read a file.", "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "Read a.py and b.py"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "call_A1", "name": "read_file", "input": {"path": "a.py"}},
                    {"type": "tool_use", "id": "call_B2", "name": "read_file", "input": {"path": "b.py"}},
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "call_A1", "content": "x = 1"}],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "call_B2", "content": "y = 2"}],
            },
            {"role": "assistant", "content": "a.py sets x, b.py sets y."},
            {"role": "user", "content": "Thanks"},
        ],
    }
    # OpenAI's "content": "" beside tool_calls carries nothing and is left out; the notes say so
    # (issue 24: the renderer left it out silently, and only curation's Change said it).
    assert payload.omitted == ("message 2 block 0: empty text not sent (it carries nothing)",)
    assert validate(session, "anthropic") == []


def test_kimi_ids_go_out_untouched_and_break_the_pattern() -> None:
    kimi = copy.deepcopy(CHAT)
    kimi["messages"][2]["tool_calls"][0]["id"] = "functions.read_file:0"
    kimi["messages"][3]["tool_call_id"] = "functions.read_file:0"
    session = toolhist.load(kimi)
    payload = render(session, "anthropic")
    messages: Any = payload.body["messages"]
    assert messages[1]["content"][0]["id"] == "functions.read_file:0"
    assert messages[2]["content"][0]["tool_use_id"] == "functions.read_file:0"
    [violation] = validate(session, "anthropic")
    assert violation.rule == "ant.id_pattern"
    assert (
        violation.error_text
        == "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"
    )
    assert (violation.message_index, violation.block_index) == (2, 1)  # block 0 is the empty text


def test_foreign_session_gets_max_tokens_derived_tools_and_plain_notes() -> None:
    session = Session(
        messages=(
            Message(speaker="human", blocks=(TextBlock(text="list files"),)),
            Message(
                speaker="ai",
                blocks=(
                    ThinkingBlock(text="ls", signature="gsig", source_provider="gemini"),
                    ToolCallBlock(
                        id="c1",
                        name="ls",
                        parameters={},
                        raw_id="c1",
                        provider_data={"thoughtSignature": "gsig"},
                    ),
                ),
            ),
            Message(
                speaker="tool",
                blocks=(
                    toolhist.ToolResponseBlock(
                        call_id="c1", tool_name="ls", result={"files": ["a"]}, error=None
                    ),
                ),
            ),
        ),
        source=SessionSource(format="gemini"),
    )
    payload = render(session, "anthropic")
    assert payload.body == {
        "max_tokens": 4096,
        "tools": [
            {
                "name": "ls",
                "description": "derived by toolhist from the calls in the history",
                "input_schema": {"type": "object", "properties": {}},
            }
        ],
        "messages": [
            {"role": "user", "content": "list files"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "ls", "input": {}}]},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "c1", "content": '{"files":["a"]}'}],
            },
        ],
    }
    assert payload.omitted == (
        "model: the source named none; set one before sending",
        "max_tokens set to 4096 (required by Anthropic, absent in the source)",
        "tools: the source declared none; 1 declaration(s) derived from the calls (ls) with an empty parameter schema",
        "message 1 block 0: thinking from gemini left out (anthropic takes back only thinking it signed)",
        "message 1 block 1: thoughtSignature (bound to the provider that made it) cannot be sent to anthropic",
    )
    assert validate(session, "anthropic") == []


def test_realistic_session_is_valid_and_keeps_error_results() -> None:
    payload = render(REALISTIC, "anthropic")
    messages: Any = payload.body["messages"]
    assert messages[2]["content"][1] == {
        "type": "tool_result",
        "tool_use_id": "call_Lp7TzN0bYc4E",
        "content": "FileNotFoundError: app/auth.py",
        "is_error": True,
    }
    assert payload.body["system"] == "You are a careful coding agent. Use tools to inspect the repository."
    assert validate(REALISTIC, "anthropic") == []


def test_thinking_not_first_only_with_thinking_on() -> None:
    """Every report of the text ran with thinking on; with it off, earlier thinking blocks are not read."""
    bad = body(user("hi"), assistant(text("ok"), think()), user("go on"))
    assert [r for r, _, _ in found(bad)] == []
    on = {**bad, "thinking": THINKING}
    assert [r for r, _, _ in found(on)] == ["ant.thinking_not_first"]
