"""The session index (`toolhist.index`) on a home laid out as each agent lays it out (tests/fake_home.py).

Where it lives, what a second listing reads again (counted by the reads themselves, never by time),
what each search key finds, and what Ctrl-C leaves behind.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fake_home import BROKEN, CLAUDE, CLINE, CODEX, GEMINI, KILO, LLXPRT, LLXPRT_CHECKPOINT, ROO, make_home
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sessions_cli import LISTING

import toolhist.index.extract as index_extract
import toolhist.index.listing as index_listing
import toolhist.index.update as index_update
from toolhist.cli import main
from toolhist.index import (
    Listing,
    Query,
    Stopped,
    connect,
    default_path,
    list_indexed,
    pending,
    refresh,
    search,
)
from toolhist.index.db import SCHEMA, statements
from toolhist.index.listing import listed
from toolhist.index.query import like_pattern
from toolhist.machine import list_sessions, places


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return make_home(tmp_path / "home")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("TOOLHIST_INDEX", raising=False)
    return tmp_path / "cache"


@pytest.fixture
def conn(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    db = connect(tmp_path / "index" / "index.sqlite")
    yield db
    db.close()


def counted(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[str]:
    """Replace ``module.name`` by itself, noting the file each call reads (its first argument's path)."""
    seen: list[str] = []
    real: Callable[..., Any] = getattr(module, name)

    def wrapper(first: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(str(getattr(first, "path", first)))
        return real(first, *args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return seen


def files(home: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``home`` with its size and modification time."""
    return {
        str(p.relative_to(home)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in home.rglob("*")
        if p.is_file()
    }


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["sessions", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_index_lives_under_the_cache_folder_and_nothing_is_written_in_the_home(
    home: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = files(home)
    assert cli(capsys, "--home", str(home)) == (0, LISTING, "")
    assert cli(capsys, "--home", str(home), "--search", "invoice")[0] == 0
    db = cache / "toolhist" / "index.sqlite"
    assert default_path() == db
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
    assert files(home) == before


def test_the_listing_through_the_index_is_the_listing_without_it(
    home: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(capsys, "--home", str(home), "--no-index") == (0, LISTING, "")
    assert not (cache / "toolhist").exists()
    assert cli(capsys, "--home", str(home)) == (0, LISTING, "")  # cold: every head read
    assert cli(capsys, "--home", str(home)) == (0, LISTING, "")  # warm: from the index
    cold = cli(capsys, "--home", str(home), "--verdict", "--agent", "codex", "--no-index")
    assert cli(capsys, "--home", str(home), "--verdict", "--agent", "codex") == cold
    assert cli(capsys, "--home", str(home), "--verdict", "--agent", "codex") == cold


def test_a_second_listing_reads_only_the_files_that_changed(
    home: Path, conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    heads = counted(monkeypatch, index_listing, "read_header")
    wholes = counted(monkeypatch, index_update, "load_document")
    where = places(home)

    first = list_indexed(conn, where)
    headed = sorted(heads)
    assert first.read == len(headed) == 11  # every file but the Cline task folder without its history
    assert refresh(conn, str(home), pending(conn, first)) == 10  # not the file whose head is broken
    assert sorted(wholes) == sorted(str(row.path) for row in first.rows if row.problem is None)
    heads.clear()
    wholes.clear()

    again = list_indexed(conn, where)
    assert (again.read, again.removed, heads) == (0, 0, [])
    assert again.rows == first.rows
    assert (pending(conn, again), wholes) == ([], [])

    changed = home / CODEX
    os.utime(changed, ns=(changed.stat().st_atime_ns, changed.stat().st_mtime_ns + 1_000_000_000))
    third = list_indexed(conn, where)
    assert (third.read, heads) == (1, [str(changed)])
    assert refresh(conn, str(home), pending(conn, third)) == 1
    assert wholes == [str(changed)]

    (home / GEMINI).unlink()
    fourth = list_indexed(conn, where)
    assert (fourth.read, fourth.removed) == (0, 1)
    held = {loc for (loc,) in conn.execute("SELECT locator FROM sessions")}
    assert str(home / GEMINI) not in held
    assert str(home / GEMINI) not in {p for (p,) in conn.execute("SELECT path FROM heads")}


def _indexed(conn: sqlite3.Connection, home: Path, judge_on: tuple[str, ...] = ()) -> Listing:
    listing = list_indexed(conn, places(home))
    refresh(conn, str(home), pending(conn, listing, judge_on))
    return listing


def _found(
    conn: sqlite3.Connection, listing: Listing, home: Path, query: Query
) -> list[tuple[str, int | None]]:
    results = search(conn, listing, query, limit=1000)
    assert results.total == len(results.hits)
    return [(str(hit.row.path.relative_to(home)), hit.msg) for hit in results.hits]


def test_text_search_finds_each_message_holding_the_text(home: Path, conn: sqlite3.Connection) -> None:
    listing = _indexed(conn, home)
    assert _found(conn, listing, home, Query(text="READ_FILE")) == [
        (CLINE, 1),
        (ROO, 1),
        (ROO, 2),
        (KILO, 1),
        (KILO, 2),
        (GEMINI, 1),
        (GEMINI, 6),
    ]
    sessions = {path for path, _ in _found(conn, listing, home, Query(text="invoice"))}
    assert sessions == {CLAUDE, ROO, KILO, LLXPRT_CHECKPOINT}
    assert _found(conn, listing, home, Query(text="100%_not there")) == []


def test_tool_and_call_id_find_the_call_and_its_results(home: Path, conn: sqlite3.Connection) -> None:
    listing = _indexed(conn, home)
    assert _found(conn, listing, home, Query(tool="read_file", agents=("cline",))) == [(CLINE, 1), (CLINE, 2)]
    assert _found(conn, listing, home, Query(call_id="toolu_01Edit1qA3sD5fG7hJ9kL1zX")) == [
        (CLAUDE, 2),
        (CLAUDE, 3),
    ]
    assert {p for p, _ in _found(conn, listing, home, Query(tool="run_shell_command"))} == {
        GEMINI,
        LLXPRT,
        LLXPRT_CHECKPOINT,
    }
    both = Query(tool="Edit", call_id="toolu_01Edit1qA3sD5fG7hJ9kL1zX", text="has been updated")
    assert _found(conn, listing, home, both) == [(CLAUDE, 3)]


def test_rule_finds_the_sessions_breaking_it(home: Path, conn: sqlite3.Connection) -> None:
    listing = list_indexed(conn, places(home))
    refresh(conn, str(home), pending(conn, listing))
    unjudged = search(conn, listing, Query(rule="oai.dup_tool_result"))
    assert (unjudged.hits, len(unjudged.no_verdict)) == ([], 10)
    _indexed(conn, home, ("",))
    assert _found(conn, listing, home, Query(rule="oai.dup_tool_result")) == [(LLXPRT, 3)]
    on_openai = Query(rule="oai.dup_tool_result", provider="openai-chat")
    assert search(conn, listing, on_openai).no_verdict != []
    _indexed(conn, home, ("openai-chat",))
    assert {p for p, _ in _found(conn, listing, home, on_openai)} >= {LLXPRT}


def test_a_source_id_is_kept_only_where_it_differs_and_found_either_way(
    home: Path, conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = index_extract.calls

    def renamed(session: Any) -> Any:  # Cline's calls as a source that wrote its own ids
        for call in real(session):
            yield replace(call, raw_id=f"src-{call.id}") if call.id == "toolu_01Rd" else call

    monkeypatch.setattr(index_update, "calls", renamed)
    listing = _indexed(conn, home)
    assert conn.execute("SELECT DISTINCT raw_id FROM calls WHERE raw_id IS NOT NULL").fetchall() == [
        ("src-toolu_01Rd",)
    ]
    assert conn.execute("SELECT count(*) FROM calls WHERE raw_id IS NULL").fetchone()[0] > 0
    by_id = _found(conn, listing, home, Query(call_id="toolu_01Rd"))
    assert by_id == _found(conn, listing, home, Query(call_id="src-toolu_01Rd")) == [(CLINE, 1), (CLINE, 2)]


def test_search_in_the_cli(home: Path, cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "--home", str(home), "--call-id", "toolu_01Edit1qA3sD5fG7hJ9kL1zX", "--json")
    assert (code, err) == (0, "")
    found = json.loads(out)
    assert [(h["path"], h["message"], h["speaker"]) for h in found["hits"]] == [
        (str(home / CLAUDE), 2, "ai"),
        (str(home / CLAUDE), 3, "tool"),
    ]
    assert (found["total"], found["searched"], found["not_indexed"], found["no_verdict"]) == (2, 10, [], [])
    assert sorted(u["path"] for u in found["unreadable"]) == sorted(
        [str(home / BROKEN), str(home / ".cline/data/tasks/1767956400000")]
    )
    code, out, err = cli(capsys, "--home", str(home), "--rule", "oai.dup_tool_result")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "1 hits in 1 sessions; 10 sessions searched, 2 unreadable"
    assert out.splitlines()[0].startswith(
        "2026-01-10 09:00  llxprt          #3  oai.dup_tool_result (error, openai-chat): "
    )
    code, out, err = cli(capsys, "--home", str(home), "--search", "x", "--no-index")
    assert (code, out) == (2, "")
    assert (
        err
        == "toolhist: error: --search, --tool, --call-id and --rule need the session index (not --no-index)\n"
    )


def test_ctrl_c_inside_a_sessions_write_leaves_it_as_it_was(
    home: Path, conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    listing = list_indexed(conn, places(home))
    work = pending(conn, listing)
    real = index_extract.calls
    seen: list[int] = []

    def interrupted(session: Any) -> Any:  # Ctrl-C after the third session's entries are written
        seen.append(1)
        if len(seen) == 3:
            raise KeyboardInterrupt
        return real(session)

    monkeypatch.setattr(index_update, "calls", interrupted)
    with pytest.raises(Stopped) as stop:
        refresh(conn, str(home), work)
    assert (stop.value.done, stop.value.total) == (2, len(work))
    held = sorted(loc for (loc,) in conn.execute("SELECT locator FROM sessions"))
    assert held == sorted(str(item.row.path) for item in work[:2])
    assert conn.execute(
        "SELECT count(*) FROM entries WHERE session NOT IN (SELECT id FROM sessions)"
    ).fetchone() == (0,)
    assert (
        conn.execute("SELECT count(*) FROM entries_fts").fetchone()
        == conn.execute("SELECT count(*) FROM entries").fetchone()
    )
    monkeypatch.setattr(index_update, "calls", real)
    assert refresh(conn, str(home), pending(conn, listing)) == len(work) - 2


def test_the_index_is_refused_inside_an_agents_folder(
    home: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inside = home / ".claude" / "projects" / "index.sqlite"
    code, out, err = cli(capsys, "--home", str(home), "--index", str(inside))
    assert (code, out) == (0, LISTING)
    assert err.startswith(f"toolhist: note: {inside}: inside {home / '.claude' / 'projects'}, where an agent")
    assert not inside.exists()


def test_a_foreign_sqlite_file_is_never_written_nor_deleted(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    foreign = tmp_path / "notes.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    db.close()
    before = foreign.read_bytes()
    code, out, err = cli(capsys, "--home", str(home), "--index", str(foreign))
    assert (code, out) == (0, LISTING)
    assert (
        err
        == f"toolhist: note: {foreign}: an SQLite file that is not a toolhist index; not touching it; listing without it\n"
    )
    assert cli(capsys, "--index", str(foreign), "--forget") == (
        2,
        "",
        f"toolhist: error: {foreign}: not a toolhist index; not deleting it\n",
    )
    assert foreign.read_bytes() == before


def test_forget_removes_the_index(home: Path, cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cli(capsys, "--home", str(home), "--search", "invoice")
    db = cache / "toolhist" / "index.sqlite"
    assert db.exists()
    code, out, err = cli(capsys, "--forget")
    assert (code, err) == (0, "")
    assert out.startswith(f"removed the session index {db} (")
    assert not db.exists()
    assert cli(capsys, "--forget") == (0, f"no session index at {db}\n", "")


def test_the_apps_listing_goes_through_the_index_and_goes_on_without_one(
    home: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    without = list_sessions(home)
    assert listed(places(home)) == without
    assert (cache / "toolhist" / "index.sqlite").exists()
    heads = counted(monkeypatch, index_listing, "read_header")
    assert listed(places(home)) == without
    assert heads == []
    foreign = cache / "notes.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    db.close()
    monkeypatch.setenv("TOOLHIST_INDEX", str(foreign))
    assert listed(places(home)) == without


TEXTS = st.text(alphabet="abAB %_\\\n", max_size=12)


@settings(max_examples=150, deadline=None)
@given(
    texts=st.lists(TEXTS, min_size=1, max_size=6), needle=TEXTS.filter(lambda t: t.strip() == t and t != "")
)
def test_text_search_is_a_case_insensitive_substring_test(texts: list[str], needle: str) -> None:
    """The trigram index answers LIKE exactly as Python's ``in`` on ASCII, ``%``, ``_`` and ``\\`` literal."""
    db = sqlite3.connect(":memory:")
    for statement in statements(SCHEMA):
        db.execute(statement)
    db.execute(
        "INSERT INTO sessions (id, locator, home, agent, state, code) VALUES (1, 'x', 'h', 'a', 's', 'c')"
    )
    db.executemany(
        "INSERT INTO entries (session, msg, kind, speaker, text) VALUES (1, ?, 'message', 'ai', ?)",
        list(enumerate(texts)),
    )
    found = [
        msg
        for (msg,) in db.execute(
            "SELECT e.msg FROM entries_fts f JOIN entries e ON e.id = f.rowid "
            "WHERE f.text LIKE ? ESCAPE '\\' ORDER BY e.msg",
            (like_pattern(needle),),
        )
    ]
    assert found == [m for m, text in enumerate(texts) if needle.lower() in text.lower()]
    db.close()
