"""Runs inside the peers environment (not toolhist's): a real library builds a request, we keep its body.

Started by `toolhist.peers.run` as ``<peers python> _worker.py``; it imports nothing from toolhist
(toolhist is not installed there), only the standard library and the pinned libraries. Protocol:
one JSON job per stdin line, one JSON answer per stdout line, in order:

- job ``{"library": "litellm", "provider": P, "messages": [...], "tools": [...], "params": {...}}``:
  ``litellm.completion(model=…, messages=…, tools=…, **params)`` with ``litellm.modify_params`` set
  to the job's ``modify_params`` (default true);
- job ``{"library": "openai-agents", "provider": P, "items": [...], "tools": [...]}``: ``Runner.run``
  resuming a ``RunState`` whose original input is ``items`` (so ``normalize_resumed_input`` runs), on
  ``OpenAIResponsesModel`` (``openai-responses``) or ``OpenAIChatCompletionsModel`` (``openai-chat``);
- answer ``{"body": {...}, "path": "/v1/messages"}`` with the JSON body the library POSTed, or
  ``{"raised": "TypeName", "message": "..."}`` when it raised before sending anything.

Offline by construction: every library is pointed at a capture server on 127.0.0.1 that records the
request and answers HTTP 400, and ``socket`` refuses any connection that is not to the loopback
address (so a library that tried to reach the network fails loudly instead of reaching it).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("LITELLM_TELEMETRY", "False")
os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

_real_connect = socket.socket.connect


def _loopback_only(self: socket.socket, address: Any) -> Any:
    host = address[0] if isinstance(address, tuple) else address
    if (
        isinstance(host, str)
        and host not in ("127.0.0.1", "::1", "localhost")
        and self.family != socket.AF_UNIX
    ):
        raise OSError(f"toolhist peers worker is offline: refused a connection to {address!r}")
    return _real_connect(self, address)


socket.socket.connect = _loopback_only  # type: ignore[method-assign,assignment]

CAPTURED: list[dict[str, Any]] = []


class _Capture(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length)
        try:
            body: Any = json.loads(raw or b"null")
        except ValueError:
            body = {"_unparsed": raw.decode("utf-8", "replace")}
        CAPTURED.append({"path": self.path, "body": body})
        answer = json.dumps({"error": {"type": "invalid_request_error", "message": "captured by toolhist"}})
        data = answer.encode()
        self.send_response(400)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        return


SERVER = ThreadingHTTPServer(("127.0.0.1", 0), _Capture)
threading.Thread(target=SERVER.serve_forever, daemon=True).start()
BASE = f"http://127.0.0.1:{SERVER.server_address[1]}"

LITELLM_MODELS = {
    "anthropic": "anthropic/claude-sonnet-4-5-20250929",
    "bedrock": "bedrock/converse/anthropic.claude-sonnet-4-5-20250929-v1:0",
    "gemini": "gemini/gemini-2.5-pro",
    "openai-chat": "openai/gpt-4.1",
    "openai-responses": "openai/responses/gpt-4.1",
    "mistral": "mistral/mistral-large-latest",
    "kimi": "moonshot/kimi-k2-0905-preview",
}
"""The model LiteLLM is asked for on each provider route (a fixed, current model per provider)."""


def _litellm_kwargs(provider: str) -> dict[str, Any]:
    if provider == "bedrock":
        return {
            "aws_access_key_id": "toolhist-dummy",
            "aws_secret_access_key": "toolhist-dummy",
            "aws_region_name": "us-east-1",
            "aws_bedrock_runtime_endpoint": BASE,
        }
    if provider in ("openai-chat", "openai-responses", "mistral", "kimi"):
        return {"api_base": BASE + "/v1", "api_key": "toolhist-dummy"}
    return {"api_base": BASE, "api_key": "toolhist-dummy"}


def run_litellm(job: dict[str, Any]) -> None:
    import litellm  # only in the peers environment (mypy: pyproject ignores its missing stubs)

    litellm.modify_params = job.get("modify_params", True)
    litellm.telemetry = False
    litellm.suppress_debug_info = True
    params = dict(job.get("params") or {})
    if job.get("tools"):
        params["tools"] = job["tools"]
    litellm.completion(
        model=LITELLM_MODELS[job["provider"]],
        messages=job["messages"],
        num_retries=0,
        max_retries=0,
        **_litellm_kwargs(job["provider"]),
        **params,
    )


def run_agents(job: dict[str, Any]) -> None:
    # Run in the peers environment (the test extra has the Agents SDK too, whose hints mypy reads).
    from agents import (
        Agent,
        FunctionTool,
        RunContextWrapper,
        Runner,
        RunState,
        set_tracing_disabled,
    )
    from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel
    from agents.models.openai_responses import OpenAIResponsesModel
    from openai import AsyncOpenAI

    set_tracing_disabled(True)
    client = AsyncOpenAI(base_url=BASE + "/v1", api_key="toolhist-dummy", max_retries=0)
    model: Any
    if job["provider"] == "openai-responses":
        model = OpenAIResponsesModel(model="gpt-4.1", openai_client=client)
    else:
        model = OpenAIChatCompletionsModel(model="gpt-4.1", openai_client=client)

    async def nothing(context: Any, arguments: str) -> str:
        return ""

    tools: list[Any] = [
        FunctionTool(
            name=spec["name"],
            description=spec.get("description") or "",
            params_json_schema=spec.get("parameters") or {"type": "object", "properties": {}},
            on_invoke_tool=nothing,
            strict_json_schema=False,
        )
        for spec in job.get("tools") or []
    ]
    agent: Any = Agent(name="toolhist", model=model, tools=tools)
    state: Any = RunState(RunContextWrapper(context=None), job["items"], agent, max_turns=1)
    asyncio.run(Runner.run(agent, state))


RUNNERS = {"litellm": run_litellm, "openai-agents": run_agents}


def answer(job: dict[str, Any]) -> dict[str, Any]:
    del CAPTURED[:]
    raised: BaseException | None = None
    sink = io.StringIO()
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            RUNNERS[job["library"]](job)
    except BaseException as exc:  # the library's own error: reported, not fatal to the worker
        raised = exc
    if CAPTURED:
        out = dict(CAPTURED[0])
        if len(CAPTURED) > 1:
            out["more"] = len(CAPTURED) - 1
        return out
    if raised is None:
        return {"raised": "NoRequest", "message": "the library returned without sending a request"}
    return {
        "raised": type(raised).__name__,
        "message": str(raised).strip().splitlines()[0] if str(raised).strip() else "",
    }


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("litellm", "openai-agents", "openai"):
        with contextlib.suppress(PackageNotFoundError):
            found[name] = version(name)
    return found


def main() -> None:
    print(json.dumps({"ready": versions()}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        print(json.dumps(answer(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
