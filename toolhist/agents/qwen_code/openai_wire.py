"""Qwen Code's OpenAI content generator: the Gemini history converted to Chat Completions messages.

With ``authType`` ``openai`` or ``qwen-oauth`` (the default: Qwen OAuth, DashScope's
OpenAI-compatible endpoint) Qwen Code sends Chat Completions, converting its Gemini ``Content[]``
history in ``OpenAIContentConverter.convertGeminiRequestToOpenAI`` (QwenLM/qwen-code
``packages/core/src/core/openaiContentGenerator/converter.ts`` at
011f3d232086f2cb8727f573698a843eb37983be):

- ``processContent``: a content with ``functionResponse`` parts becomes one ``tool`` message per
  response (``tool_call_id`` the response's id, content its ``output`` or ``error`` string or the
  response as JSON) and nothing else of it; a model content with ``functionCall`` parts becomes an
  assistant message with ``tool_calls`` (id ``call_<index>`` when the call has none), its text
  joined as ``content`` and its thought parts as ``reasoning_content``; any other content becomes
  a user or assistant message of text parts (images and audio for a user).
- ``cleanOrphanedToolCalls``: a call with no tool message and a tool message with no call are
  removed (an assistant message left with neither calls nor text goes too). The calls of the
  last model turn are answered by the next request, so they are not orphans here.
- ``mergeConsecutiveAssistantMessages``: adjacent assistant messages become one.
"""

from __future__ import annotations

import json
from typing import Any

from toolhist.agents.qwen_code.history import Turn


def _response_text(response: Any) -> str:
    """``extractFunctionResponseContent``."""
    if response is None:
        return ""
    if isinstance(response, str):
        return response
    if isinstance(response, dict):
        for key in ("output", "error"):
            if isinstance(response.get(key), str):
                return str(response[key])
    return json.dumps(response, separators=(",", ":"), ensure_ascii=False)


def _audio_format(mime: str) -> str | None:
    return "wav" if "wav" in mime else "mp3" if "mp3" in mime or "mpeg" in mime else None


def convert(turn: Turn) -> list[dict[str, Any]]:
    """``processContent`` for one content: the messages it becomes."""
    content = turn.content
    parts = [p for p in content.get("parts") or [] if isinstance(p, dict)]
    texts = [str(p["text"]) for p in parts if p.get("text") and not p.get("thought")]
    thoughts = [str(p["text"]) for p in parts if p.get("text") and p.get("thought")]
    calls = [p["functionCall"] for p in parts if isinstance(p.get("functionCall"), dict)]
    responses = [p["functionResponse"] for p in parts if isinstance(p.get("functionResponse"), dict)]
    if responses:
        return [
            {"role": "tool", "tool_call_id": r.get("id") or "", "content": _response_text(r.get("response"))}
            for r in responses
        ]
    if content.get("role") == "model" and calls:
        message: dict[str, Any] = {
            "role": "assistant",
            "content": "".join(texts) or None,
            "tool_calls": [
                {
                    "id": call.get("id") or f"call_{k}",
                    "type": "function",
                    "function": {
                        "name": call.get("name") or "",
                        "arguments": json.dumps(
                            call.get("args") or {}, separators=(",", ":"), ensure_ascii=False
                        ),
                    },
                }
                for k, call in enumerate(calls)
            ],
        }
        if thoughts:
            message["reasoning_content"] = "".join(thoughts)
        return [message]
    role = "assistant" if content.get("role") == "model" else "user"
    text_parts: list[dict[str, Any]] = [{"type": "text", "text": t} for t in texts]
    media = [
        p.get("inlineData") or p.get("fileData") for p in parts if p.get("inlineData") or p.get("fileData")
    ]
    if not media:
        if not text_parts:
            return []
        plain: dict[str, Any] = {"role": role, "content": text_parts}
        if thoughts:
            plain["reasoning_content"] = "".join(thoughts)
        return [plain]
    if role == "assistant":
        return [{"role": "assistant", "content": text_parts}] if text_parts else []
    for item in (m for m in media if isinstance(m, dict)):
        mime = str(item.get("mimeType") or "")
        if mime.startswith("image/"):
            url = item.get("fileUri") or (f"data:{mime};base64,{item['data']}" if item.get("data") else None)
            if url:
                text_parts.append({"type": "image_url", "image_url": {"url": url}})
        elif mime.startswith("audio/") and item.get("data") and _audio_format(mime):
            text_parts.append(
                {"type": "input_audio", "input_audio": {"data": item["data"], "format": _audio_format(mime)}}
            )
    return [{"role": "user", "content": text_parts}] if text_parts else []


Wire = list[tuple[dict[str, Any], Turn]]
"""Chat messages, each with the history turn it came from."""


def clean_orphans(messages: Wire) -> tuple[Wire, list[tuple[str, Turn]]]:
    """``cleanOrphanedToolCalls``, the last assistant's calls exempt; what it removed, by kind."""
    last_ai = max((i for i, (m, _) in enumerate(messages) if m["role"] == "assistant"), default=-1)
    pending = {c["id"] for c in messages[last_ai][0].get("tool_calls", [])} if last_ai >= 0 else set()
    answered = {m["tool_call_id"] for m, _ in messages if m["role"] == "tool"}
    called = {c["id"] for m, _ in messages if m["role"] == "assistant" for c in m.get("tool_calls", [])}
    out: Wire = []
    removed: list[tuple[str, Turn]] = []
    for message, turn in messages:
        if message["role"] == "assistant" and message.get("tool_calls"):
            keep = [c for c in message["tool_calls"] if c["id"] in answered or c["id"] in pending]
            removed += [("orphan tool call", turn)] * (len(message["tool_calls"]) - len(keep))
            if keep:
                out.append(({**message, "tool_calls": keep}, turn))
            elif isinstance(message.get("content"), str) and message["content"].strip():
                out.append(({k: v for k, v in message.items() if k != "tool_calls"}, turn))
        elif message["role"] == "tool" and message.get("tool_call_id"):
            if message["tool_call_id"] in called:
                out.append((message, turn))
            else:
                removed.append(("orphan tool result", turn))
        else:
            out.append((message, turn))
    return out, removed


def merge_assistants(messages: Wire) -> tuple[Wire, int]:
    """``mergeConsecutiveAssistantMessages``; how many were merged."""
    out: Wire = []
    merged = 0
    for message, turn in messages:
        if message["role"] == "assistant" and out and out[-1][0]["role"] == "assistant":
            last = out[-1][0]
            a, b = last.get("content"), message.get("content")
            if isinstance(a, list) or isinstance(b, list):
                content: Any = _as_parts(a) + _as_parts(b)
            else:
                content = "".join(t for t in (a, b) if isinstance(t, str) and t) or None
            calls = list(last.get("tool_calls") or []) + list(message.get("tool_calls") or [])
            new = {**last, "content": content or None}
            if calls:
                new["tool_calls"] = calls
            out[-1] = (new, out[-1][1])
            merged += 1
            continue
        out.append((message, turn))
    return out, merged


def _as_parts(content: Any) -> list[Any]:
    if isinstance(content, list):
        return content
    return [{"type": "text", "text": content}] if isinstance(content, str) and content else []
