from __future__ import annotations

import toolhist
from toolhist.model import TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock

BODY = {
    "model": "gpt-5",
    "instructions": "Be exact.",
    "store": False,
    "input": [
        {"role": "user", "content": "fix it"},
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": "plan"}],
            "encrypted_content": "gAAA",
        },
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "sh",
            "arguments": '{"cmd":"ls"}',
        },
        {
            "type": "function_call",
            "id": "fc_2",
            "call_id": "call_2",
            "name": "sh",
            "arguments": '{"cmd":"pwd"}',
        },
        {"type": "function_call_output", "call_id": "call_1", "output": "a.py"},
        {"type": "function_call_output", "call_id": "call_2", "output": "/w"},
        {
            "type": "message",
            "role": "assistant",
            "id": "msg_1",
            "status": "completed",
            "content": [{"type": "output_text", "text": "done", "annotations": []}],
        },
    ],
}


def test_items_group_into_turns_and_remember_their_items() -> None:
    s = toolhist.load(BODY)
    assert s.source.format == "openai-responses"
    assert [m.speaker for m in s.messages] == ["system", "human", "ai", "tool", "ai"]
    assert s.messages[2].blocks == (
        ThinkingBlock(
            text="plan",
            data="gAAA",
            source_provider="openai-responses",
            provider_data={
                "type": "reasoning",
                "id": "rs_1",
                "summary": [{"type": "summary_text", "text": "plan"}],
            },
        ),
        ToolCallBlock(
            id="call_1",
            name="sh",
            parameters={"cmd": "ls"},
            raw_id="call_1",
            raw_arguments='{"cmd":"ls"}',
            provider_data={"type": "function_call", "id": "fc_1"},
        ),
        ToolCallBlock(
            id="call_2",
            name="sh",
            parameters={"cmd": "pwd"},
            raw_id="call_2",
            raw_arguments='{"cmd":"pwd"}',
            provider_data={"type": "function_call", "id": "fc_2"},
        ),
    )
    assert s.messages[3].blocks[0] == ToolResponseBlock(
        call_id="call_1",
        tool_name="sh",
        result="a.py",
        raw_call_id="call_1",
        provider_data={"type": "function_call_output"},
    )
    assert s.messages[4].blocks == (
        TextBlock(
            text="done",
            provider_data={
                "type": "output_text",
                "annotations": [],
                "_item": {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed"},
                "_content_form": "parts",
            },
        ),
    )
    locs = s.source.locations
    assert [loc.json_path for loc in locs] == [
        "instructions",
        "input[0]",
        "input[1:4]",
        "input[4:6]",
        "input[6]",
    ]
    assert locs[2].block_items == (1, 2, 3)
    assert s.request == {"model": "gpt-5", "store": False}


def test_string_input() -> None:
    s = toolhist.load({"model": "gpt-5", "input": "hello"})
    assert s.messages[0].blocks == (TextBlock(text="hello"),)
    assert s.messages[0].metadata.extra == {"_content_form": "input_string"}
