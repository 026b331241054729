"""A fake provider on 127.0.0.1: the real SDKs talk to it over real HTTP, and it answers as the
provider would for one rule every provider enforces: a tool call must be answered.

Its checks are its own (a few lines per wire format, not toolhist's validators), so a request the
guard repaired is judged independently of the code that repaired it. A broken body gets the
provider's real 400 text and error envelope (`research/providers.md` §1c, §2c, §3c, §4c, §5c, §7a);
a sound one gets the smallest success answer the SDK parses, streamed when the body asks for it.
A request with the header ``x-fake-stream-error`` gets a 200 event stream carrying an error event.
A body whose shape its checks cannot walk (a message that is a number, a history that is a string) gets
the 400 a provider gives a request that fails its schema.
Anthropic's ``/v1/messages/count_tokens`` is judged as ``/v1/messages`` is and answers a count.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def _chat_orphans(body: dict[str, Any]) -> tuple[int, list[str]] | None:
    messages = body.get("messages", [])
    for i, m in enumerate(messages):
        ids = [c["id"] for c in m.get("tool_calls") or []]
        if not ids:
            continue
        answered = set()
        for later in messages[i + 1 :]:
            if later.get("role") != "tool":
                break
            answered.add(later.get("tool_call_id"))
        missing = [x for x in ids if x not in answered]
        if missing:
            return i, missing
    return None


def _responses_orphan(body: dict[str, Any]) -> str | None:
    items = body.get("input", [])
    if not isinstance(items, list):
        return None
    outputs = {it.get("call_id") for it in items if it.get("type") == "function_call_output"}
    for it in items:
        if it.get("type") == "function_call" and it.get("call_id") not in outputs:
            return str(it.get("call_id"))
    return None


def _block_orphans(
    messages: list[dict[str, Any]], use: str, result: str, key: str, rkey: str
) -> tuple[int, list[str]] | None:
    def blocks(m: dict[str, Any]) -> list[dict[str, Any]]:
        content = m.get("content")
        return content if isinstance(content, list) else []  # Anthropic's string content: one text

    for i, m in enumerate(messages):
        ids = [b[use][key] if use in b else b["id"] for b in blocks(m) if _is(b, use)]
        if not ids:
            continue
        nxt = blocks(messages[i + 1]) if i + 1 < len(messages) else []
        got = {b[result][rkey] if result in b else b.get(rkey) for b in nxt if _is(b, result)}
        missing = [x for x in ids if x not in got]
        if missing:
            return i, missing
    return None


def _is(block: dict[str, Any], kind: str) -> bool:
    return block.get("type") == kind or kind in block


def _gemini_mismatch(body: dict[str, Any]) -> bool:
    contents = body.get("contents", [])
    for i, c in enumerate(contents):
        calls = sum("functionCall" in p for p in c.get("parts", []))
        if not calls:
            continue
        nxt = contents[i + 1]["parts"] if i + 1 < len(contents) else []
        if sum("functionResponse" in p for p in nxt) != calls:
            return True
    return False


def judge(kind: str, body: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]] | None:
    """The provider's 400 for ``body`` (status, JSON, headers), or None when it is accepted."""
    if kind in ("chat", "mistral"):
        found = _chat_orphans(body)
        if found is None:
            return None
        if kind == "mistral":
            err = {
                "object": "error",
                "message": "Not the same number of function calls and responses",
                "type": "invalid_request_message_order",
                "param": None,
                "code": "3230",
            }
            return 400, err, {}
        i, ids = found
        text = (
            "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
            f"'tool_call_id'. The following tool_call_ids did not have response messages: {', '.join(ids)}"
        )
        err = {
            "message": text,
            "type": "invalid_request_error",
            "param": f"messages.[{i}].role",
            "code": None,
        }
        return 400, {"error": err}, {}
    if kind == "responses":
        call = _responses_orphan(body)
        if call is None:
            return None
        err = {
            "message": f"No tool output found for function call {call}.",
            "type": "invalid_request_error",
            "param": "input",
            "code": None,
        }
        return 400, {"error": err}, {}
    if kind in ("anthropic", "count_tokens"):
        found = _block_orphans(body.get("messages", []), "tool_use", "tool_result", "id", "tool_use_id")
        if found is None:
            return None
        i, ids = found
        text = (
            f"messages.{i}: `tool_use` ids were found without `tool_result` blocks immediately after: "
            f"{', '.join(ids)}. Each `tool_use` block must have a corresponding `tool_result` block in the "
            "next message."
        )
        return 400, {"type": "error", "error": {"type": "invalid_request_error", "message": text}}, {}
    if kind == "gemini":
        if not _gemini_mismatch(body):
            return None
        text = (
            "Please ensure that the number of function response parts is equal to the number of function "
            "call parts of the function call turn."
        )
        return 400, {"error": {"code": 400, "message": text, "status": "INVALID_ARGUMENT"}}, {}
    if kind == "bedrock":
        found = _block_orphans(body.get("messages", []), "toolUse", "toolResult", "toolUseId", "toolUseId")
        if found is None:
            return None
        i, ids = found
        text = (
            f"Expected toolResult blocks at messages.{i + 1}.content for the following Ids: {', '.join(ids)}"
        )
        return 400, {"message": text}, {"x-amzn-ErrorType": "ValidationException:http://internal.amazon.com/"}
    raise AssertionError(kind)


def _ok(kind: str, model: str) -> dict[str, Any]:
    if kind in ("chat", "mistral"):
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    if kind == "responses":
        return {
            "id": "resp_fake",
            "object": "response",
            "created_at": 0,
            "model": model,
            "status": "completed",
            "output": [
                {
                    "type": "message",
                    "id": "msg_fake",
                    "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": "ok", "annotations": []}],
                }
            ],
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
        }
    if kind == "anthropic":
        return {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": "ok"}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    if kind == "gemini":
        return {
            "candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
        }
    return {
        "output": {"message": {"role": "assistant", "content": [{"text": "ok"}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
        "metrics": {"latencyMs": 1},
    }


def _sse(kind: str, model: str, error: bool) -> bytes:
    events: list[tuple[str | None, dict[str, Any] | str]] = []
    if kind in ("chat", "mistral"):
        chunk = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "choices": [
                {"index": 0, "delta": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}
            ],
        }
        events = [(None, chunk)]
        if error:
            events.append(
                (None, {"error": {"message": "The server had an error while processing your request."}})
            )
        events.append((None, "[DONE]"))
    elif kind == "anthropic":
        start = {"type": "message_start", "message": {**_ok(kind, model), "content": [], "stop_reason": None}}
        events = [("message_start", start)]
        if error:
            events.append(
                ("error", {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
            )
        else:
            events += [
                (
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": 0,
                        "content_block": {"type": "text", "text": ""},
                    },
                ),
                (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {"type": "text_delta", "text": "ok"},
                    },
                ),
                ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                (
                    "message_delta",
                    {
                        "type": "message_delta",
                        "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                        "usage": {"output_tokens": 1},
                    },
                ),
                ("message_stop", {"type": "message_stop"}),
            ]
    elif kind == "responses":
        done = _ok(kind, model)
        events = [
            (
                "response.created",
                {
                    "type": "response.created",
                    "sequence_number": 0,
                    "response": {**done, "status": "in_progress", "output": []},
                },
            )
        ]
        if error:
            failed = {
                **done,
                "status": "failed",
                "output": [],
                "error": {"code": "server_error", "message": "failed"},
            }
            events.append(
                ("response.failed", {"type": "response.failed", "sequence_number": 1, "response": failed})
            )
        else:
            events.append(
                ("response.completed", {"type": "response.completed", "sequence_number": 1, "response": done})
            )
    else:  # gemini
        events = [(None, _ok(kind, model))]
        if error:
            events.append((None, {"error": {"code": 500, "message": "Internal error", "status": "INTERNAL"}}))
    out = b""
    for name, data in events:
        if name:
            out += f"event: {name}\n".encode()
        out += b"data: " + (data if isinstance(data, str) else json.dumps(data)).encode() + b"\n\n"
    return out


@dataclass
class Recorder:
    """What the fake server received: (path, parsed body, status answered), in order."""

    calls: list[tuple[str, dict[str, Any], int]] = field(default_factory=list)


def _kind(path: str, mistral: bool) -> str | None:
    bare = path.split("?", 1)[0]
    if bare.endswith("/chat/completions"):
        return "mistral" if mistral else "chat"
    if bare.endswith("/responses"):
        return "responses"
    if bare.endswith("/messages"):
        return "anthropic"
    if bare.endswith("/messages/count_tokens"):
        return "count_tokens"
    if ":generateContent" in bare or ":streamGenerateContent" in bare:
        return "gemini"
    if bare.endswith(("/converse", "/converse-stream")):
        return "bedrock"
    return None


def make_handler(recorder: Recorder, mistral: bool) -> type[BaseHTTPRequestHandler]:
    """A request handler class bound to ``recorder``."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length)
            body = json.loads(raw or b"{}")
            kind = _kind(self.path, mistral)
            if kind is None:
                self._send(404, {"error": {"message": f"no route {self.path}"}}, {})
                return
            try:
                verdict = judge(kind, body)
            except (AttributeError, KeyError, TypeError, IndexError) as exc:
                schema = {
                    "error": {
                        "message": f"invalid request: {type(exc).__name__}",
                        "type": "invalid_request_error",
                    }
                }
                verdict = 400, schema, {}
            model = str(body.get("model", "fake-model"))
            if verdict is not None:
                status, payload, headers = verdict
                recorder.calls.append((self.path, body, status))
                self._send(status, payload, headers)
                return
            recorder.calls.append((self.path, body, 200))
            if kind == "count_tokens":  # Anthropic's free endpoint: the same checks, a count for an answer
                self._send(200, {"input_tokens": 1}, {})
                return
            streaming = body.get("stream") is True or "streamGenerateContent" in self.path
            if streaming and kind != "bedrock":
                data = _sse(kind, model, error=self.headers.get("x-fake-stream-error") is not None)
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            self._send(200, _ok(kind, model), {})

        def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

    return Handler


@contextmanager
def serve(*, mistral: bool = False) -> Iterator[tuple[str, Recorder]]:
    """Run the fake provider on 127.0.0.1 (a free port) for the ``with`` block: (base URL, recorder).

    ``mistral``: Chat Completions answers with Mistral's envelope and text.
    """
    recorder = Recorder()
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(recorder, mistral))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", recorder
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
