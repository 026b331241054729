"""``toolhist sessions`` on a home laid out as Copilot CLI, VS Code's logs, Continue and Cursor lay theirs
out: every session listed where each agent keeps it, judged on the provider it ran on, and Cursor's store
read while Cursor writes to it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from fake_home_ide import COPILOT_FLAT, CURSOR_DB, make_ide_home

from toolhist.cli import main

AGENTS = ("--agent", "copilot-cli", "--agent", "vscode", "--agent", "continue", "--agent", "cursor")
D = "030f200c-c26f-4ef0-9099-6d1156c83631"
T = "4b5c6d7e-8f90-4a1b-9c2d-3e4f5a6b7c8d"
V = "AppData/Roaming/Code/User/globalStorage/chatSessions/0f1e2d3c4b5a69788796a5b4c3d2e1f0"
C = "Library/Application Support/Cursor/User/globalStorage/state.vscdb"
LISTING = f"""\
modified (UTC)    agent        messages  provider     project                                 path
2026-01-11 07:00  copilot-cli         6  anthropic    /Users/testuser/workspace/demo-project  ~/.copilot/session-state/{D}/events.jsonl
2026-01-11 06:00  continue            2  anthropic    /home/dev/shop                          ~/.continue/sessions/7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d.json
2026-01-11 05:00  vscode              2  anthropic    c:/dev/strapi                           ~/{V}/0885a5a2-5c49-4a15-b22a-15d9ec401050.jsonl
2026-01-11 04:00  cursor              4  -            home-dev-shop                           ~/.cursor/projects/home-dev-shop/agent-transcripts/{T}/{T}.jsonl
2026-01-11 03:00  copilot-cli         4  openai-chat  /home/dev/ledger                        ~/.copilot/session-state/5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b.jsonl
2026-01-11 02:00  continue            7  -            /home/dev/search-app                    ~/.continue/sessions/5f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0.json
2026-01-11 01:00  cursor              -  -            home-dev-shop                           ~/.cursor/projects/home-dev-shop/agent-transcripts/1a2b3c4d-5e6f-4708-9a0b-1c2d3e4f5a6b.txt
    unreadable: an older Cursor transcript (.txt); toolhist reads the .jsonl form
2026-01-11 00:00  copilot-cli         -  -            -                                       ~/.copilot/history-session-state/session_3f1d2c4b_1760000000000.json
    unreadable: a pre-1.0 Copilot CLI history (history-session-state); toolhist reads events.jsonl
2025-12-25 19:48  cursor              7  anthropic    -                                       ~/{C}#98251e54-8aed-4515-b2b4-08895453eedd
2025-12-24 01:06  cursor              2  openai-chat  -                                       ~/{C}#fbd30712-94fd-48d3-b674-ed162dbf56ab
10 sessions (vscode 1, copilot-cli 3, continue 2, cursor 4); 2 unreadable
"""

VERDICTS = f"""\
modified (UTC)    agent        messages  provider     verdict           project                                 path
2026-01-11 07:00  copilot-cli         7  anthropic    accepts           /Users/testuser/workspace/demo-project  ~/.copilot/session-state/{D}/events.jsonl
2026-01-11 06:00  continue            2  anthropic    accepts           /home/dev/shop                          ~/.continue/sessions/7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d.json
2026-01-11 05:00  vscode              2  anthropic    accepts           c:/dev/strapi                           ~/{V}/0885a5a2-5c49-4a15-b22a-15d9ec401050.jsonl
2026-01-11 04:00  cursor              5  -            provider unknown  home-dev-shop                           ~/.cursor/projects/home-dev-shop/agent-transcripts/{T}/{T}.jsonl
2026-01-11 03:00  copilot-cli         5  openai-chat  accepts           /home/dev/ledger                        ~/.copilot/session-state/5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b.jsonl
2026-01-11 02:00  continue           10  -            provider unknown  /home/dev/search-app                    ~/.continue/sessions/5f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0.json
2026-01-11 01:00  cursor              -  -            -                 home-dev-shop                           ~/.cursor/projects/home-dev-shop/agent-transcripts/1a2b3c4d-5e6f-4708-9a0b-1c2d3e4f5a6b.txt
    unreadable: an older Cursor transcript (.txt); toolhist reads the .jsonl form
2026-01-11 00:00  copilot-cli         -  -            -                 -                                       ~/.copilot/history-session-state/session_3f1d2c4b_1760000000000.json
    unreadable: a pre-1.0 Copilot CLI history (history-session-state); toolhist reads events.jsonl
2025-12-25 19:48  cursor              6  anthropic    accepts           -                                       ~/{C}#98251e54-8aed-4515-b2b4-08895453eedd
2025-12-24 01:06  cursor              2  openai-chat  accepts           -                                       ~/{C}#fbd30712-94fd-48d3-b674-ed162dbf56ab
10 sessions (vscode 1, copilot-cli 3, continue 2, cursor 4); 2 unreadable
"""


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_ide_home(tmp_path_factory.mktemp("home"))


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["sessions", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_lists_each_agents_sessions_where_it_keeps_them(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(capsys, "--home", str(home), *AGENTS) == (0, LISTING, "")


def test_judges_each_session_on_the_provider_it_ran_on(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The flat Copilot log's aborted call gets the CLI's interrupted result, so OpenAI accepts it; the
    # Cursor transcript names no model (provider unknown); Continue's fixture names no provider.
    assert cli(capsys, "--home", str(home), "--verdict", *AGENTS) == (0, VERDICTS, "")


def test_json_rows_name_each_format(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--home", str(home), "--json", *AGENTS)
    assert code == 0
    formats = {(r["agent"], r["format"]) for r in json.loads(out) if r["problem"] is None}
    assert formats == {
        ("copilot-cli", "copilot-cli"),
        ("vscode", "vscode-jsonl"),
        ("continue", "continue"),
        ("cursor", "cursor"),
        ("cursor", "cursor-transcript"),
    }
    (flat,) = [r for r in json.loads(out) if r["path"] == str(home / COPILOT_FLAT)]
    assert (flat["model"], flat["provider"]) == ("gpt-5", "openai-chat")


def test_cursor_keeps_writing_while_its_store_is_listed_and_read(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = home / CURSOR_DB
    writer = sqlite3.connect(store, isolation_level=None, timeout=0)
    writer.execute("BEGIN IMMEDIATE")
    composer = {
        "composerId": "c0ffee00-1111-4222-8333-444455556666",
        "fullConversationHeadersOnly": [{"bubbleId": "b1", "type": 1}],
        "createdAt": 1766800000000,
        "lastUpdatedAt": 1766800000000,
        "modelConfig": {"modelName": "claude-4.5-sonnet"},
    }
    writer.execute(
        "INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)",
        (f"composerData:{composer['composerId']}", json.dumps(composer)),
    )
    writer.execute(
        "INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)",
        (f"bubbleId:{composer['composerId']}:b1", json.dumps({"type": 1, "text": "new question"})),
    )
    # while the writer holds its transaction, a listing reads the last committed state
    code, out, _ = cli(capsys, "--home", str(home), "--agent", "cursor", "--verdict")
    assert (code, out.count("state.vscdb#")) == (0, 2)
    writer.execute("COMMIT")  # timeout=0: any lock held by the reader would raise here
    code, out, _ = cli(capsys, "--home", str(home), "--agent", "cursor")
    assert (code, out.count("state.vscdb#")) == (0, 3)
    new = next(line for line in out.splitlines() if "c0ffee00" in line)
    assert new.split()[:5] == ["2025-12-27", "01:46", "cursor", "1", "anthropic"]
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("DELETE FROM cursorDiskKV WHERE key LIKE '%c0ffee00%'")
    writer.execute("COMMIT")
    writer.close()
