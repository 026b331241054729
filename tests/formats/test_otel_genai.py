"""The ``otel-genai`` reader: OTLP/JSON spans, plain span objects, legacy events, bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest

import toolhist
from toolhist.errors import LoadError
from toolhist.model import TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock, ToolSpec

INPUT = [
    {"role": "user", "parts": [{"type": "text", "content": "weather in Paris?"}]},
    {
        "role": "assistant",
        "parts": [{"type": "tool_call", "id": "c1", "name": "weather", "arguments": {"city": "Paris"}}],
    },
    {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": "rain"}]},
]
OUTPUT = [
    {
        "role": "assistant",
        "parts": [{"type": "reasoning", "content": "easy"}, {"type": "text", "content": "Rain."}],
        "finish_reason": "stop",
    }
]
TOOLS = [{"type": "function", "name": "weather", "description": "Weather", "parameters": {"type": "object"}}]


def _otlp(attrs: dict[str, str]) -> dict[str, Any]:
    span = {
        "name": "chat gpt-4.1",
        "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attrs.items()],
    }
    return {
        "resourceSpans": [
            {"scopeSpans": [{"spans": [{"name": "execute_tool weather", "attributes": []}, span]}]}
        ]
    }


def test_otlp_span_attributes() -> None:
    s = toolhist.load(
        _otlp(
            {
                "gen_ai.request.model": "gpt-4.1",
                "gen_ai.provider.name": "openai",
                "gen_ai.system_instructions": json.dumps([{"type": "text", "content": "Be brief."}]),
                "gen_ai.input.messages": json.dumps(INPUT),
                "gen_ai.output.messages": json.dumps(OUTPUT),
                "gen_ai.tool.definitions": json.dumps(TOOLS),
            }
        )
    )
    assert s.source.format == "otel-genai"
    assert [m.speaker for m in s.messages] == ["system", "human", "ai", "tool", "ai"]
    assert s.messages[2].blocks == (
        ToolCallBlock(id="c1", name="weather", parameters={"city": "Paris"}, raw_id="c1"),
    )
    assert s.messages[3].blocks == (
        ToolResponseBlock(call_id="c1", tool_name="weather", result="rain", raw_call_id="c1"),
    )
    assert s.messages[4].blocks == (
        ThinkingBlock(text="easy", source_provider="otel-genai"),
        TextBlock(text="Rain."),
    )
    assert s.messages[4].metadata.extra == {"finish_reason": "stop"}
    assert s.tools == (ToolSpec(name="weather", description="Weather", parameters={"type": "object"}),)
    assert s.request == {"model": "gpt-4.1"}
    assert s.metadata == {"spans": 2, "gen_ai.provider.name": "openai"}


def test_plain_span_list_reads_the_last_inference_span() -> None:
    first = {"name": "chat", "attributes": {"gen_ai.input.messages": json.dumps(INPUT[:1])}}
    last = {
        "name": "chat",
        "attributes": {"gen_ai.input.messages": json.dumps(INPUT), "gen_ai.output.messages": OUTPUT},
    }
    s = toolhist.load([first, last])
    assert len(s.messages) == 4
    assert s.source.notes == (
        "2 inference spans: read the last ('chat' at [1]); each earlier one holds a prefix of its history",
    )


def test_string_arguments_and_missing_id() -> None:
    parts = [{"type": "tool_call", "name": "f", "arguments": "{bad"}]
    s = toolhist.load(
        {
            "name": "chat",
            "attributes": {"gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": parts}])},
        }
    )
    call = s.messages[0].blocks[0]
    assert isinstance(call, ToolCallBlock)
    assert (call.id, call.raw_id, call.raw_arguments, call.parameters) == ("otel-0-0", None, "{bad", None)
    assert call.arguments_error is not None


def test_legacy_events() -> None:
    events = [
        {"name": "gen_ai.user.message", "attributes": {"content": "hi"}},
        {
            "name": "gen_ai.assistant.message",
            "attributes": {
                "tool_calls": json.dumps(
                    [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]
                )
            },
        },
        {"name": "gen_ai.tool.message", "attributes": {"id": "c1", "content": "ok"}},
        {
            "name": "gen_ai.choice",
            "attributes": {"message": json.dumps({"role": "assistant", "content": "done"})},
        },
    ]
    s = toolhist.load({"name": "chat", "attributes": {"gen_ai.system": "openai"}, "events": events})
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool", "ai"]
    assert s.messages[2].blocks == (
        ToolResponseBlock(call_id="c1", tool_name="f", result="ok", raw_call_id="c1"),
    )
    assert s.messages[3].blocks == (TextBlock(text="done"),)


def test_bad_json_attribute_names_the_attribute() -> None:
    with pytest.raises(LoadError) as err:
        toolhist.load({"name": "chat", "attributes": {"gen_ai.input.messages": "[{"}}, format="otel-genai")
    assert "at gen_ai.input.messages: not a valid otel-genai session: attribute is not valid JSON" in str(
        err.value
    )


def test_unknown_role_names_the_message() -> None:
    bad = json.dumps([{"role": "robot", "parts": []}])
    with pytest.raises(LoadError) as err:
        toolhist.load({"name": "chat", "attributes": {"gen_ai.input.messages": bad}}, format="otel-genai")
    assert str(err.value).endswith(
        "at gen_ai.input.messages[0].role: not a valid otel-genai session: "
        "unknown role 'robot'; expected system, user, assistant or tool"
    )


def test_spans_without_gen_ai_are_not_claimed() -> None:
    from toolhist.formats.otel_genai import OtelGenAIReader

    assert OtelGenAIReader().recognise([{"name": "GET /", "attributes": {"http.method": "GET"}}]) == 0
