"""`toolhist.sdk.check`: strict SDK request-type validation, reported as located Violations."""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhist
from toolhist import sdk
from toolhist.providers import PROVIDERS, render
from toolhist.sdk.strict import body_path


def found(body: dict[str, Any], provider: str) -> list[tuple[str, str]]:
    return [(v.path, v.error_text) for v in sdk.check(body, provider)]


EXTRA = "Extra inputs are not permitted [type=extra_forbidden, input_value={}, input_type={}]"


def test_openai_chat_unknown_keys_lazy_lists_and_discriminated_roles() -> None:
    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "x"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [  # an Iterable in the SDK type: only consumed items are validated
                    {"id": "a", "type": "function", "function": {"name": "f", "arguments": {}}},
                    {"id": "b", "type": "function", "function": {"name": "f", "arguments": "{}", "zz": 1}},
                ],
            },
            {"role": "tool", "content": "x"},
            {"role": "robot", "content": "x"},
        ],
        "foo": 1,
        "tools": [{"type": "function", "function": {"name": "f", "zz": 2}}],
    }
    assert found(body, "openai-chat") == [
        ("foo", EXTRA.format(1, "int")),
        (
            "messages[1].tool_calls[0].function.arguments",
            "Input should be a valid string [type=string_type, input_value={}, input_type=dict]",
        ),
        ("messages[1].tool_calls[1].function.zz", EXTRA.format(1, "int")),
        (
            "messages[2].tool_call_id",
            "Field required [type=missing, input_value={'role': 'tool', 'content': 'x'}, input_type=dict]",
        ),
        (
            "messages[3]",
            "Input tag 'robot' found using pick() does not match any of the expected tags: 'developer', "
            "'system', 'user', 'assistant', 'tool', 'function' [type=union_tag_invalid, "
            "input_value={'role': 'robot', 'content': 'x'}, input_type=dict]",
        ),
        ("tools[0].function.zz", EXTRA.format(2, "int")),
    ]


def test_one_error_per_fault_not_one_per_union_variant() -> None:
    body = {
        "model": "m",
        "input": [
            {"role": "user", "content": "x", "zz": 1},  # three 'message' variants: the closest one speaks
            {"type": "function_call", "call_id": "c", "name": "f", "arguments": {}},
            {"type": "function_call_output", "call_id": "c", "output": "ok"},
        ],
    }
    assert found(body, "openai-responses") == [
        ("input[0].zz", EXTRA.format(1, "int")),
        (
            "input[1].arguments",
            "Input should be a valid string [type=string_type, input_value={}, input_type=dict]",
        ),
    ]


def test_anthropic_response_models_do_not_launder_unknown_keys() -> None:
    body = {
        "model": "m",
        "max_tokens": 1,
        "messages": [
            {
                "role": "user",
                "content": [{"type": "text", "text": "x", "zz": 1}, {"type": "tool_result", "content": "x"}],
            },
            {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "f", "input": "{}"}]},
        ],
    }
    assert found(body, "anthropic") == [
        # The content union also holds the response model TextBlock, which takes any key; a JSON
        # body is never that object, so the unknown key is reported as TextBlockParam refuses it.
        ("messages.0.content.0.zz", EXTRA.format(1, "int")),
        (
            "messages.0.content.1.tool_use_id",
            "Field required [type=missing, input_value={'type': 'tool_result', 'content': 'x'}, input_type=dict]",
        ),
        (
            "messages.1.content.0.input",
            "Input should be a valid dictionary [type=dict_type, input_value='{}', input_type=str]",
        ),
    ]


def test_mistral_uses_the_typed_dict_twins_so_unknown_keys_count() -> None:
    body = {
        "model": "m",
        "messages": [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "a", "function": {"name": "f", "arguments": "{}"}, "zz": 1}],
            },
            {"role": "tool", "content": "x", "bogus": True},
        ],
    }
    assert found(body, "mistral") == [
        ("messages[0].tool_calls[0].zz", EXTRA.format(1, "int")),
        ("messages[1].bogus", EXTRA.format(True, "bool")),
    ]


def test_gemini_types_refuse_unknown_keys_and_string_args() -> None:
    body = {
        "contents": [
            {"role": "user", "parts": [{"functionCall": {"name": "f", "args": "{}"}}, {"text": "a", "zz": 1}]}
        ],
        "foo": 1,
    }
    assert found(body, "gemini") == [
        ("foo", EXTRA.format(1, "int")),
        (
            "contents[0].parts[0].functionCall.args",
            "Input should be a valid dictionary [type=dict_type, input_value='{}', input_type=str]",
        ),
        ("contents[0].parts[1].zz", EXTRA.format(1, "int")),
    ]


def test_bedrock_uses_botocore_param_validation() -> None:
    body = {
        "modelId": "x",
        "messages": [
            {
                "role": "user",
                "content": [{"text": "a", "zz": 1}, {"toolUse": {"toolUseId": "a", "input": {}}}],
            }
        ],
    }
    paths = [p for p, _ in found(body, "bedrock")]
    assert paths == ["messages.0.content.0", "messages.0.content.0.zz", "messages.0.content.1.toolUse.name"]
    assert (
        found(body, "bedrock")[2][1] == 'Missing required parameter in messages[0].content[1].toolUse: "name"'
    )
    assert found({"messages": []}, "bedrock") == [
        ("modelId", 'Missing required parameter in input: "modelId"')
    ]


def test_violation_fields_rule_ids_and_source() -> None:
    expected_rules = {
        "openai-chat": "sdk.openai_chat.type",
        "openai-responses": "sdk.openai_responses.type",
        "anthropic": "sdk.anthropic.type",
        "gemini": "sdk.gemini.type",
        "mistral": "sdk.mistral.type",
        "kimi": "sdk.kimi.type",
        "bedrock": "sdk.bedrock.type",
    }
    assert {p: sdk.binding(p).rule for p in PROVIDERS} == expected_rules
    (v,) = sdk.check({"model": "m", "messages": [], "foo": 1}, "kimi")
    assert (v.provider, v.rule, v.severity, v.path) == ("kimi", "sdk.kimi.type", "error", "foo")
    assert v.source == (
        f"openai {version('openai')}: "
        "openai.types.chat.completion_create_params.CompletionCreateParamsNonStreaming"
    )
    assert v.fix.startswith("not a provider rule: the official openai SDK's request type refuses this value.")


def test_violations_are_located_in_the_history_through_the_source_map() -> None:
    session = toolhist.load("sample_logs/openai_chat_request.json")
    payload = render(session, "openai-chat")
    located = [(v.path, v.message_index) for v in sdk.check(payload.body, "openai-chat", payload.source_map)]
    assert located == [("messages[3].name", 3)]


def test_a_missing_model_is_an_error_unless_filled() -> None:
    body = {"messages": [{"role": "user", "content": "hi"}]}
    assert [v.path for v in sdk.check(body, "openai-chat")] == ["model"]
    assert sdk.check(body, "openai-chat", fill_model=True) == []
    assert sdk.with_model(body, "bedrock") == ({"modelId": "model-not-in-body", **body}, True)
    assert sdk.with_model({"model": "m"}, "openai-chat") == ({"model": "m"}, False)


def test_streaming_bodies_are_request_bodies_too() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": True}
    assert sdk.check(body, "openai-chat") == []
    assert sdk.check({**body, "max_tokens": 5}, "anthropic") == []
    assert [v.path for v in sdk.check({**body, "stream": "yes"}, "openai-chat")] == ["stream"]
    # Strict types: a JSON string is no number, even one that reads like it.
    assert [v.path for v in sdk.check({**body, "temperature": "0.2"}, "openai-chat")] == ["temperature"]


def test_body_path_keeps_real_keys_and_drops_union_markers() -> None:
    body = {"messages": [{"role": "tool", "content": "x"}]}
    assert body_path(body, ("messages", 0, "tool", "tool_call_id")) == (
        ("messages", 0, "tool_call_id"),
        ((2, "tool"),),
    )
    text_block = {"content": [{"type": "text", "text": "a"}]}
    assert body_path(text_block, ("content", "list[...]", 0, "text", "text")) == (
        ("content", 0, "text"),
        ((1, "list[...]"), (3, "text")),
    )


_text = st.text(max_size=20)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.builds(lambda t: {"role": "user", "content": t}, _text),
            st.builds(lambda t: {"role": "system", "content": t}, _text),
            st.builds(lambda t: {"role": "assistant", "content": t}, _text),
            st.builds(lambda i, t: {"role": "tool", "tool_call_id": i, "content": t}, _text, _text),
        ),
        max_size=8,
    ),
    st.dictionaries(st.sampled_from(["zz", "extra", "foo"]), st.integers(), max_size=2),
)
def test_valid_messages_pass_and_each_unknown_key_is_one_violation(
    messages: list[dict[str, Any]], extra: dict[str, int]
) -> None:
    body = {"model": "m", "messages": messages}
    assert sdk.check(body, "openai-chat") == []
    if messages:
        spoiled = [*messages[:-1], {**messages[-1], **extra}]
        assert [v.path for v in sdk.check({**body, "messages": spoiled}, "openai-chat")] == [
            f"messages[{len(messages) - 1}].{key}" for key in extra
        ]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_provider_has_a_binding_and_an_installed_sdk(provider: str) -> None:
    assert sdk.available(provider)
    assert sdk.sdk_version(provider) is not None
    assert sdk.binding(provider).provider == provider


def test_a_refused_message_still_reports_the_errors_inside_its_lists() -> None:
    """An unknown key on a message must not hide its bad tool calls or content blocks (lazy lists)."""
    chat = {
        "model": "m",
        "messages": [
            {
                "role": "assistant",
                "content": None,
                "foo": 1,
                "tool_calls": [
                    {"id": "a", "type": "function", "function": {"name": "f", "arguments": {}}},
                    {"id": "b", "type": "function", "function": {"name": "g"}},
                ],
            }
        ],
    }
    assert found(chat, "openai-chat") == [
        ("messages[0].foo", EXTRA.format(1, "int")),
        (
            "messages[0].tool_calls[0].function.arguments",
            "Input should be a valid string [type=string_type, input_value={}, input_type=dict]",
        ),
        (
            "messages[0].tool_calls[1].function.arguments",
            "Field required [type=missing, input_value={'name': 'g'}, input_type=dict]",
        ),
    ]
    anthropic = {
        "model": "m",
        "max_tokens": 1,
        "messages": [
            {
                "role": "assistant",
                "bar": 2,
                "content": [
                    {"type": "tool_use", "id": "t", "name": "f", "input": {}, "zzz": 1},
                    {"type": "text", "text": 1},
                ],
            }
        ],
    }
    assert found(anthropic, "anthropic") == [
        ("messages.0.bar", EXTRA.format(2, "int")),
        ("messages.0.content.0.zzz", EXTRA.format(1, "int")),
        (
            "messages.0.content.1.text",
            "Input should be a valid string [type=string_type, input_value=1, input_type=int]",
        ),
    ]
    responses = {
        "model": "m",
        "input": [
            {"role": "user", "content": [{"type": "input_text", "text": "x", "q": 1}], "extra": True},
        ],
    }
    assert found(responses, "openai-responses") == [
        ("input[0].extra", EXTRA.format(True, "bool")),
        ("input[0].content[0].q", EXTRA.format(1, "int")),
    ]


def test_kimi_lets_an_assistants_reasoning_content_through_and_nothing_else() -> None:
    # Kimi's thinking models refuse an assistant tool-call message without reasoning_content, and the
    # openai SDK sends the key as given; OpenAI Chat's check still names it, and so does Kimi's elsewhere.
    call = {"id": "functions.f:0", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi", "reasoning_content": "x"},
            {"role": "assistant", "content": None, "tool_calls": [call], "reasoning_content": ""},
            {"role": "assistant", "content": "ok", "reasoning_content": 1},
        ],
    }
    assert [v.path for v in sdk.check(body, "kimi")] == [
        "messages[0].reasoning_content",
        "messages[2].reasoning_content",
    ]
    assert [v.path for v in sdk.check(body, "openai-chat")] == [
        "messages[0].reasoning_content",
        "messages[1].reasoning_content",
        "messages[2].reasoning_content",
    ]
