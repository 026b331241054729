"""The "Redact secrets" switch on a file opened by path: redacted into a private copy read by reference.

The copy holds exactly the bytes the app held before (the whole text redacted), the session read from
it is the one read from those bytes, neither is held in memory, and the copy goes with its session.
"""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from app_links import linked
from streamlit.testing.v1 import AppTest

import toolhist.redact_file
from toolhist.errors import ToolhistError
from toolhist.formats.document import Document
from toolhist.model import Session
from toolhist.readers import load_document
from toolhist.redact import redact_text
from toolhist.views import copies, state
from toolhist.views.inputs import Input, by_reference
from toolhist.views.kept import SESSIONS_KEPT, keep_recent

ROOT = Path(__file__).parent.parent.parent
LOG = ROOT / "tests" / "corpus" / "logs" / "claude-code" / "kvsankar-real-session-01.jsonl"
ARCHIVE = ROOT / "tests" / "corpus" / "logs" / "inspect-ai" / "inspect-mockllm-tools.eval"
PAGES = ROOT / "app_pages"
SECRET = "sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4"


@pytest.fixture
def leaky(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A Claude Code log whose first user message holds a key, read in pieces of 256 bytes."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TOOLHIST_OPEN", raising=False)
    monkeypatch.setenv("TOOLHIST_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(toolhist.redact_file, "CHUNK", 256)
    lines = LOG.read_text(encoding="utf-8").splitlines(keepends=True)
    for i, line in enumerate(lines):
        entry = json.loads(line)
        if entry.get("type") == "user" and isinstance(entry["message"]["content"], str):
            entry["message"]["content"] = f"My key is {SECRET}. " + entry["message"]["content"]
            lines[i] = json.dumps(entry) + "\n"
            break
    else:
        raise AssertionError("no user message with text in the log")
    path = tmp_path / "leaky.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    assert path.stat().st_size > 4 * 256
    yield path
    state._redacted.clear()


def redacted(path: Path) -> Input:
    given = by_reference(path, str(path), None)
    return state._redacted(given.digest, given)


def loaded(source: Input) -> tuple[Document, Session]:
    return state._load(source.digest, source.fmt, source.name, source.source(), source.session, False)


def test_the_copy_is_the_whole_text_redacted_and_reads_as_it(leaky: Path) -> None:
    made = redacted(leaky)
    assert made.data is None  # read by reference: no bytes held
    assert made.file is not None
    assert made.redacted == "bytes"
    copy = made.file.path
    assert copy.parent != leaky.parent
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert stat.S_IMODE(copy.parent.stat().st_mode) == 0o700
    whole = redact_text(leaky.read_text(encoding="utf-8"))[0].encode("utf-8")
    assert copy.read_bytes() == whole
    assert SECRET.encode() not in whole
    document, session = loaded(made)
    before_document, before_session = load_document(whole, None, name=str(leaky))
    assert (document.name, document.path) == (str(leaky), None)
    assert (before_document.name, before_document.path) == (str(leaky), None)
    assert session == before_session


def test_the_copy_goes_when_its_session_leaves_the_recent_ones(leaky: Path) -> None:
    made = redacted(leaky)
    assert made.file is not None
    copy = made.file.path
    assert redacted(leaky) == made  # cached: redacted once
    keep_recent(f"{made.digest}:")
    for other in range(SESSIONS_KEPT):
        assert copy.exists()
        keep_recent(f"another session {other}")
    assert not copy.exists()
    again = redacted(leaky)  # its cache entry went too: opened again, it is redacted again
    assert again.file is not None
    assert again.file.path != copy
    assert again.file.path.exists()


def test_a_file_that_is_not_text_stays_by_reference_and_its_session_is_redacted(leaky: Path) -> None:
    made = redacted(ARCHIVE)
    assert (made.data, made.redacted, made.file is not None) == (None, "session", True)
    assert made.file is not None
    assert made.file.path == ARCHIVE
    assert not [p for p in copies._private_folder().iterdir() if p.suffix == ARCHIVE.suffix]


def test_the_app_shows_the_log_redacted(leaky: Path) -> None:
    shown = {}
    for redact in (False, True):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.query_params["path"] = str(leaky)
        if redact:
            at.query_params["redact"] = "1"
        at.run()
        at.switch_page(str(PAGES / "0_Conversation.py")).run()
        assert not at.exception
        assert at.toggle(key="toolhist.redact.widget").value is redact
        shown[redact] = " ".join(h.proto.body for h in at.get("html"))
    assert f"My key is {SECRET}" in shown[False]
    assert SECRET not in shown[True]
    assert "My key is [REDACTED:openai-key]" in shown[True]
    assert linked(leaky).session_state["toolhist.input"].data is None


@pytest.mark.parametrize(
    "text",
    [
        '{"what": "not a session"}\n',
        '{"type": "user", "message": {"role": "user", "content": "hi"}, "uuid": "a"}\n{"type": "user", broken\n',
    ],
)
def test_an_error_names_the_file_opened_as_before(leaky: Path, text: str) -> None:
    leaky.write_text(text, encoding="utf-8")
    made = redacted(leaky)
    with pytest.raises(ToolhistError) as before:
        load_document(leaky.read_bytes(), None, name=str(leaky))
    with pytest.raises(ToolhistError) as now:
        loaded(made)
    assert str(now.value) == str(before.value)
    assert str(leaky) in str(now.value)
