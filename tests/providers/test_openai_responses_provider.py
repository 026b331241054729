"""OpenAI Responses provider: every rule broken by the smallest body and kept by a near-identical
one, round trips of Responses bodies, and bodies rendered from other formats."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import toolhist
from toolhist.model import (
    MediaBlock,
    Message,
    OpaqueBlock,
    Session,
    SessionSource,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
    ToolSpec,
)
from toolhist.providers import provider_for, render, validate, validate_payload

Body = dict[str, Any]
P = "openai-responses"


def user(text: str = "hi") -> dict[str, Any]:
    return {"role": "user", "content": text}


def fc(call_id: str, item_id: str | None = None, name: str = "read_file") -> dict[str, Any]:
    item: dict[str, Any] = {"type": "function_call", "call_id": call_id, "name": name, "arguments": "{}"}
    if item_id is not None:
        item["id"] = item_id
    return item


def out(call_id: str, output: str = "ok") -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def rs(item_id: str = "rs_1", **extra: Any) -> dict[str, Any]:
    return {"type": "reasoning", "id": item_id, "summary": [], **extra}


def found(body: Body, rule: str) -> list[tuple[str, str]]:
    """(path, error_text) of every violation of ``rule``."""
    return [(v.path, v.error_text) for v in validate_payload(body, P) if v.rule == rule]


# --- rules -------------------------------------------------------------------------------------


def test_call_unanswered() -> None:
    bad = {"model": "gpt-4.1", "input": [user(), fc("call_1")]}
    assert found(bad, "resp.call_unanswered") == [
        ("input[1]", "No tool output found for function call call_1.")
    ]
    good = {"model": "gpt-4.1", "input": [user(), fc("call_1"), out("call_1")]}
    assert found(good, "resp.call_unanswered") == []


def test_call_unanswered_pairs_by_call_id_regardless_of_position() -> None:
    body = {"model": "gpt-4.1", "input": [user(), fc("call_1"), user("also"), out("call_1")]}
    assert validate_payload(body, P) == []


def test_output_orphan() -> None:
    bad = {"model": "gpt-4.1", "input": [user(), out("call_9")]}
    assert found(bad, "resp.output_orphan") == [
        ("input[1]", "No tool call found for function call output with call_id call_9.")
    ]
    good = {"model": "gpt-4.1", "input": [user(), fc("call_9"), out("call_9")]}
    assert found(good, "resp.output_orphan") == []


def test_output_with_previous_response_id_is_not_an_orphan() -> None:
    body = {"model": "gpt-4.1", "previous_response_id": "resp_1", "input": [out("call_9")]}
    assert validate_payload(body, P) == []


def test_fc_needs_reasoning_when_reasoning_is_replayed_elsewhere() -> None:
    bad: Body = {
        "model": "gpt-5",
        "input": [
            user(),
            rs("rs_1"),
            fc("call_1", "fc_1"),
            out("call_1"),
            fc("call_2", "fc_2"),
            out("call_2"),
        ],
    }
    assert found(bad, "resp.fc_needs_reasoning") == [
        (
            "input[4]",
            "Item 'fc_2' of type 'function_call' was provided without its required 'reasoning' item: 'rs_…'.",
        )
    ]
    good = copy.deepcopy(bad)
    good["input"].insert(4, rs("rs_2"))
    assert found(good, "resp.fc_needs_reasoning") == []


def test_fc_needs_reasoning_with_encrypted_reasoning_requested() -> None:
    bad = {
        "model": "o4-mini",
        "include": ["reasoning.encrypted_content"],
        "input": [user(), fc("c", "fc_1"), out("c")],
    }
    assert [p for p, _ in found(bad, "resp.fc_needs_reasoning")] == ["input[1]"]
    no_item_id = {**bad, "input": [user(), fc("c"), out("c")]}
    assert found(no_item_id, "resp.fc_needs_reasoning") == []


@pytest.mark.parametrize(
    ("model", "reasoning"), [("gpt-4.1", None), ("gpt-5.1", {"effort": "none"}), ("deepseek-chat", None)]
)
def test_fc_needs_reasoning_only_for_reasoning_models(model: str, reasoning: dict[str, str] | None) -> None:
    body: Body = {
        "model": model,
        "input": [user(), rs("rs_1"), fc("c1", "fc_1"), out("c1"), fc("c2", "fc_2"), out("c2")],
    }
    if reasoning is not None:
        body["reasoning"] = reasoning
    assert found(body, "resp.fc_needs_reasoning") == []


def test_reasoning_dangling_before_a_user_message_and_at_the_end() -> None:
    bad = {"model": "gpt-5", "input": [user(), rs("rs_a"), user("again"), rs("rs_b")]}
    assert found(bad, "resp.reasoning_dangling") == [
        ("input[1]", "Item 'rs_a' of type 'reasoning' was provided without its required following item."),
        ("input[3]", "Item 'rs_b' of type 'reasoning' was provided without its required following item."),
    ]
    good = {
        "model": "gpt-5",
        "input": [
            user(),
            rs("rs_a"),
            {"type": "message", "id": "msg_a", "role": "assistant", "content": "hello"},
            user("again"),
            rs("rs_b"),
            fc("c"),
            out("c"),
        ],
    }
    assert found(good, "resp.reasoning_dangling") == []


def test_reasoning_dangling_before_an_id_less_assistant_message() -> None:
    # Recorded 400 (gpt-5, 2025-09..2026-02, pydantic-ai test_openai_responses_thinking_with_modified_history):
    # a stored reasoning item, then the assistant message without its msg_ id.
    bad = {
        "model": "gpt-5",
        "input": [user(), rs("rs_a"), {"role": "assistant", "content": "42"}, user("more")],
    }
    assert found(bad, "resp.reasoning_dangling") == [
        ("input[1]", "Item 'rs_a' of type 'reasoning' was provided without its required following item.")
    ]
    # Nothing stored to pair with (store: false, reasoning without id), or DeepSeek's endpoint: accepted.
    assert found({**bad, "store": False}, "resp.reasoning_dangling") == []
    no_id: dict[str, Any] = copy.deepcopy(bad)
    del no_id["input"][1]["id"]
    assert found(no_id, "resp.reasoning_dangling") == []
    assert found({**bad, "model": "deepseek-v4-flash"}, "resp.reasoning_dangling") == []


def test_hosted_tool_calls_are_model_items_and_take_outputs() -> None:
    # Recorded 200s (gpt-5.6, 2026-07): reasoning before a tool_search_call; an output for a client tool_search_call.
    search = {"type": "tool_search_call", "call_id": "s1", "arguments": {}, "execution": "client"}
    body = {"model": "gpt-5.6", "input": [user(), rs("rs_a"), search, out("s1"), user("next")]}
    assert [v.rule for v in validate_payload(body, P) if v.severity == "error"] == []


def test_fc_needs_reasoning_is_a_warning() -> None:
    # 181 recorded 200s: id'd calls without a reasoning item before them (gpt-5*, 2025-09..2026-08).
    assert provider_for(P).rule("resp.fc_needs_reasoning").severity == "warning"


def test_item_id_prefix_is_openai_s() -> None:
    # DeepSeek's Responses endpoint issues uuid ids and takes them back (deepseek-v4-flash, 2026-08).
    body = {"model": "deepseek-v4-flash", "input": [user(), rs("76f8b89e-4a41-4c5e"), fc("c"), out("c")]}
    assert found(body, "resp.item_id_prefix") == []
    assert [p for p, _ in found({**body, "model": "gpt-5"}, "resp.item_id_prefix")] == ["input[1].id"]


def test_dup_item() -> None:
    bad = {"model": "gpt-4.1", "input": [user(), fc("c1", "fc_1"), fc("c2", "fc_1"), out("c1"), out("c2")]}
    assert found(bad, "resp.dup_item") == [
        (
            "input[2]",
            "Duplicate item found with id fc_1. Remove duplicate items from your input and try again.",
        )
    ]
    good = {"model": "gpt-4.1", "input": [user(), fc("c1", "fc_1"), fc("c2", "fc_2"), out("c1"), out("c2")]}
    assert found(good, "resp.dup_item") == []


def test_item_id_prefix_function_call_reasoning_and_message() -> None:
    bad: Body = {
        "model": "gpt-5",
        "input": [
            user(),
            {"type": "reasoning", "id": "item_df7e40c3f04fc8ade5c3800e", "summary": []},
            fc("call_1", "__fake_id__"),
            out("call_1"),
            {
                "type": "message",
                "role": "assistant",
                "id": "call_1",
                "content": [{"type": "output_text", "text": "x"}],
            },
        ],
    }
    assert found(bad, "resp.item_id_prefix") == [
        (
            "input[1].id",
            "Invalid 'input[1].id': 'item_df7e40c3f04fc8ade5c3800e'. Expected an ID that begins with 'rs'.",
        ),
        ("input[2].id", "Invalid 'input[2].id': '__fake_id__'. Expected an ID that begins with 'fc'."),
        ("input[4].id", "Invalid 'input[4].id': 'call_1'. Expected an ID that begins with 'msg'."),
    ]
    good = copy.deepcopy(bad)
    good["input"][1]["id"], good["input"][2]["id"], good["input"][4]["id"] = "rs_1", "fc_1", "msg_1"
    assert found(good, "resp.item_id_prefix") == []


def test_call_id_len() -> None:
    long_id = "call_" + "x" * 111
    bad = {"model": "gpt-4.1", "input": [user(), fc(long_id), out(long_id)]}
    text = (
        "Invalid 'input[{i}].call_id': string too long. Expected a string with maximum length 64, but got a "
        "string with length 116 instead."
    )
    assert found(bad, "resp.call_id_len") == [
        ("input[1].call_id", text.format(i=1)),
        ("input[2].call_id", text.format(i=2)),
    ]
    ok_id = "call_" + "x" * 59
    good = {"model": "gpt-4.1", "input": [user(), fc(ok_id), out(ok_id)]}
    assert found(good, "resp.call_id_len") == []


def test_adjacency_on_deepseek_only() -> None:
    items = [user(), fc("call_1"), {"role": "assistant", "content": "working"}, out("call_1")]
    bad = {"model": "deepseek-v4", "input": items}
    assert found(bad, "resp.adjacency") == [("input[1]", "No tool output found for tool call call_1")]
    assert found(bad, "resp.call_unanswered") == []
    good = {
        "model": "deepseek-v4",
        "input": [user(), fc("call_1"), fc("call_2"), out("call_2"), out("call_1")],
    }
    assert found(good, "resp.adjacency") == []
    assert found({"model": "gpt-4.1", "input": items}, "resp.adjacency") == []


def test_missing_output_on_deepseek_uses_deepseek_text() -> None:
    body = {"model": "deepseek-chat", "input": [user(), fc("call_1")]}
    assert [(v.rule, v.error_text) for v in validate_payload(body, P)] == [
        ("resp.adjacency", "No tool output found for tool call call_1")
    ]


def test_reasoning_summary_warning() -> None:
    bad: Body = {
        "model": "gpt-5",
        "input": [user(), {"type": "reasoning", "id": "rs_1", "encrypted_content": "e"}, fc("c"), out("c")],
    }
    (violation,) = validate_payload(bad, P)
    assert (violation.rule, violation.severity, violation.path, violation.error_text) == (
        "resp.reasoning_summary",
        "warning",
        "input[1]",
        "Input[1] missing required field `summary`",
    )
    good = copy.deepcopy(bad)
    good["input"][1]["summary"] = []
    assert validate_payload(good, P) == []


def test_malformed_bodies_do_not_raise() -> None:
    assert validate_payload({"input": "just text"}, P) == []
    odd = {"input": [3, None, {"type": 5}, {"type": "function_call", "call_id": 7}, {"type": "reasoning"}]}
    assert [v.rule for v in validate_payload(odd, P)] == ["resp.reasoning_summary", "resp.reasoning_dangling"]


# --- round trip --------------------------------------------------------------------------------

ROUND_TRIP: list[Body] = [
    {
        "model": "gpt-5",
        "instructions": "You are a coding agent.",
        "reasoning": {"effort": "medium", "summary": "auto"},
        "store": False,
        "include": ["reasoning.encrypted_content"],
        "tools": [
            {"type": "function", "name": "read_file", "parameters": {"type": "object"}, "strict": True}
        ],
        "input": [
            {"role": "user", "content": "Find the bug."},
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [
                    {"type": "summary_text", "text": "Read it."},
                    {"type": "summary_text", "text": "Then run it."},
                ],
                "encrypted_content": "gAAAA==",
            },
            {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "call_1",
                "name": "read_file",
                "arguments": '{"path":"a.py"}',
                "status": "completed",
            },
            {
                "type": "function_call",
                "id": "fc_2",
                "call_id": "call_2",
                "name": "read_file",
                "arguments": "{not json",
            },
            {"type": "function_call_output", "call_id": "call_1", "output": "print(1)"},
            {
                "type": "function_call_output",
                "call_id": "call_2",
                "output": [{"type": "input_text", "text": "bad args"}],
                "status": "incomplete",
            },
            {
                "type": "message",
                "role": "assistant",
                "id": "msg_1",
                "status": "completed",
                "content": [
                    {"type": "output_text", "text": "Part one.", "annotations": []},
                    {"type": "output_text", "text": "Part two.", "annotations": [], "logprobs": []},
                ],
            },
            {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "See"},
                    {"type": "input_image", "image_url": "https://x/y.png", "detail": "low"},
                ],
            },
        ],
    },
    {
        "model": "gpt-5-codex",
        "instructions": None,
        "input": [
            {"role": "developer", "content": "Use apply_patch."},
            {"role": "user", "content": [{"type": "input_text", "text": "Patch it"}]},
            {"type": "reasoning", "id": "rs_9", "summary": [], "content": None, "encrypted_content": None},
            {
                "type": "custom_tool_call",
                "id": "ctc_1",
                "call_id": "call_p",
                "name": "apply_patch",
                "input": "*** Begin Patch",
            },
            {"type": "custom_tool_call_output", "call_id": "call_p", "output": "Done!"},
            {
                "type": "web_search_call",
                "id": "ws_1",
                "status": "completed",
                "action": {"type": "search", "query": "x"},
            },
            {"role": "assistant", "content": "plain string reply"},
            {
                "type": "message",
                "role": "assistant",
                "id": "msg_2",
                "content": [{"type": "refusal", "refusal": "No."}],
            },
            {"type": "message", "role": "assistant", "id": "msg_3", "content": []},
            {"type": "function_call_output", "output": "no call id"},
        ],
        "parallel_tool_calls": False,
    },
    {"model": "gpt-4.1-mini", "input": "What is 2+2?", "temperature": 0},
]


@pytest.mark.parametrize("body", ROUND_TRIP, ids=["reasoning-turns", "odd-items", "string-input"])
def test_responses_body_renders_back_unchanged(body: Body) -> None:
    session = toolhist.load(copy.deepcopy(body))
    assert session.source.format == P
    payload = render(session, P)
    assert payload.body == body
    assert payload.omitted == ()


def test_bare_item_list_round_trips_on_the_history_key() -> None:
    items = [
        user("x"),
        rs("rs_1"),
        fc("call_1", "fc_1"),
        out("call_1"),
        {"role": "assistant", "content": "done"},
    ]
    session = toolhist.load(copy.deepcopy(items))
    assert render(session, P).body == {"input": items}


def test_source_map_locates_items_in_grouped_messages() -> None:
    session = toolhist.load(copy.deepcopy(ROUND_TRIP[0]))
    payload = render(session, P)
    assert payload.source_map["instructions"] == (0, 0)
    assert payload.source_map["input[3]"] == (2, 2)
    assert payload.source_map["input[6].content[1]"] == (4, 1)
    trimmed = session.model_copy(update={"messages": session.messages[:3]})  # the outputs are gone
    assert [(v.rule, v.path, v.message_index, v.block_index) for v in validate(trimmed, P)] == [
        ("resp.call_unanswered", "input[2]", 2, 1),
        ("resp.call_unanswered", "input[3]", 2, 2),
    ]


# --- from other formats ------------------------------------------------------------------------

CHAT_BODY: Body = {
    "model": "gpt-4o",
    "messages": [
        {"role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": "Read both files."},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "call_a",
                    "type": "function",
                    "function": {"name": "read_file", "arguments": '{"path":"a.py"}'},
                },
                {
                    "id": "call_b",
                    "type": "function",
                    "function": {"name": "read_file", "arguments": '{"path":"b.py"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_a", "content": "print('a')"},
        {"role": "tool", "tool_call_id": "call_b", "content": [{"type": "text", "text": "print('b')"}]},
        {"role": "assistant", "content": "Both files print."},
        {"role": "user", "content": "Thanks."},
    ],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "read_file",
                "description": "Read a file.",
                "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
            },
        }
    ],
}


def test_openai_chat_history_renders_to_a_valid_responses_body() -> None:
    session = toolhist.load(copy.deepcopy(CHAT_BODY))
    payload = render(session, P)
    assert payload.body == {
        "model": "gpt-4o",
        "input": [
            {"role": "system", "content": "You are a coding agent."},
            {"role": "user", "content": "Read both files."},
            {
                "type": "function_call",
                "call_id": "call_a",
                "name": "read_file",
                "arguments": '{"path":"a.py"}',
            },
            {
                "type": "function_call",
                "call_id": "call_b",
                "name": "read_file",
                "arguments": '{"path":"b.py"}',
            },
            {"type": "function_call_output", "call_id": "call_a", "output": "print('a')"},
            {"type": "function_call_output", "call_id": "call_b", "output": "print('b')"},
            {"role": "assistant", "content": "Both files print."},
            {"role": "user", "content": "Thanks."},
        ],
        "tools": [
            {
                "type": "function",
                "name": "read_file",
                "description": "Read a file.",
                "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
                "strict": False,
            }
        ],
    }
    assert payload.omitted == ("message 2 block 0: empty text not sent (clients leave it out)",)
    assert validate(session, P) == []
    assert payload.source_map["input[5]"] == (4, 0)


def test_chat_history_missing_a_result_stays_broken() -> None:
    body = copy.deepcopy(CHAT_BODY)
    del body["messages"][4]
    (violation,) = validate(toolhist.load(body), P)
    assert (
        violation.rule,
        violation.path,
        violation.message_index,
        violation.block_index,
        violation.error_text,
    ) == (
        "resp.call_unanswered",
        "input[3]",
        2,
        2,
        "No tool output found for function call call_b.",
    )


def test_foreign_blocks_become_items_and_what_cannot_go_is_listed() -> None:
    session = Session(
        messages=(
            Message(speaker="system", blocks=(TextBlock(text="sys"),)),
            Message(
                speaker="human",
                blocks=(
                    TextBlock(text="look"),
                    MediaBlock(mime_type="image/png", data="iVBO"),
                    MediaBlock(mime_type="application/pdf", url="https://x/doc.pdf", filename="doc.pdf"),
                ),
            ),
            Message(
                speaker="ai",
                blocks=(
                    ThinkingBlock(text="hmm", signature="sig", source_provider="anthropic"),
                    TextBlock(text="Checking."),
                    ToolCallBlock(id="toolu_1", name="ls", parameters={"d": "."}, raw_id="toolu_1"),
                    OpaqueBlock(source_format="bedrock", data={"cachePoint": {"type": "default"}}),
                ),
            ),
            Message(
                speaker="tool",
                blocks=(
                    ToolResponseBlock(
                        call_id="toolu_1", tool_name="ls", result={"files": ["a"]}, raw_call_id="toolu_1"
                    ),
                    TextBlock(text="now summarise"),
                ),
            ),
        ),
        tools=(ToolSpec(name="ls", parameters=None), ToolSpec(name="web_search", kind="web_search_20250305")),
        request={"model": "o3", "max_tokens": 100},
        source=SessionSource(format="anthropic"),
    )
    payload = render(session, P)
    assert payload.body == {
        "model": "o3",
        "input": [
            {"role": "system", "content": "sys"},
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "look"},
                    {"type": "input_image", "image_url": "data:image/png;base64,iVBO"},
                    {"type": "input_file", "filename": "doc.pdf", "file_url": "https://x/doc.pdf"},
                ],
            },
            {"role": "assistant", "content": "Checking."},
            {"type": "function_call", "call_id": "toolu_1", "name": "ls", "arguments": '{"d":"."}'},
            {"type": "function_call_output", "call_id": "toolu_1", "output": '{"files":["a"]}'},
            {"role": "user", "content": "now summarise"},
        ],
        "tools": [
            {
                "type": "function",
                "name": "ls",
                "parameters": {"type": "object", "properties": {}},
                "strict": False,
            }
        ],
    }
    assert payload.omitted == (
        "message 2 block 0: thinking from anthropic cannot be replayed to openai-responses (reasoning items only come from Responses)",
        "message 2 block 3: bedrock block kept verbatim cannot be sent to openai-responses",
        "tool 'web_search': built-in web_search_20250305 tool of another provider",
    )
    assert validate(session, P) == []


def test_gemini_history_renders_to_responses() -> None:
    gemini = {
        "systemInstruction": {"parts": [{"text": "sys"}]},
        "contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {
                "role": "model",
                "parts": [{"functionCall": {"name": "run", "args": {"c": 1}}, "thoughtSignature": "S"}],
            },
            {"role": "user", "parts": [{"functionResponse": {"name": "run", "response": {"out": "ok"}}}]},
        ],
    }
    payload = render(toolhist.load(gemini), P)
    assert payload.body == {
        "input": [
            {"role": "system", "content": "sys"},
            {"role": "user", "content": "go"},
            {"type": "function_call", "call_id": "gemini-2-0", "name": "run", "arguments": '{"c":1}'},
            {"type": "function_call_output", "call_id": "gemini-2-0", "output": '{"out":"ok"}'},
        ]
    }


def test_an_empty_assistant_message_is_kept_as_an_empty_message() -> None:
    chat = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": None}],
    }
    payload = render(toolhist.load(chat), P)
    assert payload.body == {
        "model": "gpt-4o",
        "input": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": ""}],
    }
    assert payload.source_map["input[1]"] == (1, None)
