"""``toolhist sessions`` on a home laid out as OpenCode, Crush, Goose and Zed lay theirs out: every
session of each store listed with its locator, judged on the provider it ran on, also while the
agent is writing to its store."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from fake_home_stores import CRUSH_PROJECT, GOOSE_DB, OPENCODE_DB, make_store_home

import toolhist
from toolhist.cli import main

LISTING = """\
modified (UTC)    agent     messages  provider          project             path
2026-01-09 16:00  zed              3  gemini            /home/dev/shop      ~/.local/share/zed/threads/threads.db#8e2d6c4a-0f1b-4a3c-9d5e-7f9a1b3c5d7e
2026-01-09 15:47  crush            5  openai-responses  {P}  ~/{C}/.crush/crush.db#0a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d
2026-01-09 15:00  zed              3  anthropic         /home/dev/shop      ~/.local/share/zed/threads/threads.db#4f7a1c2e-8b3d-4e9f-a0b1-c2d3e4f5a6b7
2026-01-09 14:46  crush            4  anthropic         {P}  ~/{C}/.crush/crush.db#6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b
2026-01-09 13:02  goose            5  gemini            /home/dev/ledger    ~/.local/share/goose/sessions/sessions.db#20260109_2
2026-01-09 13:01  opencode         4  openai-responses  /home/dev/shop-api  ~/.local/share/opencode/opencode.db#ses_4a2e9b07dffeC3pHk5Vn8Rx1Lz
2026-01-09 12:01  opencode         3  anthropic         /home/dev/shop-api  ~/.local/share/opencode/opencode.db#ses_4a2f0c31bffeQ1xVw9Kc2mZtRd
2026-01-09 12:00  goose            4  anthropic         /home/dev/ledger    ~/.local/share/goose/sessions/sessions.db#20260109_1
2026-01-08 00:00  goose            4  -                 /home/dev/ledger    ~/.local/share/goose/sessions/count-migrations.jsonl
2026-01-08 00:00  opencode         -  -                 -                   ~/.local/share/opencode/opencode-dev.db
    unreadable: an SQLite database without the opencode store's tables
2026-01-08 00:00  opencode         3  anthropic         /home/dev/shop-api  ~/.local/share/opencode/storage/session/prj_7c1e2d/ses_3b9e1d2c4ffeLegacyTreeSessA.json
11 sessions (opencode 4, crush 2, goose 3, zed 2); 1 unreadable
"""

VERDICTS = {
    "opencode": """\
modified (UTC)    agent     messages  provider          verdict                                         project             path
2026-01-09 13:01  opencode         7  openai-responses  accepts, with warnings: resp.reasoning_summary  /home/dev/shop-api  ~/.local/share/opencode/opencode.db#ses_4a2e9b07dffeC3pHk5Vn8Rx1Lz
2026-01-09 12:01  opencode         4  anthropic         accepts                                         /home/dev/shop-api  ~/.local/share/opencode/opencode.db#ses_4a2f0c31bffeQ1xVw9Kc2mZtRd
2026-01-08 00:00  opencode         -  -                 -                                               -                   ~/.local/share/opencode/opencode-dev.db
    unreadable: an SQLite database without the opencode store's tables
2026-01-08 00:00  opencode         4  anthropic         accepts                                         /home/dev/shop-api  ~/.local/share/opencode/storage/session/prj_7c1e2d/ses_3b9e1d2c4ffeLegacyTreeSessA.json
4 sessions (opencode 4); 1 unreadable
""",
    "crush": """\
modified (UTC)    agent  messages  provider          verdict  project  path
2026-01-09 15:47  crush         5  openai-responses  accepts  {P}  ~/{C}/.crush/crush.db#0a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d
2026-01-09 14:46  crush         5  anthropic         accepts  {P}  ~/{C}/.crush/crush.db#6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b
2 sessions (crush 2); 0 unreadable
""",
    "goose": """\
modified (UTC)    agent  messages  provider   verdict           project           path
2026-01-09 13:02  goose         3  gemini     accepts           /home/dev/ledger  ~/.local/share/goose/sessions/sessions.db#20260109_2
2026-01-09 12:00  goose         4  anthropic  accepts           /home/dev/ledger  ~/.local/share/goose/sessions/sessions.db#20260109_1
2026-01-08 00:00  goose         4  -          provider unknown  /home/dev/ledger  ~/.local/share/goose/sessions/count-migrations.jsonl
3 sessions (goose 3); 0 unreadable
""",
    "zed": """\
modified (UTC)    agent  messages  provider   verdict  project         path
2026-01-09 16:00  zed           4  gemini     accepts  /home/dev/shop  ~/.local/share/zed/threads/threads.db#8e2d6c4a-0f1b-4a3c-9d5e-7f9a1b3c5d7e
2026-01-09 15:00  zed           4  anthropic  accepts  /home/dev/shop  ~/.local/share/zed/threads/threads.db#4f7a1c2e-8b3d-4e9f-a0b1-c2d3e4f5a6b7
2 sessions (zed 2); 0 unreadable
""",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_store_home(tmp_path_factory.mktemp("stores") / "home")


def _expected(text: str, home: Path) -> str:
    """The Crush project is a folder under ``home`` (Crush's projects.json names absolute folders)."""
    return text.replace("{C}", CRUSH_PROJECT).replace("{P}", str(home / CRUSH_PROJECT))


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["sessions", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _columns(out: str) -> list[list[str]]:
    """The table's cells, whitespace-insensitive (the project column's width follows the tmp path)."""
    return [line.split() for line in out.splitlines()]


def test_every_session_of_each_store_is_listed_with_its_locator(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(
        capsys,
        "--home",
        str(home),
        "--agent",
        "opencode",
        "--agent",
        "crush",
        "--agent",
        "goose",
        "--agent",
        "zed",
    )
    assert (code, err) == (0, "")
    assert _columns(out) == _columns(_expected(LISTING, home))


@pytest.mark.parametrize("agent", sorted(VERDICTS))
def test_each_store_agents_sessions_are_judged_where_they_ran(
    agent: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, "--home", str(home), "--agent", agent, "--verdict")
    assert (code, err) == (0, "")
    assert _columns(out) == _columns(_expected(VERDICTS[agent], home))


def test_json_rows_carry_the_session_id(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--home", str(home), "--json", "--agent", "goose")
    rows = json.loads(out)
    assert code == 0
    assert [(r["session"], r["path"]) for r in rows] == [
        ("20260109_2", f"{home / GOOSE_DB}#20260109_2"),
        ("20260109_1", f"{home / GOOSE_DB}#20260109_1"),
        (None, str(home / ".local/share/goose/sessions/count-migrations.jsonl")),
    ]
    # each row's path opens the session it lists
    assert toolhist.load(rows[1]["path"]).metadata["store_session"] == "20260109_1"


def test_listing_and_judging_while_the_agent_writes(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """OpenCode holds a write transaction: the listing and verdicts read the last commit, the
    agent's commit then goes through at once (it would raise 'database is locked' otherwise)."""
    writer = sqlite3.connect(home / OPENCODE_DB, isolation_level=None, timeout=0)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute(
        "UPDATE session SET time_updated = 1767999999000 WHERE id = 'ses_4a2f0c31bffeQ1xVw9Kc2mZtRd'"
    )
    code, out, _ = cli(capsys, "--home", str(home), "--agent", "opencode", "--verdict")
    assert code == 0
    assert _columns(out) == _columns(VERDICTS["opencode"])
    writer.execute("COMMIT")
    code, out, _ = cli(capsys, "--home", str(home), "--agent", "opencode")
    assert out.splitlines()[1].startswith("2026-01-09 23:06  opencode")  # the committed update, now newest
    writer.execute(
        "UPDATE session SET time_updated = 1767960060000 WHERE id = 'ses_4a2f0c31bffeQ1xVw9Kc2mZtRd'"
    )
    writer.close()
