"""A home folder laid out as each agent lays it out, for ``toolhist sessions`` and "This machine".

The session files are the bundled samples (real-shaped logs of each agent, see sample_logs/README.md)
placed where the agent writes them, plus small files for what the samples lack (a Cline task with
its ``modelInfo`` and task list, an llxprt recording), a subagent file that is part of its session,
and files an agent writes that toolhist cannot read. Every file gets a fixed modification time, so
the listing's order and dates are exact. Linux, macOS and Windows layouts are mixed in one home.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
CORPUS = Path(__file__).resolve().parent / "corpus" / "logs"
BASE = datetime(2026, 1, 10, tzinfo=UTC).timestamp()
HOUR = 3600.0

CLAUDE = ".claude/projects/-home-dev-shop-api/5d0c3a7e-9b1f-4c22-8e51-2f7b3c9a1d64.jsonl"
CODEX = ".codex/sessions/2025/10/02/rollout-2025-10-02T09-12-00-0199a5e2-7c4b-7d31-9f0e-3b8c1a2d4e6f.jsonl"
GEMINI = ".gemini/tmp/docs-site/chats/session-2025-12-02T08-14-6f1c2a9e.jsonl"
VSCODE_WS = ".config/Code/User/workspaceStorage/3b9f0c2d1e4a5b6c7d8e9f0a1b2c3d4e"
VSCODE = f"{VSCODE_WS}/chatSessions/0c7d5b1e-2f4a-4c8e-9a61-3e5d7f9b1c2a.json"
VSCODE_LOG = f"{VSCODE_WS}/chatSessions/9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d.jsonl"
ROO_TASK = "Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/"
ROO = ROO_TASK + "0f5e6d7c-8b9a-4c1d-a2e3-f4a5b6c7d8e9/api_conversation_history.json"
KILO_TASK = "AppData/Roaming/Code - Insiders/User/globalStorage/kilocode.kilo-code/tasks/"
KILO = KILO_TASK + "6a7b8c9d-0e1f-4a2b-9c3d-4e5f6a7b8c9d/api_conversation_history.json"
CLINE = ".cline/data/tasks/1767952800000/api_conversation_history.json"
CLINE_EMPTY = ".cline/data/tasks/1767956400000"
LLXPRT_HASH = hashlib.sha256(b"/home/dev/llx-tools").hexdigest()
LLXPRT = f".local/state/llxprt-code/tmp/{LLXPRT_HASH}/chats/session-2026-01-09T10-00-00-7e1d2c3b4a59.jsonl"
LLXPRT_CHECKPOINT = f".llxprt/tmp/{LLXPRT_HASH}/checkpoint-alembic.json"
BROKEN = ".claude/projects/-home-dev-broken/8e2f1a3b-5c4d-4e6f-9a7b-1c2d3e4f5a6b.jsonl"
SUBAGENT = ".claude/projects/-home-dev-shop-api/5d0c3a7e-9b1f-4c22-8e51-2f7b3c9a1d64/subagents/agent-a1.jsonl"

ORDER = (  # oldest first: each file is an hour newer than the one before
    LLXPRT_CHECKPOINT,
    CODEX,
    GEMINI,
    VSCODE,
    VSCODE_LOG,
    KILO,
    ROO,
    CLINE,
    CLINE_EMPTY,
    LLXPRT,
    BROKEN,
    CLAUDE,
)


def _cline_history() -> list[dict[str, Any]]:
    """A Cline task: a read_file call and its result, then an edit the user cancelled (unanswered)."""
    info = {"modelId": "claude-sonnet-4-5-20250929", "providerId": "anthropic", "mode": "act"}
    return [
        {
            "role": "user",
            "content": [{"type": "text", "text": "<task>\nRename the `total` helper.\n</task>"}],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "I'll read the helper first."},
                {
                    "type": "tool_use",
                    "id": "toolu_01Rd",
                    "name": "read_file",
                    "input": {"path": "src/total.ts"},
                },
            ],
            "modelInfo": info,
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01Rd", "content": "export const total = 1"}
            ],
        },
        {
            "role": "assistant",
            "content": [
                {
                    "type": "tool_use",
                    "id": "toolu_02Ed",
                    "name": "replace_in_file",
                    "input": {"path": "src/total.ts", "diff": "total -> sum"},
                }
            ],
            "modelInfo": info,
        },
    ]


def _llxprt_recording() -> list[dict[str, Any]]:
    """An llxprt recording on OpenAI: a shell call whose result was recorded twice (a duplicate)."""

    def record(seq: int, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"v": 1, "seq": seq, "ts": f"2026-01-09T10:00:{seq:02}.000Z", "type": kind, "payload": payload}

    call = {
        "type": "tool_call",
        "id": "hist_tool_a1",
        "name": "run_shell_command",
        "parameters": {"cmd": "ls"},
    }
    answer = {
        "type": "tool_response",
        "callId": "hist_tool_a1",
        "toolName": "run_shell_command",
        "result": "a.py",
    }
    start = {
        "sessionId": "7e1d2c3b4a59",
        "projectHash": LLXPRT_HASH,
        "workspaceDirs": ["/home/dev/llx-tools"],
        "provider": "openai",
        "model": "gpt-4.1",
        "startTime": "2026-01-09T10:00:00.000Z",
    }
    return [
        record(1, "session_start", start),
        record(2, "content", {"content": {"speaker": "human", "blocks": [{"type": "text", "text": "list"}]}}),
        record(3, "content", {"content": {"speaker": "ai", "blocks": [call]}}),
        record(4, "content", {"content": {"speaker": "tool", "blocks": [answer]}}),
        record(5, "content", {"content": {"speaker": "tool", "blocks": [answer]}}),
        record(
            6, "content", {"content": {"speaker": "human", "blocks": [{"type": "text", "text": "thanks"}]}}
        ),
    ]


def _jsonl(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)


def make_home(home: Path) -> Path:
    """Lay the fake home out under ``home`` (created) and return it."""
    files: dict[str, str | Path] = {
        CLAUDE: SAMPLES / "claude_code_compacted_result.jsonl",
        SUBAGENT: SAMPLES / "claude_code_compacted_result.jsonl",
        BROKEN: '{"parentUuid":null,"type":"user","cwd":"/home/dev/bro\n',
        CODEX: SAMPLES / "codex_rollout_interrupted.jsonl",
        GEMINI: SAMPLES / "gemini_cli_session.jsonl",
        ".gemini/tmp/docs-site/.project_root": "/home/dev/docs-site",
        ".gemini/tmp/docs-site/logs.json": "[]",
        VSCODE: SAMPLES / "vscode_rejected_tool.json",
        f"{VSCODE_WS}/workspace.json": json.dumps({"folder": "file:///home/dev/web%20app"}),
        VSCODE_LOG: CORPUS / "vscode-jsonl" / "qiaolei81-migrate-to-quarkus.jsonl",
        ROO: SAMPLES / "kilo_xml_era.json",
        ROO.replace("api_conversation_history", "history_item"): json.dumps(
            {"id": "0f5e6d7c-8b9a-4c1d-a2e3-f4a5b6c7d8e9", "workspace": "/Users/dev/ledger"}
        ),
        ROO.replace("api_conversation_history", "ui_messages"): json.dumps(
            [
                {
                    "ts": 1,
                    "type": "say",
                    "say": "api_req_started",
                    "text": json.dumps({"apiProtocol": "anthropic"}),
                }
            ]
        ),
        KILO: SAMPLES / "kilo_native_session.json",
        KILO.replace("api_conversation_history", "ui_messages"): json.dumps(
            [
                {
                    "ts": 1,
                    "type": "say",
                    "say": "api_req_started",
                    "text": json.dumps({"apiProtocol": "openai"}),
                }
            ]
        ),
        CLINE: json.dumps(_cline_history(), separators=(",", ":")),
        f"{CLINE_EMPTY}/ui_messages.json": "[]",
        ".cline/data/state/taskHistory.json": json.dumps(
            [
                {
                    "id": "1767952800000",
                    "ts": 1767952800000,
                    "task": "Rename",
                    "cwdOnTaskInitialization": "/home/dev/shop",
                }
            ]
        ),
        LLXPRT: _jsonl(_llxprt_recording()),
        LLXPRT_CHECKPOINT: SAMPLES / "llxprt_checkpoint_cancelled_shell.json",
    }
    for rel, content in files.items():
        path = home / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Path):
            shutil.copyfile(content, path)
        else:
            path.write_text(content, encoding="utf-8")
    for n, rel in enumerate(ORDER):
        os.utime(home / rel, (BASE + n * HOUR, BASE + n * HOUR))
    return home
