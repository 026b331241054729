"""Layouts the fake home does not hold: older and newer files each agent writes, and odd side files."""

from __future__ import annotations

import json
import os
from pathlib import Path

from toolhist.machine import list_sessions
from toolhist.machine.listing import SessionRow

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def write(home: Path, rel: str, text: str, when: float) -> Path:
    path = home / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, (when, when))
    return path


def fields(row: SessionRow) -> tuple[object, ...]:
    return (row.agent, row.path.name, row.project, row.messages, row.counted, row.provider, row.problem)


def test_older_and_newer_files(tmp_path: Path) -> None:
    legacy = {  # Gemini CLI's older one-document session (JSON.stringify with 2 spaces)
        "sessionId": "s1",
        "projectHash": "ab",
        "messages": [
            {"id": "1", "type": "user", "content": [{"text": "hi"}]},
            {"id": "2", "type": "gemini", "content": "hello", "model": "gemini-2.5-flash"},
        ],
    }
    checkpoint = {
        "history": [{"role": "user", "parts": [{"text": "a"}]}, {"role": "model", "parts": [{"text": "b"}]}]
    }
    write(
        tmp_path, ".gemini/tmp/ab12/chats/session-2025-01-01T00-00-s1.json", json.dumps(legacy, indent=2), 1
    )
    write(tmp_path, ".gemini/tmp/ab12/checkpoint-mytag.json", json.dumps(checkpoint, indent=2), 2)
    write(tmp_path, ".codex/sessions/2026/01/02/rollout-2026-01-02T00-00-00-x.jsonl.zst", "(zstd)", 3)
    write(
        tmp_path,
        "AppData/Roaming/Code/User/globalStorage/emptyWindowChatSessions/e1.json",
        (SAMPLES / "vscode_rejected_tool.json").read_text(),
        4,
    )
    write(
        tmp_path,
        "AppData/Roaming/Code/User/workspaceStorage/w1/chatSessions/w1s.json",
        json.dumps({"version": 3, "sessionId": "w1s", "requests": []}),
        5,
    )
    write(
        tmp_path,
        "AppData/Roaming/Code/User/workspaceStorage/w1/workspace.json",
        '{"folder": "file:///c%3A/Users/dev/app"}',
        5,
    )
    write(
        tmp_path,
        ".codex/sessions/2026/01/03/rollout-2026-01-03T00-00-00-y.jsonl",
        '{"type":"event_msg"}\n',
        6,
    )
    rows = list_sessions(tmp_path)
    assert [fields(r) for r in rows] == [
        (
            "codex",
            "rollout-2026-01-03T00-00-00-y.jsonl",
            None,
            0,
            "records",
            "openai-responses",
            "line 1 is not a session_meta record",
        ),
        ("vscode", "w1s.json", "c:/Users/dev/app", 0, "records", None, None),
        ("vscode", "e1.json", "(no folder)", 6, "records", "anthropic", None),
        (
            "codex",
            "rollout-2026-01-02T00-00-00-x.jsonl.zst",
            None,
            None,
            None,
            None,
            "a zstd-compressed rollout; toolhist reads plain .jsonl only",
        ),
        ("gemini-cli", "checkpoint-mytag.json", None, 2, "records", "gemini", None),
        ("gemini-cli", "session-2025-01-01T00-00-s1.json", None, 2, "records", "gemini", None),
    ]
    assert rows[-1].model == "gemini-2.5-flash"


def test_claude_code_subagents_and_other_files_are_not_sessions(tmp_path: Path) -> None:
    line = '{"type":"user","cwd":"/p","message":{"role":"user","content":"hi"}}\n'
    write(tmp_path, ".claude/projects/-p/s1.jsonl", line, 1)
    write(tmp_path, ".claude/projects/-p/agent-1234.jsonl", line, 2)  # an older subagent file
    write(tmp_path, ".claude/projects/-p/s1/subagents/agent-5678.jsonl", line, 3)
    write(tmp_path, ".claude/projects/-p/s1/tool-results/t.txt", "out", 4)
    write(tmp_path, ".claude/projects/-p/memory/notes.md", "x", 5)
    assert [r.path.name for r in list_sessions(tmp_path)] == ["s1.jsonl"]
