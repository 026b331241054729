"""One sound and one broken request body per provider, in its own wire format (so each is sent as captured).

Broken = a tool call left unanswered before the next user turn: the one rule every provider enforces,
and the one `tests/fake_provider.py` checks on its own.
"""

from __future__ import annotations

from typing import Any

TOOL = {
    "type": "function",
    "function": {"name": "read_file", "parameters": {"type": "object", "properties": {}}},
}


def _chat(model: str, call_id: str, answered: bool) -> dict[str, Any]:
    call = {"id": call_id, "type": "function", "function": {"name": "read_file", "arguments": "{}"}}
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "read a.txt"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
    ]
    if answered:
        messages.append({"role": "tool", "tool_call_id": call_id, "content": "ok"})
    else:
        messages.append({"role": "user", "content": "never mind"})
    return {"model": model, "messages": messages, "tools": [TOOL]}


def _responses(answered: bool) -> dict[str, Any]:
    items: list[dict[str, Any]] = [
        {"type": "message", "role": "user", "content": "read a.txt"},
        {"type": "function_call", "call_id": "call_1", "name": "read_file", "arguments": "{}"},
    ]
    if answered:
        items.append({"type": "function_call_output", "call_id": "call_1", "output": "ok"})
    else:
        items.append({"type": "message", "role": "user", "content": "never mind"})
    tool = {"type": "function", "name": "read_file", "parameters": {"type": "object", "properties": {}}}
    return {"model": "gpt-4.1", "input": items, "tools": [tool]}


def _anthropic(answered: bool) -> dict[str, Any]:
    answer = (
        [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "ok"}]
        if answered
        else [{"type": "text", "text": "never mind"}]
    )
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "tools": [{"name": "read_file", "input_schema": {"type": "object", "properties": {}}}],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "read a.txt"}]},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "toolu_01", "name": "read_file", "input": {}}],
            },
            {"role": "user", "content": answer},
        ],
    }


def _gemini(answered: bool) -> dict[str, Any]:
    answer = (
        {"functionResponse": {"name": "read_file", "response": {"content": "ok"}}}
        if answered
        else {"text": "never mind"}
    )
    return {
        "model": "gemini-2.5-pro",
        "tools": [{"functionDeclarations": [{"name": "read_file", "parameters": {"type": "object"}}]}],
        "contents": [
            {"role": "user", "parts": [{"text": "read a.txt"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "read_file", "args": {}}}]},
            {"role": "user", "parts": [answer]},
        ],
    }


def _bedrock(answered: bool) -> dict[str, Any]:
    answer = (
        {"toolResult": {"toolUseId": "tooluse_1", "content": [{"text": "ok"}]}}
        if answered
        else {"text": "never mind"}
    )
    spec = {"toolSpec": {"name": "read_file", "inputSchema": {"json": {"type": "object", "properties": {}}}}}
    return {
        "modelId": "anthropic.claude-sonnet-4-5-20250929-v1:0",
        "toolConfig": {"tools": [spec]},
        "messages": [
            {"role": "user", "content": [{"text": "read a.txt"}]},
            {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": "tooluse_1", "name": "read_file", "input": {}}}],
            },
            {"role": "user", "content": [answer]},
        ],
    }


def body(provider: str, answered: bool) -> dict[str, Any]:
    """``provider``'s sound (``answered``) or broken request body."""
    if provider == "openai-chat":
        return _chat("gpt-4.1", "call_1", answered)
    if provider == "mistral":
        return _chat("mistral-large-latest", "abcDEF123", answered)
    if provider == "kimi":
        return _chat("kimi-k2-0905-preview", "functions.read_file:0", answered)
    if provider == "openai-responses":
        return _responses(answered)
    if provider == "anthropic":
        return _anthropic(answered)
    if provider == "gemini":
        return _gemini(answered)
    assert provider == "bedrock"
    return _bedrock(answered)
