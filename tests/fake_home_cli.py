"""A home laid out as Pi, Kimi CLI, Qwen Code and the OpenHands CLI lay theirs out.

The session files are the corpus files (``tests/corpus/logs/<format>/``) placed where each agent
writes them, plus what the corpus lacks: a Kimi CLI context whose calls carry Kimi's own ids (so it
says it ran on Kimi), its ``kimi.json`` and ``wire.jsonl``, a Kimi context in the older
``<md5>/<session>.jsonl`` place, a Qwen Code ``/chat save`` checkpoint, and a Pi file that is not a
session. Every file gets a fixed modification time, so listings are exact. The same folders serve
Linux, macOS and Windows: each of these agents keeps its data under the home on every OS.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent / "corpus" / "logs"
BASE = datetime(2026, 1, 6, tzinfo=UTC).timestamp()
HOUR = 3600.0

PI = ".pi/agent/sessions/--Users-badlogic-workspaces-pi-mono--/2025-11-20T23-33-50-805Z_d703a1a9.jsonl"
PI_CODEX = ".pi/agent/sessions/--tmp-agent-history--/2026-06-05T05-24-28-246Z_019e963d.jsonl"
PI_BROKEN = ".pi/agent/sessions/--home-dev-notes--/2026-01-06T00-00-00-000Z_broken.jsonl"
KIMI_DIR = "/home/dev/kimi-app"
KIMI_MD5 = hashlib.md5(KIMI_DIR.encode()).hexdigest()
KIMI = f".kimi/sessions/{KIMI_MD5}/4f1c2b3a-5d6e-4f70-8a9b-0c1d2e3f4a5b/context.jsonl"
KIMI_OLD = f".kimi/sessions/{KIMI_MD5}/1a2b3c4d-0000-4000-8000-000000000001.jsonl"
QWEN = ".qwen/projects/-tmp-as-qwen-fixture-old-project/chats/019f0000-0000-7000-8000-000000000004.jsonl"
QWEN_ROOT = "/home/dev/qwen-app"
QWEN_CHECKPOINT = f".qwen/tmp/{hashlib.sha256(QWEN_ROOT.encode()).hexdigest()}/checkpoint-fix.json"
OPENHANDS = ".openhands/conversations/5db134a6233f4ff9b88fc4f3e1e07c66"
OPENHANDS_CLAUDE = ".openhands/conversations/7c2e9a10b4d34f5e8a6b1c0d9e8f7a6b"
CLAUDE_MODEL = "anthropic/claude-sonnet-4-5-20250929"

ORDER = (PI_BROKEN, QWEN_CHECKPOINT, KIMI_OLD, PI_CODEX, OPENHANDS, OPENHANDS_CLAUDE, QWEN, KIMI, PI)
"""Oldest first: each an hour newer than the one before."""


def _kimi_context() -> list[dict[str, Any]]:
    """A Kimi CLI context on Kimi's API: a Shell call with Kimi's own id, its result, the answer."""
    call = {
        "type": "function",
        "id": "functions.Shell:0",
        "function": {"name": "Shell", "arguments": '{"command":"ls"}'},
    }
    return [
        {"role": "_system_prompt", "content": "You are Kimi Code CLI."},
        {"role": "_checkpoint", "id": 0},
        {"role": "user", "content": "list the files"},
        {
            "role": "assistant",
            "content": [{"type": "think", "think": "Run ls.", "encrypted": None}],
            "tool_calls": [call],
        },
        {"role": "tool", "content": "app.py", "tool_call_id": "functions.Shell:0"},
        {"role": "_usage", "token_count": 812},
        {"role": "assistant", "content": "One file: app.py."},
    ]


def _qwen_checkpoint() -> list[dict[str, Any]]:
    """A ``/chat save`` checkpoint: Gemini ``Content[]`` with a call and its response."""
    return [
        {"role": "user", "parts": [{"text": "read the README"}]},
        {
            "role": "model",
            "parts": [{"functionCall": {"id": "call_1", "name": "read_file", "args": {"path": "README.md"}}}],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"id": "call_1", "name": "read_file", "response": {"output": "# App"}}}
            ],
        },
        {"role": "model", "parts": [{"text": "It is a one-line README."}]},
    ]


def _jsonl(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)


def make_cli_home(home: Path) -> Path:
    """Lay the home out under ``home`` (created) and return it."""
    files: dict[str, str | Path] = {
        PI: CORPUS / "pi" / "pi-mono-large-session-prefix.jsonl",
        PI_CODEX: CORPUS / "pi" / "kvsankar-real-session-01.jsonl",
        PI_BROKEN: '{"type":"message","id":"x"}\n',
        KIMI: _jsonl(_kimi_context()),
        KIMI.replace("context.jsonl", "wire.jsonl"): '{"type": "metadata", "protocol_version": "1.9"}\n',
        KIMI_OLD: _jsonl([{"role": "user", "content": "hi"}, {"role": "_usage", "token_count": 3}]),
        ".kimi/kimi.json": json.dumps({"work_dirs": [{"path": KIMI_DIR, "kaos": "local"}]}),
        QWEN: CORPUS / "qwen-code" / "agent-sessions-active-chain.fixture.jsonl",
        QWEN_CHECKPOINT: json.dumps(_qwen_checkpoint(), indent=2),
    }
    for rel, content in files.items():
        path = home / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Path):
            shutil.copyfile(content, path)
        else:
            path.write_text(content, encoding="utf-8")
    shutil.copytree(CORPUS / "openhands" / "sdk-v1-49-1-mcp.fixture", home / OPENHANDS)
    # the same conversation as if its agent's LLM had been Claude through LiteLLM's anthropic/ prefix
    shutil.copytree(CORPUS / "openhands" / "sdk-v1-49-1-mcp.fixture", home / OPENHANDS_CLAUDE)
    state_path = home / OPENHANDS_CLAUDE / "base_state.json"
    state = json.loads(state_path.read_text(encoding="utf-8"))
    state["agent"]["llm"]["model"] = CLAUDE_MODEL
    state_path.write_text(json.dumps(state, indent=2), encoding="utf-8")
    for n, rel in enumerate(ORDER):
        when = BASE + n * HOUR
        for root, _, names in os.walk(home / rel) if (home / rel).is_dir() else []:
            for name in names:
                os.utime(Path(root) / name, (when, when))
        os.utime(home / rel, (when, when))
    return home
