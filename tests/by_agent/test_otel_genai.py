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
    from toolhist.agents.otel_genai.reader import OtelGenAIReader

    assert OtelGenAIReader().recognise([{"name": "GET /", "attributes": {"http.method": "GET"}}]) == 0


# An OTLP/JSON trace shaped as the GenAI conventions' "Execute tool span" (docs/gen-ai/gen-ai-spans.md):
# INTERNAL spans "execute_tool {gen_ai.tool.name}" with gen_ai.operation.name, gen_ai.tool.call.id,
# and the opt-in gen_ai.tool.call.arguments / gen_ai.tool.call.result as JSON text; the chat spans
# captured only text. Values are ours.
def _attrs(values: dict[str, str]) -> list[dict[str, Any]]:
    return [{"key": k, "value": {"stringValue": v}} for k, v in values.items()]


def _chat(start: int, messages: list[dict[str, Any]], output: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "name": "chat gpt-4.1",
        "kind": 3,
        "startTimeUnixNano": str(start),
        "attributes": _attrs(
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.input.messages": json.dumps(messages),
                "gen_ai.output.messages": json.dumps(output),
            }
        ),
    }


def _tool(start: int, call_id: str, args: str, result: str) -> dict[str, Any]:
    return {
        "name": "execute_tool weather",
        "kind": 1,
        "startTimeUnixNano": str(start),
        "attributes": _attrs(
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "weather",
                "gen_ai.tool.type": "function",
                "gen_ai.tool.call.id": call_id,
                "gen_ai.tool.call.arguments": args,
                "gen_ai.tool.call.result": result,
            }
        ),
    }


def _trace(*spans: dict[str, Any]) -> dict[str, Any]:
    # File order is end order (children first), as exporters write it; start times give the order.
    return {"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]}


ASK = {"role": "user", "parts": [{"type": "text", "content": "weather in Paris and Rome?"}]}
SAID = {"role": "assistant", "parts": [{"type": "text", "content": "Rain in Paris, sun in Rome."}]}


def test_execute_tool_spans_become_calls_and_results() -> None:
    s = toolhist.load(
        _trace(
            _tool(2000, "call_a", '{"city": "Paris"}', '"rain"'),
            _tool(2100, "call_b", '{"city": "Rome"}', '{"sky": "sun"}'),
            _chat(1000, [ASK], []),
            _chat(3000, [ASK], [SAID]),
        )
    )
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool", "ai"]
    assert s.messages[1].blocks == (
        ToolCallBlock(
            id="call_a",
            name="weather",
            parameters={"city": "Paris"},
            raw_id="call_a",
            raw_arguments='{"city": "Paris"}',
            provider_data={"span": "resourceSpans[0].scopeSpans[0].spans[0]"},
        ),
        ToolCallBlock(
            id="call_b",
            name="weather",
            parameters={"city": "Rome"},
            raw_id="call_b",
            raw_arguments='{"city": "Rome"}',
            provider_data={"span": "resourceSpans[0].scopeSpans[0].spans[1]"},
        ),
    )
    assert s.messages[2].blocks == (
        ToolResponseBlock(
            call_id="call_a",
            tool_name="weather",
            result="rain",
            raw_call_id="call_a",
            provider_data={"span": "resourceSpans[0].scopeSpans[0].spans[0]"},
        ),
        ToolResponseBlock(
            call_id="call_b",
            tool_name="weather",
            result={"sky": "sun"},
            raw_call_id="call_b",
            provider_data={"span": "resourceSpans[0].scopeSpans[0].spans[1]"},
        ),
    )
    assert toolhist.summarize(s).tool_calls == 2
    assert (
        "2 tool call(s) or result(s) read from execute_tool spans (not in the chat spans)" in s.source.notes
    )


def test_calls_already_in_the_messages_are_not_duplicated() -> None:
    call = {
        "role": "assistant",
        "parts": [{"type": "tool_call", "id": "call_a", "name": "weather", "arguments": {"city": "Paris"}}],
    }
    answer = {"role": "tool", "parts": [{"type": "tool_call_response", "id": "call_a", "response": "rain"}]}
    s = toolhist.load(
        _trace(
            _tool(2000, "call_a", '{"city": "Paris"}', '"rain"'),
            _tool(4000, "call_b", '{"city": "Rome"}', '"sun"'),
            _chat(1000, [ASK], [call]),
            _chat(3000, [ASK, call, answer], [SAID]),
        )
    )
    # call_a is in the messages with its answer: not added again; call_b ran after the last call.
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool", "ai", "ai", "tool"]
    assert [b.id for m in s.messages for b in m.tool_calls()] == ["call_a", "call_b"]
    assert [b.call_id for m in s.messages for b in m.tool_responses()] == ["call_a", "call_b"]


def test_only_tool_spans_are_a_history_too() -> None:
    s = toolhist.load(_trace(_tool(2000, "call_a", '{"city": "Paris"}', '"rain"')))
    assert [m.speaker for m in s.messages] == ["ai", "tool"]


def test_tool_span_of_a_call_in_the_legacy_events_is_not_added_twice() -> None:
    events = [
        {"name": "gen_ai.user.message", "attributes": {"content": "hi"}},
        {
            "name": "gen_ai.assistant.message",
            "attributes": {
                "tool_calls": json.dumps(
                    [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{}"}}]
                )
            },
        },
        {"name": "gen_ai.tool.message", "attributes": {"id": "c1", "content": "rain"}},
    ]
    chat = {"name": "chat", "attributes": {"gen_ai.system": "openai"}, "events": events}
    tool = {
        "name": "execute_tool weather",
        "attributes": {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "weather",
            "gen_ai.tool.call.id": "c1",
            "gen_ai.tool.call.arguments": "{}",
            "gen_ai.tool.call.result": "rain",
        },
    }
    s = toolhist.load([tool, chat])
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool"]
    assert not any("execute_tool" in note for note in s.source.notes)
