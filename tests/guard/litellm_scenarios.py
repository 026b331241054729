"""Run inside an environment where LiteLLM is installed (the peers environment), not toolhist's.

Each scenario sends a history with an unanswered tool call through the real ``litellm`` to the fake
provider on 127.0.0.1 (`tests/fake_provider.py`), with `toolhist.guard.litellm.ToolhistGuard` as its
callback, and prints one JSON line: what the fake provider received (status of each call), what
LiteLLM raised, the guard's log lines and the bundles written. `test_guard_litellm` asserts on them.

Usage: ``python litellm_scenarios.py SCENARIO CAPTURE_DIR`` with SCENARIO one of
``warn-sync``, ``warn-async``, ``repair-async``, ``raise-async``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch the cost map
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: fake_provider

import litellm
from fake_provider import serve

from toolhist.guard.litellm import ToolhistGuard

MESSAGES = [
    {"role": "user", "content": "Read a.txt"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "toolu_01",
                "type": "function",
                "function": {"name": "read_file", "arguments": '{"path":"a.txt"}'},
            }
        ],
    },
    {"role": "user", "content": "Never mind, say hi."},
]
TOOLS = [
    {
        "type": "function",
        "function": {"name": "read_file", "parameters": {"type": "object", "properties": {}}},
    }
]


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def main() -> None:
    scenario, capture = sys.argv[1], Path(sys.argv[2])
    mode = scenario.split("-")[0]
    lines = Lines()
    logging.getLogger("toolhist.guard").addHandler(lines)
    logging.getLogger("toolhist.guard").setLevel(logging.WARNING)
    litellm.callbacks = [ToolhistGuard(mode=mode, capture=capture)]  # type: ignore[arg-type]
    raised: str | None = None
    with serve() as (base, recorder):
        call = {
            "model": "anthropic/claude-sonnet-4-6",
            "messages": MESSAGES,
            "tools": TOOLS,
            "api_base": base,
            "api_key": "test-key",
            "max_tokens": 50,
            "num_retries": 0,
        }
        try:
            if scenario.endswith("sync") and not scenario.endswith("async"):
                litellm.completion(**call)
            else:
                asyncio.run(litellm.acompletion(**call))
        except Exception as exc:  # what LiteLLM raised is part of the result
            raised = f"{type(exc).__name__}: {exc}"
    import time

    time.sleep(1.0)  # LiteLLM runs failure callbacks on a thread
    result = {
        "calls": [{"path": p, "status": s, "body": b} for p, b, s in recorder.calls],
        "raised": raised,
        "log": lines.lines,
        "bundles": sorted(p.name for p in capture.glob("*.toolhist.json")) if capture.exists() else [],
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
