from __future__ import annotations

import copy
from typing import Any

import pytest

import toolhist
from toolhist.errors import LoadError
from toolhist.model import (
    MessageMetadata,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
    ToolSpec,
)

BODY = {
    "model": "gpt-4.1",
    "temperature": 0,
    "tools": [
        {
            "type": "function",
            "function": {"name": "read_file", "description": "Read", "parameters": {"type": "object"}},
        }
    ],
    "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Open a.py"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_A",
                    "type": "function",
                    "function": {"name": "read_file", "arguments": '{"path": "a.py"}'},
                },
                {
                    "id": "call_B",
                    "type": "function",
                    "function": {"name": "read_file", "arguments": '{"path": '},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_A", "name": "read_file", "content": "print(1)"},
        {"role": "tool", "tool_call_id": "call_B", "content": [{"type": "text", "text": "bad args"}]},
        {"role": "assistant", "content": "", "tool_calls": [], "reasoning_content": "think"},
    ],
}


def test_reads_every_message_with_exact_blocks() -> None:
    s = toolhist.load(BODY)
    assert s.source.format == "openai-chat"
    assert [m.speaker for m in s.messages] == ["system", "human", "ai", "tool", "tool", "ai"]
    assert s.messages[0].blocks == (TextBlock(text="Be brief."),)
    assert s.messages[0].metadata == MessageMetadata(source_role="system", extra={"_content_form": "string"})
    first, second = s.messages[2].blocks
    assert first == ToolCallBlock(
        id="call_A",
        name="read_file",
        parameters={"path": "a.py"},
        raw_id="call_A",
        raw_arguments='{"path": "a.py"}',
        provider_data={"type": "function"},
    )
    # Arguments that are not JSON are kept verbatim with the reason, never dropped.
    assert isinstance(second, ToolCallBlock)
    assert second.parameters is None
    assert second.raw_arguments == '{"path": '
    assert second.arguments_error == "arguments are not valid JSON: unexpected end of data (character 10)"
    assert s.messages[3].blocks == (
        ToolResponseBlock(call_id="call_A", tool_name="read_file", result="print(1)", raw_call_id="call_A"),
    )
    # The tool name is filled from the earlier call when the message has none.
    assert s.messages[4].blocks == (
        ToolResponseBlock(
            call_id="call_B",
            tool_name="read_file",
            result=[{"type": "text", "text": "bad args"}],
            raw_call_id="call_B",
        ),
    )


def test_keeps_request_fields_and_shapes_that_are_rules_themselves() -> None:
    s = toolhist.load(BODY)
    assert s.request == {"model": "gpt-4.1", "temperature": 0, "tools": BODY["tools"]}
    assert s.tools == (ToolSpec(name="read_file", description="Read", parameters={"type": "object"}),)
    last = s.messages[5]
    # content "" (not null), an empty tool_calls array and reasoning_content all survive.
    assert last.metadata.extra == {"_content_form": "string", "tool_calls": []}
    assert last.blocks == (
        ThinkingBlock(
            text="think", source_provider="openai-chat", provider_data={"field": "reasoning_content"}
        ),
        TextBlock(text=""),
    )
    assert s.messages[2].metadata.extra == {"_content_form": "null"}


def test_tool_message_without_tool_call_id_is_kept_and_marked() -> None:
    s = toolhist.load({"messages": [{"role": "tool", "content": "x"}]}, format="openai-chat")
    assert s.messages[0].blocks == (
        ToolResponseBlock(call_id="", result="x", provider_data={"_tool_call_id": "absent"}),
    )


def test_bare_list_and_locations() -> None:
    s = toolhist.load(
        [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "c", "content": "r"}]
    )
    assert s.source.format == "openai-chat"
    assert [loc.json_path for loc in s.source.locations] == ["[0]", "[1]"]
    assert s.request == {}
    assert s.tools is None


def test_jsonl_lines_are_recorded() -> None:
    data = b'{"role": "user", "content": "hi"}\n\n{"role": "tool", "tool_call_id": "c", "content": "r"}\n'
    s = toolhist.load(data)
    assert [(loc.index, loc.line) for loc in s.source.locations] == [(0, 1), (1, 3)]


def test_unknown_part_is_kept_verbatim_with_a_note() -> None:
    body = {
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "video_url", "u": 1}]}
        ]
    }
    s = toolhist.load(body, format="openai-chat")
    assert s.messages[0].blocks[1].model_dump() == {
        "type": "opaque",
        "source_format": "openai-chat",
        "data": {"type": "video_url", "u": 1},
    }
    assert s.source.notes == (
        "messages[0].content[1]: content part of type 'video_url' kept verbatim (not modelled)",
    )


CUSTOM_BODY: dict[str, Any] = {
    "model": "gpt-5",
    "tools": [
        {
            "type": "custom",
            "custom": {"name": "apply_patch", "description": "Patch", "format": {"type": "text"}},
        }
    ],
    "messages": [
        {"role": "user", "content": "Patch a.py"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_P",
                    "type": "custom",
                    "custom": {"name": "apply_patch", "input": "*** Begin Patch\n"},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_P", "content": "Done"},
    ],
}


def test_custom_tool_call_is_read_as_freeform_text_and_renders_back_unchanged() -> None:
    s = toolhist.load(CUSTOM_BODY)
    assert s.source.format == "openai-chat"
    assert s.messages[1].blocks == (
        ToolCallBlock(
            id="call_P",
            name="apply_patch",
            parameters={"input": "*** Begin Patch\n"},
            freeform_input="*** Begin Patch\n",
            raw_id="call_P",
            provider_data={"type": "custom"},
        ),
    )
    assert s.messages[2].blocks[0] == ToolResponseBlock(
        call_id="call_P", tool_name="apply_patch", result="Done", raw_call_id="call_P"
    )
    assert s.tools == (ToolSpec(name="apply_patch", description="Patch"),)
    assert toolhist.render(s, "openai-chat").body == CUSTOM_BODY
    assert toolhist.render(s, "openai-chat").omitted == ()  # sent back as freeform: nothing to say
    # Mistral has no custom tools: a function call with {"input": text}, said once.
    mistral = toolhist.render(s, "mistral")
    to_mistral: Any = mistral.body
    assert to_mistral["messages"][1]["tool_calls"] == [
        {
            "id": "call_P",
            "type": "function",
            "function": {"name": "apply_patch", "arguments": '{"input":"*** Begin Patch\\n"}'},
        }
    ]
    assert len([o for o in mistral.omitted if "freeform" in o]) == 1
    # Responses takes freeform calls as they are; Anthropic gets the text as {"input": text}, said once.
    responses: Any = toolhist.render(s, "openai-responses").body
    assert responses["input"][1] == {
        "type": "custom_tool_call",
        "call_id": "call_P",
        "name": "apply_patch",
        "input": "*** Begin Patch\n",
    }
    # …and the tool it calls is declared custom, as its calls are (not a function they would contradict)
    assert responses["tools"] == [{"type": "custom", "name": "apply_patch", "description": "Patch"}]
    anthropic = toolhist.render(s, "anthropic")
    sent: Any = anthropic.body
    assert sent["messages"][1]["content"][0]["input"] == {"input": "*** Begin Patch\n"}
    assert len([o for o in anthropic.omitted if "freeform" in o]) == 1


def test_a_custom_call_without_its_input_is_a_located_error() -> None:
    body = copy.deepcopy(CUSTOM_BODY)
    del body["messages"][1]["tool_calls"][0]["custom"]["input"]
    with pytest.raises(LoadError) as refused:
        toolhist.load(body, format="openai-chat")
    assert refused.value.json_path == "messages[1].tool_calls[0].custom.input"
