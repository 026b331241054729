"""Gemini provider: every rule broken by the smallest body and kept by a near-identical one,
round trips of Gemini bodies, and bodies rendered from other formats."""

from __future__ import annotations

import copy
from typing import Any

import pytest

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
    ToolSpec,
)
from toolhist.providers import render, validate, validate_payload

Body = dict[str, Any]


def user(text: str = "hi") -> dict[str, Any]:
    return {"role": "user", "parts": [{"text": text}]}


def calls(*names: str, sig: str | None = None) -> dict[str, Any]:
    parts: list[dict[str, Any]] = [{"functionCall": {"name": n, "args": {}}} for n in names]
    if sig is not None and parts:
        parts[0]["thoughtSignature"] = sig
    return {"role": "model", "parts": parts}


def responses(*names: str) -> dict[str, Any]:
    return {
        "role": "user",
        "parts": [{"functionResponse": {"name": n, "response": {"ok": True}}} for n in names],
    }


def found(body: Body, rule: str) -> list[tuple[str, str]]:
    """(path, error_text) of every violation of ``rule``."""
    return [(v.path, v.error_text) for v in validate_payload(body, "gemini") if v.rule == rule]


# --- rules -------------------------------------------------------------------------------------


def test_fc_position_call_turn_after_model_turn() -> None:
    bad = {
        "contents": [
            user(),
            {"role": "model", "parts": [{"text": "let me look"}]},
            calls("f"),
            responses("f"),
        ]
    }
    assert found(bad, "gem.fc_position") == [
        (
            "contents[2]",
            "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
        )
    ]
    good = {"contents": [user(), calls("f"), responses("f")]}
    assert found(good, "gem.fc_position") == []


def test_fc_position_history_opening_with_a_call() -> None:
    assert [p for p, _ in found({"contents": [calls("f"), responses("f")]}, "gem.fc_position")] == [
        "contents[0]"
    ]


def test_fc_position_call_after_response_turn_is_fine() -> None:
    body = {"contents": [user(), calls("f"), responses("f"), calls("g"), responses("g")]}
    assert validate_payload(body, "gemini") == []


def test_fr_position_response_turn_not_after_call_turn() -> None:
    bad = {"contents": [user(), {"role": "model", "parts": [{"text": "ok"}]}, responses("f")]}
    assert found(bad, "gem.fr_position") == [
        (
            "contents[2]",
            "Please ensure that function response turn comes immediately after a function call turn.",
        )
    ]
    good = {"contents": [user(), calls("f"), responses("f")]}
    assert found(good, "gem.fr_position") == []


def test_fr_count_fewer_responses_than_calls() -> None:
    bad = {"contents": [user(), calls("f", "g"), responses("f")]}
    text = (
        "Please ensure that the number of function response parts is equal to the number of function call "
        "parts of the function call turn."
    )
    assert found(bad, "gem.fr_count") == [("contents[2]", text)]
    good = {"contents": [user(), calls("f", "g"), responses("f", "g")]}
    assert found(good, "gem.fr_count") == []


def test_fr_count_call_turn_followed_by_user_text() -> None:
    bad = {"contents": [user(), calls("f"), user("never mind")]}
    assert [p for p, _ in found(bad, "gem.fr_count")] == ["contents[2]"]


def test_thought_sig_gemini_3_current_turn() -> None:
    bad: Body = {
        "model": "gemini-3-pro-preview",
        "contents": [user(), calls("read_file"), responses("read_file")],
    }
    assert found(bad, "gem.thought_sig") == [
        (
            "contents[1].parts[0]",
            "Function call is missing a thought_signature in functionCall parts. This is required for tools "
            "to work correctly, and missing thought_signature may lead to degraded model performance. "
            "Additional data, function call `default_api:read_file` , position 2. Please refer to "
            "https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",
        )
    ]
    good = copy.deepcopy(bad)
    good["contents"][1] = calls("read_file", sig="c2ln")
    assert found(good, "gem.thought_sig") == []


def test_thought_sig_only_first_call_of_each_step_and_only_current_turn() -> None:
    body = {
        "model": "models/gemini-3.1-pro",
        "contents": [
            user(),
            calls("old"),  # an earlier turn: not validated
            responses("old"),
            {"role": "model", "parts": [{"text": "done"}]},
            user("again"),
            calls("a", "b", sig="S"),  # parallel: only the first part carries the signature
            responses("a", "b"),
            calls("c"),  # next step of the same turn: unsigned
            responses("c"),
        ],
    }
    assert [(p, t.split("Additional data, ")[1][:36]) for p, t in found(body, "gem.thought_sig")] == [
        ("contents[7].parts[0]", "function call `default_api:c` , posi")
    ]


@pytest.mark.parametrize("model", ["gemini-2.5-pro", "gemini-3-pro-image-preview", ""])
def test_thought_sig_not_enforced_before_gemini_3_or_without_model(model: str) -> None:
    body = {"model": model, "contents": [user(), calls("f"), responses("f")]}
    assert found(body, "gem.thought_sig") == []


def test_parts_nonempty() -> None:
    bad = {"contents": [{"role": "user", "parts": []}]}
    assert found(bad, "gem.parts_nonempty") == [
        ("contents[0].parts", "* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.")
    ]
    assert found({"contents": [user()]}, "gem.parts_nonempty") == []


def test_part_oneof_empty_part_next_to_a_response() -> None:
    # FLIT#69: a blank text part reached the wire as a part with no data field (an SDK drops the empty
    # string). `{"text": ""}` itself sets the oneof and is accepted (recorded, see the next test).
    bad = {
        "contents": [
            user(),
            calls("f"),
            {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {}}}, {}]},
        ]
    }
    assert found(bad, "gem.part_oneof") == [
        (
            "contents[2].parts[1]",
            "* GenerateContentRequest.contents[2].parts[1].data: required oneof field 'data' must have one initialized field",
        )
    ]
    good = copy.deepcopy(bad)
    good["contents"][2]["parts"][1] = {"text": " "}
    assert found(good, "gem.part_oneof") == []


def test_part_oneof_empty_text_and_signature_parts_are_accepted() -> None:
    # Recorded 200s: `{"text": ""}` as a user turn's only part (gemini-3-flash-preview, 2026-02,
    # pydantic-ai test_google_instructions_only_with_tool_calls.yaml) and a model part holding only a
    # thought signature (gemini-2.5-flash, 2026-03, ruby_llm; gemini-3-flash-preview, pydantic-ai).
    good = {
        "contents": [
            {"role": "user", "parts": [{"text": ""}]},
            {
                "role": "model",
                "parts": [{"thoughtSignature": "S"}, {"thought": True, "thoughtSignature": "T"}],
            },
            user(),
        ]
    }
    assert found(good, "gem.part_oneof") == []


def test_part_oneof_multi() -> None:
    bad = {
        "contents": [
            {
                "role": "user",
                "parts": [{"text": "see", "inlineData": {"mimeType": "image/png", "data": "AA"}}],
            }
        ]
    }
    assert found(bad, "gem.part_oneof_multi") == [
        (
            "contents[0].parts[0]",
            "Invalid value at 'contents[0].parts[0]' (oneof), oneof field 'data' is already set. Cannot set 'inlineData'",
        )
    ]
    good = {
        "contents": [
            {
                "role": "user",
                "parts": [{"text": "see"}, {"inlineData": {"mimeType": "image/png", "data": "AA"}}],
            }
        ]
    }
    assert found(good, "gem.part_oneof_multi") == []


def test_part_oneof_multi_snake_case_reports_the_api_name() -> None:
    bad = {"contents": [{"role": "user", "parts": [{"text": "x", "file_data": {"file_uri": "gs://b/f"}}]}]}
    assert found(bad, "gem.part_oneof_multi")[0][1].endswith("Cannot set 'fileData'")


def test_no_trailing_model_newer_models_only() -> None:
    bad = {"model": "gemini-3.6-flash", "contents": [user(), {"role": "model", "parts": [{"text": "Sure"}]}]}
    assert found(bad, "gem.no_trailing_model") == [
        ("contents[1]", "Requests ending with a model turn are not supported.")
    ]
    lite = {**bad, "model": "gemini-3.5-flash-lite"}
    assert [path for path, _ in found(lite, "gem.no_trailing_model")] == ["contents[1]"]
    good = {"model": "gemini-3.6-flash", "contents": [*bad["contents"], user("go on")]}
    assert found(good, "gem.no_trailing_model") == []
    # 200 in LibreChat-AI/agents PR#323's probes (2026-07): 3.5 Flash still took the prefill
    for model in ("gemini-3.5-flash", "gemini-2.5-flash"):
        assert found({**bad, "model": model}, "gem.no_trailing_model") == []


def test_role_tool_is_rejected() -> None:
    bad = {"contents": [user(), calls("f"), {**responses("f"), "role": "tool"}]}
    assert found(bad, "gem.role") == [("contents[2].role", "Please use a valid role: user, model.")]
    good = {"contents": [user(), calls("f"), responses("f")]}
    assert found(good, "gem.role") == []
    no_role = {"contents": [{"parts": [{"text": "hi"}]}]}
    assert found(no_role, "gem.role") == []


def test_fn_name_format_on_declarations() -> None:
    bad = {
        "contents": [user()],
        "tools": [{"functionDeclarations": [{"name": "ok_name"}, {"name": "21st_magic builder"}]}],
    }
    assert found(bad, "gem.fn_name_format") == [
        (
            "tools[0].functionDeclarations[1].name",
            "* GenerateContentRequest.tools[0].function_declarations[1].name: Invalid function name. Must start "
            "with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), "
            "colons (:), or dashes (-), with a maximum length of 64.",
        )
    ]
    good = {"contents": [user()], "tools": [{"function_declarations": [{"name": "mcp.magic:builder-21st"}]}]}
    assert found(good, "gem.fn_name_format") == []
    too_long = {"contents": [user()], "tools": [{"functionDeclarations": [{"name": "a" * 65}]}]}
    assert [p for p, _ in found(too_long, "gem.fn_name_format")] == ["tools[0].functionDeclarations[0].name"]


def test_snake_case_body_is_checked_too() -> None:
    bad: Body = {
        "model": "gemini-3-flash",
        "contents": [
            user(),
            {"role": "model", "parts": [{"function_call": {"name": "f", "args": {}}}]},
            {"role": "user", "parts": [{"function_response": {"name": "f", "response": {}}}]},
        ],
    }
    assert [v.rule for v in validate_payload(bad, "gemini")] == ["gem.thought_sig"]
    bad["contents"][1]["parts"][0]["thought_signature"] = "S"
    assert validate_payload(bad, "gemini") == []


def test_malformed_bodies_do_not_raise() -> None:
    assert validate_payload({"contents": "nope", "tools": 3}, "gemini") == []
    odd = {"contents": [3, {"role": "model", "parts": "x"}, {"parts": [None, {"text": "hi"}]}]}
    assert [v.rule for v in validate_payload(odd, "gemini")] == []


# --- round trip --------------------------------------------------------------------------------

ROUND_TRIP: list[Body] = [
    {
        "systemInstruction": {"parts": [{"text": "You are a coding agent."}]},
        "contents": [
            user("weather in Paris and Rome?"),
            {
                "role": "model",
                "parts": [
                    {"text": "planning", "thought": True, "thoughtSignature": "VEhPVUdIVA=="},
                    {
                        "functionCall": {"id": "a1", "name": "get_weather", "args": {"city": "Paris"}},
                        "thoughtSignature": "U0lH",
                    },
                    {"functionCall": {"id": "a2", "name": "get_weather", "args": {"city": "Rome"}}},
                ],
            },
            {
                "role": "user",
                "parts": [
                    {"functionResponse": {"id": "a1", "name": "get_weather", "response": {"temp": 12}}},
                    {"functionResponse": {"id": "a2", "name": "get_weather", "response": {"temp": 18}}},
                ],
            },
            {"role": "model", "parts": [{"text": "Paris 12, Rome 18.", "thoughtSignature": "RU5E"}]},
        ],
        "tools": [{"functionDeclarations": [{"name": "get_weather", "parameters": {"type": "OBJECT"}}]}],
        "generationConfig": {"temperature": 0.2, "thinkingConfig": {"includeThoughts": True}},
        "model": "gemini-3-pro-preview",
    },
    {
        "system_instruction": "Be brief.",
        "contents": [
            {
                "role": "user",
                "parts": [{"text": "run it"}, {"inline_data": {"mime_type": "image/png", "data": "iVBO"}}],
            },
            {
                "role": "model",
                "parts": [
                    {"function_call": {"name": "run", "args": {"cmd": "ls"}}, "thought_signature": "c2ln"}
                ],
            },
            {
                "role": "user",
                "parts": [{"function_response": {"name": "run", "response": {"output": "a b"}}}],
            },
            {"role": "model", "parts": [{"executable_code": {"language": "PYTHON", "code": "print(1)"}}]},
        ],
        "safety_settings": [],
    },
    {
        "contents": [
            {"parts": [{"text": "no role here"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "g", "willContinue": True}}]},
            {
                "role": "function",
                "parts": [{"functionResponse": {"name": "g", "response": {"a": 1}, "scheduling": "SILENT"}}],
            },
            {"role": "model", "parts": [{"text": "", "thought": False}]},
        ],
        "systemInstruction": {"role": "system", "parts": [{"text": "a"}, {"text": "b"}]},
        "tools": [{"googleSearch": {}}],
    },
]


@pytest.mark.parametrize("body", ROUND_TRIP, ids=["camel", "snake", "odd-markers"])
def test_gemini_body_renders_back_unchanged(body: Body) -> None:
    session = toolhist.load(copy.deepcopy(body))
    assert session.source.format == "gemini"
    payload = render(session, "gemini")
    assert payload.body == body
    assert payload.omitted == ()


def test_bare_contents_list_round_trips_on_the_history_key() -> None:
    contents = [user("x"), calls("f", sig="S"), responses("f")]
    session = toolhist.load(copy.deepcopy(contents))
    assert render(session, "gemini").body == {"contents": contents}


def test_content_without_parts_round_trips() -> None:
    body = {"contents": [user("x"), {"role": "model"}]}
    session = toolhist.load(copy.deepcopy(body), format="gemini")
    assert render(session, "gemini").body == body
    assert found(body, "gem.parts_nonempty") == [
        ("contents[1].parts", "* GenerateContentRequest.contents[1].parts: contents.parts must not be empty.")
    ]


def test_source_map_points_back_at_messages_and_blocks() -> None:
    session = toolhist.load(copy.deepcopy(ROUND_TRIP[0]))
    broken = session.model_copy(update={"messages": session.messages[:3]})  # ends on the call turn
    payload = render(broken, "gemini")
    assert payload.source_map["systemInstruction.parts[0]"] == (0, 0)
    assert payload.source_map["contents[1].parts[2]"] == (2, 2)
    (violation,) = validate(broken.model_copy(update={"request": {"model": "gemini-3.6-pro"}}), "gemini")
    assert (violation.rule, violation.path, violation.message_index, violation.block_index) == (
        "gem.no_trailing_model",
        "contents[1]",
        2,
        None,
    )


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
        {"role": "tool", "tool_call_id": "call_b", "content": '{"lines": 2}'},
        {"role": "assistant", "content": "Both files print."},
        {"role": "user", "content": "Thanks."},
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
}


def test_openai_chat_history_renders_to_a_valid_gemini_body() -> None:
    session = toolhist.load(copy.deepcopy(CHAT_BODY))
    payload = render(session, "gemini")
    assert payload.body == {
        "model": "gpt-4o",
        "systemInstruction": {"parts": [{"text": "You are a coding agent."}]},
        "contents": [
            {"role": "user", "parts": [{"text": "Read both files."}]},
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"id": "call_a", "name": "read_file", "args": {"path": "a.py"}}},
                    {"functionCall": {"id": "call_b", "name": "read_file", "args": {"path": "b.py"}}},
                ],
            },
            {
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            "id": "call_a",
                            "name": "read_file",
                            "response": {"output": "print('a')"},
                        }
                    },
                    {
                        "functionResponse": {
                            "id": "call_b",
                            "name": "read_file",
                            "response": {"output": '{"lines": 2}'},
                        }
                    },
                ],
            },
            {"role": "model", "parts": [{"text": "Both files print."}]},
            {"role": "user", "parts": [{"text": "Thanks."}]},
        ],
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "read_file",
                        "description": "Read a file.",
                        "parametersJsonSchema": {
                            "type": "object",
                            "properties": {"path": {"type": "string"}},
                            "required": ["path"],
                        },
                    }
                ]
            }
        ],
    }
    assert payload.omitted == ("message 2 block 0: empty text not sent (Gemini rejects a part with no data)",)
    assert validate(session, "gemini") == []
    assert payload.source_map["contents[2].parts[1]"] == (4, 0)


def test_chat_history_missing_a_result_stays_broken() -> None:
    body = copy.deepcopy(CHAT_BODY)
    del body["messages"][4]
    session = toolhist.load(body)
    (violation,) = validate(session, "gemini")
    assert (violation.rule, violation.path, violation.message_index) == ("gem.fr_count", "contents[2]", 3)


def _session(*messages: Message, tools: tuple[ToolSpec, ...] | None = None) -> Session:
    return Session(messages=messages, tools=tools, source=SessionSource(format="anthropic"))


def test_results_become_objects_and_foreign_thinking_is_listed_as_omitted() -> None:
    session = _session(
        Message(speaker="system", blocks=(TextBlock(text="sys"),)),
        Message(speaker="human", blocks=(TextBlock(text="go"),)),
        Message(
            speaker="ai",
            blocks=(
                ThinkingBlock(text="hmm", signature="ant-sig", source_provider="anthropic"),
                ToolCallBlock(
                    id="toolu_1", name="ls", parameters=None, raw_id="toolu_1", raw_arguments="{bad"
                ),
                ToolCallBlock(id="toolu_2", name="cat", parameters={"f": "x"}, raw_id="toolu_2"),
            ),
        ),
        Message(
            speaker="tool",
            blocks=(
                ToolResponseBlock(
                    call_id="toolu_1", tool_name="ls", result=None, error="boom", raw_call_id="toolu_1"
                ),
                ToolResponseBlock(
                    call_id="toolu_2",
                    tool_name="cat",
                    result=[{"type": "text", "text": "l1"}, {"type": "text", "text": "l2"}],
                    raw_call_id="toolu_2",
                ),
                TextBlock(text="and continue"),
            ),
            metadata=MessageMetadata(source_role="user"),
        ),
        Message(speaker="system", blocks=(TextBlock(text="late rule"),)),
        tools=(ToolSpec(name="web_search", kind="web_search_20250305"),),
    )
    payload = render(session, "gemini")
    assert payload.body == {
        "systemInstruction": {"parts": [{"text": "sys"}]},
        "contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"id": "toolu_1", "name": "ls", "args": {}}},
                    {"functionCall": {"id": "toolu_2", "name": "cat", "args": {"f": "x"}}},
                ],
            },
            {
                "role": "user",
                "parts": [
                    {"functionResponse": {"id": "toolu_1", "name": "ls", "response": {"error": "boom"}}},
                    {"functionResponse": {"id": "toolu_2", "name": "cat", "response": {"output": "l1\nl2"}}},
                    {"text": "and continue"},
                ],
            },
            {"role": "user", "parts": [{"text": "late rule"}]},
        ],
    }
    assert payload.omitted == (
        "message 2 block 0: thinking from anthropic has no place in Gemini",
        "message 2 block 1: arguments of 'ls' are not a JSON object; sent as {}",
        "message 4: a system message after the conversation started is sent as a user turn (Gemini has no system role in contents)",
        "tool 'web_search': built-in web_search_20250305 tool of another provider",
    )


def test_unsigned_foreign_calls_show_the_gemini_3_signature_error() -> None:
    body = {**copy.deepcopy(CHAT_BODY), "model": "gemini-3-pro-preview"}
    sending_results = {**body, "messages": body["messages"][:5]}  # the request that returns the results
    assert [
        (v.rule, v.path, v.message_index) for v in validate(toolhist.load(sending_results), "gemini")
    ] == [("gem.thought_sig", "contents[1].parts[0]", 2)]
    # Once the user speaks again, that call belongs to an earlier turn, which Gemini does not validate.
    assert validate(toolhist.load(body), "gemini") == []
