from __future__ import annotations

import toolhist
from toolhist.model import OpaqueBlock, TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock, ToolSpec

BODY = {
    "modelId": "anthropic.claude-3-5-sonnet-20240620-v1:0",
    "system": [{"text": "Be careful."}, {"cachePoint": {"type": "default"}}],
    "toolConfig": {
        "tools": [
            {"toolSpec": {"name": "ls", "description": "List", "inputSchema": {"json": {"type": "object"}}}}
        ]
    },
    "messages": [
        {"role": "user", "content": [{"text": "list"}]},
        {
            "role": "assistant",
            "content": [
                {"reasoningContent": {"reasoningText": {"text": "hmm", "signature": "s1"}}},
                {"toolUse": {"toolUseId": "tooluse_1", "name": "ls", "input": {"dir": "."}}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"toolResult": {"toolUseId": "tooluse_1", "content": [{"text": "denied"}], "status": "error"}}
            ],
        },
    ],
}


def test_reads_single_key_blocks() -> None:
    s = toolhist.load(BODY)
    assert s.source.format == "bedrock"
    assert [m.speaker for m in s.messages] == ["system", "human", "ai", "tool"]
    assert s.messages[0].blocks == (
        TextBlock(text="Be careful."),
        OpaqueBlock(source_format="bedrock", data={"cachePoint": {"type": "default"}}),
    )
    assert s.messages[2].blocks == (
        ThinkingBlock(text="hmm", signature="s1", source_provider="bedrock"),
        ToolCallBlock(id="tooluse_1", name="ls", parameters={"dir": "."}, raw_id="tooluse_1"),
    )
    assert s.messages[3].blocks == (
        ToolResponseBlock(
            call_id="tooluse_1",
            tool_name="ls",
            result=[{"text": "denied"}],
            error="denied",
            raw_call_id="tooluse_1",
            provider_data={"status": "error"},
        ),
    )
    assert s.tools == (ToolSpec(name="ls", description="List", parameters={"type": "object"}),)
    assert s.request == {"modelId": BODY["modelId"], "toolConfig": BODY["toolConfig"]}
