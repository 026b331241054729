from __future__ import annotations

import toolhist
from toolhist.model import TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock

BODY = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "system": [{"type": "text", "text": "You are terse.", "cache_control": {"type": "ephemeral"}}],
    "tools": [{"name": "grep", "description": "Search", "input_schema": {"type": "object"}}],
    "messages": [
        {"role": "user", "content": "find TODOs"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "grep it", "signature": "sig=="},
                {"type": "tool_use", "id": "toolu_01A", "name": "grep", "input": {"q": "TODO"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01A", "content": "boom", "is_error": True},
                {"type": "text", "text": "and then?"},
            ],
        },
    ],
}


def test_system_becomes_first_message_and_results_read_in_order() -> None:
    s = toolhist.load(BODY)
    assert s.source.format == "anthropic"
    assert [m.speaker for m in s.messages] == ["system", "human", "ai", "tool"]
    assert s.messages[0].blocks == (
        TextBlock(text="You are terse.", provider_data={"cache_control": {"type": "ephemeral"}}),
    )
    assert s.messages[0].metadata.extra == {"_request_field": "system", "_content_form": "parts"}
    assert s.request == {"model": "claude-sonnet-4-5", "max_tokens": 1024, "tools": BODY["tools"]}
    assert s.messages[2].blocks == (
        ThinkingBlock(text="grep it", signature="sig==", source_provider="anthropic"),
        ToolCallBlock(id="toolu_01A", name="grep", parameters={"q": "TODO"}, raw_id="toolu_01A"),
    )
    assert s.messages[3].blocks == (
        ToolResponseBlock(
            call_id="toolu_01A",
            tool_name="grep",
            result="boom",
            error="boom",
            raw_call_id="toolu_01A",
            provider_data={"is_error": True},
        ),
        TextBlock(text="and then?"),
    )
    assert [loc.json_path for loc in s.source.locations] == [
        "system",
        "messages[0]",
        "messages[1]",
        "messages[2]",
    ]


def test_redacted_thinking_and_result_without_content() -> None:
    msgs = [
        {
            "role": "assistant",
            "content": [
                {"type": "redacted_thinking", "data": "xx"},
                {"type": "tool_use", "id": "t1", "name": "f", "input": {}},
            ],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1"}]},
    ]
    s = toolhist.load(msgs)
    assert s.messages[0].blocks[0] == ThinkingBlock(redacted=True, data="xx", source_provider="anthropic")
    assert s.messages[1].blocks == (
        ToolResponseBlock(
            call_id="t1", tool_name="f", raw_call_id="t1", provider_data={"_content": "absent"}
        ),
    )
