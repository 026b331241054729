from __future__ import annotations

import toolhist
from toolhist.model import MessageMetadata, ThinkingBlock, ToolCallBlock, ToolResponseBlock

HISTORY = [
    {
        "speaker": "human",
        "blocks": [{"type": "text", "text": "stop that"}],
        "metadata": {"timestamp": 1700000000000, "turnId": "t1"},
    },
    {
        "speaker": "tool",
        "blocks": [
            {
                "type": "tool_call",
                "id": "hist_tool_a",
                "name": "run_shell_command",
                "parameters": {"command": "sleep 99"},
            },
            {
                "type": "tool_response",
                "callId": "hist_tool_a",
                "toolName": "run_shell_command",
                "result": None,
                "error": "cancelled",
                "isComplete": False,
            },
        ],
    },
    {
        "speaker": "ai",
        "blocks": [{"type": "thinking", "thought": "ok", "sourceField": "reasoning_content"}],
        "metadata": {"model": "kimi-k2", "provider": "openai", "id": "m1"},
    },
]


def test_failure_mode_a_is_read_as_llxprt_stored_it() -> None:
    s = toolhist.load(HISTORY)
    assert s.source.format == "icontent"
    assert s.messages[0].metadata == MessageMetadata(
        source_role="human", turn_id="t1", timestamp=1700000000.0, extra={"_metadata": "present"}
    )
    # Seed 000 failure mode A: the call and its response in one tool message, kept exactly.
    assert s.messages[1].speaker == "tool"
    assert s.messages[1].blocks == (
        ToolCallBlock(
            id="hist_tool_a",
            name="run_shell_command",
            parameters={"command": "sleep 99"},
            raw_id="hist_tool_a",
        ),
        ToolResponseBlock(
            call_id="hist_tool_a",
            tool_name="run_shell_command",
            result=None,
            error="cancelled",
            is_complete=False,
            raw_call_id="hist_tool_a",
            provider_data={"isComplete": False},
        ),
    )
    assert s.messages[2].blocks == (
        ThinkingBlock(
            text="ok", source_provider="icontent", provider_data={"sourceField": "reasoning_content"}
        ),
    )
    assert s.messages[2].metadata.model == "kimi-k2"
    assert s.messages[2].metadata.extra == {"id": "m1", "_metadata": "present"}
