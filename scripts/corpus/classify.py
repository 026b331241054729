"""Classify a recorded request: its provider wire format, tool use in its history, a rejection.

A rejection is a 4xx, or an error inside a 2xx stream.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

# Hosts whose /chat/completions speak OpenAI Chat Completions on their own servers (kept as `vendor`).
_FIRST_PARTY = {
    "api.openai.com": "openai",
    "api.anthropic.com": "anthropic",
    "generativelanguage.googleapis.com": "google",
    "api.mistral.ai": "mistral",
}
_KIMI_HOSTS = ("moonshot", "kimi")
_KEEP_QUERY = {"alt", "beta", "api-version"}


def endpoint(uri: str) -> str:
    """The URL without credentials: scheme, host, path and only the harmless query keys."""
    parts = urlsplit(uri)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k in _KEEP_QUERY]
    tail = f"?{urlencode(query)}" if query else ""
    return f"{parts.scheme}://{parts.hostname or ''}{parts.path}{tail}"


def _vendor(host: str) -> str:
    if host in _FIRST_PARTY:
        return _FIRST_PARTY[host]
    if host in ("localhost", "127.0.0.1", "0.0.0.0") or host.endswith(".local"):
        return "local"
    if host.endswith(".openai.azure.com") or host.endswith(".azure.com") or "azure" in host:
        return "azure"
    if host.endswith("aiplatform.googleapis.com"):
        return "vertex"
    if host.startswith("bedrock-runtime"):
        return "bedrock"
    labels = host.split(".")
    return labels[-2] if len(labels) >= 2 else host


def provider_of(uri: str) -> tuple[str, str] | None:
    """(provider, vendor) for a request URL, or None when no toolhist provider speaks that wire format."""
    parts = urlsplit(uri)
    host, path = (parts.hostname or "").lower(), parts.path
    vendor = _vendor(host)
    if "bedrock-runtime" in host:
        if re.search(r"/converse(-stream)?$", path):
            return "bedrock", "bedrock"
        if re.search(r"/invoke(-with-response-stream)?$", path) and "anthropic" in path:
            return "anthropic", "bedrock-invoke"
        return None
    if re.search(r":(stream)?generatecontent$", path.lower()):
        return "gemini", vendor
    if "aiplatform.googleapis.com" in host and "/publishers/anthropic/" in path:
        return "anthropic", "vertex"
    if path.endswith("/messages") and (
        host == "api.anthropic.com" or "/anthropic" in path or "/v1/messages" in path
    ):
        return "anthropic", vendor
    if any(k in host for k in _KIMI_HOSTS) and path.endswith("/chat/completions"):
        return "kimi", vendor
    if host == "api.mistral.ai" and path.endswith("/chat/completions"):
        return "mistral", "mistral"
    if path.endswith("/chat/completions"):
        return "openai-chat", vendor
    if path.endswith("/responses"):
        return "openai-responses", vendor
    return None


def model_of(uri: str, body: Any) -> str:
    """The body's model, or the URL's (Gemini ``models/X:generateContent``, Bedrock ``/model/X/``)."""
    if isinstance(body, dict) and isinstance(body.get("model"), str):
        return str(body["model"])
    path = urlsplit(uri).path
    m = re.search(r"/models/([^/:]+)", path) or re.search(r"/model/([^/]+)/", path)
    return m.group(1) if m else ""


_TOOL_KEYS = {
    "tool_calls",
    "tool_call_id",
    "functionCall",
    "functionResponse",
    "function_call",
    "toolUse",
    "toolResult",
}
_TOOL_TYPES = {
    "tool_use",
    "tool_result",
    "server_tool_use",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "mcp_call",
    "computer_call",
    "computer_call_output",
    "local_shell_call",
    "local_shell_call_output",
    "tool_reference",
}
_HISTORY_FIELDS = ("messages", "input", "contents")


def _has_tool(value: Any) -> bool:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in _TOOL_KEYS and item:
                return True
            if (
                key == "type"
                and isinstance(item, str)
                and (item in _TOOL_TYPES or item.endswith("_tool_result"))
            ):
                return True
            if key == "role" and item in ("tool", "function"):
                return True
            if _has_tool(item):
                return True
        return False
    if isinstance(value, list):
        return any(_has_tool(item) for item in value)
    return False


def has_tool_history(body: Any) -> bool:
    """Any tool call or result in the request's history (messages / input / contents)."""
    if not isinstance(body, dict):
        return False
    return any(_has_tool(body.get(field)) for field in _HISTORY_FIELDS)


def _sse_events(text: str) -> list[tuple[str, str]]:
    events, name, data = [], "", []
    for line in text.splitlines():
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
        elif not line.strip():
            if name or data:
                events.append((name, "\n".join(data)))
            name, data = "", []
    if name or data:
        events.append((name, "\n".join(data)))
    return events


def stream_error(text: str) -> str | None:
    """The error a 2xx answer carries inside its stream, or None.

    SSE ``event: error``, a ``{"type": "error"}`` chunk, a Responses ``response.failed``.
    """
    if "error" not in text and "response.failed" not in text:
        return None
    for name, data in _sse_events(text):
        if name in ("error", "response.failed"):
            return data or name
        try:
            parsed = json.loads(data)
        except ValueError:
            continue
        if isinstance(parsed, dict) and (
            parsed.get("type") in ("error", "response.failed")
            or (set(parsed) == {"error"} and isinstance(parsed["error"], dict))
        ):
            return data
    stripped = text.strip()
    if stripped.startswith("[") or stripped.startswith("{"):  # Gemini's JSON-array stream (no alt=sse)
        try:
            parsed = json.loads(stripped)
        except ValueError:
            return None
        for item in parsed if isinstance(parsed, list) else [parsed]:
            if isinstance(item, dict) and isinstance(item.get("error"), dict) and len(item) == 1:
                return json.dumps(item)
    return None
