"""What the app opens by path is read by reference, whatever it is: no upload bound, no copy held.

A session file was already (`test_app_big_path`); these are the other inputs a path names, which the
app used to hold as bytes under the upload's 50 MB bound (issue 26): an agent's SQLite store and a
session of it (``STORE#SESSION_ID``), a session of a log of many (an Inspect AI log's
``LOG#SAMPLE``), and a folder an agent keeps one session in (an OpenHands conversation). Each opens
from a ``?path=`` link, in a working folder of its own (inside the allowed folders), with the bound
lowered to 1 MB and the file grown past it where its format allows (a store's padding table, a JSON
log's trailing whitespace). Home shows what `toolhist.check` gives the same path; the input the app
keeps holds none of the bytes and names the file by its stamp, which follows a store's write-ahead
log and a folder's files.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from app_links import held, linked, verdicts_of
from fake_home_stores import OPENCODE_DB, make_store_home
from streamlit.testing.v1 import AppTest

from toolhist.check import check
from toolhist.views import state
from toolhist.views.inputs import Input, Stamp
from toolhist.views.summary import verdict_rows

ROOT = Path(__file__).parent.parent.parent
LOGS = ROOT / "tests" / "corpus" / "logs"
BOUND_MB = 1
OLDER = "ses_4a2f0c31bffeQ1xVw9Kc2mZtRd"


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder of its own, no agent folders of the machine's own, the bound lowered."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TOOLHIST_OPEN", raising=False)
    monkeypatch.setenv("TOOLHIST_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(state, "MAX_UPLOAD_MB", BOUND_MB)
    return tmp_path


def opened_as_check(at: AppTest, path: str) -> None:
    assert not at.exception
    assert [e.value for e in at.error] == []
    expected = check(path)
    assert verdicts_of(at) == verdict_rows(expected)
    assert at.metric[0].value == str(expected.messages)


def test_a_store_session_over_the_bound_opens_by_reference(work: Path) -> None:
    home = make_store_home(work / "home")
    db = home / OPENCODE_DB
    with sqlite3.connect(db) as conn:  # grown past the bound, committed into its write-ahead log
        conn.execute("CREATE TABLE padding (b BLOB)")
        conn.execute("INSERT INTO padding VALUES (zeroblob(?))", (2 * BOUND_MB * 1024 * 1024,))
    stamp = Stamp.of(db)
    assert stamp.size > BOUND_MB * 1024 * 1024
    assert stamp.files == 2  # the store and its -wal, where the padding is until a checkpoint
    locator = f"{db}#{OLDER}"
    at = linked(locator)
    opened_as_check(at, locator)
    assert next(t.value for t in at.text) == f"Session: {locator}"
    kept = held(at)
    assert kept.data is None  # no snapshot of the store is held
    assert (kept.file, kept.session, kept.name, kept.path) == (stamp, OLDER, locator, locator)


def test_a_store_opened_without_a_session_is_its_newest_by_reference(work: Path) -> None:
    db = make_store_home(work / "home") / OPENCODE_DB
    at = linked(str(db))
    opened_as_check(at, str(db))
    kept = held(at)
    assert (kept.data, kept.session, kept.file) == (None, None, Stamp.of(db))


def test_a_commit_to_the_write_ahead_log_changes_the_stamp(work: Path) -> None:
    """A store is read with its WAL pages: a commit that only reached the -wal is a new stamp, read again."""
    db = make_store_home(work / "home") / OPENCODE_DB
    before = Stamp.of(db)
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE later (x)")
    after = Stamp.of(db)
    assert after != before
    one = Input(name=str(db), data=None, fmt=None, file=before)
    assert one.restamped().digest != one.digest


def test_a_sample_of_a_log_of_many_over_the_bound_opens_by_reference(work: Path) -> None:
    log = work / "log.json"
    log.write_bytes((LOGS / "inspect-ai" / "inspect-mockllm-tools.json").read_bytes() + b" " * (2 << 20))
    assert log.stat().st_size > BOUND_MB * 1024 * 1024
    locator = f"{log}#2_epoch_1"
    at = linked(locator)
    opened_as_check(at, locator)
    assert next(t.value for t in at.text) == f"Session: {locator}"
    kept = held(at)
    assert (kept.data, kept.session, kept.file) == (None, "2_epoch_1", Stamp.of(log))


def test_an_openhands_folder_opens_by_reference_and_a_new_event_is_read(work: Path) -> None:
    folder = work / "conversation"
    shutil.copytree(LOGS / "openhands" / "sdk-v1-49-1-mcp.fixture", folder)
    at = linked(str(folder))
    opened_as_check(at, str(folder))
    kept = held(at)
    assert kept.data is None
    assert kept.file == Stamp.of(folder)
    events = sorted((folder / "events").iterdir())
    assert kept.file is not None
    assert kept.file.files == len(events) + 1  # the events and base_state.json
    # the agent writes the next event: the stamp moves, and the folder is read again
    last = json.loads(events[-1].read_text())
    (folder / "events" / "event-99999-next.json").write_text(json.dumps({**last, "id": "next"}))
    at.run()
    assert not at.exception
    assert held(at).file == Stamp.of(folder) != kept.file
    assert held(at).digest != kept.digest


def test_a_folder_that_holds_no_session_is_refused_in_one_line(work: Path) -> None:
    folder = work / "not-a-conversation"
    folder.mkdir()
    (folder / "notes.txt").write_text("x")
    with pytest.raises(ValueError, match="a folder, not a session file"):
        state.path_input(str(folder))
