"""Agents' SQLite stores (`toolhist.agents.stores`): the locator, read-only reading beside a live writer,
bytes of a store, and one-line errors naming the store, the session, the row and the field."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolhist
from toolhist.agents import stores
from toolhist.agents.opencode.sessions import READER as OPENCODE_READER
from toolhist.cli import main
from toolhist.errors import LoadError

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "logs"
OPENCODE = CORPUS / "opencode" / "opencode-message-v2-shapes.fixture.db"
NEWEST = "ses_4a2e9b07dffeC3pHk5Vn8Rx1Lz"
OLDER = "ses_4a2f0c31bffeQ1xVw9Kc2mZtRd"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """The OpenCode corpus store copied and switched to WAL, as OpenCode runs it."""
    path = tmp_path / "opencode.db"
    shutil.copyfile(OPENCODE, path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode = WAL").fetchone() == ("wal",)
    conn.close()
    return path


_name = st.text(st.characters(codec="ascii", categories=["L", "N"]), min_size=1, max_size=10)


@given(stem=_name, session=_name)
def test_a_locator_is_split_only_when_its_path_is_a_file(stem: str, session: str) -> None:
    root = Path(__import__("tempfile").mkdtemp())
    try:
        store = root / f"{stem}.db"
        store.write_bytes(b"x")
        assert stores.parse_locator(f"{store}#{session}") == stores.Locator(str(store), session)
        assert str(stores.parse_locator(f"{store}#{session}")) == f"{store}#{session}"
        # a file whose own name holds '#' opens as itself
        hashed = root / f"{stem}#{session}.db"
        hashed.write_bytes(b"x")
        assert stores.parse_locator(str(hashed)) == stores.Locator(str(hashed))
        # the last '#' separates the session; PATH may hold '#' itself
        assert stores.parse_locator(f"{hashed}#{session}") == stores.Locator(str(hashed), session)
        # nothing is split when the part before '#' is not a file, or nothing follows it
        assert stores.parse_locator(f"{root}/none{stem}.db#{session}").session is None
        assert stores.parse_locator(f"{store}#") == stores.Locator(f"{store}#")
    finally:
        shutil.rmtree(root)


def test_without_a_locator_the_newest_session_is_read_with_a_note(store: Path) -> None:
    session = toolhist.load(store)
    assert session.metadata["store_session"] == NEWEST
    assert session.source.notes[0] == (
        f"this store holds 2 sessions; read the most recently updated, {NEWEST}. "
        f"Pick another as {store}#SESSION_ID (`toolhist sessions` lists them with their ids)"
    )
    older = toolhist.load(f"{store}#{OLDER}")
    assert older.metadata["store_session"] == OLDER
    assert not any("holds 2 sessions" in n for n in older.source.notes)
    assert [m.speaker for m in older.messages] == ["human", "ai", "tool", "ai"]


def test_a_live_writer_keeps_writing_and_the_reader_reads_the_last_commit(store: Path) -> None:
    writer = sqlite3.connect(store, isolation_level=None, timeout=0)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute(
        "INSERT INTO message VALUES ('msg_zzzz', ?, 1767963700000, 1767963700000, ?)",
        (OLDER, json.dumps({"role": "user", "time": {"created": 1767963700000}, "agent": "build"})),
    )
    writer.execute(
        "INSERT INTO part VALUES ('prt_zzzz', 'msg_zzzz', ?, 1767963700000, 1767963700000, ?)",
        (OLDER, json.dumps({"type": "text", "text": "and the tests?"})),
    )
    # the write is not committed: the reader sees the committed session, and does not wait
    before = toolhist.load(f"{store}#{OLDER}")
    assert len(before.messages) == 4
    # the reader held no lock: the writer commits at once (timeout=0: a lock would raise)
    writer.execute("COMMIT")
    after = toolhist.load(f"{store}#{OLDER}")
    assert [m.speaker for m in after.messages][-1] == "human"
    assert after.messages[-1].blocks[0].text == "and the tests?"  # type: ignore[union-attr]
    # and the writer can write again while a listing reads
    writer.execute("BEGIN IMMEDIATE")
    assert [s.id for s in stores.list_path(OPENCODE_READER, store)] == [NEWEST, OLDER]
    writer.execute("UPDATE session SET title = 't' WHERE id = ?", (OLDER,))
    writer.execute("COMMIT")
    writer.close()


def test_a_store_given_as_bytes_reads_the_session_asked_for(store: Path) -> None:
    data = stores.snapshot(str(store))
    assert data[18:20] == b"\x02\x02"  # a WAL image: deserialize marks it rollback first
    session = toolhist.load(data, name="upload.db", session=OLDER)
    assert session.metadata["store_session"] == OLDER
    assert session == toolhist.load(f"{store}#{OLDER}").model_copy(
        update={"source": session.source, "metadata": session.metadata}
    )
    newest = toolhist.load(data, name="upload.db")
    assert newest.metadata["store_session"] == NEWEST
    assert "Pick another as upload.db#SESSION_ID" in newest.source.notes[0]


def test_a_malformed_field_is_one_line_naming_store_session_row_and_field(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conn = sqlite3.connect(store)
    conn.execute('UPDATE part SET data = \'{"type": "tool", "callID": 7}\' WHERE id = \'prt_b5d0f3d0a005\'')
    conn.commit()
    conn.close()
    with pytest.raises(LoadError) as caught:
        toolhist.load(f"{store}#{OLDER}")
    assert str(caught.value) == (
        f"{store}#{OLDER}: at part[prt_b5d0f3d0a005].data.callID: not a valid opencode session: "
        "expected a string, got number"
    )
    assert main(["summary", f"{store}#{OLDER}"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"toolhist: error: {caught.value}\n"


def test_what_is_not_an_agents_store_says_so(tmp_path: Path) -> None:
    other = tmp_path / "notes.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (id TEXT)")
    conn.close()
    with pytest.raises(
        LoadError, match=r"not one of the agents' stores toolhist reads \(opencode, crush, goose, zed"
    ):
        toolhist.load(other)
    with pytest.raises(LoadError, match="no session 'nope' in this opencode store"):
        toolhist.load(f"{OPENCODE}#nope")
    with pytest.raises(LoadError, match="the codex format is not read from one"):
        toolhist.load(OPENCODE, format="codex")
    body = tmp_path / "body.json"
    body.write_text('{"model": "gpt-5", "messages": [{"role": "system", "content": "be brief"}]}')
    # a JSON log may hold many sessions (Inspect AI's): the reader of what the file is says it holds one
    with pytest.raises(LoadError, match="#s1 names one session of a log that holds many; a openai-chat file"):
        toolhist.load(f"{body}#s1")
    assert not stores.is_store(str(body))
    broken = tmp_path / "broken.db"
    broken.write_bytes(stores.SQLITE_MAGIC + b"\x00" * 10)
    with pytest.raises(LoadError):
        toolhist.load(broken)


def test_reading_the_corpus_store_leaves_nothing_beside_it(tmp_path: Path) -> None:
    """A rollback-journal store read read-only gets no -wal/-shm (the corpus stays as committed)."""
    copy = tmp_path / "store.db"
    shutil.copyfile(OPENCODE, copy)
    toolhist.load(copy)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store.db"]


def test_a_fifo_is_refused_without_being_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.db"
    __import__("os").mkfifo(fifo)
    assert not stores.is_store(str(fifo))
    with pytest.raises(LoadError, match="is a FIFO"):
        toolhist.load(fifo)
    # a locator is split only at a regular file: PATH#ID of a FIFO names no such file
    with pytest.raises(LoadError, match="no such file"):
        toolhist.load(f"{fifo}#s1")
