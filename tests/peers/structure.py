"""The tool structure of a provider request body: each message's role and its blocks, in order.

A block is ``call:<id>:<name>``, ``result:<id>`` (Gemini, which has no ids: ``call:<name>`` and
``result:<name>``) or ``text:<text>``; other parts are their type. This is what the differential
tests compare between the library's own body and toolhist's render of the curated session.
"""

from __future__ import annotations

from typing import Any


def _parts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [f"text:{value}"] if value else []
    out: list[str] = []
    for part in value or []:
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if kind == "tool_use":
            out.append(f"call:{part.get('id')}:{part.get('name')}")
        elif kind == "tool_result":
            out.append(f"result:{part.get('tool_use_id')}")
        elif "toolUse" in part:
            out.append(f"call:{part['toolUse'].get('toolUseId')}:{part['toolUse'].get('name')}")
        elif "toolResult" in part:
            out.append(f"result:{part['toolResult'].get('toolUseId')}")
        elif "functionCall" in part or "function_call" in part:
            out.append(f"call:{(part.get('functionCall') or part.get('function_call') or {}).get('name')}")
        elif "functionResponse" in part or "function_response" in part:
            response = part.get("functionResponse") or part.get("function_response") or {}
            out.append(f"result:{response.get('name')}")
        elif "text" in part and kind in (None, "text", "input_text", "output_text"):
            out.append(f"text:{part['text']}")
        else:
            out.append(str(kind or sorted(part)))
    return out


def structure(body: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """``[(role, [block, ...]), ...]`` for an Anthropic, Bedrock, Gemini, Chat or Responses body."""
    out: list[tuple[str, list[str]]] = []
    for message in body.get("messages") or body.get("contents") or body.get("input") or []:
        kind = message.get("type")
        if kind == "function_call":
            out.append(("function_call", [f"call:{message.get('call_id')}:{message.get('name')}"]))
            continue
        if kind == "function_call_output":
            out.append(("function_call_output", [f"result:{message.get('call_id')}"]))
            continue
        role = str(message.get("role"))
        blocks = _parts(message.get("content") if "content" in message else message.get("parts"))
        for call in message.get("tool_calls") or []:
            blocks.append(f"call:{call.get('id')}:{call['function'].get('name')}")
        if role == "tool":
            blocks.insert(0, f"result:{message.get('tool_call_id')}")
        out.append((role, blocks))
    return out
