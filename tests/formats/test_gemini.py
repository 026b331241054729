from __future__ import annotations

import toolhist
from toolhist.model import TextBlock, ToolCallBlock, ToolResponseBlock


def _body(contents: list[dict[str, object]]) -> dict[str, object]:
    return {
        "systemInstruction": {"parts": [{"text": "sys"}]},
        "contents": contents,
        "generationConfig": {"temperature": 0},
    }


def test_idless_responses_pair_by_name_then_position() -> None:
    s = toolhist.load(
        _body(
            [
                {"role": "user", "parts": [{"text": "weather?"}]},
                {
                    "role": "model",
                    "parts": [
                        {
                            "functionCall": {"name": "weather", "args": {"city": "Paris"}},
                            "thoughtSignature": "SIG",
                        },
                        {"functionCall": {"name": "time", "args": {}}},
                    ],
                },
                {
                    "role": "user",
                    "parts": [
                        {"functionResponse": {"name": "time", "response": {"t": 1}}},
                        {"functionResponse": {"name": "weather", "response": {"c": 12}}},
                    ],
                },
            ]
        )
    )
    assert s.source.format == "gemini"
    assert [m.speaker for m in s.messages] == ["system", "human", "ai", "tool"]
    assert s.messages[2].blocks == (
        ToolCallBlock(
            id="gemini-2-0",
            name="weather",
            parameters={"city": "Paris"},
            provider_data={"thoughtSignature": "SIG"},
        ),
        ToolCallBlock(id="gemini-2-1", name="time", parameters={}),
    )
    assert s.messages[3].blocks == (
        ToolResponseBlock(call_id="gemini-2-1", tool_name="time", result={"t": 1}),
        ToolResponseBlock(call_id="gemini-2-0", tool_name="weather", result={"c": 12}),
    )
    assert s.request == {"generationConfig": {"temperature": 0}}
    assert s.metadata == {"shape": "body", "key_style": "camelCase"}


def test_response_with_no_call_turn_is_unmatched_not_lost() -> None:
    s = toolhist.load([{"role": "user", "parts": [{"function_response": {"name": "f", "response": {}}}]}])
    assert s.messages[0].blocks == (
        ToolResponseBlock(call_id="gemini-unmatched-0-0", tool_name="f", result={}),
    )
    assert s.metadata["key_style"] == "snake_case"
    assert toolhist.summarize(s).unmatched_results == ["gemini-unmatched-0-0"]


def test_ids_when_present_are_used() -> None:
    s = toolhist.load(
        [
            {"role": "model", "parts": [{"functionCall": {"id": "a1", "name": "f", "args": {}}}]},
            {
                "role": "user",
                "parts": [{"functionResponse": {"id": "a1", "name": "f", "response": {}}}, {"text": "more"}],
            },
        ]
    )
    assert s.messages[0].blocks[0] == ToolCallBlock(id="a1", name="f", parameters={}, raw_id="a1")
    assert s.messages[1].blocks == (
        ToolResponseBlock(call_id="a1", tool_name="f", result={}, raw_call_id="a1"),
        TextBlock(text="more"),
    )
