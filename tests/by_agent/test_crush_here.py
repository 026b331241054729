"""Project-local stores: ``toolhist sessions`` looks in the current folder's ``.crush`` and ``.opencode``.

Crush keeps ``<project>/.crush/crush.db`` and the Go OpenCode kept ``<project>/.opencode/opencode.db``
(toolhist/agents/crush/sessions.py says from where); a project Crush's ``projects.json`` does not
list is found only by running toolhist in it. The Go OpenCode's store is made here from Crush's
fixture with the columns Crush added after the fork dropped (``messages.provider``,
``messages.is_summary_message``, ``sessions.todos``): a fixture shaped as the Go OpenCode's
tables, not a real file.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from toolhist.cli import main
from toolhist.machine.places import places

CRUSH = Path(__file__).resolve().parents[1] / "corpus" / "logs" / "crush" / "crush-migrations.fixture.db"


def _project(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    project = home / "src" / "shop"
    (project / ".crush").mkdir(parents=True)
    (project / ".opencode").mkdir()
    shutil.copyfile(CRUSH, project / ".crush" / "crush.db")
    shutil.copyfile(CRUSH, project / ".opencode" / "opencode.db")
    conn = sqlite3.connect(project / ".opencode" / "opencode.db")
    for table, column in (
        ("messages", "provider"),
        ("messages", "is_summary_message"),
        ("sessions", "todos"),
    ):
        conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    conn.commit()
    conn.close()
    return home, project


def test_sessions_lists_the_current_projects_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home, project = _project(tmp_path)
    monkeypatch.chdir(project)
    assert main(["sessions", "--home", str(home), "--agent", "crush", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    listed = sorted((Path(r["path"].rsplit("#", 1)[0]).relative_to(project), r["provider"]) for r in rows)
    assert listed == [
        (Path(".crush/crush.db"), "anthropic"),
        (Path(".crush/crush.db"), "openai-responses"),
        (Path(".opencode/opencode.db"), "anthropic"),
        (Path(".opencode/opencode.db"), "openai-chat"),
    ]  # the Go OpenCode's rows name no provider: the listing tells it by the model's family
    assert {r["project"] for r in rows} == {str(project)}
    assert {r["problem"] for r in rows} == {None}
    assert main(["sessions", "--home", str(home), "--agent", "crush", "--where"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == [
        "crush        found   ~/src/shop/.crush  (in the current folder)",
        "crush        found   ~/src/shop/.opencode  (in the current folder)",
    ]


def test_a_go_opencode_session_reads_as_crush_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import toolhist

    _, project = _project(tmp_path)
    old = toolhist.load(project / ".opencode" / "opencode.db")
    new = toolhist.load(project / ".crush" / "crush.db")
    assert old.source.format == new.source.format == "crush"
    assert [m.blocks for m in old.messages] == [m.blocks for m in new.messages]


def test_a_working_folder_outside_an_explicit_home_is_not_looked_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, project = _project(tmp_path)
    monkeypatch.chdir(project)
    assert places(home).cwd == project
    monkeypatch.chdir(tmp_path)
    found = places(home)
    assert found.cwd is None
    assert not [f for f in found.of("crush") if f.name in (".crush", ".opencode")]
