"""The real AI SDK (``tests/js``: ``ai`` and its OpenAI and Anthropic providers, pinned by the lockfile)
beside toolhist's ``vercel-ai`` port.

A canonical history becomes AI SDK messages two ways, one per route an application takes:

- ``model``: ``ModelMessage[]`` handed to ``generateText`` as they are (each canonical message one
  model message; text in a tool message becomes a user message after it, since a tool message holds
  only results);
- ``ui``: ``UIMessage[]`` through ``convertToModelMessages(…, {ignoreIncompleteToolCalls: true})``:
  an assistant turn's tool part carries its call and the first result for it found later in the
  history (``output-available``), or no result (``input-available``); a result with no call before
  it cannot be written as a tool part and is not in the UI messages at all.

`run_js` runs ``tests/js/harness.mjs`` once over a batch (``npm ci`` first when ``node_modules`` is
missing), and `flat` reduces a request body to its blocks in order with their roles (Anthropic's
folding of turns is then no difference).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from toolhist.model import Message, Session, TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock

JS = Path(__file__).resolve().parents[1] / "js"


def ensure_node_modules() -> None:
    """``npm ci`` in tests/js when its packages are not installed (the lockfile pins them)."""
    if (JS / "node_modules" / "ai" / "package.json").exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is not installed (Debian: apt-get install nodejs npm)")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=JS, check=True, capture_output=True)


def run_js(jobs: list[dict[str, Any]]) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The harness's versions and one answer per job."""
    ensure_node_modules()
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not installed (Debian: apt-get install nodejs)")
    text = "".join(json.dumps(job) + "\n" for job in jobs)
    done = subprocess.run(
        [node, "harness.mjs"], cwd=JS, input=text, capture_output=True, text=True, check=True, timeout=600
    )
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return lines[0]["ready"], lines[1:]


def _output(block: ToolResponseBlock) -> dict[str, Any]:
    if block.error is not None and block.result is None:
        return {"type": "error-text", "value": block.error}
    if isinstance(block.result, str):
        return {"type": "text", "value": block.result}
    return {"type": "json", "value": block.result}


def _text(message: Message) -> str:
    return "".join(b.text for b in message.blocks if isinstance(b, TextBlock))


def _reasoning(block: ThinkingBlock) -> dict[str, Any]:
    """A reasoning part; a signed one carries its signature where ``@ai-sdk/anthropic`` reads it."""
    part: dict[str, Any] = {"type": "reasoning", "text": block.text}
    if block.signature:
        part["providerOptions"] = {"anthropic": {"signature": block.signature}}
    return part


def _text_parts(message: Message) -> list[dict[str, Any]]:
    return [{"type": "text", "text": b.text} for b in message.blocks if isinstance(b, TextBlock)]


def model_messages(session: Session) -> list[dict[str, Any]]:
    """The history as ``ModelMessage[]`` (see the module docstring)."""
    out: list[dict[str, Any]] = []
    for message in session.messages:
        if message.speaker == "system":
            out.append({"role": "system", "content": _text(message)})
        elif message.speaker == "human":
            out.append({"role": "user", "content": _text_parts(message)})
        elif message.speaker == "ai":
            parts: list[dict[str, Any]] = []
            for block in message.blocks:
                if isinstance(block, TextBlock):
                    parts.append({"type": "text", "text": block.text})
                elif isinstance(block, ThinkingBlock):
                    parts.append(_reasoning(block))
                elif isinstance(block, ToolCallBlock):
                    parts.append(
                        {
                            "type": "tool-call",
                            "toolCallId": block.id,
                            "toolName": block.name,
                            "input": block.parameters,
                        }
                    )
            out.append({"role": "assistant", "content": parts})
        else:
            calls = [b for b in message.blocks if isinstance(b, ToolCallBlock)]
            results = [b for b in message.blocks if isinstance(b, ToolResponseBlock)]
            if calls:
                out.append(
                    {
                        "role": "assistant",
                        "content": [
                            {
                                "type": "tool-call",
                                "toolCallId": c.id,
                                "toolName": c.name,
                                "input": c.parameters,
                            }
                            for c in calls
                        ],
                    }
                )
            if results:
                out.append(
                    {
                        "role": "tool",
                        "content": [
                            {
                                "type": "tool-result",
                                "toolCallId": r.call_id,
                                "toolName": r.tool_name or "unknown",
                                "output": _output(r),
                            }
                            for r in results
                        ],
                    }
                )
            if _text(message):
                out.append({"role": "user", "content": _text_parts(message)})
    return out


def flat(body: dict[str, Any]) -> list[str]:
    """A body's blocks in order: ``role call:id``, ``role result:id``, ``role text:…`` (Chat, Responses,
    Anthropic). Empty text is no block: a string ``content: ""`` and a ``{"text": ""}`` part say the
    same (nothing), and the two renderers choose differently between them."""
    out: list[str] = []
    for item in body.get("messages") or body.get("input") or []:
        kind = item.get("type")
        if kind == "function_call":
            out.append(f"assistant call:{item.get('call_id')}")
            continue
        if kind == "function_call_output":
            out.append(f"user result:{item.get('call_id')}")
            continue
        role = item.get("role")
        if role == "tool":
            out.append(f"user result:{item.get('tool_call_id')}")
            continue
        side = (
            "assistant" if role == "assistant" else ("system" if role in ("system", "developer") else "user")
        )
        content = item.get("content")
        if isinstance(content, str):
            if content:
                out.append(f"{side} text:{content}")
        else:
            for part in content or []:
                ptype = part.get("type")
                if ptype == "tool_use":
                    out.append(f"assistant call:{part['id']}")
                elif ptype == "tool_result":
                    out.append(f"user result:{part['tool_use_id']}")
                elif ptype in ("text", "input_text", "output_text") and part["text"]:
                    out.append(f"{side} text:{part['text']}")
        for call in item.get("tool_calls") or []:
            out.append(f"assistant call:{call.get('id')}")
    if isinstance(body.get("instructions"), str):  # Responses: toolhist's render puts system text here
        out = [f"system text:{body['instructions']}", *out]
    if body.get("system"):
        system = body["system"]
        texts = [system] if isinstance(system, str) else [p.get("text", "") for p in system]
        out = [f"system text:{t}" for t in texts] + out
    return out


def _ui_tool_part(call: ToolCallBlock, answer: ToolResponseBlock | None) -> dict[str, Any]:
    part: dict[str, Any] = {"type": f"tool-{call.name}", "toolCallId": call.id, "input": call.parameters}
    if answer is None:
        part["state"] = "input-available"
    elif answer.error is not None and answer.result is None:
        part.update(state="output-error", errorText=answer.error)
    else:
        part.update(state="output-available", output=answer.result)
    return part


def ui_messages(session: Session) -> list[dict[str, Any]]:
    """The history as ``UIMessage[]`` (see the module docstring)."""
    messages = session.messages
    answers: dict[tuple[int, int], ToolResponseBlock] = {}
    used: set[tuple[int, int]] = set()
    for mi, message in enumerate(messages):
        for bi, block in enumerate(message.blocks):
            if not isinstance(block, ToolCallBlock):
                continue
            for mj in range(mi, len(messages)):
                found = next(
                    (
                        (mj, bj)
                        for bj, r in enumerate(messages[mj].blocks)
                        if isinstance(r, ToolResponseBlock)
                        and r.call_id == block.id
                        and (mj, bj) not in used
                        and (mj, bj) > (mi, bi)
                    ),
                    None,
                )
                if found is not None:
                    used.add(found)
                    result = messages[found[0]].blocks[found[1]]
                    assert isinstance(result, ToolResponseBlock)
                    answers[(mi, bi)] = result
                    break
    out: list[dict[str, Any]] = []
    for mi, message in enumerate(messages):
        text = [{"type": "text", "text": b.text} for b in message.blocks if isinstance(b, TextBlock)]
        if message.speaker in ("system", "human"):
            out.append(
                {"id": str(mi), "role": "system" if message.speaker == "system" else "user", "parts": text}
            )
            continue
        parts: list[dict[str, Any]] = []
        for bi, block in enumerate(message.blocks):
            if isinstance(block, TextBlock) and message.speaker == "ai":
                parts.append({"type": "text", "text": block.text})
            elif isinstance(block, ThinkingBlock):
                parts.append(_reasoning(block))
            elif isinstance(block, ToolCallBlock):
                parts.append(_ui_tool_part(block, answers.get((mi, bi))))
        if parts:
            out.append({"id": str(mi), "role": "assistant", "parts": parts})
        if message.speaker == "tool" and text:
            out.append({"id": f"{mi}u", "role": "user", "parts": text})
    return out
