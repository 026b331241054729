"""A home laid out as GitHub Copilot CLI, VS Code (1.109+ logs), Continue and Cursor lay theirs out.

The session files are the corpus files (``tests/corpus/logs/<format>/``: real where the index held one,
marked fixtures otherwise) placed where each agent writes them, plus small files for what the corpus
lacks (a flat Copilot CLI log of an earlier build whose turn was aborted, a Continue session naming its
provider) and files an agent keeps that toolhist lists but does not read (a pre-1.0 Copilot CLI dump, a
legacy Cursor ``.txt`` transcript). Cursor's store is switched to WAL, as Cursor runs it. Every file
outside the store gets a fixed modification time, so listings are exact; Linux, macOS and Windows
layouts are mixed in one home.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent / "corpus" / "logs"
BASE = datetime(2026, 1, 11, tzinfo=UTC).timestamp()
HOUR = 3600.0

COPILOT = ".copilot/session-state/030f200c-c26f-4ef0-9099-6d1156c83631/events.jsonl"
COPILOT_FLAT = ".copilot/session-state/5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b.jsonl"
COPILOT_OLD = ".copilot/history-session-state/session_3f1d2c4b_1760000000000.json"
VSCODE_WS = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
VSCODE = f"AppData/Roaming/Code/User/globalStorage/chatSessions/{VSCODE_WS}/0885a5a2-5c49-4a15-b22a-15d9ec401050.jsonl"
CONTINUE = ".continue/sessions/5f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0.json"
CONTINUE_RUN = ".continue/sessions/7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d.json"
CURSOR_DB = "Library/Application Support/Cursor/User/globalStorage/state.vscdb"
CURSOR_CHAT = "4b5c6d7e-8f90-4a1b-9c2d-3e4f5a6b7c8d"
CURSOR_T = f".cursor/projects/home-dev-shop/agent-transcripts/{CURSOR_CHAT}/{CURSOR_CHAT}.jsonl"
CURSOR_TXT = ".cursor/projects/home-dev-shop/agent-transcripts/1a2b3c4d-5e6f-4708-9a0b-1c2d3e4f5a6b.txt"

ORDER = (COPILOT_OLD, CURSOR_TXT, CONTINUE, COPILOT_FLAT, CURSOR_T, VSCODE, CONTINUE_RUN, COPILOT)


def _event(n: int, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    return {"type": kind, "data": data, "id": f"e{n}", "timestamp": f"2025-10-20T09:00:{n:02}.000Z"}


def _copilot_flat() -> str:
    """A Copilot CLI log of an earlier build (flat ``<id>.jsonl``) on gpt-5: a turn aborted mid-call."""
    events = [
        _event(
            1,
            "session.start",
            {
                "sessionId": "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b",
                "version": 1,
                "producer": "copilot-agent",
                "copilotVersion": "0.0.340",
                "startTime": "2025-10-20T09:00:01.000Z",
                "selectedModel": "gpt-5",
                "context": {"cwd": "/home/dev/ledger"},
            },
        ),
        _event(2, "user.message", {"content": "run the tests", "transformedContent": "run the tests"}),
        _event(
            3,
            "assistant.message",
            {
                "messageId": "m1",
                "content": "",
                "toolRequests": [
                    {"toolCallId": "call_Y1bd", "name": "bash", "arguments": {"command": "pytest"}}
                ],
            },
        ),
        _event(4, "abort", {"reason": "user_initiated"}),
        _event(
            5, "user.message", {"content": "just list the tests", "transformedContent": "just list the tests"}
        ),
        _event(
            6, "assistant.message", {"messageId": "m2", "content": "There are 12 tests.", "toolRequests": []}
        ),
    ]
    return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)


def _continue_run() -> str:
    """A Continue session whose answer names its provider (``promptLogs[].modelProvider``)."""
    session = {
        "sessionId": "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d",
        "title": "Explain the retry loop",
        "workspaceDirectory": "file:///home/dev/shop",
        "chatModelTitle": "Claude Sonnet 4.5",
        "history": [
            {"message": {"role": "user", "content": "Explain the retry loop"}, "contextItems": []},
            {
                "message": {"role": "assistant", "content": "It retries three times with backoff."},
                "contextItems": [],
                "promptLogs": [
                    {
                        "modelTitle": "Claude Sonnet 4.5",
                        "modelProvider": "anthropic",
                        "prompt": "Explain the retry loop",
                        "completion": "It retries three times with backoff.",
                    }
                ],
            },
        ],
    }
    return json.dumps(session, indent=2)


def _store(source: Path, target: Path) -> None:
    """Copy the corpus store and put it in WAL mode, as Cursor's own connection leaves it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    conn = sqlite3.connect(target)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()


def make_ide_home(home: Path) -> Path:
    """Lay the fake home out under ``home`` (created) and return it."""
    files: dict[str, str | Path] = {
        COPILOT: CORPUS / "copilot-cli" / "qiaolei81-session-demo-v1.0.55.jsonl",
        COPILOT_FLAT: _copilot_flat(),
        COPILOT_OLD: json.dumps({"sessionId": "3f1d2c4b", "chatMessages": [], "timeline": []}),
        VSCODE: CORPUS / "vscode-jsonl" / "qiaolei81-migrate-to-quarkus.jsonl",
        f"AppData/Roaming/Code/User/workspaceStorage/{VSCODE_WS}/workspace.json": json.dumps(
            {"folder": "file:///c%3A/dev/strapi"}
        ),
        CONTINUE: CORPUS / "continue" / "continue-constructmessages-test-items.fixture.json",
        CONTINUE_RUN: _continue_run(),
        ".continue/sessions/sessions.json": "[]",
        CURSOR_T: CORPUS / "cursor-transcript" / "agent-sessions-small.fixture.jsonl",
        CURSOR_TXT: "user:\n<user_query>\nhello\n</user_query>\n",
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
    _store(CORPUS / "cursor" / "cursor-state-vscdb.fixture.db", home / CURSOR_DB)
    return home
