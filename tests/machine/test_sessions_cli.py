"""``toolhist sessions`` on a home folder laid out as each agent lays it out: exact output."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fake_home import CODEX, LLXPRT_HASH, make_home

from toolhist.cli import main

H = LLXPRT_HASH
LISTING = f"""\
modified (UTC)    agent        messages  provider          project              path
2026-01-10 11:00  claude-code        20  anthropic         /home/dev/shop-api   ~/.claude/projects/-home-dev-shop-api/5d0c3a7e-9b1f-4c22-8e51-2f7b3c9a1d64.jsonl
2026-01-10 10:00  claude-code         1  anthropic         -                    ~/.claude/projects/-home-dev-broken/8e2f1a3b-5c4d-4e6f-9a7b-1c2d3e4f5a6b.jsonl
    unreadable: line 1: not valid JSON: Unterminated string starting at: line 1 column 40 (char 39)
2026-01-10 09:00  llxprt              5  openai-chat       /home/dev/llx-tools  ~/.local/state/llxprt-code/tmp/{H}/chats/session-2026-01-09T10-00-00-7e1d2c3b4a59.jsonl
2026-01-10 08:00  cline               -  -                 -                    ~/.cline/data/tasks/1767956400000
    unreadable: no api_conversation_history.json in this task folder
2026-01-10 07:00  cline               4  anthropic         /home/dev/shop       ~/.cline/data/tasks/1767952800000/api_conversation_history.json
2026-01-10 06:00  roo                 7  anthropic         /Users/dev/ledger    ~/Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/0f5e6d7c-8b9a-4c1d-a2e3-f4a5b6c7d8e9/api_conversation_history.json
2026-01-10 05:00  kilo                8  openai-chat       -                    ~/AppData/Roaming/Code - Insiders/User/globalStorage/kilocode.kilo-code/tasks/6a7b8c9d-0e1f-4a2b-9c3d-4e5f6a7b8c9d/api_conversation_history.json
2026-01-10 04:00  vscode              2  anthropic         /home/dev/web app    ~/.config/Code/User/workspaceStorage/3b9f0c2d1e4a5b6c7d8e9f0a1b2c3d4e/chatSessions/9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d.jsonl
2026-01-10 03:00  vscode              6  anthropic         /home/dev/web app    ~/.config/Code/User/workspaceStorage/3b9f0c2d1e4a5b6c7d8e9f0a1b2c3d4e/chatSessions/0c7d5b1e-2f4a-4c8e-9a61-3e5d7f9b1c2a.json
2026-01-10 02:00  gemini-cli          6  gemini            /home/dev/docs-site  ~/.gemini/tmp/docs-site/chats/session-2025-12-02T08-14-6f1c2a9e.jsonl
2026-01-10 01:00  codex              10  openai-responses  /home/dev/ledger     ~/.codex/sessions/2025/10/02/rollout-2025-10-02T09-12-00-0199a5e2-7c4b-7d31-9f0e-3b8c1a2d4e6f.jsonl
2026-01-10 00:00  llxprt              7  -                 -                    ~/.llxprt/tmp/{H}/checkpoint-alembic.json
12 sessions (claude-code 2, codex 1, gemini-cli 1, vscode 2, cline 2, roo 1, kilo 1, llxprt 2); 2 unreadable
"""

VERDICTS = f"""\
modified (UTC)    agent   messages  provider          verdict                                  project              path
2026-01-10 09:00  llxprt         5  openai-chat       rejects (HTTP 400): oai.dup_tool_result  /home/dev/llx-tools  ~/.local/state/llxprt-code/tmp/{H}/chats/session-2026-01-09T10-00-00-7e1d2c3b4a59.jsonl
2026-01-10 08:00  cline          -  -                 -                                        -                    ~/.cline/data/tasks/1767956400000
    unreadable: no api_conversation_history.json in this task folder
2026-01-10 07:00  cline          4  anthropic         accepts                                  /home/dev/shop       ~/.cline/data/tasks/1767952800000/api_conversation_history.json
2026-01-10 01:00  codex          9  openai-responses  accepts                                  /home/dev/ledger     ~/.codex/sessions/2025/10/02/rollout-2025-10-02T09-12-00-0199a5e2-7c4b-7d31-9f0e-3b8c1a2d4e6f.jsonl
2026-01-10 00:00  llxprt         7  -                 provider unknown                         -                    ~/.llxprt/tmp/{H}/checkpoint-alembic.json
5 sessions (codex 1, cline 2, llxprt 2); 1 unreadable
"""


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_home(tmp_path_factory.mktemp("home"))


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["sessions", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_lists_every_agents_sessions_newest_first(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, "--home", str(home)) == (0, LISTING, "")


def test_verdict_reads_each_session_and_judges_it_where_it_ran(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # messages are now the reader's count; the llxprt checkpoint names no provider, so no verdict.
    # The Codex rollout's interrupted call is answered "aborted" by Codex before it sends
    # (ensure_call_outputs_present, toolhist/agents/codex/normalize.py), so OpenAI accepts it.
    args = ("--verdict", "--agent", "codex", "--agent", "llxprt", "--agent", "cline")
    assert cli(capsys, "--home", str(home), *args) == (0, VERDICTS, "")


def test_json_rows(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--home", str(home), "--json", "--agent", "codex", "--verdict")
    assert code == 0
    assert json.loads(out) == [
        {
            "agent": "codex",
            "path": str(home / CODEX),
            "modified": "2026-01-10T01:00:00Z",
            "project": "/home/dev/ledger",
            "messages": 9,
            "counted": "exact",
            "model": "gpt-5-codex",
            "provider": "openai-responses",
            "format": "codex",
            "verdict": "accepts",
            "rules": [],
            "problem": None,
            "session": None,
        }
    ]
    code, out, _ = cli(capsys, "--home", str(home), "--json")
    rows = json.loads(out)
    assert [(r["agent"], r["counted"], r["verdict"]) for r in rows][:3] == [
        ("claude-code", "records", None),
        ("claude-code", "records", None),
        ("llxprt", "records", None),
    ]


def test_where_names_each_folder_and_whether_it_is_there(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = cli(capsys, "--home", str(home), "--where", "--agent", "codex", "--agent", "llxprt")
    assert (code, out) == (
        0,
        "codex        found   ~/.codex/sessions\n"
        "llxprt       found   ~/.local/state/llxprt-code/tmp\n"
        "llxprt       absent  ~/Library/Logs/llxprt-code/tmp\n"
        "llxprt       absent  ~/AppData/Local/llxprt-code/Log/tmp\n"
        "llxprt       found   ~/.llxprt/tmp\n",
    )


def test_an_empty_home_says_where_to_look(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, "--home", str(tmp_path)) == (
        0,
        f"no sessions found under {tmp_path} (see `toolhist sessions --where`)\n",
        "",
    )


def test_bad_arguments_are_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, "--agent", "nonesuch") == (
        2,
        "",
        "toolhist: error: Invalid value for '--agent': 'nonesuch' is not one of 'claude-code', 'codex', "
        "'gemini-cli', 'vscode', 'cline', 'roo', 'kilo', 'llxprt', 'opencode', 'crush', 'goose', 'zed', "
        "'copilot-cli', 'continue', 'cursor', 'pi', 'kimi-cli', 'qwen-code', 'openhands', 'amp'.\n",
    )
    missing = tmp_path / "nope"
    assert cli(capsys, "--home", str(missing)) == (
        2,
        "",
        f"toolhist: error: Invalid value for '--home': Directory '{missing}' does not exist.\n",
    )


def test_the_installed_command_reads_toolhist_home(home: Path) -> None:
    exe = shutil.which("toolhist", path=str(Path(sys.executable).parent))
    assert exe is not None
    env = {
        "TOOLHIST_HOME": str(home),
        "PATH": "/usr/bin:/bin",
        "CODEX_HOME": "/nonexistent",
        "TOOLHIST_INDEX": os.environ["TOOLHIST_INDEX"],  # the run's own (tests/index_in_temp.py)
    }
    out = subprocess.run(
        [exe, "sessions", "--agent", "codex"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=60,
    )
    assert (out.returncode, out.stderr) == (0, "")
    assert out.stdout.splitlines()[1].startswith("2026-01-10 01:00  codex")
